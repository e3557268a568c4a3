"""Real browsers against a real server: one browser context per phone.

The simulated ``User`` cannot show the NiceGUI trap where one player's tap re-renders another player's
page with the tapper's identity (``app.storage.user`` follows the event); here every phone is its own
browser with its own cookies, and each must keep showing its own role, and no other, after the others'
taps re-rendered it.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

playwright_api = pytest.importorskip("playwright.sync_api")

from e2e.harness import CHROMIUM  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROLE_NAMES = ("Doctor", "Commissar Cattani")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("data")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    env.update(PORT=str(port), HOST="127.0.0.1", MAFIA_DATA_DIR=str(data), STORAGE_SECRET="e2e secret",
               NICEGUI_STORAGE_PATH=str(data / "nicegui"))
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "webgame"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a loaded machine (two test workers, a browser each) starts slowly
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=1) as response:
                    if response.read() == b"ok":
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-sync", "--disable-background-networking",
                  "--disable-component-update"])
        yield launched
        launched.close()


def show_role(page) -> str:  # noqa: ANN001
    """Tap Show and read the role card (the screen is covered until its owner reveals it)."""
    page.evaluate("() => { window.mafiaRevealMs = 60000; window.mafiaCoverAfterMs = 60000; }")  # held open to read
    for _ in range(20):
        button = page.locator('[data-testid="reveal"]')
        if button.count():
            button.click()
        try:
            page.locator('[data-testid="my-role"]').wait_for(timeout=1000)
            return str(page.locator('[data-testid="my-role"]').inner_text())
        except playwright_api.TimeoutError:
            continue
    raise AssertionError("the role card did not open")


def rendered(page) -> str:  # noqa: ANN001
    """The live page as the browser holds it now (without the first load's script, which was the lobby's)."""
    return str(page.evaluate(
        "() => { const body = document.body.cloneNode(true);"
        " body.querySelectorAll('script').forEach(s => s.remove()); return body.innerHTML; }"))


def test_every_phone_keeps_its_own_identity_through_the_others_taps(server: str, browser) -> None:  # noqa: ANN001
    phones = [browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="en-US").new_page() for _ in range(5)]
    host = phones[0]
    host.goto(server + "/")
    host.get_by_label("Your name").fill("Host")
    host.get_by_role("button", name="Create the room").click()
    host.wait_for_url(re.compile(r".*/r/[A-Z0-9]{5}$"))
    code = host.url.rsplit("/", 1)[-1]
    for number, phone in enumerate(phones[1:], 2):
        phone.goto(f"{server}/r/{code}")
        phone.get_by_label("Your name").fill(f"Phone {number}")
        phone.get_by_role("button", name="Join").click()
        phone.get_by_text("you", exact=True).wait_for()
    host.get_by_role("button", name="Start the game").click()

    roles = [show_role(phone) for phone in phones]
    assert sorted(roles).count("Doctor") == 1 and "Commissar Cattani" in roles

    # Each tap re-renders every phone; each must still be itself and know nothing more.
    for phone in phones[1:]:
        phone.locator('[data-testid="pass"]').click()  # revealed: Skip is behind the reveal
        time.sleep(0.3)
    for phone, role in zip(phones, roles, strict=True):
        phone.get_by_text(role, exact=True).first.wait_for()
        html = rendered(phone)
        for other in ROLE_NAMES:
            if other != role:
                assert other not in html, (role, other)

    # A reload (a phone waking up) comes back to the same seat.
    phones[2].reload()
    assert show_role(phones[2]) == roles[2]

"""Two phones play into the night over HTTPS, as ``DOMAIN=... docker compose -f compose.single.yaml up`` serves
them: the game image's command behind Debian's Caddy with the shipped Caddyfile (``tests/cluster/containers.py``),
its certificate for ``mafia.test`` from Caddy's local CA instead of Let's Encrypt. The browser resolves
mafia.test to 127.0.0.1 and trusts that CA (its own NSS database, as a phone trusts Let's Encrypt): no
certificate error is ignored. What needs a secure context works: the page is one, the screen's wake lock is
taken during the game, the share button copies the https link with the clipboard API (Chromium on Linux has no
share sheet: ``navigator.share`` is undefined there, on any origin, and the page falls back to the clipboard, as
on a desktop); the session cookie is ``Secure``; the page came over HTTP/2."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.harness import CHROMIUM, LAUNCH_ARGS, Phone, Table
from tests.cluster import containers

pytestmark = pytest.mark.e2e

DOMAIN = "mafia.test"
# Every wake lock the page takes, kept where the test can look (phone.js keeps its own in a closure).
RECORD_WAKE_LOCKS = """
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  window.mafiaTestLocks = [];
  navigator.wakeLock.request = async (type) => {
    const sentinel = await request(type);
    window.mafiaTestLocks.push(sentinel);
    return sentinel;
  };
}
"""


@pytest.fixture(scope="module")
def https_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The single process and its TLS front, started as compose.single.yaml starts them with DOMAIN=mafia.test;
    the site's base URL and the local CA's root certificate."""
    containers.require(containers.CADDY, "caddy (Debian's package: the TLS front)")
    folder = tmp_path_factory.mktemp("https")
    app = containers.image_app(folder / "app")
    running: list[containers.Container] = []
    try:
        _, https_port, front = containers.start_single(app, folder, {"DOMAIN": DOMAIN}, running)
        containers.tls_ready(front, DOMAIN, https_port)
        yield f"https://{DOMAIN}:{https_port}", containers.caddy_root(front)
    finally:
        for container in reversed(running):
            container.stop()


@pytest.fixture(scope="module")
def trusting_browser(https_base: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Chromium with the local CA in its trust store (an NSS database in its own HOME) and mafia.test on
    loopback."""
    # The full browser, as on a phone: Chromium's headless shell has no wake lock at all (always refused).
    chromium = shutil.which("chromium") or CHROMIUM
    if chromium is None:
        pytest.skip("no chromium on this machine")
    certutil = containers.require("certutil", "certutil (Debian's libnss3-tools: the browser trusts the test CA)")
    home = tmp_path_factory.mktemp("home")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True, capture_output=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "mafia test CA", "-i",
                    str(https_base[1])], check=True, capture_output=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
            args=[*LAUNCH_ARGS, f"--host-resolver-rules=MAP {DOMAIN} 127.0.0.1"])
        yield browser
        browser.close()
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def secure_phones(trusting_browser: Browser, https_base: tuple[str, Path]) -> Iterator[Callable[[str], Phone]]:
    opened: list[Phone] = []

    def open_phone(name: str) -> Phone:
        phone = Phone(trusting_browser, name, "en")
        phone.context.add_init_script(RECORD_WAKE_LOCKS)
        phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=https_base[0])
        # A phone's Chrome lets a visible page keep the screen on without asking; a desktop profile must be
        # told (after Playwright's grant, which replaces every permission of the context).
        cdp = phone.context.new_cdp_session(phone.page)
        context_id = cdp.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        cdp.send("Browser.setPermission", {"permission": {"name": "screen-wake-lock"}, "setting": "granted",
                                           "origin": https_base[0], "browserContextId": context_id})
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.close()


def test_two_phones_play_into_the_night_over_https(https_base: tuple[str, Path],
                                                   secure_phones: Callable[[str], Phone]) -> None:
    base = https_base[0]
    table = Table(base, "uz")
    host, guest = secure_phones("Aziz"), secure_phones("Dilnoza")
    errors: list[str] = []
    for phone in (host, guest):
        phone.page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    table.open_room(host)

    # The link the host shares is the https one (the game heard plain http from Caddy), copied by the clipboard API.
    link = f"{base}/r/{table.code}"
    expect(host.page.get_by_text(link, exact=True).first).to_be_visible()
    host.tid("share").click()
    expect(host.page.get_by_text("Link copied").first).to_be_visible()
    assert host.page.evaluate("navigator.clipboard.readText()") == link

    table.join(guest)
    bots = host.page.get_by_text(re.compile(r"^\d+\. .+ \(bot\)$"))
    for count in (1, 2):
        host.tap("add-bot", bots.nth(count - 1))
    table.start("night")

    for phone in (host, guest):
        page = phone.page
        assert page.evaluate("window.isSecureContext") is True
        assert page.evaluate("location.protocol") == "https:"
        assert page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        assert page.evaluate("typeof navigator.clipboard.writeText") == "function"
        assert page.evaluate("'DeviceOrientationEvent' in window")  # the covered screen's "lying flat"
        # The game keeps the screen on: phone.js took a wake lock, and holds it.
        page.wait_for_function("() => (window.mafiaTestLocks || []).some((lock) => !lock.released)")
        cookies = [cookie for cookie in phone.context.cookies(base) if cookie["httpOnly"]]
        assert cookies and all(cookie["secure"] for cookie in cookies), cookies
        assert all(cookie["domain"] == DOMAIN for cookie in cookies)
    assert errors == []

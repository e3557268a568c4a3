"""A new phone opening a room's link on a slow network, in a real browser: ``python -m bench.first_text [URL]``.

Debian's Chromium (``shutil.which('chromium')``, as ``e2e/`` does), a 360x640 touch phone with an empty cache,
and Chrome DevTools' "Fast 3G" profile through CDP (``Network.emulateNetworkConditions``: 562.5 ms of latency,
1.44 Mbit/s down, 675 kbit/s up). Without a URL it starts the game itself (``e2e.harness.Server``, a temp data
folder). A host (unthrottled) makes a room; then, ``--runs`` times, a new phone opens ``/r/CODE`` and the bench
reads:

- ``first_paint_ms``: the browser's first contentful paint (anything drawn: text or the QR code);
- ``first_text_ms``: when the first words show: the HTML's own "Mafia / Loading the game..." (it is in the
  DOM when the HTML is parsed, on screen at the first paint once the stylesheets are in);
- ``drawn_ms``: when the page itself is drawn (its first part's text, drawn by the scripts once they are all
  loaded): the join form a player waits for;
- ``transferred_kb``, ``requests``: everything that came over the network (response headers included) until
  the page is drawn and its socket connected; ``repeat_kb``: the same phone opening the link again (cached).

The target (docs/PERFORMANCE.md): the first text under 2.5 s on Fast 3G, at most 300 KB the first time, at
most 20 KB the next. ``--no-throttle`` measures without the profile.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Error as PlaywrightError, Page, sync_playwright

FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.6e6 / 8 * 0.9,
           "uploadThroughput": 750e3 / 8 * 0.9}
PHONE = {"width": 360, "height": 640}
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
# When the page's own text (the first part's room code) shows, measured from the navigation's start.
WATCH_TEXT = """
(() => {
  const seen = () => {
    const now = performance.now();
    const prelude = document.querySelector(".mafia-prelude");
    const page = document.querySelector(".mafia-page");
    if (window.mafiaFirstText === undefined && (prelude || page) && (prelude || page).innerText.trim()) {
      window.mafiaFirstText = now;
    }
    if (window.mafiaDrawn === undefined && page && page.innerText.trim()) window.mafiaDrawn = now;
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""


def new_room(browser: Browser, base: str) -> str:
    page = browser.new_context().new_page()
    page.goto(base + "/")
    page.wait_for_function("() => window.did_handshake === true")
    page.locator('input[data-testid="create-name"]').fill("Host")
    page.locator('[data-testid="create"]').click()
    page.wait_for_url("**/r/*")
    path = page.url[len(base):]
    page.context.close()
    return path


class Traffic:
    """Bytes and requests of one page, from CDP's network events (encoded bytes: as sent, headers included)."""

    def __init__(self, page: Page, throttle: bool) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        if throttle:
            self.cdp.send("Network.emulateNetworkConditions", FAST_3G)
        self.bytes: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        self.cdp.on("Network.requestWillBeSent", lambda event: self.urls.setdefault(event["requestId"],
                                                                                    event["request"]["url"]))
        self.cdp.on("Network.loadingFinished",
                    lambda event: self.bytes.__setitem__(event["requestId"], int(event["encodedDataLength"])))

    def reset(self) -> None:
        self.bytes.clear()
        self.urls.clear()

    def total(self) -> int:
        return sum(self.bytes.values())

    def largest(self) -> list[tuple[int, str]]:
        return sorted(((size // 1024, self.urls.get(key, "?").split("?")[0].rsplit("/", 1)[-1])
                       for key, size in self.bytes.items()), reverse=True)[:6]


def settle(page: Page) -> None:
    """Until the page is drawn, connected and its pictures are in (then up to 15 s more for the network to go
    quiet: a busy machine may keep it busy longer)."""
    page.wait_for_function("() => window.did_handshake === true && window.mafiaDrawn !== undefined",
                           timeout=60_000)
    page.wait_for_function("() => [...document.images].every((image) => image.complete)", timeout=60_000)
    with contextlib.suppress(PlaywrightError):
        page.wait_for_load_state("networkidle", timeout=15_000)


def one_phone(browser: Browser, url: str, throttle: bool) -> dict[str, Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
    context.add_init_script(WATCH_TEXT)
    page = context.new_page()
    traffic = Traffic(page, throttle)
    page.goto(url, wait_until="commit")
    settle(page)
    timing = page.evaluate("""() => ({
        text: window.mafiaFirstText,
        drawn: window.mafiaDrawn,
        paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
    })""")
    # The words are on screen at the first paint after they are in the page (the stylesheets hold the paint).
    shown = max(timing["text"], timing["paint"] or 0)
    first = {"first_text_ms": round(shown), "first_paint_ms": round(timing["paint"] or -1),
             "drawn_ms": round(timing["drawn"]),
             "transferred_kb": round(traffic.total() / 1024, 1), "requests": len(traffic.bytes),
             "largest": traffic.largest()}
    traffic.reset()
    page.goto("about:blank")
    page.goto(url, wait_until="commit")
    settle(page)
    first["repeat_kb"] = round(traffic.total() / 1024, 1)
    first["repeat_requests"] = len(traffic.bytes)
    context.close()
    return first


def measure(base: str, runs: int = 3, throttle: bool = True) -> dict[str, Any]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=LAUNCH_ARGS)
        try:
            path = new_room(browser, base)
            samples = [one_phone(browser, base + path, throttle) for _ in range(runs)]
        finally:
            browser.close()
    return {
        "profile": "Fast 3G" if throttle else "none",
        "runs": runs,
        "first_text_ms": statistics.median(s["first_text_ms"] for s in samples),
        "first_paint_ms": statistics.median(s["first_paint_ms"] for s in samples),
        "drawn_ms": statistics.median(s["drawn_ms"] for s in samples),
        "transferred_kb": statistics.median(s["transferred_kb"] for s in samples),
        "requests": samples[0]["requests"],
        "repeat_kb": statistics.median(s["repeat_kb"] for s in samples),
        "largest": samples[0]["largest"],
        "samples": samples,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_text", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", default=None, help="a running game; default: start one")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-throttle", dest="throttle", action="store_false")
    args = parser.parse_args(argv)
    if args.url:
        result = measure(args.url.rstrip("/"), args.runs, args.throttle)
    else:
        from e2e.harness import Server

        server = Server(Path(tempfile.mkdtemp(prefix="mafia-first-text-"))).start()
        try:
            time.sleep(1)  # the server's start-up work (restoring rooms) out of the first measurement
            result = measure(server.base, args.runs, args.throttle)
        finally:
            server.stop()
    print(json.dumps({key: value for key, value in result.items() if key != "samples"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Draw the installed app's PNG icons (``webgame/static/app-icon-192.png``, ``-512.png``) from ``app-icon.svg``.

Phones want PNG icons in the web app manifest (an SVG alone is not enough for Android's home screen); Debian's
Chromium draws them, through Playwright (a dev dependency already). The PNGs are committed:
``python scripts/app_icons.py`` after changing the SVG.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "webgame" / "static"
SIZES = (192, 512)


def main() -> None:
    svg = (STATIC / "app-icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(f'<html><body style="margin:0"><div style="width:{size}px;height:{size}px">'
                             f'{svg.replace("<svg ", f"<svg width={size!r} height={size!r} ", 1)}</div></body></html>')
            page.screenshot(path=str(STATIC / f"app-icon-{size}.png"), clip={"x": 0, "y": 0, "width": size,
                                                                              "height": size})
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

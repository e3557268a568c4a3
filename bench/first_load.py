"""A phone's first page load, counted like a browser with an empty cache: ``python -m bench.first_load URL``.

The page a new player opens from the QR code (``/r/CODE``, the join form) and everything it pulls in:
stylesheets and their ``@import``s, scripts, module preloads and the modules the page imports, the web app
manifest (Chrome fetches it with the page), the favicon, the room's QR code (an image of its own, for the
browser that opened the room: the page's cookie goes with it), and the fonts its stylesheets name, if any.
Bytes are counted as sent, with ``Accept-Encoding: gzip`` (body only; a browser also counts response headers:
``bench/first_text.py`` measures in a real one, on a slow network).

``repeat_kb`` is the same phone opening the link again: what a browser asks again, the page itself (never
cached) and any file without a ``max-age`` (revalidated with its ETag: a 304); everything else comes out of its
cache.
"""

from __future__ import annotations

import gzip
import http.cookiejar
import re
import sys
import urllib.error
import urllib.request
from typing import Any

_REFS = [
    re.compile(r'<script[^>]+src="([^"]+)"'),
    re.compile(r'<link(?![^>]*apple-touch-icon)[^>]+href="(/[^"]+)"'),  # iOS asks for its icon when installing only
    re.compile(r'@import url\("([^"]+)"\)'),
    re.compile(r'import [^;]*? from "(/[^"]+)"'),
    re.compile(r'(/qr/[0-9A-Z]{4,12})\b'),  # the room's QR code: an image node of the first screen part
]
_IMPORTMAP = re.compile(r'"(\w+)":\s*"(/_nicegui/[^"]+)"')
_BARE_IMPORT = re.compile(r'import [^;(]*? from "(\w+)"')  # static imports only: import("x") loads on demand
_FONT_BLOCK = re.compile(r"@font-face\s*\{(.*?)\}", re.S)


class Browser:
    """One phone's cookie jar (the page's session cookie goes with its QR code's request)."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def fetch(self, url: str, etag: str | None = None) -> tuple[bytes, int, dict[str, str]]:
        """(decoded body, bytes on the wire, headers by lower-case name); a 304 is an empty body."""
        headers = {"Accept-Encoding": "gzip", "Accept-Language": "en"}
        if etag:
            headers["If-None-Match"] = etag
        request = urllib.request.Request(url, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                raw, found = response.read(), {key.lower(): value for key, value in response.headers.items()}
        except urllib.error.HTTPError as error:
            if error.code != 304:
                raise
            return b"", 0, {key.lower(): value for key, value in error.headers.items()}
        if found.get("content-encoding") == "gzip":
            return gzip.decompress(raw), len(raw), found
        return raw, len(raw), found


def fetch(url: str) -> tuple[bytes, int]:
    """(decoded body, bytes on the wire), without cookies."""
    body, wire, _headers = Browser().fetch(url)
    return body, wire


def _fonts(base: str, css_url: str, css: str) -> list[str]:
    folder = css_url.rsplit("/", 1)[0]
    wanted = []
    for block in _FONT_BLOCK.findall(css):
        family = re.search(r'font-family:\s*"([^"]+)"', block)
        source = re.search(r"url\(([^)]+)\)", block)
        ranges = re.search(r"unicode-range:\s*([^;]+);", block)
        if family is None or source is None:
            continue
        latin = ranges is not None and "U+0000-00FF" in ranges.group(1)
        if family.group(1) == "Material Icons" or (family.group(1) == "Roboto" and latin):
            wanted.append(f"{folder}/{source.group(1)}")
    return sorted(set(wanted))


def measure(base: str, path: str | None = None) -> dict[str, Any]:
    if path is None:
        path = _new_room(base)
    browser = Browser()
    html, wire, _headers = browser.fetch(base + path)
    text = html.decode()
    urls = [ref for pattern in _REFS for ref in pattern.findall(text)]
    importmap = dict(_IMPORTMAP.findall(text))
    urls += [importmap[name] for name in _BARE_IMPORT.findall(text) if name in importmap]
    seen: dict[str, tuple[int, int]] = {path: (len(html), wire)}
    revalidated: dict[str, str | None] = {}  # files a browser asks again on the next visit, with their ETag
    queue = [u for u in urls if u.startswith("/")]
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        body, size, headers = browser.fetch(base + url)
        seen[url] = (len(body), size)
        cache = headers.get("cache-control", "")
        if "max-age" not in cache or "no-store" in cache:
            revalidated[url] = headers.get("etag")
        if url.split("?")[0].endswith(".css"):
            css = body.decode(errors="replace")
            folder = url.split("?")[0].rsplit("/", 1)[0]
            queue += [u if u.startswith("/") else f"{folder}/{u}" for u in re.findall(r'@import url\("([^"]+)"\)', css)]
            queue += _fonts(base, url, css)
    repeat = browser.fetch(base + path)[1]
    repeat += sum(browser.fetch(base + url, etag)[1] for url, etag in revalidated.items())
    return {
        "path": path.split("/r/")[0] + ("/r/CODE" if "/r/" in path else ""),
        "requests": len(seen),
        "transferred_kb": round(sum(w for _, w in seen.values()) / 1024),
        "decoded_kb": round(sum(d for d, _ in seen.values()) / 1024),
        "repeat_kb": round(repeat / 1024, 1),
        "largest": sorted(((w // 1024, u.split("?")[0].rsplit("/", 1)[-1]) for u, (_, w) in seen.items()),
                          reverse=True)[:6],
    }


def _new_room(base: str) -> str:
    """A room made by a simulated host, so that the join page exists."""
    import asyncio

    from bench.drivers import GameRoom

    async def make() -> str:
        room = GameRoom(base, 0, 1, 0.0, 0)
        host = room.host
        try:
            await host.visit("/")
            name = host.find("nicegui-input", label="Your name")
            create = host.button("Create the room")
            assert name is not None and create is not None
            await host.type_into(name, "Host")
            await host.click(create)
            for _ in range(100):
                if host.navigate_to:
                    break
                await host.wait(0.2)
            assert host.navigate_to
            return host.navigate_to
        finally:
            await room.close()

    return asyncio.run(make())


if __name__ == "__main__":
    print(measure(sys.argv[1].rstrip("/"), sys.argv[2] if len(sys.argv) > 2 else None))

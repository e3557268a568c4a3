"""A phone's first page load, counted like a browser with an empty cache: ``python -m bench.first_load URL``.

The page a new player opens from the QR code (``/r/CODE``, the join form) and everything it pulls in:
stylesheets and their ``@import``s, scripts, module preloads and the modules the page imports, the room's
QR code (an image of its own), and the
fonts it draws with (Roboto's latin subset, a variable font for every weight, and Material Icons, which
Quasar's own controls use too). Bytes are counted as sent, with ``Accept-Encoding: gzip``.
"""

from __future__ import annotations

import re
import sys
import urllib.request
from typing import Any

_REFS = [
    re.compile(r'<script[^>]+src="([^"]+)"'),
    re.compile(r'<link[^>]+href="(/[^"]+)"'),
    re.compile(r'@import url\("([^"]+)"\)'),
    re.compile(r'import [^;]*? from "(/[^"]+)"'),
    re.compile(r'(/qr/[0-9A-Z]{4,12})\b'),  # the room's QR code: an image node of the first screen part
]
_IMPORTMAP = re.compile(r'"(\w+)":\s*"(/_nicegui/[^"]+)"')
_BARE_IMPORT = re.compile(r'import [^;]*? from "(\w+)"')
_FONT_BLOCK = re.compile(r"@font-face\s*\{(.*?)\}", re.S)


def fetch(url: str) -> tuple[bytes, int]:
    """(decoded body, bytes on the wire)."""
    import gzip

    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip", "Accept-Language": "en"})
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            return gzip.decompress(raw), len(raw)
        return raw, len(raw)


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
    html, wire = fetch(base + path)
    text = html.decode()
    urls = [ref for pattern in _REFS for ref in pattern.findall(text)]
    importmap = dict(_IMPORTMAP.findall(text))
    urls += [importmap[name] for name in _BARE_IMPORT.findall(text) if name in importmap]
    seen: dict[str, tuple[int, int]] = {path: (len(html), wire)}
    queue = [u for u in urls if u.startswith("/")]
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        body, size = fetch(base + url)
        seen[url] = (len(body), size)
        if url.endswith(".css"):
            css = body.decode(errors="replace")
            folder = url.rsplit("/", 1)[0]
            queue += [u if u.startswith("/") else f"{folder}/{u}" for u in re.findall(r'@import url\("([^"]+)"\)', css)]
            queue += _fonts(base, url, css)
    return {
        "path": path.split("/r/")[0] + ("/r/CODE" if "/r/" in path else ""),
        "requests": len(seen),
        "transferred_kb": round(sum(w for _, w in seen.values()) / 1024),
        "decoded_kb": round(sum(d for d, _ in seen.values()) / 1024),
        "largest": sorted(((w // 1024, u.rsplit("/", 1)[-1]) for u, (_, w) in seen.items()), reverse=True)[:6],
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

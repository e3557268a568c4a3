"""engine.io's websocket client imported without ``aiohttp``: a quarter of a second off every start.

NiceGUI imports python-socketio, whose engine.io imports its optional websocket *client*, which imports ``aiohttp``
if it is installed (0.16-0.24 s here; the load generator installs it; docs/PERFORMANCE.md: a restart's reconnect
storm waits for the start). The server never makes a socket.io client connection (NiceGUI's "On Air" would, and it
is never used here). So, when neither is imported yet, engine.io's client module is imported with ``aiohttp``
hidden (its own fallback for a missing ``aiohttp``: the client's HTTP side off), and ``aiohttp`` is importable
again right after, for whatever imports it later (the tests' simulated phones). ``webgame/__init__.py`` calls it
before anything imports NiceGUI.
"""

from __future__ import annotations

import sys


def import_without_aiohttp() -> None:
    """Import engine.io's client with ``aiohttp`` hidden, unless either is imported already."""
    if "aiohttp" in sys.modules or "engineio" in sys.modules:
        return
    sys.modules["aiohttp"] = None  # type: ignore[assignment]  # "import aiohttp" raises ImportError meanwhile
    try:
        import engineio.async_client  # noqa: F401
    finally:
        del sys.modules["aiohttp"]

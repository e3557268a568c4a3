"""The web layer: NiceGUI pages, rooms, timers, persistence (docs/WEB.md).

Importing it first spares the server a quarter of a second of every start (a restart's reconnect storm waits
for it, docs/PERFORMANCE.md): NiceGUI imports python-socketio, whose engine.io imports its optional websocket
*client*, which imports ``aiohttp`` if it is installed (0.16-0.24 s here; the load generator installs it). The
server never makes a socket.io client connection (NiceGUI's "On Air" would, and it is never used here). So,
when neither is imported yet, engine.io's client module is imported with ``aiohttp`` hidden (its own fallback
for a missing ``aiohttp``: the client's HTTP side off), and ``aiohttp`` is importable again right after, for
whatever imports it later (the tests' simulated phones).
"""

from __future__ import annotations

import sys


def _engineio_client_without_aiohttp() -> None:
    if "aiohttp" in sys.modules or "engineio" in sys.modules:
        return
    sys.modules["aiohttp"] = None  # type: ignore[assignment]  # "import aiohttp" raises ImportError meanwhile
    try:
        import engineio.async_client  # noqa: F401
    finally:
        del sys.modules["aiohttp"]


_engineio_client_without_aiohttp()

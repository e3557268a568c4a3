"""The web layer: NiceGUI pages, rooms, timers, persistence (docs/WEB.md).

Importing it first spares the server a quarter of a second of every start: engine.io's optional websocket client is
imported without ``aiohttp`` before anything imports NiceGUI (``webgame.framework.engineio_client``).
"""

from __future__ import annotations

from webgame.framework import engineio_client

engineio_client.import_without_aiohttp()

"""A socket for a page this process does not have, refused in three frames instead of through socket.io.

After a restart (or when a process of a cluster takes a room over) every phone's socket comes back with the
id of a page that is gone. NiceGUI refuses it, and its script then reloads the page: the refusal goes through
the whole app (the session cookie, engine.io's and socket.io's connect, NiceGUI's handshake) and cost 1.5-2 ms
of the server's CPU, a fifth of what re-seating a phone costs (docs/PERFORMANCE.md, the reconnect storm).
``StaleSockets`` answers such a socket before any of that: engine.io's open packet, the socket.io
``CONNECT_ERROR`` NiceGUI's refusal sends (``Implicit handshake failed``, on which ``nicegui.js`` reloads the
page), and a close. A socket whose page exists, or that does not ask for NiceGUI's implicit handshake, goes
through as before; so does one whose page could be built again in place (``webgame.framework.page_adoption``: a room's
phone page, which then needs no reload at all); one whose page cannot be built yet (its room is moving to
this process of a cluster) is opened and closed at once: socket.io comes back after its back-off.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any
from urllib.parse import parse_qs

from nicegui import Client, core
from starlette.types import ASGIApp, Receive, Scope, Send

from webgame.framework import page_adoption

SOCKET_PATH = "/_nicegui_ws/socket.io/"  # NiceGUI's socket, after any prefix (a cluster's /r/CODE)
REFUSAL = '44{"message":"Implicit handshake failed"}'  # socket.io CONNECT_ERROR, as python-socketio sends it
CONNECT_WAIT = 10.0  # seconds the browser has to send socket.io's connect after engine.io's open


def stale_client(scope: Scope) -> dict[str, str] | None:
    """The query (one value per name) of a websocket for NiceGUI's socket that asks for the implicit handshake
    of a page this process lacks; None for any other request."""
    if scope["type"] != "websocket" or not scope.get("path", "").endswith(SOCKET_PATH):
        return None
    query = {key: values[0] for key, values in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}
    if query.get("implicit_handshake") != "true" or query.get("EIO") != "4":
        return None
    client_id = query.get("client_id", "")
    return query if client_id and client_id not in Client.instances else None


def open_packet() -> str:
    """engine.io's open packet, with the server's own settings (the browser's socket.io reads them)."""
    eio = core.sio.eio if core.sio is not None else None
    ping_timeout = getattr(eio, "ping_timeout", 20)
    ping_interval = getattr(eio, "ping_interval", 25) + getattr(eio, "ping_interval_grace_period", 0)
    return "0" + json.dumps({"sid": secrets.token_urlsafe(15), "upgrades": [],
                             "pingTimeout": int(ping_timeout * 1000), "pingInterval": int(ping_interval * 1000),
                             "maxPayload": getattr(eio, "max_http_buffer_size", 1_000_000)},
                            separators=(",", ":"))


async def refuse(receive: Receive, send: Send) -> None:
    """Accept the websocket, open engine.io, wait for socket.io's connect, refuse it, close."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": open_packet()})
    try:
        async with asyncio.timeout(CONNECT_WAIT):
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                if (message.get("text") or "").startswith("40"):
                    break
    except TimeoutError:
        await send({"type": "websocket.close", "code": 1000})
        return
    await send({"type": "websocket.send", "text": REFUSAL})
    await send({"type": "websocket.close", "code": 1000})


async def come_back(receive: Receive, send: Send) -> None:
    """Open engine.io, then close: socket.io takes it for a lost connection and tries again after its back-off
    (a refusal would make NiceGUI's script reload the page, and a socket refused before it opened would make
    socket.io try its polling transport, which NiceGUI refuses in turn)."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": open_packet()})
    await send({"type": "websocket.close", "code": 1000})


class StaleSockets:
    """The ASGI layer (``install`` adds it to the app before the server starts)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = stale_client(scope)
        if query is None:
            await self.app(scope, receive, send)
            return
        adopted = await page_adoption.adopt(scope, query)
        if adopted:
            await self.app(scope, receive, send)
        elif adopted is page_adoption.LATER:
            await come_back(receive, send)
        else:
            await refuse(receive, send)


def install(app: Any) -> bool:
    """Add the layer to the app (once), before it has started: Starlette builds its middleware then. False if
    it could not (already there, or the app already runs: a test that calls ``webgame.app.run`` with a fake
    ``ui.run``)."""
    if any(middleware.cls is StaleSockets for middleware in app.user_middleware) or app.middleware_stack is not None:
        return False
    app.add_middleware(StaleSockets)
    return True

"""How the app talks to browsers: session cookies, and which traffic may be compressed.

Cookies. NiceGUI keeps a browser's storage (its seat tokens) behind a signed session cookie from
Starlette's ``SessionMiddleware``: always ``HttpOnly`` (no script can read it), ``SameSite=Lax`` (not sent
with cross-site sub-requests or posts, still sent when a QR code or a chat link opens the game), and
``Secure`` when ``SECURE_COOKIES=1`` (set it when the game is served over HTTPS, e.g. behind a TLS proxy).
``Strict`` is not used: a phone opening the link from a messenger would arrive without its cookie and be
given a new, empty one, losing its seat.

Compression. Every seat's phone is sent the same number of bytes at the same moments
(``webgame.pages.evenness``), by padding. Compression would squeeze the padding away and let the
compressed sizes tell roles apart again (the BREACH lesson: never compress secrets next to anything an
observer can measure), so what carries game state is sent as it is: no per-message deflate on the
websocket, no compression of socket.io's polling fallback, no gzip of page HTML. Static files and
NiceGUI's own scripts hold no secret and stay gzipped.
"""

from __future__ import annotations

from typing import Any

from fastapi.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from webgame import settings
from webgame.guard import socket_guard

COMPRESSED_PREFIXES = ("/_nicegui/", "/static/")


def secure_cookies() -> bool:
    """The game is served over HTTPS: ``SECURE_COOKIES=1``, or ``DOMAIN`` set (the TLS front of compose.yaml serves
    https://DOMAIN, docs/SCALING.md) unless ``SECURE_COOKIES=0``. The session cookie then gets ``Secure`` and the
    room's links (QR codes, share) say https (``public_base``)."""
    return settings.current().https


def public_base(base_url: str) -> str:
    """This server's address as people reach it: behind a TLS front the request came in as http (the proxy's
    hop), but the link people share must be the https one."""
    base = base_url.rstrip("/")
    if secure_cookies() and base.startswith("http://"):
        return "https://" + base[len("http://"):]
    return base


SESSION_DAYS = 14  # the session cookie lives this long after the browser's last request (Starlette's default)


def session_cookie_kwargs() -> dict[str, Any]:
    """For ``ui.run(session_middleware_kwargs=...)`` (Starlette's SessionMiddleware; HttpOnly is always on). The
    cookie is signed again with every answer, so it lives ``SESSION_DAYS`` after the browser's last request: the
    age past which its server-side storage can no longer be found (``webgame.browser.storage_expiry``)."""
    return {"same_site": "lax", "https_only": secure_cookies(), "max_age": SESSION_DAYS * 86400}


class GZipStaticOnly:
    """Starlette's gzip for static files and NiceGUI's assets only (``ui.run(gzip_middleware_factory=...)``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith(COMPRESSED_PREFIXES):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


RUN_KWARGS: dict[str, Any] = {
    "gzip_middleware_factory": GZipStaticOnly,
    "ws_per_message_deflate": False,  # uvicorn: no permessage-deflate on the socket
    # uvicorn would take X-Forwarded-For from 127.0.0.1 as the client's address; ``ratelimit.client_address``
    # reads it itself, and only with TRUST_PROXY=1 (docs/SECURITY.md).
    "proxy_headers": False,
}
MAX_MESSAGE_BYTES = 64 * 1024  # a browser's socket message: a tap, a chat line; a bigger one closes its socket


def uncompressed_socket() -> None:
    """socket.io's long-polling fallback compresses its answers unless told not to. Also: text packets only,
    messages from browsers of at most ``MAX_MESSAGE_BYTES``, and the events a page's socket may send checked
    (``webgame.guard.socket_guard``)."""
    from nicegui import core

    if core.sio is not None:
        core.sio.eio.http_compression = False
        core.sio.eio.max_http_buffer_size = MAX_MESSAGE_BYTES
        core.sio.packet_class = text_packet_class(core.sio.packet_class)
        direct_emit(core.sio.manager)
        socket_guard.install(core.sio)


def text_packet_class(base: type) -> type:
    """socket.io packets that never look for binary attachments.

    python-socketio walks every dict and list of every outgoing message to find ``bytes`` (to send them as
    binary attachments): at 40 rooms that walk was 15 % of the server's CPU (docs/PERFORMANCE.md). NiceGUI
    sends JSON only (uploads go over HTTP), so the walk is skipped; the JSON encoding is unchanged."""
    if getattr(base, "uses_binary_events", True) is False:
        return base
    return type("TextPacket", (base,), {"uses_binary_events": False})


def direct_emit(manager: Any) -> None:
    """Send a message addressed to one page without a task per message.

    NiceGUI sends every update to one client (its socket.io room is the client's id). python-socketio's
    ``emit`` creates an asyncio task per recipient and waits for them all: with one recipient that is a task,
    a ``wait`` and their bookkeeping per message, a fifth of the server's CPU at 80 rooms. This sends to the
    room's one connection directly; anything else (several recipients, callbacks, skips) goes the usual way.
    """
    if getattr(manager, "direct_emit", False):
        return
    from engineio import packet as eio_packet
    from socketio import packet as sio_packet

    general = manager.emit

    async def emit(event: str, data: Any, namespace: str, room: Any = None, skip_sid: Any = None,
                   callback: Any = None, to: Any = None, **kwargs: Any) -> Any:
        room = to or room
        members = manager.rooms.get(namespace, {}).get(room) if isinstance(room, str) else None
        if callback is not None or skip_sid is not None or members is None or len(members) != 1:
            return await general(event, data, namespace, room=room, skip_sid=skip_sid, callback=callback, **kwargs)
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = manager.server.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, *args]).encode()
        for _sid, eio_sid in list(members.items()):
            for part in encoded if isinstance(encoded, list) else [encoded]:
                await manager.server._send_eio_packet(eio_sid, eio_packet.Packet(eio_packet.MESSAGE, part))  # noqa: SLF001
        return None

    manager.emit = emit
    manager.direct_emit = True


WEBSOCKET_PROTOCOL = "websockets-sansio"  # uvicorn's websocket on the ``websockets`` library's sans-I/O core


def sansio_websockets() -> None:
    """Before ``ui.run``: uvicorn serves the sockets with ``websockets``' protocol instead of ``wsproto``.

    ``ui.run`` fixes ``ws='wsproto'`` (NiceGUI's pull request 5256 moved off the deprecated ``websockets.legacy``
    and named ``websockets-sansio`` as the other choice). ``wsproto`` is pure Python, frames and handshake alike:
    after a restart, when every phone opens its socket again at once, it was an eighth of the server's work
    (docs/PERFORMANCE.md, the reconnect storm); ``websockets`` unmasks frames in C. Its settings are uvicorn's
    own, ``ws_per_message_deflate=False`` (``RUN_KWARGS``) included."""
    from nicegui import ui_run
    from nicegui.server import CustomServerConfig

    base: type[CustomServerConfig] = getattr(ui_run, "CustomServerConfig")  # noqa: B009 (not exported by name)
    if getattr(base, "websocket_protocol", None) == WEBSOCKET_PROTOCOL:
        return

    class SansIOConfig(base):  # type: ignore[valid-type, misc]
        websocket_protocol = WEBSOCKET_PROTOCOL

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["ws"] = WEBSOCKET_PROTOCOL
            super().__init__(*args, **kwargs)

    setattr(ui_run, "CustomServerConfig", SansIOConfig)  # noqa: B010 (the name ui.run reads)

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
from webgame.framework import socket_transport
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
    # uvicorn's own websocket ping every 20 s: engine.io pings every socket (24 s) and its reader lets a silent one
    # go (``webgame.framework.engine_reader``), so it found nothing new, for a frame out, a pong in and two timers
    # a socket every 20 s: 0.7 of each an action at 80 rooms of 12, some 1 % of the CPU (issue 32).
    "ws_ping_interval": None,
    # uvicorn would take X-Forwarded-For from 127.0.0.1 as the client's address; ``ratelimit.client_address``
    # reads it itself, and only with TRUST_PROXY=1 (docs/SECURITY.md).
    "proxy_headers": False,
}
MAX_MESSAGE_BYTES = 64 * 1024  # a browser's socket message: a tap, a chat line; a bigger one closes its socket


def uncompressed_socket() -> None:
    """socket.io's long-polling fallback compresses its answers unless told not to. Also: messages from browsers of
    at most ``MAX_MESSAGE_BYTES``, and the events a page's socket may send checked (``webgame.guard.socket_guard``)."""
    from nicegui import core

    if core.sio is not None:
        socket_transport.engine_settings(core.sio, compression=False, max_message_bytes=MAX_MESSAGE_BYTES)
        socket_guard.install(core.sio)

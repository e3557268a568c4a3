"""NiceGUI's three HTTP middlewares as plain ASGI layers: the same work without a task per request.

NiceGUI adds three Starlette ``BaseHTTPMiddleware`` layers to every app (``ui.run``): the request's prefix
put before redirects, the cache header of its versioned assets, and the request tracking that its per-browser
storage needs. A ``BaseHTTPMiddleware`` runs the rest of the app in a new task with a memory stream between
the two for every HTTP request: after a restart, when every phone loads its page again at once, those three
layers were about a twentieth of the server's CPU (docs/PERFORMANCE.md, the reconnect storm). The classes here
do the same on the ASGI messages themselves; ``install()`` puts them where ``ui.run`` takes NiceGUI's from,
before it is called. Websockets and the lifespan pass through, as they did.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator

from nicegui import core, storage, ui_run
from nicegui.version import __version__
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_ASSETS = f"/_nicegui/{__version__}/"
_DYNAMIC = f"/_nicegui/{__version__}/dynamic_resources/"


class HttpLayer:
    """An ASGI layer for HTTP requests: websockets and the lifespan go straight through to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


class RedirectWithPrefix(HttpLayer):
    """A redirect to a path of this app goes through the proxy's prefix (``X-Forwarded-Prefix``)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        prefix = next((value.decode("latin-1") for name, value in scope["headers"]
                       if name == b"x-forwarded-prefix"), "")

        async def prefixed(message: Message) -> None:
            if message["type"] == "http.response.start" and prefix:
                headers = MutableHeaders(scope=message)
                location = headers.get("location")
                if location is not None and location.startswith("/"):
                    headers["location"] = prefix + location
            await send(message)

        await self.app(scope, receive, prefixed)


class CacheControl(HttpLayer):
    """NiceGUI's versioned assets (not its dynamic resources) get the app's ``cache_control_directives``."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if not path.startswith(_ASSETS) or path.startswith(_DYNAMIC):
            await self.app(scope, receive, send)
            return

        async def cached(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["cache-control"] = core.app.config.cache_control_directives
            await send(message)

        await self.app(scope, receive, cached)


@contextlib.asynccontextmanager
async def tracking(request: Request) -> AsyncIterator[None]:
    """What NiceGUI's storage needs of a request while a page is built for it: the request in its context
    variable, the browser's id in the session (a new one for a new browser), that browser's server-side storage
    loaded, and the browser counted among those with a request under way. (A page built for a socket,
    ``webgame.framework.page_adoption``, comes through here too.)"""
    storage.request_contextvar.set(request)
    if "id" not in request.session:
        request.session["id"] = str(uuid.uuid4())
    request.state.responded = False
    session_id = request.session["id"]
    active = core.app.storage._active_request_sessions  # noqa: SLF001 (NiceGUI's own bookkeeping)
    active[session_id] += 1
    try:
        if session_id not in core.app.storage._users:  # noqa: SLF001
            await core.app.storage._create_user_storage(session_id)  # noqa: SLF001
        yield
    finally:
        active[session_id] -= 1
        if active[session_id] <= 0:
            del active[session_id]


class RequestTracking(HttpLayer):
    """``tracking`` for every HTTP request, and ``request.state.responded`` once the response has started (the
    browser storage is read-only from then on)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                request.state.responded = True
            await send(message)

        async with tracking(request):
            await self.app(scope, receive, tracked)


def install() -> None:
    """Before ``ui.run``: it adds these instead of NiceGUI's ``BaseHTTPMiddleware`` classes. Fails loudly if a
    NiceGUI release moved the names it takes them from (the layers would silently stay the slow ones)."""
    for module, name, layer in ((ui_run, "RedirectWithPrefixMiddleware", RedirectWithPrefix),
                                (ui_run, "SetCacheControlMiddleware", CacheControl),
                                (storage, "RequestTrackingMiddleware", RequestTracking)):
        if not hasattr(module, name):
            raise RuntimeError(f"NiceGUI has no {module.__name__}.{name} any more: "
                               "see webgame/framework/asgi_layers.py")
        setattr(module, name, layer)

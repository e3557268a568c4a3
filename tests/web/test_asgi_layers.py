"""NiceGUI's three HTTP middlewares, as the plain ASGI layers the server runs (``webgame.framework.asgi_layers``):
what a
browser gets from them must be what NiceGUI's own gave it (redirects through the proxy's prefix, cached assets,
its storage id in the session, the browser storage read-only once the response started)."""

from __future__ import annotations

from pathlib import Path

import nicegui.storage
import nicegui.ui_run
import pytest
from nicegui import core
from nicegui.storage import Storage, request_contextvar
from nicegui.version import __version__
from starlette.applications import Starlette
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from webgame.framework import asgi_layers


def _app(layer: type) -> TestClient:
    seen: dict[str, object] = {}

    async def redirect(request: Request) -> Response:
        return RedirectResponse("/r/ABCDE", status_code=302)

    async def away(request: Request) -> Response:
        return RedirectResponse("https://example.org/", status_code=302)

    async def text(request: Request) -> Response:
        tracked = request_contextvar.get()
        seen["responded"] = tracked.state.responded if tracked is not None else None
        seen["session"] = dict(request.session) if "session" in request.scope else None
        return PlainTextResponse("ok")

    routes = [Route("/go", redirect), Route("/away", away), Route("/{rest:path}", text)]
    app = Starlette(routes=routes)
    wrapped = layer(app)
    if layer is asgi_layers.RequestTracking:
        wrapped = SessionMiddleware(wrapped, secret_key="test-secret")
    client = TestClient(wrapped, follow_redirects=False)
    client.seen = seen  # type: ignore[attr-defined]
    return client


def test_a_redirect_goes_through_the_proxys_prefix_and_only_a_path_of_this_app() -> None:
    client = _app(asgi_layers.RedirectWithPrefix)
    assert client.get("/go", headers={"X-Forwarded-Prefix": "/p/p2"}).headers["location"] == "/p/p2/r/ABCDE"
    assert client.get("/go").headers["location"] == "/r/ABCDE"
    assert client.get("/away", headers={"X-Forwarded-Prefix": "/p/p2"}).headers["location"] == "https://example.org/"


def test_niceguis_versioned_assets_are_cached_and_nothing_else_is(monkeypatch: pytest.MonkeyPatch) -> None:
    directives = "public, max-age=31536000, immutable, stale-while-revalidate=31536000"  # ui.run's default
    monkeypatch.setattr(core.app.config, "cache_control_directives", directives, raising=False)  # set by ui.run
    client = _app(asgi_layers.CacheControl)
    assert client.get(f"/_nicegui/{__version__}/static/nicegui.js").headers["cache-control"] == directives
    assert "cache-control" not in client.get(f"/_nicegui/{__version__}/dynamic_resources/x.js").headers
    assert "cache-control" not in client.get("/r/ABCDE").headers


def test_a_browser_gets_its_storage_id_once_and_its_storage_is_loaded(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Storage, "path", tmp_path)
    client = _app(asgi_layers.RequestTracking)
    client.get("/r/ABCDE")
    first = client.seen["session"]  # type: ignore[attr-defined]
    assert isinstance(first, dict) and first.get("id")
    assert first["id"] in core.app.storage._users  # noqa: SLF001 (loaded before the page is built)
    assert client.seen["responded"] is False  # type: ignore[attr-defined]  # the page may still write its cookie
    client.get("/r/ABCDE")
    assert client.seen["session"] == first  # type: ignore[attr-defined]  # the same browser, the same id
    assert not core.app.storage._active_request_sessions  # noqa: SLF001 (no request left in flight)
    core.app.storage._users.pop(first["id"], None)  # noqa: SLF001


def test_install_puts_them_where_ui_run_takes_niceguis_from(monkeypatch: pytest.MonkeyPatch) -> None:
    for module, name in ((nicegui.ui_run, "RedirectWithPrefixMiddleware"),
                         (nicegui.ui_run, "SetCacheControlMiddleware"),
                         (nicegui.storage, "RequestTrackingMiddleware")):
        monkeypatch.setattr(module, name, getattr(module, name))  # put back after the test
    asgi_layers.install()
    assert nicegui.ui_run.RedirectWithPrefixMiddleware is asgi_layers.RedirectWithPrefix
    assert nicegui.ui_run.SetCacheControlMiddleware is asgi_layers.CacheControl
    assert nicegui.storage.RequestTrackingMiddleware is asgi_layers.RequestTracking


def test_ui_run_serves_the_sockets_with_websockets_sansio_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ui.run`` passes ``ws='wsproto'``; the server's socket protocol is websockets' instead, still without
    per-message compression (the padding of every phone's updates must not be squeezed: webgame.browser.transport)."""
    from webgame.browser import transport
    from webgame.framework import socket_transport

    monkeypatch.setattr(nicegui.ui_run, "CustomServerConfig", nicegui.ui_run.CustomServerConfig)  # put back after
    socket_transport.sansio_websockets()
    socket_transport.sansio_websockets()  # twice: once
    uvicorn_kwargs = {name: value for name, value in transport.RUN_KWARGS.items() if name.startswith("ws_")}
    config = nicegui.ui_run.CustomServerConfig(core.app, ws="wsproto", **uvicorn_kwargs)
    assert config.ws == socket_transport.WEBSOCKET_PROTOCOL
    assert config.ws_per_message_deflate is False
    assert config.ws_ping_interval is None  # engine.io's pings find a dead socket; uvicorn's added only frames
    config.load()
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    assert config.ws_protocol_class is socket_transport.ServedWebSocket
    assert issubclass(socket_transport.ServedWebSocket, WebSocketsSansIOProtocol)

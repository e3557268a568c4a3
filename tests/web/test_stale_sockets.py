"""A phone's socket for a page the server no longer has (it restarted) is refused at once with what makes
NiceGUI's script reload the page; every other socket and request goes through to the app as before."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from nicegui import Client
from starlette.types import Message

from webgame.framework import page_adoption, stale_sockets
from webgame.framework.stale_sockets import StaleSockets

QUERY = "client_id={id}&next_message_id=3&implicit_handshake=true&document_id=d&tab_id=t&EIO=4&transport=websocket"


class Browser:
    """The browser's side of one socket: what it sends, and every frame the server sent it."""

    def __init__(self, *sent: Message) -> None:
        self.to_server = [{"type": "websocket.connect"}, *sent]
        self.frames: list[Message] = []

    async def receive(self) -> Message:
        return self.to_server.pop(0)

    async def send(self, message: Message) -> None:
        self.frames.append(message)


class App:
    def __init__(self) -> None:
        self.called: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called.append(scope)


def socket_scope(client_id: str, path: str = "/_nicegui_ws/socket.io/", implicit: bool = True) -> dict[str, Any]:
    query = QUERY.format(id=client_id)
    if not implicit:
        query = query.replace("implicit_handshake=true", "implicit_handshake=false")
    return {"type": "websocket", "path": path, "query_string": query.encode()}


async def test_a_gone_pages_socket_is_refused_so_that_niceguis_script_reloads_the_page() -> None:
    app, browser = App(), Browser({"type": "websocket.receive", "text": "40"})
    await StaleSockets(app)(socket_scope("0f1e2d3c4b5a"), browser.receive, browser.send)
    assert not app.called
    accept, opening, refusal, close = browser.frames
    assert accept == {"type": "websocket.accept"}
    assert opening["text"].startswith("0")
    settings = json.loads(opening["text"][1:])
    assert settings["upgrades"] == [] and settings["sid"] and settings["pingInterval"] > 0 < settings["pingTimeout"]
    assert refusal["text"] == '44{"message":"Implicit handshake failed"}'  # nicegui.js: reload on this message
    assert close["type"] == "websocket.close"


async def test_a_socket_through_a_clusters_room_prefix_is_recognised_too() -> None:
    app, browser = App(), Browser({"type": "websocket.receive", "text": "40"})
    scope = socket_scope("0f1e2d3c4b5a", path="/r/K7QXM/_nicegui_ws/socket.io/")
    await StaleSockets(app)(scope, browser.receive, browser.send)
    assert not app.called and browser.frames[2]["text"].startswith("44")


async def test_a_browser_gone_before_its_connect_is_not_answered() -> None:
    app, browser = App(), Browser({"type": "websocket.disconnect", "code": 1001})
    await StaleSockets(app)(socket_scope("0f1e2d3c4b5a"), browser.receive, browser.send)
    assert [frame["type"] for frame in browser.frames] == ["websocket.accept", "websocket.send"]


async def test_a_socket_that_never_connects_is_closed_after_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stale_sockets, "CONNECT_WAIT", 0.05)

    class Silent(Browser):
        async def receive(self) -> Message:
            if self.to_server:
                return self.to_server.pop(0)
            await asyncio.sleep(3600)
            raise AssertionError("not cut off")

    app, browser = App(), Silent()
    await StaleSockets(app)(socket_scope("0f1e2d3c4b5a"), browser.receive, browser.send)
    assert browser.frames[-1]["type"] == "websocket.close"
    assert not any(frame.get("text", "").startswith("44") for frame in browser.frames)


async def test_a_live_pages_socket_and_everything_else_goes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Client, "instances", {"a1b2c3": object()})
    app = App()
    layer = StaleSockets(app)
    browser = Browser()
    for scope in (socket_scope("a1b2c3"),  # its page exists
                  socket_scope("0f1e2d3c4b5a", implicit=False),  # NiceGUI's explicit handshake: its own answer
                  {"type": "websocket", "path": "/other", "query_string": b""},
                  {"type": "http", "path": "/_nicegui_ws/socket.io/", "query_string": QUERY.format(id="x").encode()}):
        await layer(scope, browser.receive, browser.send)
    assert len(app.called) == 4 and browser.frames == []


def test_install_adds_the_layer_once_and_never_to_a_running_app() -> None:
    from fastapi import FastAPI

    app = FastAPI()
    assert stale_sockets.install(app)
    assert not stale_sockets.install(app)  # once
    assert [middleware.cls for middleware in app.user_middleware] == [StaleSockets]
    running = FastAPI()
    running.middleware_stack = running.build_middleware_stack()  # as after its first request
    assert not stale_sockets.install(running)


async def test_a_page_built_again_in_place_lets_its_socket_through(monkeypatch: pytest.MonkeyPatch) -> None:
    async def built(scope: Any, query: Any) -> bool:
        return True

    monkeypatch.setattr(page_adoption, "adopt", built)
    app, browser = App(), Browser({"type": "websocket.receive", "text": "40"})
    scope = socket_scope("0f1e2d3c4b5a")
    await StaleSockets(app)(scope, browser.receive, browser.send)
    assert app.called == [scope] and browser.frames == []  # NiceGUI answers it, as a socket of an existing page


async def test_a_page_that_cannot_be_built_yet_has_its_socket_come_back_without_a_reload(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def later(scope: Any, query: Any) -> None:
        return page_adoption.LATER

    monkeypatch.setattr(page_adoption, "adopt", later)
    app, browser = App(), Browser({"type": "websocket.receive", "text": "40"})
    await StaleSockets(app)(socket_scope("0f1e2d3c4b5a"), browser.receive, browser.send)
    assert not app.called
    accept, opening, close = browser.frames  # engine.io opened, then closed: socket.io retries after its back-off
    assert accept["type"] == "websocket.accept" and opening["text"].startswith("0")
    assert close["type"] == "websocket.close"
    assert not any(frame.get("text", "").startswith("44") for frame in browser.frames)  # no refusal: no reload

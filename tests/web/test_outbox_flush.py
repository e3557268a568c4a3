"""``webgame.framework.outbox``: a page's updates sent at the loop's next turn without waking its outbox loop, written
at once on a socket that allows it, with NiceGUI's message ids and history; any other socket is left to the loop."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from nicegui import core, outbox as nicegui_outbox
from nicegui.outbox import Outbox
from socketio import packet as sio_packet

from tests.web.test_heartbeat import FakeProtocol, FakeServer, expected_frame
from webgame.framework import outbox as framework, socket_transport


class FakePage:
    def resolve_reconnect_timeout(self) -> float:
        return 30.0


class FakeClient:
    """What an outbox reads of its page's client (NiceGUI's room of a client is its id: ``FakeServer``)."""

    def __init__(self, number: int) -> None:
        self.id = f"client{number}"
        self.has_socket_connection = True
        self.page = FakePage()

    def check_existence(self) -> None:
        pass


class FakeElement:
    component = None

    def __init__(self, element_id: int, text: str) -> None:
        self.id, self.text = element_id, text
        self._props: dict[str, Any] = {}

    def _to_dict(self) -> dict[str, Any]:
        return {"props": {"text": self.text}}


class FakeSio:
    """socket.io's server as NiceGUI's outbox calls it (``emit`` to a client's room) over ``FakeServer``."""

    def __init__(self, server: FakeServer) -> None:
        self.manager = self.eio = server
        self.packet_class = server.packet_class

    async def emit(self, event: str, data: Any, room: str) -> None:
        await self.manager.emit(event, data, "/", room=room)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> FakeServer:
    fake = FakeServer(2)
    fake.packet_class = socket_transport.text_packet_class(sio_packet.Packet)  # type: ignore[method-assign]
    fake.ping_interval = 24  # type: ignore[attr-defined]
    monkeypatch.setattr(core, "sio", FakeSio(fake))
    monkeypatch.setattr(socket_transport, "PROTOCOLS", {"e0": FakeProtocol(), "e1": FakeProtocol()})
    monkeypatch.setattr(socket_transport, "SENT", {})
    monkeypatch.setattr(core.app.config, "message_history_length", 1000, raising=False)  # ``ui.run`` sets it
    monkeypatch.setattr(Outbox, "loop", framework._outbox_loop)
    monkeypatch.setattr(Outbox, "_set_enqueue_event", framework._set_enqueue_event)
    monkeypatch.setattr(nicegui_outbox.background_tasks, "create_or_defer",  # the app is not started here
                        lambda coroutine, name: asyncio.get_running_loop().create_task(coroutine, name=name))
    return fake


async def started(client: FakeClient) -> Outbox:
    box = Outbox(client)  # type: ignore[arg-type]
    for _ in range(3):  # its loop starts, finds nothing to send, and waits
        await asyncio.sleep(0)
    assert box._enqueue_event is not None and not box._enqueue_event.is_set()
    return box


async def test_a_change_s_updates_are_one_message_written_at_once_with_its_id_and_history(server: FakeServer) -> None:
    client = FakeClient(0)
    box = await started(client)
    first, second = FakeElement(7, "night"), FakeElement(8, "3 of 5")
    box.enqueue_update(first)  # type: ignore[arg-type]
    box.enqueue_update(second)  # type: ignore[arg-type]
    assert box._enqueue_event is not None and not box._enqueue_event.is_set()  # the loop is not woken
    await asyncio.sleep(0)
    protocol = socket_transport.PROTOCOLS["e0"]
    data = {"7": {"props": {"text": "night"}}, "8": {"props": {"text": "3 of 5"}}, "_id": 0}
    text = "42" + json.dumps(["update", data], separators=(",", ":"))
    assert protocol.transport.written == [expected_frame(text.encode())]
    assert box.next_message_id == 1 and [entry[0] for entry in box.message_history] == [0]
    assert not box.updates and not box._enqueue_event.is_set()
    box.enqueue_message("run_javascript", {"code": "1"}, client.id)
    await asyncio.sleep(0)
    assert len(protocol.transport.written) == 2 and box.next_message_id == 2
    assert [entry[2][1] for entry in box.message_history] == ["update", "run_javascript"]
    box.stop()
    await asyncio.sleep(0)


async def test_a_socket_with_a_packet_waiting_is_left_to_the_outbox_loop(server: FakeServer) -> None:
    """A packet in the socket's queue goes first: the page's loop is woken and sends the update after it, through
    engine.io's queue (``direct_emit`` finds the queue busy too)."""
    socket_transport.direct_emit(server)
    client = FakeClient(1)
    box = await started(client)
    server.sockets["e1"].queue.put_nowait("an earlier packet")
    element = FakeElement(9, "vote")  # held: the outbox holds its elements weakly
    box.enqueue_update(element)  # type: ignore[arg-type]
    for _ in range(10):  # the flush finds the queue busy and wakes the loop, which sends it the usual way
        await asyncio.sleep(0)
    assert socket_transport.PROTOCOLS["e1"].transport.written == []
    assert [sid for sid, _ in server.sent] == ["e1"] and box.next_message_id == 1
    box.stop()
    await asyncio.sleep(0)

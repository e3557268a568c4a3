"""A page's messages sent without waking its loop (``webgame.framework.outbox``, ``socket_transport.send_now``): what a
phone receives is what NiceGUI's loop would have sent, in the same order, with the same ids, kept for a reconnect's
replay; a page whose socket cannot be written now is sent its messages by its loop, as before."""

from __future__ import annotations

import asyncio
from typing import Any

import nicegui.json as nicegui_json
import pytest
from nicegui import core
from nicegui.testing import User

from tests.web.helpers import labels_page
from tests.web.test_heartbeat import FakeProtocol, FakeServer, expected_frame
from webgame.framework import socket_transport


async def test_a_change_is_sent_by_one_callback_in_order_without_waking_the_page_s_loop(
        user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    client, labels = await labels_page(user, "/sends", 2)
    written: list[tuple[str, str, dict[str, Any]]] = []

    def send_now(sio: Any, eio_sid: str, event: str, data: Any) -> None:
        written.append((eio_sid, event, nicegui_json.loads(nicegui_json.dumps(data))))

    monkeypatch.setattr(socket_transport, "page_socket", lambda sio, room: "e7" if room == client.id else None)
    monkeypatch.setattr(socket_transport, "send_now", send_now)
    box = client.outbox
    first_id = box.next_message_id
    labels[0].set_text("night 1")
    client.run_javascript("window.x = 1")
    labels[1].set_text("day 2")
    assert written == []  # nothing before the running step ends (what it queues and pads goes together)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert [(sid, event) for sid, event, _data in written] == [("e7", "update"), ("e7", "run_javascript")]
    update, script = written[0][2], written[1][2]
    assert update["_id"] == first_id and script["_id"] == first_id + 1
    assert {update[str(label.id)]["text"] for label in labels} == {"night 1", "day 2"}  # one update for both
    assert script["code"] == "window.x = 1"
    assert box.next_message_id == first_id + 2
    assert [entry[0] for entry in list(box.message_history)[-2:]] == [first_id, first_id + 1]  # for a replay
    assert box._enqueue_event is not None and not box._enqueue_event.is_set()  # noqa: SLF001 (its loop slept)


async def test_a_page_whose_socket_cannot_be_written_now_is_sent_by_its_loop(
        user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    client, labels = await labels_page(user, "/sends", 2)
    emitted: list[tuple[str, Any]] = []
    original = core.sio.emit

    async def emit(event: str, data: Any = None, room: str | None = None, **kwargs: Any) -> Any:
        if room == client.id:
            emitted.append((event, nicegui_json.loads(nicegui_json.dumps(data))))
        return await original(event, data, room=room, **kwargs)

    monkeypatch.setattr(socket_transport, "page_socket", lambda sio, room: None)  # paused, upgrading, ...
    monkeypatch.setattr(core.sio, "emit", emit)
    labels[0].set_text("night 1")
    for _ in range(100):
        if emitted:
            break
        await asyncio.sleep(0.01)
    assert [event for event, _data in emitted] == ["update"]
    assert emitted[0][1][str(labels[0].id)]["text"] == "night 1"


async def test_send_now_writes_the_frame_or_queues_the_packet_behind_a_paused_transport(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Written at once as the frame uvicorn would write for engine.io's packet; a phone that reads slowly (its
    transport paused) gets it through engine.io's queue; a socket gone gets nothing; each send is noted for the
    heartbeat (``SENT``)."""
    import json

    from socketio import packet as sio_packet

    server = FakeServer(3)
    server.packet_class = sio_packet.Packet  # type: ignore[method-assign]
    protocols = {sid: FakeProtocol() for sid in ("e0", "e1")}
    monkeypatch.setattr(socket_transport, "PROTOCOLS", protocols)
    monkeypatch.setattr(socket_transport, "SENT", {})
    assert socket_transport.page_socket(server, "client0") == "e0"
    assert socket_transport.page_socket(server, "client2") is None  # served another way: its loop sends
    assert socket_transport.page_socket(server, "client1") == "e1"
    protocols["e1"].writable.clear()  # the phone reads slowly: uvicorn paused its writing
    update = {"5": {"text": "Ніч 1"}, "_id": 4}
    socket_transport.send_now(server, "e0", "update", update)
    socket_transport.send_now(server, "e1", "update", update)
    text = "42" + json.dumps(["update", update], separators=(",", ":"), ensure_ascii=False)
    assert protocols["e0"].transport.written == [expected_frame(text.encode())]
    assert protocols["e1"].transport.written == [] and server.sockets["e1"].queue.qsize() == 1
    del server.sockets["e2"]
    socket_transport.send_now(server, "e2", "update", update)  # gone: nothing, no error
    assert list(socket_transport.SENT) == ["e0", "e1", "e2"]

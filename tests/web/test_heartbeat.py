"""The heartbeat (``webgame.browser.heartbeat``): a phone that hears nothing else gets a beat every 1.125-1.25 s, a
phone that was sent an update within that time gets none on top of it, and no live connection is silent long enough
for the phone's offline badge (``OFFLINE_MS``)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from webgame.browser import heartbeat
from webgame.framework import socket_transport


@dataclass
class FakeSocket:
    closed: bool = False
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    upgraded: bool = True  # on its websocket alone
    upgrading: bool = False
    last_ping: float | None = None


class FakeServer:
    """What ``queue_everywhere`` and ``direct_emit`` read of socket.io's server: the default namespace's members
    (socket.io sid -> engine.io sid) and engine.io's sockets; ``sent`` lists (engine.io sid, packet) in order."""

    def __init__(self, phones: int) -> None:
        self.sockets = {f"e{n}": FakeSocket() for n in range(phones)}
        self.rooms: dict[str, dict[Any, dict[str, str]]] = {
            "/": {None: {f"s{n}": f"e{n}" for n in range(phones)}}}
        for n in range(phones):
            self.rooms["/"][f"client{n}"] = {f"s{n}": f"e{n}"}  # NiceGUI's room per client: its one socket
        self.manager = self  # socket.io's manager and server in one, for the fields they are read by
        self.eio = self
        self.server = self
        self.sent: list[tuple[str, Any]] = []
        self.ping_timeout = 20

    def packet_class(self, *args: Any, **kwargs: Any) -> Any:
        from socketio import packet as sio_packet

        return sio_packet.Packet(*args, **kwargs)

    async def _send_eio_packet(self, eio_sid: str, packet: Any) -> None:
        self.sent.append((eio_sid, packet))

    async def emit(self, *args: Any, **kwargs: Any) -> None:  # the general path, not taken here
        raise AssertionError("a message to one page goes the direct way")

    def beats(self) -> dict[str, int]:
        counts = {sid: 0 for sid in self.sockets}
        for sid, socket in self.sockets.items():
            while not socket.queue.empty():
                socket.queue.get_nowait()
                counts[sid] += 1
        return counts


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(socket_transport, "clock", lambda: now[0])
    monkeypatch.setattr(socket_transport, "SENT", {})
    return now


async def test_an_update_stands_for_a_beat_and_a_quiet_phone_still_gets_one(clock: list[float]) -> None:
    server = FakeServer(3)
    socket_transport.direct_emit(server)
    beat = object()
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 3  # nobody heard a thing
    assert server.beats() == {"e0": 1, "e1": 1, "e2": 1}
    clock[0] += heartbeat.QUIET_SECONDS
    await server.emit("update", {"1": {}}, namespace="/", room="client1")  # phone 1 is sent an update
    assert [sid for sid, _ in server.sent] == ["e1"]
    clock[0] += heartbeat.TICK_SECONDS
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 2
    assert server.beats() == {"e0": 1, "e1": 0, "e2": 1}  # the update was phone 1's sign of life
    clock[0] += heartbeat.LONGEST_SILENCE
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 3
    server.sockets["e2"].closed = True
    del server.sockets["e2"]
    clock[0] += heartbeat.LONGEST_SILENCE
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 2
    assert "e2" not in socket_transport.SENT  # a closed socket's time is forgotten


async def test_a_beat_waits_for_the_silence_of_each_phone_and_a_new_phone_is_found(clock: list[float]) -> None:
    """Phones sent updates at different moments get their beats in turn, each once it has heard nothing for
    ``QUIET_SECONDS`` and not before; a phone that connected and was never sent anything is found by a look for
    newcomers (not by the looks between, which read only the phones in the order they were last sent to)."""
    server = FakeServer(3)
    socket_transport.direct_emit(server)
    start = clock[0]
    for n in (2, 0, 1):  # phone 2 first, then 0, then 1, a quarter of a second apart
        await server.emit("update", {}, namespace="/", room=f"client{n}")
        clock[0] += 0.25
    server.sockets["e3"] = FakeSocket()  # a fourth phone connects
    server.rooms["/"][None]["s3"] = "e3"
    beaten: list[str] = []
    while clock[0] < start + 2.0:
        clock[0] += heartbeat.TICK_SECONDS
        await socket_transport.queue_everywhere(server, object(), heartbeat.QUIET_SECONDS, newcomers=False)
        beaten += [f"{sid}@{clock[0] - start:.3f}" for sid, count in server.beats().items() if count]
    assert beaten == ["e2@1.125", "e0@1.375", "e1@1.625"]  # each 1.125 s after its update, in turn
    assert await socket_transport.queue_everywhere(server, object(), heartbeat.QUIET_SECONDS) == 1
    assert server.beats() == {"e0": 0, "e1": 0, "e2": 0, "e3": 1}


async def test_no_live_phone_is_silent_long_enough_for_the_offline_badge(clock: list[float]) -> None:
    """A minute of looks a little early or late, with updates to some phones at random moments: the longest
    silence any phone hears stays under its offline badge's ``OFFLINE_MS`` with room to spare, and the beats a
    busy phone gets are fewer than a quiet one's."""
    server = FakeServer(4)
    socket_transport.direct_emit(server)
    rng = random.Random(5)
    heard = {sid: [clock[0]] for sid in server.sockets}
    beats = {sid: 0 for sid in server.sockets}
    end = clock[0] + 60
    next_tick = clock[0]
    looks = 0
    update_at = clock[0] + rng.uniform(0.05, 0.4)
    while clock[0] < end:
        if update_at < next_tick:  # an update comes first: phones 0 and 1 play, 2 and 3 only watch a quiet room
            clock[0] = update_at
            update_at += rng.uniform(0.05, 0.4)
            for n in (0, 1):
                if rng.random() < 0.7:
                    await server.emit("update", {}, namespace="/", room=f"client{n}")
                    heard[f"e{n}"].append(clock[0])
            continue
        clock[0] = next_tick
        looks += 1
        await socket_transport.queue_everywhere(server, object(), heartbeat.QUIET_SECONDS,
                                                newcomers=looks % heartbeat.NEWCOMERS_EVERY == 1)
        for sid, count in server.beats().items():
            beats[sid] += count
            heard[sid].extend([clock[0]] * count)
        next_tick += heartbeat.TICK_SECONDS + rng.uniform(-0.01, 0.02)  # asyncio's sleep: a little early or late
    for sid, times in heard.items():
        longest = max(b - a for a, b in zip(times, times[1:], strict=False))
        assert longest <= heartbeat.LONGEST_SILENCE + 0.03, (sid, longest)
        assert longest * 1000 < heartbeat.OFFLINE_MS / 2 + 50
    assert 46 <= beats["e2"] <= 54 and 46 <= beats["e3"] <= 54  # a quiet phone: a beat every 1.125-1.25 s
    assert beats["e0"] < beats["e2"] / 4 and beats["e1"] < beats["e2"] / 4  # a busy phone: its updates stand for them


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


class FakeProtocol:
    """What ``write_now`` reads of uvicorn's websocket protocol, over a real ``websockets`` server connection."""

    def __init__(self) -> None:
        from websockets.server import ServerProtocol

        self.conn = ServerProtocol()
        self.conn.state = self.conn.state.OPEN  # the handshake done
        self.transport = FakeTransport()
        self.writable = asyncio.Event()
        self.writable.set()
        self.handshake_complete, self.close_sent, self.initial_response = True, False, None


def expected_frame(text: bytes) -> bytes:
    """The bytes uvicorn's ``send`` writes for a text message (the server's connection frames it, unmasked)."""
    from websockets.server import ServerProtocol

    conn = ServerProtocol()
    conn.state = conn.state.OPEN
    conn.send_text(text)
    return b"".join(conn.data_to_send())


async def test_a_beat_is_written_as_its_frame_where_the_websocket_allows_and_queued_elsewhere(
        clock: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone on a websocket served by uvicorn's ``websockets`` protocol gets the beat written at once, the very
    frame uvicorn would write for it (no packet through engine.io's queue); a phone whose socket is paused by a slow
    link, closing, or served another way gets it through the queue, as before."""
    from socketio import packet as sio_packet

    server = FakeServer(4)
    protocols = {sid: FakeProtocol() for sid in ("e0", "e1", "e2")}
    monkeypatch.setattr(socket_transport, "PROTOCOLS", protocols)
    protocols["e1"].writable.clear()  # the phone reads slowly: uvicorn paused its writing
    protocols["e2"].transport.closing = True
    server.packet_class = sio_packet.Packet  # type: ignore[method-assign]
    beat = socket_transport.event_packet(server, heartbeat.EVENT)
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 4
    assert protocols["e0"].transport.written == [expected_frame(b'42["beat"]')]
    assert server.beats() == {"e0": 0, "e1": 1, "e2": 1, "e3": 1}
    assert protocols["e1"].transport.written == [] and protocols["e2"].transport.written == []
    protocols["e0"].conn.state = protocols["e0"].conn.state.CLOSING  # a close under way: the queue, no write
    clock[0] += heartbeat.LONGEST_SILENCE
    assert await socket_transport.queue_everywhere(server, beat, heartbeat.QUIET_SECONDS) == 4
    assert server.beats()["e0"] == 1 and len(protocols["e0"].transport.written) == 1


async def test_a_websocket_s_protocol_is_noted_while_it_serves_its_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ServedWebSocket`` puts itself in its scope; engine.io's websocket notes it under its socket's id for as long
    as the socket is served, and a socket without it (long polling, a simulated phone) is not noted."""
    from engineio.async_drivers import asgi

    monkeypatch.setattr(asgi.WebSocket, "__call__", asgi.WebSocket.__call__)  # put back after
    monkeypatch.setattr(socket_transport, "PROTOCOLS", {})
    socket_transport.websocket_protocols()
    socket_transport.websocket_protocols()  # twice: once
    protocol = FakeProtocol()
    seen: list[dict[str, Any]] = []

    class Socket:
        sid = "e7"

        async def handler(self, ws: Any) -> None:
            seen.append(dict(socket_transport.PROTOCOLS))

    async def send(message: dict[str, Any]) -> None:
        pass

    for scope, noted in (({"type": "websocket", socket_transport.PROTOCOL_KEY: protocol}, {"e7": protocol}),
                         ({"type": "websocket"}, {})):
        ws = asgi.WebSocket(Socket().handler, None)
        await ws({"asgi.receive": None, "asgi.send": send, "asgi.scope": scope})
        assert seen.pop() == noted
        assert socket_transport.PROTOCOLS == {}  # the socket is over: forgotten


async def test_a_page_s_message_is_written_at_once_unless_another_waits_before_it(
        clock: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    """An update to a page whose socket uvicorn's ``websockets`` protocol serves is written at once, the frame uvicorn
    would write for engine.io's packet; while a packet waits in the socket's queue (it goes first), during an upgrade
    from long polling, or when the phone stopped answering its pings, it takes engine.io's way, as before."""
    import json
    import time

    server = FakeServer(3)
    protocols = {sid: FakeProtocol() for sid in ("e0", "e1", "e2")}
    monkeypatch.setattr(socket_transport, "PROTOCOLS", protocols)
    socket_transport.direct_emit(server)
    update = {"5": {"props": {"model": "[]"}}, "_id": 3}
    await server.emit("update", update, namespace="/", room="client0")
    text = "42" + json.dumps(["update", update], separators=(",", ":"))
    assert protocols["e0"].transport.written == [expected_frame(text.encode())] and server.sent == []
    server.sockets["e1"].queue.put_nowait("an earlier packet")
    await server.emit("update", update, namespace="/", room="client1")
    assert [sid for sid, _ in server.sent] == ["e1"] and protocols["e1"].transport.written == []
    server.sockets["e2"].upgrading = True
    await server.emit("update", update, namespace="/", room="client2")
    server.sockets["e2"].upgrading, server.sockets["e0"].last_ping = False, time.time() - 60
    await server.emit("update", update, namespace="/", room="client0")
    assert [sid for sid, _ in server.sent] == ["e1", "e2", "e0"]
    assert protocols["e2"].transport.written == [] and len(protocols["e0"].transport.written) == 1

"""engine.io's websocket reader without a task and a timer per packet (``webgame.framework.engine_reader``): a phone's
packets are read in order, a phone that keeps talking stays connected however long, and one silent for longer than
engine.io allows (its ping interval and timeout) is let go, as engine.io's own reader does."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from engineio import async_socket

from webgame.framework import engine_reader, socket_hooks, socket_transport


class Server:
    max_http_buffer_size = 1000
    ping_interval, ping_timeout = 0.2, 0.1  # silence allowed: 0.3 s

    class logger:  # noqa: N801 (engine.io's attribute)
        @staticmethod
        def info(*args: Any) -> None:
            pass

        @staticmethod
        def exception(*args: Any) -> None:
            pass

    class reason:  # noqa: N801
        TRANSPORT_CLOSE = "transport close"


class Phone:
    """The websocket of a phone that sends ``packets`` at ``every`` seconds, then stays silent (or, with
    ``close``, closes)."""

    def __init__(self, packets: list[str], every: float, close: bool = False) -> None:
        self.packets, self.every, self.close_at_end = list(packets), every, close

    async def wait(self) -> Any:
        if self.packets:
            await asyncio.sleep(self.every)
            return self.packets.pop(0)
        if self.close_at_end:
            return None
        await asyncio.sleep(3600)
        return None

    async def send(self, data: Any) -> None:
        pass

    async def close(self) -> None:
        pass


class Socket:
    def __init__(self) -> None:
        self.server = Server()
        self.connected, self.sid = False, "e1"
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.received: list[str] = []
        self.closed_because: str | None = None

    async def receive(self, pkt: Any) -> None:
        self.received.append(pkt.data)

    async def poll(self) -> Any:
        item = await self.queue.get()
        return None if item is None else [item]

    async def close(self, wait: bool = True, abort: bool = False, reason: str | None = None) -> None:
        self.closed_because = reason


def test_the_reader_is_in_place_once() -> None:
    engine_reader.install()
    engine_reader.install()
    assert getattr(async_socket.AsyncSocket, "_mafia_lean_reader", False)


async def test_packets_are_read_in_order_and_a_talking_phone_stays_however_long() -> None:
    socket = Socket()
    phone = Phone([f'42["ack",{{"n":{n}}}]' for n in range(8)], every=0.1, close=True)  # 0.8 s in all
    started = time.monotonic()
    await engine_reader._websocket_handler(socket, phone)  # noqa: SLF001
    assert time.monotonic() - started >= 0.75  # longer than the silence allowed, never silent that long
    assert socket.received == [f'2["ack",{{"n":{n}}}]' for n in range(8)]
    assert socket.closed_because == "transport close"  # the phone closed: the end engine.io makes of it


async def test_a_phone_silent_longer_than_allowed_is_let_go() -> None:
    socket = Socket()
    started = time.monotonic()
    await engine_reader._websocket_handler(socket, Phone(['42["ack",{}]'], every=0.05))  # noqa: SLF001 (in this task)
    silent_for = time.monotonic() - started - 0.05
    assert 0.3 <= silent_for < 0.8  # the silence allowed (0.3 s), not an hour
    assert socket.received == ['2["ack",{}]'] and socket.closed_because == "transport close"
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # the reader's own cancel taken back: the task goes on


async def test_a_stopped_server_ends_the_reader() -> None:
    socket = Socket()
    task = asyncio.ensure_future(engine_reader._websocket_handler(socket, Phone([], every=0)))  # noqa: SLF001
    await asyncio.sleep(0.05)
    task.cancel()
    await asyncio.wait_for(asyncio.shield(task), timeout=2)
    assert socket.closed_because == "transport close"


async def test_a_plain_handler_s_event_runs_in_the_reader_s_task_and_a_coroutine_s_gets_socket_io_s_way() -> None:
    """A page's acknowledgement (NiceGUI's handler is a plain function) is handled before the reader reads on, in
    its task; the handshake (a coroutine) and an event nobody handles go socket.io's way (its task), as before."""
    ran: list[tuple[str, Any]] = []

    def on_ack(sid: str, message: Any) -> None:
        ran.append(("ack", asyncio.current_task()))

    async def on_handshake(sid: str, message: Any) -> bool:
        return True

    class Manager:
        @staticmethod
        def sid_from_eio_sid(eio_sid: str, namespace: str) -> str:
            return "s-" + eio_sid

        @staticmethod
        def is_connected(sid: str, namespace: str) -> bool:
            return sid != "s-gone"

    class Sio:
        async_handlers = True
        handlers = {"/": {"ack": on_ack, "handshake": on_handshake}}
        manager = Manager()

        async def _handle_event(self, eio_sid: str, namespace: str, packet_id: Any, data: Any) -> None:
            ran.append(("socket.io's way", data[0]))

        async def _handle_event_internal(self, server: Any, sid: str, eio_sid: str, data: Any, namespace: str,
                                         packet_id: Any) -> None:
            on_ack(sid, data[1])

    sio = Sio()
    engine_reader.inline_sync_events(sio)
    engine_reader.inline_sync_events(sio)  # twice: once
    await sio._handle_event("e1", "/", None, ["ack", {"client_id": "c"}])  # noqa: SLF001
    assert ran == [("ack", asyncio.current_task())]  # here, in this task, done when the read returns
    await sio._handle_event("e1", "/", None, ["handshake", {}])  # noqa: SLF001
    await sio._handle_event("e1", "/", None, ["nobody", {}])  # noqa: SLF001
    await sio._handle_event("gone", "/", None, ["ack", {}])  # noqa: SLF001 (not connected: nothing)
    assert ran[1:] == [("socket.io's way", "handshake"), ("socket.io's way", "nobody")]


async def test_a_packet_whose_handling_outlasts_the_silence_allowed_ends_the_connection_cleanly() -> None:
    """The silence is counted from the last packet read: a packet still being handled when it is over ends the
    connection as a silent one does (engine.io's end runs, the task goes on), not with an escaped cancellation."""
    socket = Socket()

    async def slow_receive(pkt: Any) -> None:
        socket.received.append(pkt.data)
        await asyncio.sleep(3600)

    socket.receive = slow_receive  # type: ignore[method-assign]
    await engine_reader._websocket_handler(socket, Phone(['42["event",{}]'], every=0.01))  # noqa: SLF001
    assert socket.received == ['2["event",{}]'] and socket.closed_because == "transport close"
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0


async def test_a_frame_the_quick_way_takes_is_not_read_again_and_the_others_are() -> None:
    """``quick_frames``: every text frame is offered first; one it takes is done with, the others go to engine.io."""
    socket = Socket()
    offered: list[tuple[str, str]] = []

    def quick(eio_sid: str, frame: str) -> bool:
        offered.append((eio_sid, frame))
        return "ack" in frame

    engine_reader.quick_frames(socket.server, quick)
    frames = ['42["ack",{"n":1}]', '42["event",{}]', "3", '42["ack",{"n":2}]']
    await engine_reader._websocket_handler(socket, Phone(frames, every=0.01, close=True))  # noqa: SLF001
    assert offered == [("e1", frame) for frame in frames]
    assert socket.received == ['2["event",{}]', ""]  # engine.io's pong decodes to no data


class QuickSio:
    """socket.io as ``quick_events`` asks it: its handlers and which sockets are connected to the namespace."""

    def __init__(self, handlers: dict[str, Any]) -> None:
        self.handlers = {"/": handlers}
        self.eio = Server()
        outer = self

        class Manager:
            @staticmethod
            def sid_from_eio_sid(eio_sid: str, namespace: str) -> str | None:
                return None if eio_sid in outer.unconnected else "s-" + eio_sid

            @staticmethod
            def is_connected(sid: str, namespace: str) -> bool:
                return sid != "s-gone"

        self.manager = Manager()
        self.unconnected = {"new"}


async def test_the_quick_way_counts_checks_and_hands_on_as_socket_io_would() -> None:
    """A page's acknowledgement and tap (plain handlers) are counted, checked and handed on from the frame; a frame
    it cannot read the same way is left to engine.io and socket.io, uncounted here (they count it); a refused one,
    one over the caps or one from a socket not in the namespace is taken and goes nowhere."""
    handled: list[tuple[str, Any]] = []
    counted: list[str] = []
    dropped: list[str] = []

    def on_ack(sid: str, message: Any) -> None:
        if message == "bad":
            raise ValueError("not a message")
        handled.append((sid, message))

    async def on_handshake(sid: str, message: Any) -> bool:
        return True

    def counts(eio_sid: str) -> bool:
        counted.append(eio_sid)
        return eio_sid != "flooding"

    def refusal(namespace: str | None, data: Any) -> str | None:
        return "ack without data" if len(data) != 2 else None

    sio = QuickSio({"ack": on_ack, "handshake": on_handshake})
    socket_hooks.quick_events(sio, counts, refusal, dropped.append)
    quick = getattr(sio.eio, engine_reader.QUICK)

    assert quick("e1", '42["ack",{"next_message_id":3}]')
    assert handled == [("s-e1", {"next_message_id": 3})] and counted == ["e1"]
    for frame in ('42["handshake",{}]', '42["nobody",{}]', '42["ack",{', '42/other,["ack",{}]', '421["ack",{}]',
                  "3", '42[1,{}]'):
        assert not quick("e1", frame), frame  # socket.io's way: a coroutine, unknown, not JSON, a namespace, an id
    assert counted == ["e1"]  # the long way counts those itself
    assert quick("e1", '42["ack"]') and quick("flooding", '42["ack",{}]')  # refused; over the caps
    assert quick("new", '42["ack",{}]') and quick("gone", '42["ack",{}]')  # not connected to the namespace
    assert quick("e1", '42["ack","bad"]')
    assert handled == [("s-e1", {"next_message_id": 3})]
    assert counted == ["e1", "e1", "flooding", "new", "gone", "e1"]
    assert dropped == ["malformed socket.io packet"]  # the handler's error, as the guard's message check drops it


class Served:
    """uvicorn's websocket protocol as ``socket_transport.write_now`` asks it: open, and writable unless paused."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.handshake_complete, self.close_sent, self.initial_response = True, False, None
        self.paused = False
        served = self

        class Writable:
            @staticmethod
            def is_set() -> bool:
                return not served.paused

        class Conn:
            pending: list[bytes] = []

            def send_text(self, text: bytes) -> None:
                self.pending.append(b"frame:" + text)

            def data_to_send(self) -> list[bytes]:
                data, self.pending[:] = list(self.pending), []
                return data

        class Transport:
            @staticmethod
            def is_closing() -> bool:
                return False

            @staticmethod
            def write(data: bytes) -> None:
                served.written.append(data)

        self.writable, self.conn, self.transport = Writable(), Conn(), Transport()


async def test_the_writer_writes_engine_io_s_packets_on_the_websocket_at_once_or_through_its_send() -> None:
    """What engine.io queues for a socket (its pings) is written in order as uvicorn's send would write it; while the
    phone's transport is paused, through the websocket's ``send`` (which waits for it), as before."""
    from engineio import packet

    socket, served = Socket(), Served()
    sent: list[str] = []
    phone = Phone([], every=0)
    phone.send = lambda data: sent.append(data) or asyncio.sleep(0)  # type: ignore[method-assign, func-returns-value]
    socket_transport.PROTOCOLS[socket.sid] = served
    try:
        task = asyncio.ensure_future(engine_reader._websocket_handler(socket, phone))  # noqa: SLF001
        await socket.queue.put(packet.Packet(packet.PING))
        await socket.queue.put(packet.Packet(packet.MESSAGE, "a"))
        await asyncio.sleep(0.05)
        served.paused = True
        await socket.queue.put(packet.Packet(packet.PING))
        await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.wait_for(asyncio.shield(task), timeout=2)
    finally:
        socket_transport.PROTOCOLS.pop(socket.sid, None)
    assert served.written == [b"frame:2", b"frame:4a"]
    assert sent == ["2"]

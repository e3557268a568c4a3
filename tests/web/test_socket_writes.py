"""``webgame.framework.socket_writes``: a websocket's packets written at once when its writer is idle, in order.

A real engine.io socket (``AsyncSocket`` of the installed python-engineio) runs its websocket loop on a made-up
websocket whose writes can be held (a paused transport) or fail; what the browser would read is the list of
frames written, in order.
"""

from __future__ import annotations

import asyncio
from typing import Any

import engineio
import pytest
from engineio import async_socket, packet as eio_packet

from webgame.framework import socket_writes


class Websocket:
    """engine.io's ASGI websocket as its loop uses it: ``wait`` for a frame from the browser, ``send`` a frame."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[str | None] = asyncio.Queue()
        self.written: list[str] = []
        self.writable = asyncio.Event()  # uvicorn's: cleared while the transport is paused
        self.writable.set()
        self.fail = False
        self.writes_waited = 0

    async def wait(self) -> str | None:
        return await self.incoming.get()

    async def send(self, message: str) -> None:
        if not self.writable.is_set():
            self.writes_waited += 1
            await self.writable.wait()
        if self.fail:
            raise ConnectionError("gone")
        self.written.append(message)
        if message == "2":  # engine.io's ping: the browser answers it
            self.incoming.put_nowait("3")

    async def close(self) -> None:
        self.written.append("<closed>")


def message(text: str) -> Any:
    return eio_packet.Packet(eio_packet.MESSAGE, text)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def open_socket(**settings: float) -> tuple[Any, Websocket, asyncio.Task[Any]]:
    socket_writes.install()
    server = engineio.AsyncServer(async_mode="asgi", **settings)
    socket = async_socket.AsyncSocket(server, "sid")
    ws = Websocket()
    loop = asyncio.create_task(socket._websocket_handler(ws))  # noqa: SLF001 - the loop under test
    await settle()  # the writer task waits on the queue
    return socket, ws, loop


async def close_socket(ws: Websocket, loop: asyncio.Task[Any]) -> None:
    ws.incoming.put_nowait(None)  # the browser closed it
    await asyncio.wait_for(loop, 5)


async def test_an_idle_socket_gets_its_packet_written_at_once_in_the_senders_task() -> None:
    socket, ws, loop = await open_socket()
    await socket.send(message("update"))
    assert ws.written == ["4update"]  # before any other task ran: no queue, no writer's wake-up
    assert socket.queue.qsize() == 0
    await close_socket(ws, loop)
    assert ws.written == ["4update", "<closed>"]


async def test_a_packet_queued_before_is_written_before_it() -> None:
    socket, ws, loop = await open_socket()
    socket.queue.put_nowait(message("beat"))  # the heartbeat's way (socket_transport.queue_everywhere)
    await socket.send(message("update"))  # the writer has not taken the beat yet: queued behind it
    assert ws.written == []
    await settle()
    assert ws.written == ["4beat", "4update"]
    await close_socket(ws, loop)


async def test_order_holds_while_the_transport_is_paused() -> None:
    socket, ws, loop = await open_socket()
    ws.writable.clear()
    first = asyncio.create_task(socket.send(message("1")))  # written at once, waits for the transport
    await settle()
    socket.queue.put_nowait(message("2"))  # the writer takes it and waits behind the first
    await settle()
    third = asyncio.create_task(socket.send(message("3")))
    fourth = asyncio.create_task(socket.send(message("4")))
    await settle()
    assert ws.written == [] and ws.writes_waited >= 1
    ws.writable.set()
    await asyncio.wait_for(asyncio.gather(first, third, fourth), 5)
    await settle()
    assert ws.written == ["41", "42", "43", "44"]
    await close_socket(ws, loop)


async def test_a_packet_sent_as_the_transport_resumes_does_not_pass_one_that_waited() -> None:
    socket, ws, loop = await open_socket()
    ws.writable.clear()
    first = asyncio.create_task(socket.send(message("1")))
    await settle()
    second = asyncio.create_task(socket.send(message("2")))  # runs before the first one's wake-up
    ws.writable.set()
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    assert ws.written == ["41", "42"]
    await close_socket(ws, loop)


async def test_a_socket_sent_only_messages_stays_open_while_the_browser_answers_the_pings() -> None:
    """engine.io's writer closes a websocket when nothing was queued for ``ping_interval + ping_timeout``: its pings
    must still be queued, or every socket of a server without the heartbeat was closed after 36 s."""
    socket, ws, loop = await open_socket(ping_interval=0.2, ping_timeout=0.1)  # the writer waits 0.3 s at most
    socket.schedule_ping()  # as engine.io does once the socket is connected
    for number in range(20):  # 1 s of messages, each written at once
        await socket.send(message(str(number)))
        await asyncio.sleep(0.05)
    assert "<closed>" not in ws.written
    assert [frame for frame in ws.written if frame != "2"] == [f"4{number}" for number in range(20)]
    assert ws.written.count("2") >= 3  # the pings went on meanwhile
    await close_socket(ws, loop)


async def test_a_failed_write_ends_the_writer_which_closes_the_websocket() -> None:
    socket, ws, loop = await open_socket()
    ws.fail = True
    await socket.send(message("lost"))
    await settle()
    assert ws.written == ["<closed>"]  # as engine.io's writer does when its write fails
    ws.fail = False
    await socket.send(message("after"))  # no direct write any more: queued, never written
    await settle()
    assert ws.written == ["<closed>"]
    await close_socket(ws, loop)


async def test_a_write_cancelled_while_it_waits_closes_the_socket_rather_than_leave_a_gap() -> None:
    socket, ws, loop = await open_socket()
    ws.writable.clear()
    first = asyncio.create_task(socket.send(message("1")))
    await settle()
    second = asyncio.create_task(socket.send(message("2")))
    await settle()
    first.cancel()  # the page's outbox loop ended while its update waited for the transport
    await settle()
    ws.writable.set()
    await asyncio.gather(first, second, return_exceptions=True)
    await settle()
    assert ws.written[-1] == "<closed>" and "41" not in ws.written
    await close_socket(ws, loop)


@pytest.mark.parametrize("upgrading", [True, False])
async def test_a_socket_not_yet_on_its_websocket_queues_as_before(upgrading: bool) -> None:
    socket_writes.install()
    server = engineio.AsyncServer(async_mode="asgi")
    socket = async_socket.AsyncSocket(server, "sid")  # polling: no websocket loop
    socket.upgrading = upgrading
    await socket.send(message("polled"))
    assert socket.queue.qsize() == 1

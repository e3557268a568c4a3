"""What one message costs the server on the send and receive paths, where ``bench.load`` is too coarse to see it.

``python -m bench.send_paths``

CPU time per message, in loops of ``N`` under uvloop (the server's loop), each run three times:

- ``send``: a packet sent on a real engine.io socket whose websocket loop runs on a made-up websocket (it
  writes nothing), through engine.io's queue and writer task, the sender yielding twice between two packets as a
  page's outbox loop does (a direct write, ``socket_writes``, was measured here in issue 32 step 3 and backed out:
  docs/PERFORMANCE.md);
- ``signature``: NiceGUI's ``expects_arguments`` for a tap's handler, as NiceGUI asks it, then remembered
  (``webgame.framework.outbox``);
- ``receive``: waiting for the next frame as engine.io's websocket loop does (a task per frame and ``wait_for``),
  inside one ``asyncio.timeout`` instead, and with no timeout at all: what a rewrite of that loop could save;
- ``guard``: the socket guard's own checks of one tap (its rate, the event's name and shape), without the page
  lookup.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from typing import Any

N = 20000


class Websocket:
    """engine.io's ASGI websocket as its loop uses it, writing nothing."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[str | None] = asyncio.Queue()
        self.written = 0

    async def wait(self) -> str | None:
        return await self.incoming.get()

    async def send(self, message: str) -> None:
        self.written += 1

    async def close(self) -> None:
        return None


async def _yield_twice() -> None:
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def send_cost() -> float:
    """µs of CPU per packet sent on an idle websocket."""
    import engineio
    from engineio import async_socket, packet as eio_packet

    socket = async_socket.AsyncSocket(engineio.AsyncServer(async_mode="asgi"), "sid")
    ws = Websocket()
    loop = asyncio.create_task(socket._websocket_handler(ws))  # noqa: SLF001 - engine.io's loop, measured
    for _ in range(10):
        await asyncio.sleep(0)
    pkt = eio_packet.Packet(eio_packet.MESSAGE, '2["update",{"1":{"x":1}}]')
    started = time.process_time()
    for _ in range(N):
        await socket.send(pkt)
        await _yield_twice()
    while ws.written < N:
        await asyncio.sleep(0)
    spent = time.process_time() - started
    ws.incoming.put_nowait(None)
    await loop
    started = time.process_time()
    for _ in range(N):
        await _yield_twice()
    return (spent - (time.process_time() - started)) / N * 1e6


async def receive_cost(kind: str) -> float:
    """µs of CPU per frame waited for, as engine.io does (``engine.io``), in one timeout, or plainly."""
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def wait() -> str:
        return await queue.get()

    async def reader() -> None:
        for _ in range(N):
            if kind == "engine.io":
                await asyncio.wait_for(asyncio.ensure_future(wait()), 36)
            elif kind == "timeout":
                async with asyncio.timeout(36):
                    await wait()
            else:
                await wait()

    task = asyncio.create_task(reader())
    await asyncio.sleep(0)
    started = time.process_time()
    for _ in range(N):
        queue.put_nowait("3")
        await _yield_twice()
        await asyncio.sleep(0)
    await task
    return (time.process_time() - started) / N * 1e6


def signature_cost() -> dict[str, float]:
    from nicegui.helpers import functions

    from webgame.framework import outbox

    def tap(event: Any) -> None: ...

    costs = {}
    for name, ask in (("NiceGUI's", functions.expects_arguments), ("remembered", outbox.expects_arguments)):
        started = time.perf_counter()
        for _ in range(N):
            ask(tap)
        costs[name] = round((time.perf_counter() - started) / N * 1e6, 2)
    return costs


def guard_cost() -> float:
    from webgame.guard import socket_guard

    class Server:
        handlers: dict[str, Any] = {"/": dict.fromkeys(socket_guard.EVENTS)}

    server, msg = Server(), {"client_id": "c", "id": 5, "listener_id": "l", "args": ["3"]}
    started = time.perf_counter()
    for number in range(N):
        socket_guard.within_rate(f"sid{number % 50}")  # 50 sockets: none over its rate
        socket_guard._event_refusal(server, "/", ["event", msg])  # noqa: SLF001 - the guard's check, measured
        socket_guard.well_formed("event", msg)
    return round((time.perf_counter() - started) / N * 1e6, 2)


def one(which: str) -> None:
    """One measure, in a fresh process."""
    import uvloop

    if which == "queued":
        print(round(uvloop.run(send_cost()), 2))
    elif which in ("engine.io", "timeout", "plain"):
        print(round(uvloop.run(receive_cost(which)), 2))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        one(sys.argv[2])
        return
    for title, kinds in (("send, µs per packet", ("queued",)),
                         ("receive, µs per frame", ("engine.io", "timeout", "plain"))):
        runs = {kind: [float(subprocess.run([sys.executable, "-m", "bench.send_paths", "--one", kind], check=True,
                                            capture_output=True, text=True).stdout) for _ in range(3)]
                for kind in kinds}
        print(title, {kind: sorted(values) for kind, values in runs.items()})
    print("expects_arguments, µs per tap", signature_cost())
    print("the guard's checks, µs per tap", guard_cost())


if __name__ == "__main__":
    main()

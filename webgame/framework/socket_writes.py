"""A websocket's packets written at once when nothing waits before them, instead of through engine.io's writer task.

python-engineio 4.15.1 sends every packet of a socket (``AsyncSocket.send``) by putting it on the socket's queue;
a writer task per websocket (``AsyncSocket._websocket_handler``'s ``writer``) waits on that queue in
``asyncio.wait_for`` (a task and a timer for every wait), wakes, takes what is queued and writes it. So every
message a phone gets costs a queue put, a task made for the next wait, a wake-up and a switch: 16.7 % of the
server's samples at 40 rooms of 12 (docs/PERFORMANCE.md, issue 32 step 1).

Here ``AsyncSocket.send`` writes the frame itself, in the sender's task, when the socket's writer is idle (it
waits on the queue: nothing is queued, nothing taken and not yet written) and the socket is a websocket that
finished its upgrade; anything else (polling, an upgrade under way, a closing socket, a busy writer) goes to the
queue as before. Order and back-pressure:

- every write to a websocket, the writer's and the direct ones, goes through one ``asyncio.Lock`` of that
  websocket (``ordered``), taken in the order of the calls and fair (no write passes one that waits): a direct
  write is only made when everything queued before it has been handed to the websocket, so frames leave in the
  order they were sent, also when a write waits for a paused transport (uvicorn's ``writable``);
- a write that waits for a paused transport holds its sender (the page's outbox loop, which meanwhile gathers
  the page's next changes into one update) instead of growing engine.io's queue; other senders of that socket
  then queue behind it, and no other socket waits for it;
- a direct write that fails ends the writer the way a failed write of the writer's does (it stops and closes
  the websocket): the queue gets engine.io's end marker; so does one whose sender is cancelled while it waits
  for a paused transport (its packet would be missing between two others: the page reconnects instead).

Only messages are written at once; engine.io's own packets (its pings, its close) are queued as before. The
writer closes the websocket when nothing was queued for ``ping_interval + ping_timeout`` (its wait's timeout): a
ping is queued every ``ping_interval`` while the browser answers them, so that timeout keeps meaning "the browser
stopped answering" (with the pings written at once too, every socket of a server without the heartbeat's beats
was closed after 36 s). The per-packet check of the client's pings (``check_ping_timeout``) and engine.io's log
line are kept. The
heartbeat's packet (``socket_transport.queue_everywhere``) is still queued: one loop sends it to every socket, and
a direct write waiting for one paused transport would hold the beat of every other phone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engineio import async_socket, packet as eio_packet

WEBSOCKET = "_mafia_websocket"  # a socket's attribute: its websocket, while engine.io's writer task writes to it
ENDED = "_mafia_ended"  # a websocket's attribute: a write was lost or failed, none is made after it
_ORIGINAL_SEND = async_socket.AsyncSocket.send


async def send(self: Any, pkt: Any) -> None:
    """engine.io's ``AsyncSocket.send``: the packet written at once when the socket's writer is idle (see above)."""
    ws = self.__dict__.get(WEBSOCKET)
    queue = self.queue
    if (pkt.packet_type != eio_packet.MESSAGE or ws is None or not self.upgraded or self.upgrading or self.closing
            or self.closed or queue.qsize() or not writer_waits(queue)):
        await _ORIGINAL_SEND(self, pkt)
        return
    if not await self.check_ping_timeout():
        return
    self.server.logger.info("%s: Sending packet %s data %s", self.sid, eio_packet.packet_names[pkt.packet_type],
                            pkt.data if not isinstance(pkt.data, bytes) else "<binary>")
    try:
        await ws.send(pkt.encode())
    except Exception:  # noqa: BLE001 - as engine.io's writer: a failed write ends it, and it closes the websocket
        end_writer(self, ws)
    except asyncio.CancelledError:  # the sender ended while its packet waited for a paused transport: the packet
        end_writer(self, ws)  # is lost, so the socket closes (the page reconnects and gets what it missed)
        raise  # rather than go on with a gap


def end_writer(socket: Any, ws: Any) -> None:
    """Stop writing to the socket's websocket: no write waiting for it is made any more, and engine.io's end
    marker goes on its queue (its writer stops and closes the websocket)."""
    ws.__dict__[ENDED] = True
    if socket.__dict__.pop(WEBSOCKET, None) is not None:
        socket.queue.put_nowait(None)


def writer_waits(queue: asyncio.Queue[Any]) -> bool:
    """Whether the socket's writer task waits on its queue (the only reader of a websocket's queue: a packet put
    now would be written next)."""
    getters = queue._getters  # type: ignore[attr-defined]  # noqa: SLF001 - asyncio.Queue's waiting readers
    return any(not getter.done() for getter in getters)


def ordered(ws: Any) -> None:
    """Every write to ``ws`` (engine.io's ASGI websocket) through one fair lock, in the order of the calls."""
    write = ws.send
    lock = asyncio.Lock()

    async def send_in_order(message: Any) -> None:
        async with lock:
            if ENDED in ws.__dict__:
                raise ConnectionError("the websocket's writes were ended")  # as a write after the close would
            await write(message)

    ws.send = send_in_order


def install() -> None:
    """Put the direct write in place (idempotent)."""
    socket_class = async_socket.AsyncSocket
    if getattr(socket_class.send, "direct", False):
        return
    handler = socket_class._websocket_handler  # noqa: SLF001

    async def websocket_handler(self: Any, ws: Any) -> Any:
        ordered(ws)
        self.__dict__[WEBSOCKET] = ws  # written to once the upgrade is done (``send`` asks ``upgraded``)
        try:
            return await handler(self, ws)
        finally:
            self.__dict__.pop(WEBSOCKET, None)

    send.direct = True  # type: ignore[attr-defined]
    socket_class.send = send
    socket_class._websocket_handler = websocket_handler  # noqa: SLF001

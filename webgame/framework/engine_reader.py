"""engine.io's websocket reader without a task and a timer for every packet a phone sends.

python-engineio (4.15) reads a websocket's packets in ``AsyncSocket._websocket_handler``: for each one it makes a
task of the read (``asyncio.ensure_future``) and waits for it under ``asyncio.wait_for`` (the silence allowed: the
ping interval and timeout, 36 s here), which in Python 3.11 is a second task's worth of futures, callbacks and a
timer per packet. Every tap, every acknowledgement a page sends (every 6 s) and every answer to a ping pays it: some
six packets an action at 80 rooms of 12, a few per cent of the server's CPU (issue 32). Here the packets are read
in the handler's own task, and the silence is watched by one timer per socket that looks only when the allowed
silence could be over (re-armed for what is left of it when a packet came meanwhile): the connection ends after the
same silence, for the same reasons, as before. The writer task writes what it takes from the socket's queue (its
pings every 24 s, what waited while the phone was slow) on the websocket as uvicorn's own send would, where
``socket_transport.write_now`` can (else through the app's layers, as before): a ping's frame went through a dozen
calls of middleware senders, 0.7 pings an action at 80 rooms of 12. Everything else (the upgrade from long polling,
the end) is engine.io's code unchanged; ``install`` refuses another engine.io whose handler no longer reads the way
this replaces.

``inline_sync_events``: python-socketio then makes a task of every event it hands to a handler
(``async_handlers``), though NiceGUI's handlers of a page's events, acknowledgements and answers are plain
functions that return at once: those run in the reader's task, in the order they came; a coroutine handler (the
handshake) still gets its task.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

from webgame.framework import socket_transport

_MARK = "_mafia_lean_reader"
QUICK = "_mafia_quick_frames"  # on engine.io's server: a function given each text frame first (``quick_frames``)
Quick = Callable[[str, str], bool]  # (engine.io sid, the frame) -> whether it took the frame (nothing else reads it)
_READ = ("wait_task = asyncio.ensure_future(websocket_wait())", "p = await asyncio.wait_for(")


def install() -> None:
    """Put the reader in place (idempotent; before the socket guard wraps the handler: ``socket_hooks``)."""
    from engineio import async_socket

    socket_class = async_socket.AsyncSocket
    if getattr(socket_class, _MARK, False):
        return
    source = inspect.getsource(socket_class._websocket_handler)  # noqa: SLF001
    if not all(source.count(line) == 1 for line in _READ):
        raise RuntimeError("engine.io's websocket handler changed: see webgame/framework/engine_reader.py")
    socket_class._websocket_handler = _websocket_handler  # noqa: SLF001
    setattr(socket_class, _MARK, True)


def inline_sync_events(sio: Any) -> None:
    """Run the events whose handler is a plain function in the reader's task, without socket.io's task for each
    (idempotent; before the socket guard wraps ``_handle_event``: ``socket_hooks``, so the guard still sees every
    event first). Anything else (a coroutine handler, a catch-all, a namespace class) goes socket.io's way."""
    general = sio._handle_event  # noqa: SLF001
    if getattr(general, _MARK, False):
        return

    async def handle_event(eio_sid: str, namespace: str | None, packet_id: Any, data: Any) -> Any:
        namespace = namespace or "/"
        handler = sio.handlers.get(namespace, {}).get(data[0]) if isinstance(data, list) and data else None
        if handler is None or inspect.iscoroutinefunction(handler) or not sio.async_handlers:
            return await general(eio_sid, namespace, packet_id, data)
        sid = sio.manager.sid_from_eio_sid(eio_sid, namespace)
        if not sio.manager.is_connected(sid, namespace):
            return None
        return await sio._handle_event_internal(sio, sid, eio_sid, data, namespace, packet_id)  # noqa: SLF001

    setattr(handle_event, _MARK, True)
    sio._handle_event = handle_event  # noqa: SLF001


def quick_frames(eio: Any, quick: Quick) -> None:
    """Give every text frame a socket's reader gets to ``quick`` before engine.io decodes it; a frame it takes (True)
    is done with (``webgame.framework.socket_hooks.quick_events``: a page's acknowledgements and taps)."""
    setattr(eio, QUICK, quick)


class _Silence:
    """Ends the reading task when nothing came for ``allowed`` seconds: one timer, which looks at the time of the last
    packet when it fires and waits again for what is left (a timer per packet, made and cancelled, was the cost)."""

    def __init__(self, allowed: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.allowed = allowed
        self.heard = self.loop.time()
        self.over = False
        self.timer = self.loop.call_later(allowed, self._look)

    def _look(self) -> None:
        left = self.heard + self.allowed - self.loop.time()
        if left > 0:
            self.timer = self.loop.call_later(left, self._look)
        elif self.task is not None:
            self.over = True
            self.task.cancel()

    def stop(self) -> None:
        self.timer.cancel()


async def _websocket_handler(self: Any, ws: Any) -> None:
    """python-engineio 4.15's ``AsyncSocket._websocket_handler``, its read loop without a task and a timer per
    packet (``_Silence``)."""
    from engineio import exceptions, packet

    async def websocket_wait() -> Any:
        data = await ws.wait()
        if data and len(data) > self.server.max_http_buffer_size:
            raise ValueError("packet is too large")
        return data

    if self.connected:
        # the socket was already connected, so this is an upgrade
        self.upgrading = True  # hold packet sends during the upgrade
        try:
            pkt = await websocket_wait()
        except OSError:  # pragma: no cover
            return
        decoded_pkt = packet.Packet(encoded_packet=pkt)
        if decoded_pkt.packet_type != packet.PING or decoded_pkt.data != "probe":
            self.server.logger.info("%s: Failed websocket upgrade, no PING packet", self.sid)
            self.upgrading = False
            return
        await ws.send(packet.Packet(packet.PONG, data="probe").encode())
        await self.queue.put(packet.Packet(packet.NOOP))  # end poll
        try:
            pkt = await websocket_wait()
        except OSError:  # pragma: no cover
            self.upgrading = False
            return
        decoded_pkt = packet.Packet(encoded_packet=pkt)
        if decoded_pkt.packet_type != packet.UPGRADE:
            self.upgraded = False
            self.server.logger.info("%s: Failed websocket upgrade, expected UPGRADE packet, received %s instead.",
                                    self.sid, pkt)
            self.upgrading = False
            return
        self.upgraded = True
        self.upgrading = False
    else:
        self.connected = True
        self.upgraded = True

    async def writer() -> None:  # engine.io's separate writer task (its pings, what waited in its queue)
        while True:
            packets = None
            try:
                packets = await self.poll()
            except exceptions.QueueEmpty:
                break
            if not packets:  # empty packet list returned -> connection closed
                break
            try:
                for pkt in packets:
                    encoded = pkt.encode()
                    protocol = socket_transport.PROTOCOLS.get(self.sid)
                    if protocol is not None and isinstance(encoded, str) \
                            and socket_transport.write_now(protocol, encoded.encode()):
                        continue  # written as uvicorn's send writes it, without the app's layers' calls
                    await ws.send(encoded)
            except Exception:  # noqa: BLE001 (as engine.io: any failure ends the writer)
                break
        await ws.close()

    writer_task = asyncio.ensure_future(writer())
    self.server.logger.info("%s: Upgrade to websocket successful", self.sid)

    silence = _Silence(self.server.ping_interval + self.server.ping_timeout)
    quick: Quick | None = getattr(self.server, QUICK, None)
    try:
        while True:
            try:
                p = await websocket_wait()
            except asyncio.CancelledError:  # silent too long (as engine.io's wait_for timing out), or stopped
                if silence.over and silence.task is not None:
                    silence.task.uncancel()  # our own cancel, taken back: the end below runs as engine.io's
                break
            except Exception:  # noqa: BLE001 (as engine.io: a failed read ends the connection)
                break
            if p is None:  # connection closed by client
                break
            silence.heard = silence.loop.time()
            if quick is not None and isinstance(p, str) and quick(self.sid, p):
                continue
            pkt = packet.Packet(encoded_packet=p)
            try:
                await self.receive(pkt)
            except asyncio.CancelledError:  # a packet's handling outlasted the silence allowed, or stopped
                if silence.over and silence.task is not None:
                    silence.task.uncancel()
                break
            except exceptions.UnknownPacketError:  # pragma: no cover
                pass
            except exceptions.SocketIsClosedError:  # pragma: no cover
                self.server.logger.info("Receive error -- socket is closed")
                break
            except Exception:  # noqa: BLE001  # pragma: no cover
                self.server.logger.exception("Unknown receive error")
    finally:
        silence.stop()

    await self.queue.put(None)  # unlock the writer task so it can exit
    await asyncio.wait_for(writer_task, timeout=None)
    await self.close(wait=False, abort=True, reason=self.server.reason.TRANSPORT_CLOSE)

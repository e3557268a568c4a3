"""socket.io's and uvicorn's sending, made cheaper: text packets, one page's message sent without a task, the
heartbeat's one packet queued on every socket, and uvicorn's websocket on ``websockets``' protocol.

- ``text_packets``: python-socketio walks every dict and list of every outgoing message to find ``bytes`` (to send
  them as binary attachments): at 40 rooms that walk was 15 % of the server's CPU (docs/PERFORMANCE.md). NiceGUI
  sends JSON only (uploads go over HTTP), so the walk is skipped; the JSON encoding is unchanged.
- ``direct_emit``: NiceGUI sends every update to one client (its socket.io room is the client's id).
  python-socketio's ``emit`` creates an asyncio task per recipient and waits for them all: with one recipient that
  is a task, a ``wait`` and their bookkeeping per message, a fifth of the server's CPU at 80 rooms. This sends to
  the room's one connection directly (``AsyncServer._send_eio_packet``); anything else (several recipients,
  callbacks, skips) goes the usual way.
- ``queue_everywhere``: what ``AsyncSocket.send`` does for one packet, without its per-packet ping check and log,
  for every socket of the default namespace that was sent nothing for a while (``webgame.browser.heartbeat``: a
  beat to every phone that heard nothing for over a second). ``direct_emit`` notes when it last sent to each
  socket (``SENT``, kept in the order of the sends, so a look reads only the sockets it beats): at 80 rooms of 12 the
  beats were half the messages sent, though a page's update is as good a sign of life as a beat (``static/phone.js``
  counts any packet). On a socket served by uvicorn's ``websockets``
  protocol (``websocket_protocols``) the beat is written as its frame at once, as uvicorn writes any message: no
  packet in engine.io's queue and no turn of its writer task per beat per phone (issue 32: a tenth of an action's
  CPU at 40 rooms went to the beats).
- ``sansio_websockets``: ``ui.run`` fixes ``ws='wsproto'`` (NiceGUI's pull request 5256 moved off the deprecated
  ``websockets.legacy`` and named ``websockets-sansio`` as the other choice). ``wsproto`` is pure Python, frames
  and handshake alike: after a restart, when every phone opens its socket again at once, it was an eighth of the
  server's work (docs/PERFORMANCE.md, the reconnect storm); ``websockets`` unmasks frames in C. The protocol is
  uvicorn's ``websockets-sansio`` one that notes itself in its scope (``ServedWebSocket``, ``websocket_protocols``:
  the beats' direct write); its settings are uvicorn's own, ``ws_per_message_deflate=False``
  (``webgame.browser.transport.RUN_KWARGS``) included. Only ``ui.run`` starts uvicorn: the simulated phones of the
  tests have no uvicorn, so they cannot use it; ``tests/web/test_asgi_layers.py`` checks the configuration ``ui.run``
  builds.
"""

from __future__ import annotations

import time
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState, ProtocolError  # by their module: the package's names import lazily

# uvicorn's websocket on the ``websockets`` library's sans-I/O core ("websockets-sansio"), noting itself in its
# scope (``ServedWebSocket``): uvicorn imports a ``ws`` that is not one of its names from this path
WEBSOCKET_PROTOCOL = "webgame.framework.socket_transport:ServedWebSocket"


def engine_settings(sio: Any, *, compression: bool, max_message_bytes: int) -> None:
    """engine.io's settings on the server NiceGUI made (``ui.run`` passes none of them on): whether polling answers
    are compressed, and the largest message a browser may send (a bigger one closes its socket)."""
    sio.eio.http_compression = compression
    sio.eio.max_http_buffer_size = max_message_bytes


def text_packets(sio: Any) -> None:
    """socket.io packets that never look for binary attachments (idempotent)."""
    sio.packet_class = text_packet_class(sio.packet_class)


def text_packet_class(base: type) -> type:
    """``base`` (socket.io's packet class) without the walk for binary attachments."""
    if getattr(base, "uses_binary_events", True) is False:
        return base
    return type("TextPacket", (base,), {"uses_binary_events": False})


def direct_emit(manager: Any) -> None:
    """Send a message addressed to one page without a task per message (idempotent; see the module's docstring)."""
    if getattr(manager, "direct_emit", False):
        return
    from engineio import packet as eio_packet
    from socketio import packet as sio_packet

    general = manager.emit

    async def emit(event: str, data: Any, namespace: str, room: Any = None, skip_sid: Any = None,
                   callback: Any = None, to: Any = None, **kwargs: Any) -> Any:
        room = to or room
        members = manager.rooms.get(namespace, {}).get(room) if isinstance(room, str) else None
        if callback is not None or skip_sid is not None or members is None or len(members) != 1:
            return await general(event, data, namespace, room=room, skip_sid=skip_sid, callback=callback, **kwargs)
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = manager.server.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, *args]).encode()
        for _sid, eio_sid in list(members.items()):
            if written_at_once(manager.server.eio, eio_sid, encoded):
                continue
            for part in encoded if isinstance(encoded, list) else [encoded]:
                await manager.server._send_eio_packet(eio_sid, eio_packet.Packet(eio_packet.MESSAGE, part))  # noqa: SLF001
        return None

    manager.emit = emit
    manager.direct_emit = True


def written_at_once(eio: Any, eio_sid: str, encoded: Any) -> bool:
    """Note a page's message to engine.io socket ``eio_sid`` as sent (``SENT``) and write it on its websocket at once
    where it allows (``writable_now``, ``write_now``): engine.io's text packet of socket.io's ``encoded``, as
    ``Packet(MESSAGE, encoded).encode()`` writes it. False when it was not written (the caller queues it)."""
    from engineio import packet as eio_packet

    note_sent(eio_sid, clock())
    if not isinstance(encoded, str):
        return False
    protocol = writable_now(eio, eio_sid)
    return protocol is not None and write_now(protocol, f"{eio_packet.MESSAGE}{encoded}".encode())


def page_socket(sio: Any, room: str) -> str | None:
    """The engine.io sid of the one socket of ``room`` (a NiceGUI page's socket.io room, its client's id) when a
    message to it can be written on its websocket now (``writable_now``): what ``direct_emit`` would do at once."""
    members = sio.manager.rooms.get("/", {}).get(room)
    if members is None or len(members) != 1:
        return None
    eio_sid = next(iter(members.values()))
    return eio_sid if writable_now(sio.eio, eio_sid) is not None else None


def send_now(sio: Any, eio_sid: str, event: str, data: Any) -> None:
    """Send the socket.io event ``event`` with ``data`` to the engine.io socket ``eio_sid`` without a coroutine, as
    ``direct_emit`` sends a page's message: written at once where its websocket allows, else put in its engine.io
    queue (its transport paused since the last write: the writer task sends it, after what is queued); nothing when
    the socket is gone (as socket.io sends nothing to a room without members)."""
    from engineio import packet as eio_packet
    from socketio import packet as sio_packet

    encoded = sio.packet_class(sio_packet.EVENT, namespace="/", data=[event, data]).encode()
    if written_at_once(sio.eio, eio_sid, encoded):
        return
    socket = sio.eio.sockets.get(eio_sid)
    if socket is not None and not socket.closed:
        for part in encoded if isinstance(encoded, list) else [encoded]:
            socket.queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, part))


def event_packet(sio: Any, event: str) -> Any:
    """The engine.io packet of a socket.io event without data, encoded once for every socket."""
    from engineio import packet as eio_packet
    from socketio import packet as sio_packet

    encoded = sio.packet_class(sio_packet.EVENT, namespace="/", data=[event]).encode()
    return eio_packet.Packet(eio_packet.MESSAGE, encoded)


# When each engine.io socket was last sent a page's message (``direct_emit``) or a packet of ``queue_everywhere``
# (``time.monotonic()``), in the order of those sends: the longest silent first (``note_sent`` moves a socket to the
# end), so ``queue_everywhere`` reads only the front it sends to. A closed socket's entry goes when its turn comes.
SENT: dict[str, float] = {}
clock = time.monotonic  # what ``SENT`` is measured with (a test's own clock replaces it)


def note_sent(eio_sid: str, now: float) -> None:
    """The socket was sent something at ``now``: its entry goes to the end of ``SENT``."""
    SENT.pop(eio_sid, None)
    SENT[eio_sid] = now


async def queue_everywhere(sio: Any, packet: Any, quiet: float = 0.0, *, newcomers: bool = True) -> int:
    """Send ``packet`` to every open socket that was sent nothing (``SENT``) for at least ``quiet`` seconds: written
    at once where its websocket allows (``write_now``), else queued; to how many. The sockets in ``SENT`` are read
    from the front (the longest silent) up to the first that heard something within ``quiet``: the cost is the
    packets sent, not the sockets open. ``newcomers``: also every socket of the default namespace that was never
    sent anything (a walk of them all: the heartbeat does it every few looks)."""
    now = clock()
    due: list[str] = []
    for eio_sid, last in SENT.items():
        if now - last < quiet:
            break
        due.append(eio_sid)
    if newcomers:
        members = sio.manager.rooms.get("/", {}).get(None) or {}
        due.extend(eio_sid for eio_sid in list(members.values()) if eio_sid not in SENT)
    sockets = sio.eio.sockets
    sent = 0
    text: bytes | None = None
    for eio_sid in due:
        SENT.pop(eio_sid, None)
        socket = sockets.get(eio_sid)
        if socket is None or socket.closed:
            continue  # closed: forgotten
        SENT[eio_sid] = now
        protocol = writable_now(sio.eio, eio_sid)
        if protocol is not None:
            if text is None:
                text = packet.encode().encode()  # engine.io's text packet, as its writer task would send it
            if write_now(protocol, text):
                sent += 1
                continue
        await socket.queue.put(packet)  # what AsyncSocket.send does, without its per-packet ping check and log
        sent += 1
    return sent


# engine.io sid -> the uvicorn protocol that serves its websocket (``websocket_protocols``), while it is served
PROTOCOLS: dict[str, Any] = {}


def writable_now(eio: Any, eio_sid: str) -> Any:
    """The protocol to write a packet for this engine.io socket at once (``write_now``), or None when it must take
    engine.io's queue: a socket served another way, not yet or no longer on its websocket alone (an upgrade under
    way), or with packets still waiting in its queue (they go first: no message overtakes another), or whose phone
    stopped answering its pings (engine.io's own ``send`` closes such a socket)."""
    protocol = PROTOCOLS.get(eio_sid)
    if protocol is None:
        return None
    socket = eio.sockets.get(eio_sid)
    if socket is None or socket.closed or not socket.upgraded or socket.upgrading or not socket.queue.empty():
        return None
    last_ping = socket.last_ping
    if last_ping and time.time() - last_ping > eio.ping_timeout:
        return None
    return protocol


def write_now(protocol: Any, text: bytes) -> bool:
    """Write the text message ``text`` on a websocket served by uvicorn's ``websockets`` protocol, as its ``send``
    does for an ASGI ``websocket.send`` (the frame built by the connection, written in one call), without the wait
    for the socket's writer task; False, and nothing written, when its ``send`` would not write now (the connection
    not yet or no longer open, the transport paused by a slow phone: the packet then waits in the queue)."""
    if (not protocol.handshake_complete or protocol.close_sent or protocol.initial_response is not None
            or not protocol.writable.is_set() or protocol.transport.is_closing()):
        return False
    try:
        protocol.conn.send_text(text)
    except (InvalidState, ProtocolError):
        return False
    protocol.transport.write(b"".join(protocol.conn.data_to_send()))
    return True


def websocket_protocols() -> None:
    """Note, for each engine.io socket served over a websocket by ``ServedWebSocket``, that protocol (``PROTOCOLS``),
    for as long as it serves it (idempotent). A socket served any other way (long polling, the tests' simulated
    phones) is not noted: its packets take the queue."""
    from engineio.async_drivers import asgi

    original = asgi.WebSocket.__call__
    if getattr(original, "notes_protocols", False):
        return

    async def call(self: Any, environ: dict[str, Any]) -> Any:
        sid = getattr(getattr(self.handler, "__self__", None), "sid", None)
        protocol = (environ.get("asgi.scope") or {}).get(PROTOCOL_KEY)
        if sid is None or protocol is None:
            return await original(self, environ)
        PROTOCOLS[sid] = protocol
        try:
            return await original(self, environ)
        finally:
            if PROTOCOLS.get(sid) is protocol:
                del PROTOCOLS[sid]

    call.notes_protocols = True  # type: ignore[attr-defined]
    asgi.WebSocket.__call__ = call


PROTOCOL_KEY = "mafia.websocket_protocol"  # a websocket's scope: the protocol that serves it (``ServedWebSocket``)


class ServedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol (0.55), which puts itself in its websocket's scope (``PROTOCOL_KEY``)
    for ``websocket_protocols``: the app's layers wrap the ``send`` they pass on, so the protocol is not found
    behind it."""

    async def run_asgi(self) -> None:
        self.scope[PROTOCOL_KEY] = self  # type: ignore[literal-required]  # a key of our own in the scope
        await super().run_asgi()


def sansio_websockets() -> None:
    """Before ``ui.run``: uvicorn serves the sockets with ``websockets``' protocol instead of ``wsproto``
    (idempotent)."""
    from nicegui import ui_run
    from nicegui.server import CustomServerConfig

    base: type[CustomServerConfig] = getattr(ui_run, "CustomServerConfig")  # noqa: B009 (not exported by name)
    if getattr(base, "websocket_protocol", None) == WEBSOCKET_PROTOCOL:
        return

    class SansIOConfig(base):  # type: ignore[valid-type, misc]
        websocket_protocol = WEBSOCKET_PROTOCOL

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["ws"] = WEBSOCKET_PROTOCOL
            super().__init__(*args, **kwargs)

    setattr(ui_run, "CustomServerConfig", SansIOConfig)  # noqa: B010 (the name ui.run reads)

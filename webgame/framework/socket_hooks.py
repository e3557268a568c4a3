"""Where the socket guard (``webgame.guard.socket_guard``) looks at a browser's packets before engine.io and socket.io
read them: engine.io's ``AsyncSocket`` and socket.io's ``_handle_event``, which neither library lets an app hook.

The guard decides (what counts, what is dropped, why); this module only puts its questions where the packets pass:

- ``count_engine_packets``: every engine.io packet of a socket, on either transport, is counted before engine.io
  reads it (``AsyncSocket.receive``), a websocket frame engine.io could not decode is counted and dropped before
  it tries (``AsyncSocket._websocket_handler``: each such frame was a logged traceback), and a polling body it
  cannot decode closes the socket instead of raising a traceback (``handle_post_request``);
- ``filter_events``: a socket.io event is shown to the guard before socket.io dispatches it to a handler
  (``AsyncServer._handle_event``): python-socketio calls a handler with as many arguments as the event carried,
  and a handler with a required data argument raised a ``TypeError`` logged with its traceback for every such
  message (issue 26: 10.4 MB of log in 10 s, none of it counted).

- ``quick_events``: a page's own events in socket.io's default namespace (its acknowledgements every 6 s, its
  taps), handled by NiceGUI's plain functions, are read straight from the websocket frame (``engine_reader``'s
  ``quick_frames``), counted and checked by the same questions of the guard in the same order, and handed to the
  same handler; engine.io's packet, its event call, socket.io's packet and its dispatch are skipped: an
  acknowledgement's handling 70 -> 50 µs (20 of the 50 are NiceGUI's freeing of what it acknowledged), 2.5
  acknowledgements an action at 80 rooms of 12 (issue 32). Anything else (another
  namespace, an acknowledgement id, a frame that is not JSON, a coroutine handler such as the handshake) goes the
  long way, uncounted until then.

All are idempotent (``webgame.app.setup`` runs again for every simulated-phone test) and change nothing for a
packet the guard lets through.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import Any

import orjson

log = logging.getLogger(__name__)

FRAMES = frozenset("0123456")  # engine.io packet types (a frame starting otherwise cannot be decoded)
Counts = Callable[[str], bool]  # engine.io sid -> whether its packet may be read (False: over its caps)
Drop = Callable[[str], None]  # why a packet was dropped
Refusal = Callable[[str | None, Any], str | None]  # (namespace, an event's data) -> why it is dropped, or None
QUICK_PREFIX = '42["'  # engine.io's message, socket.io's event, default namespace, no acknowledgement id: a name


def count_engine_packets(counts: Counts, drop: Drop) -> None:
    """Ask ``counts`` about every engine.io packet and websocket frame before engine.io reads it (see above)."""
    from engineio import async_socket, exceptions, packet as eio_packet

    from webgame.framework import engine_reader

    engine_reader.install()  # the handler wrapped below is the lean reader
    socket_class = async_socket.AsyncSocket
    if getattr(socket_class.receive, "guarded", False):
        return
    known = {eio_packet.PONG, eio_packet.MESSAGE, eio_packet.UPGRADE, eio_packet.CLOSE}
    receive, websocket_handler, post = (socket_class.receive, socket_class._websocket_handler,  # noqa: SLF001
                                        socket_class.handle_post_request)

    async def counted_receive(self: Any, pkt: Any) -> Any:
        if not counts(self.sid):
            return None
        if pkt.packet_type not in known:
            drop("unexpected engine.io packet")
            return None
        return await receive(self, pkt)

    async def checked_websocket(self: Any, ws: Any) -> Any:
        wait = ws.wait

        async def readable_frames() -> Any:
            while True:
                frame = await wait()
                if frame is None or isinstance(frame, bytes) or (isinstance(frame, str) and frame[:1] in FRAMES):
                    return frame
                if not counts(self.sid):
                    return None  # as if the browser had closed it: engine.io closes the socket
                drop("unreadable engine.io frame")

        ws.wait = readable_frames
        return await websocket_handler(self, ws)

    async def checked_post(self: Any, environ: Any) -> Any:
        try:
            return await post(self, environ)
        except (ValueError, TypeError, IndexError) as error:  # a body engine.io cannot decode: socket closed
            drop("unreadable engine.io request")
            raise exceptions.EngineIOError from error

    counted_receive.guarded = True  # type: ignore[attr-defined]
    socket_class.receive = counted_receive
    socket_class._websocket_handler = checked_websocket  # noqa: SLF001
    socket_class.handle_post_request = checked_post


def filter_events(sio: Any, refusal: Refusal) -> None:
    """Show every socket.io event (its namespace and its data: ``[name, *arguments]``) to ``refusal`` before
    socket.io dispatches it; an event it names a reason for is dropped (the reason goes to its ``drop``, by the
    guard itself)."""
    from webgame.framework import engine_reader

    if getattr(sio._handle_event, "guarded", False):  # noqa: SLF001
        return
    engine_reader.inline_sync_events(sio)  # the handler wrapped below runs plain handlers in the reader's task
    handle_event = sio._handle_event  # noqa: SLF001 - called by socket.io's message handler

    async def checked(eio_sid: str, namespace: str | None, packet_id: Any, data: Any) -> Any:
        if refusal(namespace, data) is not None:
            return None
        return await handle_event(eio_sid, namespace, packet_id, data)

    checked.guarded = True  # type: ignore[attr-defined]
    sio._handle_event = checked  # noqa: SLF001


def quick_events(sio: Any, counts: Counts, refusal: Refusal, drop: Drop) -> None:
    """Read the events of the default namespace whose handler is a plain function straight from their frame (see
    above): counted (``counts``), shown to ``refusal``, handed to the handler if the socket is connected there, as
    engine.io and socket.io would, without their packets and calls in between."""
    from webgame.framework import engine_reader

    plain: dict[Any, bool] = {}  # handler -> whether it is a plain function (asked once a handler)

    def quick(eio_sid: str, frame: str) -> bool:
        if not frame.startswith(QUICK_PREFIX):
            return False
        try:
            data = orjson.loads(frame[2:])  # socket.io's decode of such a packet: the JSON after its two digits
        except orjson.JSONDecodeError:
            return False  # socket.io's decode drops it, counted, the long way
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            return False
        handler = sio.handlers.get("/", {}).get(data[0])
        if handler is None:
            return False
        if (is_plain := plain.get(handler)) is None:
            is_plain = plain[handler] = not inspect.iscoroutinefunction(handler)
        if not is_plain:
            return False
        if not counts(eio_sid) or refusal("/", data) is not None:
            return True  # dropped and counted by the guard, as on the long way
        sid = sio.manager.sid_from_eio_sid(eio_sid, "/")
        if sid is None or not sio.manager.is_connected(sid, "/"):
            return True  # socket.io ignores an event of a socket not connected to the namespace
        try:
            handler(sid, *data[1:])
        except (ValueError, TypeError, KeyError, IndexError):  # as the guard's message check on the long way
            drop("malformed socket.io packet")
        except Exception:  # noqa: BLE001 (as engine.io's event call: logged, the socket goes on)
            log.exception("message handler error")
        return True

    engine_reader.quick_frames(sio.eio, quick)

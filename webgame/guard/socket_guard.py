"""What a browser's socket may tell the server: only its own page's events, well formed, and no log lines.

NiceGUI (3.18) routes a socket message by the page's client id it carries, whatever socket sent it: a bare
socket that knew a page's id could tap for that page. And its ``log`` event writes any text the browser sends
into the server's log at ERROR level (161 MB in ten seconds from one socket); a malformed event logs a traceback.
So the handlers of ``event``, ``javascript_response``, ``ack`` and ``log`` are wrapped:

- a message counts only from a socket that did the handshake for that very page (its client's sockets);
- a handshake counts only from a socket that carries the same browser session (the signed session cookie's
  storage id) as the request that built the page: the page's id alone is not enough;
- a malformed message is dropped, and so are browsers' log lines; what was dropped is counted and logged as one
  short line at most once a minute (never a traceback);
- a socket that sends more than ``SOCKET_BURST`` messages at once, or more than ``SOCKET_RATE`` a second for
  long, is closed: a phone sends a few taps and an acknowledgement every 6 s; a flood's parsing is then its
  own page's end (the browser reloads, and page builds are limited).

**Every message counts, whatever it holds.** The count is taken where engine.io hands a socket's message to
socket.io (``sio.eio.handlers["message"]``), before anything reads it: an event without data, one with three
arguments, an unknown event name, an acknowledgement the server never asked for, a packet that is not JSON, all
count against the socket's caps, and so do engine.io's own packets and frames it cannot decode
(``webgame.framework.socket_hooks``). python-socketio calls a handler with as many arguments as the event carried
(an event without data: without its data argument), and a handler with a required data parameter raised a
``TypeError`` that was logged with its traceback for every message (issue 26: 10.4 MB of log in 10 s, none of
it counted). So an event is checked before socket.io dispatches it (``_event_refusal``): one of NiceGUI's own
events with exactly one argument, or it is dropped and counted; a browser may not send ``connect`` or
``disconnect`` as events (they would reach those handlers with whatever the browser put in them).
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from itsdangerous import BadSignature, TimestampSigner
from nicegui import Client

from webgame.framework import page_sockets, socket_hooks

log = logging.getLogger(__name__)

GUARDED = ("event", "javascript_response", "ack", "log")
SOCKET_BURST, SOCKET_RATE = 200, 50.0  # messages a socket may send at once, and then per second
_SOCKETS: dict[str, list[float]] = {}  # engine.io sid -> [messages it may still send, when that was counted]
_CLOSING: set[str] = set()  # sockets closed for flooding, until they are gone
REPORT_EVERY = 60.0  # seconds between two log lines about dropped messages
DROPPED: Counter[str] = Counter()  # why messages were dropped, since the start (the tests read it)
_reported = {"at": 0.0, "count": 0}


def install(sio: Any) -> None:
    """Wrap NiceGUI's socket handlers once (``setup`` runs again for every simulated-user test)."""
    handlers = sio.handlers.get("/", {})
    if getattr(handlers.get("event"), "guarded", False):
        return
    for name in GUARDED:
        if name in handlers:
            handlers[name] = _guarded(name, handlers[name])
    if "handshake" in handlers:
        handlers["handshake"] = _guarded_handshake(sio, handlers["handshake"])
    if "connect" in handlers:  # NiceGUI's implicit handshake (in the socket's query) calls its handshake directly
        handlers["connect"] = _guarded_connect(handlers["connect"])
    socket_hooks.count_engine_packets(_counts, _drop)
    engine = sio.eio.handlers
    engine["message"] = _checked_message(engine["message"])
    engine["disconnect"] = _forgetting(engine["disconnect"])
    refusal = functools.partial(_event_refusal, sio)
    socket_hooks.filter_events(sio, refusal)
    socket_hooks.quick_events(sio, _counts, refusal, _drop)
    global _close_socket  # noqa: PLW0603 - the one server of the process
    _close_socket = functools.partial(page_sockets.end_engine_socket, sio)


_close_socket: Callable[[str], Any] | None = None
EVENTS = frozenset({*GUARDED, "handshake"})  # what NiceGUI's page sends; each carries exactly one argument
PACKETS = frozenset("012")  # socket.io packets a browser sends: connect, disconnect, event (never acks, binary)


def within_rate(sid: str) -> bool:
    """Count one message of the (engine.io) socket ``sid``; False once it is over its budget (it is then
    closed)."""
    now = time.monotonic()
    budget = _SOCKETS.get(sid)
    if budget is None:
        budget = _SOCKETS[sid] = [float(SOCKET_BURST), now]
    budget[0] = min(float(SOCKET_BURST), budget[0] + (now - budget[1]) * SOCKET_RATE)
    budget[1] = now
    if budget[0] < 1.0:
        return False
    budget[0] -= 1.0
    return True


def _over_rate(sid: str) -> None:
    drop("a socket over its message rate (closed)")
    if sid not in _CLOSING and _close_socket is not None:
        _CLOSING.add(sid)
        from nicegui import background_tasks

        background_tasks.create(_close_socket(sid), name="close a flooding socket")


def _counts(sid: str) -> bool:
    """Count one packet of the engine.io socket ``sid``; False (and the socket closing) once over its caps."""
    if sid in _CLOSING or not within_rate(sid):
        _over_rate(sid)
        return False
    return True


def _checked_message(handler: Callable[..., Any]) -> Callable[..., Any]:
    async def checked(eio_sid: str, data: Any) -> Any:
        """A socket.io packet (already counted): one that socket.io cannot read is dropped and counted."""
        if eio_sid in _CLOSING:
            return None
        if not isinstance(data, str) or data[:1] not in PACKETS:
            drop("unexpected socket.io packet")
            return None
        try:
            return await handler(eio_sid, data)
        except (ValueError, TypeError, KeyError, IndexError):  # a packet socket.io cannot decode
            drop("malformed socket.io packet")
            return None

    checked.guarded = True  # type: ignore[attr-defined]
    return checked


def _event_refusal(sio: Any, namespace: str | None, data: Any) -> str | None:
    """Why a socket.io event is dropped before socket.io dispatches it (counted), or None: it goes on. Only one of
    NiceGUI's own events, with exactly its one argument, goes on."""
    name = data[0] if isinstance(data, list) and data else None
    reason = None
    if (namespace or "/") != "/" or not isinstance(name, str) or name not in EVENTS \
            or name not in sio.handlers.get("/", {}):
        reason = "unknown socket event"
    elif len(data) != 2:
        reason = f"{name} without data" if len(data) < 2 else f"{name} with extra data"
    if reason is not None:
        drop(reason)
    return reason


def _drop(reason: str) -> None:
    drop(reason)  # (looked up when called: the tests count the drops by replacing ``drop``)


def _forgetting(handler: Callable[..., Any]) -> Callable[..., Any]:
    async def forgetting(eio_sid: str, *args: Any) -> Any:
        _SOCKETS.pop(eio_sid, None)
        _CLOSING.discard(eio_sid)
        return await handler(eio_sid, *args)

    forgetting.guarded = True  # type: ignore[attr-defined]
    return forgetting


def drop(reason: str) -> None:
    DROPPED[reason] += 1
    now = time.monotonic()
    if now - _reported["at"] >= REPORT_EVERY:
        total = sum(DROPPED.values())
        log.warning("dropped %d socket messages from browsers so far (%s)", total,
                    ", ".join(f"{why}: {count}" for why, count in DROPPED.most_common(4)))
        _reported["at"], _reported["count"] = now, total


def owned_client(sid: str, msg: Any) -> Any:
    """The page this message is for, if ``sid`` is one of that page's own sockets; else None."""
    if not isinstance(msg, dict) or not isinstance(msg.get("client_id"), str):
        return None
    client = Client.instances.get(msg["client_id"])
    if client is None or not page_sockets.shows_page(client, sid):
        return None
    return client


def well_formed(name: str, msg: dict[str, Any]) -> bool:
    if name == "event":
        args = msg.get("args", [])
        return (isinstance(msg.get("id"), int) and isinstance(msg.get("listener_id"), str) and isinstance(args, list)
                and all(arg is None or isinstance(arg, str) for arg in args))
    if name == "javascript_response":
        return isinstance(msg.get("request_id"), str)
    if name == "ack":
        return isinstance(msg.get("next_message_id"), int)
    return True


def _guarded(name: str, handler: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(sid: str, *args: Any) -> Any:
        if len(args) != 1:  # ``_event_refusal`` drops these first; here for any other caller
            drop(f"malformed {name}")
            return None
        msg = args[0]
        if name == "log":
            drop("browser log line")
            return None
        if owned_client(sid, msg) is None:
            drop(f"{name} not from its page's socket")
            return None
        if not well_formed(name, msg):
            drop(f"malformed {name}")
            return None
        try:
            return handler(sid, msg)
        except (ValueError, TypeError, KeyError):  # e.g. an argument that is not JSON, an unknown listener
            drop(f"malformed {name}")
            return None

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


def _guarded_handshake(sio: Any, handler: Callable[..., Any]) -> Callable[..., Any]:
    async def guarded(sid: str, *args: Any) -> Any:
        data = args[0] if len(args) == 1 else None
        if not isinstance(data, dict) or not isinstance(data.get("client_id"), str) \
                or not isinstance(data.get("tab_id"), str) or not isinstance(data.get("document_id"), str):
            drop("malformed handshake")
            return False
        if not same_browser(sio.get_environ(sid) or {}, data["client_id"]):
            drop("handshake from another browser")
            return False
        return await handler(sid, data)

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


def _guarded_connect(handler: Callable[..., Any]) -> Callable[..., Any]:
    async def guarded(sid: str, environ: dict[str, Any], auth: Any = None) -> Any:
        from socketio.exceptions import ConnectionRefusedError as Refused

        query = parse_qs(str(environ.get("QUERY_STRING", "")))
        client_id = query.get("client_id", [""])[0]
        if query.get("implicit_handshake", [""])[0] == "true" and not (
                client_id and all(query.get(key, [""])[0] for key in ("tab_id", "document_id"))
                and same_browser(environ, client_id)):
            drop("handshake from another browser")
            raise Refused("handshake refused")
        return await handler(sid, environ, auth)

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


def same_browser(environ: dict[str, Any], client_id: str) -> bool:
    """Whether a socket (its ``environ``) carries the session of the browser the page ``client_id`` was built for (True
    when there is nothing to compare: no such page, which NiceGUI refuses itself, or no storage secret)."""
    from nicegui import app

    client = Client.instances.get(client_id)
    secret = app.storage.secret
    request = page_sockets.page_request(client) if client is not None else None
    if client is None or request is None or not secret:
        return True
    try:
        page_browser = request.session.get("id")
    except AssertionError:
        return True
    return page_browser is not None and session_id(str(environ.get("HTTP_COOKIE", "")), str(secret)) == page_browser


def session_id(cookie_header: str, secret: str, cookie_name: str = "session") -> str | None:
    """The storage id in a signed Starlette session cookie (as ``SessionMiddleware`` reads it), or None."""
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(cookie_header)
    except Exception:  # noqa: BLE001 - a header we cannot read is no session
        return None
    morsel = cookies.get(cookie_name)
    if morsel is None:
        return None
    try:
        data = TimestampSigner(secret).unsign(morsel.value.encode())
        value = json.loads(base64.b64decode(data)).get("id")
    except (BadSignature, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None

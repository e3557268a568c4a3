"""One simulated phone: a browser's HTTP GET and NiceGUI's socket.io connection, without a browser.

What a NiceGUI 3.18 page does in the browser (``nicegui/static/nicegui.js``, ``templates/index.html``), and
what this class does the same way:

- ``GET /r/CODE`` with the phone's own cookies (its own ``app.storage.user``, so its own seat). The HTML
  holds the element tree (``parseElements(String.raw`...`)``, HTML-escaped JSON) and the socket query
  (``client_id``, ``next_message_id``, ``implicit_handshake``).
- A websocket to ``/_nicegui_ws/socket.io/?EIO=4&transport=websocket&client_id=..&implicit_handshake=true
  &document_id=..&tab_id=..``; Engine.IO v4 framing (``0`` open, ``2``/``3`` ping/pong, ``4`` message) and
  Socket.IO v5 on top (``40`` connect, ``42[name, data]`` event, ``44`` refused: e.g. "Implicit handshake
  failed" after a server restart, when the browser reloads the page).
- Server to phone: ``update`` ({element id: element dict, or null when deleted}), ``notify``, ``open``
  (navigation), ``run_javascript``; each carries ``_id``, the phone acks the next id every 3 s
  (every 6 s on the game's pages).
- Phone to server, on a tap: ``event`` {id, client_id, listener_id, args} with the element's listener for
  ``click`` (args []) or ``update:value`` / ``update:modelValue`` (args [json value]).
- The parts of the game screen are not trees of elements but one element each (``webgame/pages/screen.py``,
  drawn by ``screen.js``): its prop ``model`` is a JSON string of nodes (``{"t": "button", "x": label,
  "id": tid, "d": 1 when disabled}``, labels, containers with children ``k``, the ``toggle`` with ``opts``
  and ``v``, ...). A tap on a node is the element's ``tap`` listener with args [json {id, value}].

A phone keeps a mirror of its element tree, so the bench taps buttons by their label, like a person. A
button of a screen part is keyed ``ELEMENT#TID``; a part's model is parsed only when a look-up needs it,
and again only when its string changed.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import aiohttp

_loads: Callable[[str], Any]
try:
    import orjson

    _loads = orjson.loads
except ImportError:  # pragma: no cover - orjson comes with NiceGUI
    _loads = json.loads

_ELEMENTS = re.compile(r"parseElements\(String\.raw`(.*?)`\)", re.S)
_CLIENT_ID = re.compile(r"'client_id': '([0-9a-f-]+)'")
_NEXT_ID = re.compile(r"'next_message_id': (\d+)")
_PREFIX = re.compile(r'prefix: "([^"]*)"')  # X-Forwarded-Prefix: a cluster's room pages (webgame.cluster.process)
# socket.io's reconnect backoff as the page sets it (``webgame.framework.page_template.RECONNECT_SCRIPT``); a page
# that does
# not (the floor app) keeps socket.io's defaults: 1 s doubling to 5 s.
_RECONNECT = re.compile(r"reconnectionDelay\((\d+)\)\.reconnectionDelayMax\((\d+)\)")
SOCKET_IO_DELAYS = (1.0, 5.0)
# NiceGUI's acknowledgement: a look every 3 s, an ``ack`` when new messages came; a page of the game sends one at most
# every so many ms (``webgame.framework.page_template.ACK_SCRIPT``), the floor's at every look.
_ACK_AT_MOST = re.compile(r"\}\)\(window\.ack, (\d+)\);")
ACK_TICK_S = 3.0
_UNESCAPE = (("&#36;", "$"), ("&#96;", "`"), ("&gt;", ">"), ("&lt;", "<"), ("&amp;", "&"))
WS_PATH = "/_nicegui_ws/socket.io/"
SCREEN_KEY = "#"  # ELEMENT#TID: a node of a screen part
ROOT = "0"  # the page's layout, the root every element is drawn from
REBUILT_WAIT = 10.0  # seconds a reconnected phone waits for its page built again, after a restart
ACK = True
PAGE_TIMEOUT = aiohttp.ClientTimeout(total=60)


class Refused(Exception):
    """The socket.io connect was refused (``44``): the page's client is gone, reload it."""


def parse_page(html: str) -> tuple[dict[str, dict[str, Any]], str, int]:
    match = _ELEMENTS.search(html)
    client = _CLIENT_ID.search(html)
    if match is None or client is None:
        raise ValueError("not a NiceGUI page")
    raw = match.group(1)
    for escaped, plain in _UNESCAPE:
        raw = raw.replace(escaped, plain)
    next_id = _NEXT_ID.search(html)
    return _loads(raw), client.group(1), int(next_id.group(1)) if next_id else 0


Node = dict[str, Any]


def _flatten(nodes: Any, into: list[Node]) -> list[Node]:
    """Every node of a screen model, depth first: the order in which the browser draws them."""
    if isinstance(nodes, list):
        for node in nodes:
            if isinstance(node, dict):
                into.append(node)
                _flatten(node.get("k"), into)
    return into


def _may_hold(model: str, text: str) -> bool:
    """False only when ``text`` can be in none of the model's strings: a plain ASCII text is written as is in
    JSON (by orjson and by ``json.dumps`` alike), so a model that does not contain it need not be parsed."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return text in model
    return True


def _matches(value: Any, label: str | None, contains: str | None) -> bool:
    if label is not None and value != label:
        return False
    return contains is None or (isinstance(value, str) and contains in value)


def _countdown_only(update: dict[str, Any]) -> bool:
    """A tick of the countdown label: not an effect of anybody's tap."""
    for element in update.values():
        if element is None or "mafia-countdown" not in (element.get("class") or ()):
            return False
    return True


class Phone:
    def __init__(self, base: str, label: str = "", language: str = "en") -> None:
        self.base = base
        self.label = label
        self.language = language
        self.session: aiohttp.ClientSession | None = None
        self.path = ""
        self.prefix = ""  # the page's path prefix: its socket's path starts with it
        self.elements: dict[str, dict[str, Any]] = {}
        self.screens: dict[str, tuple[str, list[Node]]] = {}  # element id -> (model, its nodes): parsed lazily
        self.client_id = ""
        self.next_message_id = 0
        self.acked = -1
        self.ack_at_most = 0.0  # seconds: the least time between two acks, as the page sets it (``_read_page``)
        self.tab_id = str(uuid.uuid4())
        # One per page load, kept by every socket of that load (socket.io's reconnects send the same query): NiceGUI
        # deletes a client 30 s after a socket of one document closed unless that document connected again, so a
        # new id per connect got a reconnected phone's client deleted under it.
        self.document_id = str(uuid.uuid4())
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.connected = False
        self.reader: asyncio.Task[None] | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.recent: deque[float] = deque(maxlen=64)  # perf_counter of meaningful updates
        self.waiters: list[asyncio.Future[None]] = []
        self.notifications: list[str] = []
        self.navigate_to: str | None = None
        self.closed = asyncio.Event()
        self.page_bytes = 0
        self.messages = 0
        self.message_bytes = 0
        self.received: Counter[str] = Counter()  # socket.io event name -> messages received (the bench's counts)
        self.received_bytes: Counter[str] = Counter()  # event name -> their bytes on the wire (UTF-8)
        self.drop_reason = ""
        self.reconnect = False  # after a drop: retry like socket.io, reload like nicegui.js
        self.reconnecting = False  # socket.io's reconnect, which names the page (``page_template.ADOPT_SCRIPT``)
        self.server_disconnect = False  # the server sent socket.io's disconnect packet: no reconnect, as a browser
        self.rebuilt = 0.0  # time.time() when the server last sent the whole page again (built in place)
        self.headers: dict[str, str] = {}  # sent with every request (the bench's X-Forwarded-For: an address)
        self.jar: aiohttp.CookieJar | None = None  # another phone's cookies: a second tab of the same browser
        self.delays = SOCKET_IO_DELAYS  # (first, at most) seconds between reconnect attempts, as the page says
        self.trace: list[tuple[str, float]] = []  # the last recovery's steps (time.time()): where a storm's time goes
        self.picks: dict[str, int] = {}  # the browser's pick (screen.js): group -> seat, never sent until its button

    # ------------------------------------------------------------ HTTP

    async def open_session(self) -> None:
        if self.session is None:
            self.session = aiohttp.ClientSession(
                # A fresh connection per request, as a browser opens one for its websocket: a socket upgraded on
                # a reused keep-alive connection was dropped by the server after its keep-alive timeout.
                connector=aiohttp.TCPConnector(force_close=True),
                cookie_jar=self.jar if self.jar is not None else aiohttp.CookieJar(unsafe=True),
                headers={"Accept-Language": self.language, "User-Agent": "mafia-bench phone", **self.headers},
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),  # a total would end the socket too
            )

    async def load(self, path: str) -> None:
        """GET the page like a browser (gzip accepted, cookies kept)."""
        await self.open_session()
        assert self.session is not None
        async with self.session.get(self.base + path, headers={"Accept-Encoding": "gzip"}, timeout=PAGE_TIMEOUT) \
                as response:
            response.raise_for_status()
            html = await response.text()
            self.page_bytes += int(response.headers.get("Content-Length", len(html)))
            landed = response.url.path  # after redirects, like the browser's address bar
        self.path = landed if response.history else path
        self._read_page(html)

    def _read_page(self, html: str) -> None:
        """What a page load gives the browser: its elements, its client, its socket's path and backoff."""
        self.document_id = str(uuid.uuid4())
        self.server_disconnect = False  # a new page load: a new socket.io
        self.elements, self.client_id, self.next_message_id = parse_page(html)
        prefix = _PREFIX.search(html)
        self.prefix = prefix.group(1) if prefix else ""
        delays = _RECONNECT.search(html)
        self.delays = (int(delays.group(1)) / 1000, int(delays.group(2)) / 1000) if delays else SOCKET_IO_DELAYS
        ack_at_most = _ACK_AT_MOST.search(html)
        self.ack_at_most = int(ack_at_most.group(1)) / 1000 if ack_at_most else 0.0
        self.screens.clear()
        self.acked = -1
        self.navigate_to = None

    async def get_json(self, path: str) -> Any:
        await self.open_session()
        assert self.session is not None
        async with self.session.get(self.base + path, timeout=PAGE_TIMEOUT) as response:
            response.raise_for_status()
            return await response.json()

    # ------------------------------------------------------------ socket

    async def connect(self) -> None:
        """Open the socket and do the implicit handshake; ``Refused`` when the server has no such client."""
        assert self.session is not None
        fields: dict[str, Any] = {"client_id": self.client_id, "next_message_id": self.next_message_id,
                                  "implicit_handshake": "true", "document_id": self.document_id, "tab_id": self.tab_id}
        if self.path and self.reconnecting:  # the page's script names its page on a reconnect (ADOPT_SCRIPT)
            fields["mafia_page"] = self.path
        query = urlencode({**fields, "EIO": 4, "transport": "websocket"})
        url = self.base.replace("http", "ws", 1) + self.prefix + WS_PATH + "?" + query
        ws = await self.session.ws_connect(url, autoping=True, max_msg_size=0, compress=0)  # autoping: pong uvicorn
        try:
            opening = await ws.receive(timeout=30)
            if opening.type != aiohttp.WSMsgType.TEXT or not opening.data.startswith("0"):
                raise ConnectionError(f"no engine.io open packet: {opening.type} {opening.data!r}")
            await ws.send_str("40")
            while True:
                reply = await ws.receive(timeout=30)
                if reply.type != aiohttp.WSMsgType.TEXT:
                    raise ConnectionError(f"socket closed during connect: {reply.type}")
                if reply.data == "2":
                    await ws.send_str("3")
                    continue
                if reply.data.startswith("44"):
                    raise Refused(reply.data[2:])
                if reply.data.startswith("40"):
                    break
                self._packet(reply.data)  # an update queued before the connect was acknowledged
        except BaseException:
            await ws.close()
            raise
        self.ws = ws
        self.connected = True
        self.drop_reason = ""  # why the socket closed, if it does again
        self.closed.clear()
        self.reader = asyncio.create_task(self._read(ws))
        if ACK and (self.pinger is None or self.pinger.done()):
            self.pinger = asyncio.create_task(self._ack_loop())

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    data = message.data
                    if data == "2":
                        await ws.send_str("3")
                    elif data.startswith("42"):
                        self.count(data)
                        self._packet(data)
                    elif data.startswith("41"):  # socket.io's disconnect packet: a browser's socket.io never
                        self.server_disconnect = True  # reconnects after it (its page frozen on "Connection lost")
                        self.drop_reason = "io server disconnect"
                        break
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    self.drop_reason = f"{message.type.name} {message.data!r} {ws.close_code}"
                    break
            else:
                self.drop_reason = f"end of stream {ws.close_code} {ws.exception()!r} at {time.time():.1f}"
        except (aiohttp.ClientError, ConnectionError, asyncio.CancelledError) as error:
            self.drop_reason = repr(error)
        finally:
            self.connected = False
            if self.ws is ws:
                self.ws = None
            self.closed.set()
            self._wake()

    def count(self, data: str) -> None:
        """Count a socket.io event received (``42["name",...``): how many messages and bytes each kind of
        message costs a phone per action (``bench.load``'s ``received``)."""
        size = len(data) if data.isascii() else len(data.encode())
        self.messages += 1
        self.message_bytes += size
        end = data.find('"', 4)
        name = data[4:end] if data.startswith('42["') and end > 4 else "?"
        self.received[name] += 1
        self.received_bytes[name] += size

    def _packet(self, data: str) -> None:
        if not data.startswith("42"):
            return
        name, *data_ = _loads(data[2:])  # an event may carry no data (the server's "beat": webgame.browser.heartbeat)
        payload = data_[0] if data_ else None
        if isinstance(payload, dict) and "_id" in payload:
            message_id = int(payload.pop("_id"))
            if message_id < self.next_message_id:
                return
            self.next_message_id = message_id + 1
        if name == "update":
            now = time.perf_counter()
            for key, element in payload.items():
                if element is None:
                    self.elements.pop(key, None)
                    self.screens.pop(key, None)
                else:
                    self.elements[key] = element
            if ROOT in payload:  # the whole page again (built in place after a restart): drawn from the root
                self._prune()
                self.rebuilt = time.time()
            if not _countdown_only(payload):
                self.recent.append(now)
                self._wake()
        elif name == "notify":
            self.notifications.append(str(payload.get("message", "")))
            self._wake()
        elif name == "open":
            target = str(payload.get("path", ""))  # nicegui.js puts the page's prefix before an absolute path
            self.navigate_to = self.prefix + target if target.startswith("/") else target
            self._wake()

    def _prune(self) -> None:
        """Keep only the elements drawn from the root, as the browser's Vue draws them."""
        reachable, todo = set(), [ROOT]
        while todo:
            key = todo.pop()
            element = self.elements.get(key)
            if key in reachable or element is None:
                continue
            reachable.add(key)
            todo.extend(str(child) for child in element.get("children", ()))
            for slot in element.get("slots", {}).values():
                todo.extend(str(child) for child in slot.get("ids", ()))
        for key in [key for key in self.elements if key not in reachable]:
            del self.elements[key]
            self.screens.pop(key, None)

    def _wake(self) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _ack_loop(self) -> None:
        last = -math.inf
        while True:
            await asyncio.sleep(ACK_TICK_S)
            if time.monotonic() - last < self.ack_at_most:
                continue  # (the page's ``ACK_SCRIPT``: not yet)
            if self.ws is not None and self.connected and self.acked < self.next_message_id:
                try:
                    await self._send("ack", {"client_id": self.client_id, "next_message_id": self.next_message_id})
                except (aiohttp.ClientError, ConnectionError):
                    continue  # the socket is closing: the reader sees it, the phone reconnects and acks again
                self.acked = self.next_message_id
                last = time.monotonic()

    async def _send(self, name: str, data: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None:
            raise ConnectionError("not connected")
        await ws.send_str("42" + json.dumps([name, data], separators=(",", ":")))

    async def wait(self, timeout: float) -> bool:
        """Until the next message of interest (update, notification, navigation, drop). False on timeout."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
            return True
        except TimeoutError:
            return False

    async def first_update_after(self, start: float, timeout: float) -> float | None:
        """perf_counter of the first meaningful update after ``start``; None on timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            for moment in self.recent:
                if moment > start:
                    return moment
            left = deadline - time.perf_counter()
            if left <= 0 or not await self.wait(left):
                return None

    async def drop(self) -> None:
        """Close the socket (the browser leaves the page), keep the cookies."""
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)

    async def close(self) -> None:
        self.reconnect = False
        for task in (self.reader, self.pinger):
            if task is not None:
                task.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()  # a shared cookie jar stays with the phone it came from
            self.session = None

    # ------------------------------------------------------------ the page

    def find(self, tag: str | None = None, *, label: str | None = None, contains: str | None = None,
             text: str | None = None, prop: str = "label") -> str | None:
        """The id of the first element with this tag and label (exact, or containing a string). Real NiceGUI
        elements only (the lobby's inputs); the nodes of screen parts are found by ``button`` and ``node``."""
        for key, element in self.elements.items():
            if tag is not None and element.get("tag") != tag:
                continue
            value = (element.get("props") or {}).get(prop)
            if label is not None and value != label:
                continue
            if contains is not None and (not isinstance(value, str) or contains not in value):
                continue
            if text is not None and text not in (element.get("text") or ""):
                continue
            return key
        return None

    def screen_nodes(self, key: str) -> list[Node] | None:
        """The nodes of the screen part ``key``, depth first; None when it is not a screen part. Parsed once
        per model string: an update that replaces the element with the same model costs a comparison."""
        element = self.elements.get(key)
        model = (element.get("props") or {}).get("model") if element is not None else None
        if not isinstance(model, str):
            return None
        cached = self.screens.get(key)
        if cached is None or cached[0] != model:
            try:
                parsed = _loads(model)
            except ValueError:
                parsed = []
            cached = self.screens[key] = (model, _flatten(parsed, []))
        return cached[1]

    def button(self, label: str | None = None, contains: str | None = None) -> str | None:
        """The key of the first enabled button with this label (exact, or containing a string): the element id
        of a q-btn, or ``ELEMENT#TID`` for a button of a screen part. Disabled buttons are skipped."""
        needle = label if label is not None else contains
        for key, element in self.elements.items():
            props = element.get("props") or {}
            if element.get("tag") == "q-btn":
                if not props.get("disable") and _matches(props.get("label"), label, contains):
                    return key
                continue
            model = props.get("model")
            if not isinstance(model, str) or (needle is not None and not _may_hold(model, needle)):
                continue
            for node in self.screen_nodes(key) or ():
                if node.get("t") == "button" and not node.get("d") and isinstance(node.get("id"), str) \
                        and _matches(self._label(node), label, contains):
                    return f"{key}{SCREEN_KEY}{node['id']}"
        return None

    def _label(self, node: Node) -> str | None:
        """A button's label as screen.js draws it: a grid's button (``g``) is disabled until its group has a pick
        (None: not matched) and names the picked seat in place of ``{number}``."""
        text = node.get("x")
        group = node.get("g")
        if group is None or not isinstance(text, str):
            return text
        seat = self.picks.get(group)
        return None if seat is None else text.replace("{number}", str(seat))

    def pick_key(self, contains: str) -> str | None:
        """The key ``ELEMENT#TID`` of the first enabled player of a grid (``pick``) whose label holds ``contains``."""
        for key, element in self.elements.items():
            model = (element.get("props") or {}).get("model")
            if not isinstance(model, str) or not _may_hold(model, contains):
                continue
            for node in self.screen_nodes(key) or ():
                if node.get("t") == "pick" and not node.get("d") and isinstance(node.get("x"), str) \
                        and contains in node["x"]:
                    return f"{key}{SCREEN_KEY}{node['id']}"
        return None

    def node(self, key: str) -> Node | None:
        """The node of a screen key ``ELEMENT#TID`` (the toggle's ``v``, a button's ``o`` or ``d``), or None."""
        element_key, _, tid = key.partition(SCREEN_KEY)
        for node in self.screen_nodes(element_key) or ():
            if node.get("id") == tid:
                return node
        return None

    def node_key(self, tid: str) -> str | None:
        """The key ``ELEMENT#TID`` of the first screen node with this tid, or None."""
        for key, element in self.elements.items():
            model = (element.get("props") or {}).get("model")
            if not isinstance(model, str) or not _may_hold(model, tid):
                continue
            if any(node.get("id") == tid for node in self.screen_nodes(key) or ()):
                return f"{key}{SCREEN_KEY}{tid}"
        return None

    def has_text(self, text: str) -> bool:
        """Whether an element's text, or a text of a screen node (a label, a button, a toggle's option), holds
        ``text``."""
        for key, element in self.elements.items():
            if text in (element.get("text") or ""):
                return True
            model = (element.get("props") or {}).get("model")
            if not isinstance(model, str) or not _may_hold(model, text):
                continue
            for node in self.screen_nodes(key) or ():
                value = node.get("x")
                if isinstance(value, str) and text in value:
                    return True
                for option in node.get("opts") or ():
                    if isinstance(option, list) and len(option) > 1 and isinstance(option[1], str) \
                            and text in option[1]:
                        return True
        return False

    async def fire(self, key: str, kind: str, args: list[Any]) -> None:
        element = self.elements.get(key)
        if element is None:
            raise LookupError(f"{self.label}: element {key} is gone")
        for listener in element.get("events") or ():
            if listener.get("type") == kind:
                await self._send("event", {"id": int(key), "client_id": self.client_id,
                                           "listener_id": listener["listener_id"],
                                           "args": [json.dumps(arg) for arg in args]})
                return
        raise LookupError(f"{self.label}: element {key} has no {kind} listener")

    async def click(self, key: str) -> None:
        """Tap a q-btn (its ``click`` listener) or a button of a screen part (``ELEMENT#TID``). As screen.js: a grid's
        player (``pick``) is picked here and nothing is sent; a grid's button sends the pick."""
        if SCREEN_KEY not in key:
            await self.fire(key, "click", [])
            return
        node = self.node(key) or {}
        group = node.get("g")
        if node.get("t") == "pick" and isinstance(group, str):
            self.picks = {group: int(node["v"])}
            return
        await self.tap(key, self.picks.get(group) if isinstance(group, str) else None)

    async def tap(self, key: str, value: Any) -> None:
        """A tap on the screen node ``ELEMENT#TID``, as ``screen.js`` emits it: one argument, {id, value}."""
        element_key, _, tid = key.partition(SCREEN_KEY)
        await self.fire(element_key, "tap", [{"id": tid, "value": value}])

    async def type_into(self, key: str, value: Any) -> None:
        element = self.elements.get(key) or {}
        kinds = {listener.get("type") for listener in element.get("events") or ()}
        await self.fire(key, "update:value" if "update:value" in kinds else "update:modelValue", [value])

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no update came for ``quiet`` seconds (the page finished re-rendering)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if not await self.wait(quiet):
                return

    # ------------------------------------------------------------ reconnecting like a browser

    async def visit(self, path: str, attempts: int = 30) -> None:
        """Load ``path`` and connect its socket, retrying while the server is down."""
        delay = 0.5
        for attempt in range(attempts):
            try:
                await self.load(path)
                await self.connect()
                return
            except (TimeoutError, aiohttp.ClientError, ConnectionError, OSError, Refused, ValueError):
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 5.0)

    def backoff(self, attempt: int) -> float:
        """Seconds before reconnect attempt ``attempt`` (0, 1, ...), as socket.io's ``Backoff.duration``: the
        page's first delay doubled per attempt, +-50 %, then at most the page's maximum (socket.io caps after the
        jitter: once there, most waits are the maximum itself)."""
        first, most = self.delays
        return min(first * 2 ** min(attempt, 30) * random.uniform(0.5, 1.5), most)

    async def recover(self, give_up: float) -> float:
        """After a drop: socket.io's reconnect (``backoff``, as the page set it), naming its page; a server that
        lost the page builds it again in place and sends it whole (``webgame.framework.page_adoption``), or refuses the
        socket (``44``) and nicegui.js reloads the page. Returns ``time.time()`` when the page is back."""
        attempt = 0
        self.trace = [("dropped", time.time())]
        if self.server_disconnect:  # a browser would sit on "Connection lost" until its person reloads
            raise TimeoutError(f"{self.label}: the server sent socket.io's disconnect: a browser never reconnects")
        while time.time() < give_up:
            await asyncio.sleep(self.backoff(attempt))
            attempt += 1
            self.trace.append(("attempt", time.time()))
            self.rebuilt = 0.0
            self.reconnecting = True
            try:
                await self.connect()
            except Refused:
                self.trace.append(("refused", time.time()))
            except (TimeoutError, aiohttp.ClientError, ConnectionError, OSError) as error:
                self.trace.append((f"failed {type(error).__name__}", time.time()))
                continue
            else:
                self.trace.append(("connected", time.time()))
                if await self.rebuilt_page(REBUILT_WAIT):
                    self.trace.append(("rebuilt", self.rebuilt))
                    return self.rebuilt
                return time.time()  # the server still had the page
            finally:
                self.reconnecting = False
            try:
                await self.load(self.path)
                self.trace.append(("loaded", time.time()))
                await self.connect()
                self.trace.append(("connected", time.time()))
                return time.time()
            except (TimeoutError, aiohttp.ClientError, ConnectionError, OSError, Refused, ValueError) as error:
                self.trace.append((f"reload failed {type(error).__name__}", time.time()))
        raise TimeoutError(f"{self.label} did not reconnect")

    async def rebuilt_page(self, timeout: float) -> bool:
        """Whether the page came whole after the connect (the server built it again), within ``timeout``."""
        deadline = time.time() + timeout
        while not self.rebuilt and time.time() < deadline and self.connected:
            await self.wait(min(0.5, max(0.01, deadline - time.time())))
        return bool(self.rebuilt)

        raise TimeoutError(f"{self.label} did not reconnect")

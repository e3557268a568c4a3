"""``Screen``: one part of a phone's game screen, sent as data and drawn in the browser by ``screen.js``.

A part of the screen (the phase title, the role card, the night grid, the tally, the players) is one element
whose single prop, ``model``, is a JSON string describing its nodes (labels, buttons, cards, ...), not a tree of
dozens of NiceGUI elements rebuilt on every change (docs/PERFORMANCE.md: what that cost). The browser's
component draws them with the same Quasar components and classes, and sends a tap back as ``{id, value}``.
Redrawing a part is building a few dicts and one string, and nothing is sent when the string is unchanged.

A part is built only from its page's own projection, like before: ``Draft`` is a small builder whose calls
mirror the ``ui`` calls they replace. A button's ``tid`` is both its ``data-testid`` in the browser and
the key of its handler, so a tap on a screen that was redrawn meanwhile still means what its button said
(and the engine validates it anyway); a tap with an unknown id does nothing. A node's kinds and keys, and what
each holds, are defined once in ``webgame.pages.screen_keys`` (the test that holds this file and ``screen.js`` to
them: ``tests/web/test_screen_keys.py``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import weakref
from collections.abc import Callable
from types import CodeType
from typing import Any

from nicegui.event_listener import EventListener
from nicegui.events import GenericEventArguments
from nicegui.json import dumps

from webgame.framework.model_element import ModelElement
from webgame.pages.screen_model import Node, model_ids, model_texts

Handler = Callable[..., Any]


class Draft:
    """The nodes of one screen part, and the handlers of its buttons, built like a NiceGUI tree."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._stack: list[list[Node]] = [self.nodes]
        self.handlers: dict[str, Handler] = {}
        self.shared: str | None = None  # the model of a part built once for many pages (``adopt``)
        self.seat = 0  # this page's own seat, beside the model (``own_seat``)
        self.buzz_key = ""  # the step its viewer has a move at, beside the model (``buzz``)
        self.for_handlers = False  # built only to find a tapped node's handler: a builder may skip lines with none

    # ------------------------------------------------------------ leaves

    def _add(self, node: Node, tid: str | None = None) -> Node:
        if tid is not None:
            node["id"] = tid
        self._stack[-1].append(node)
        return node

    def label(self, text: str, cls: str = "", tid: str | None = None) -> None:
        node: Node = {"t": "label", "x": text}
        if cls:
            node["c"] = cls
        self._add(node, tid)

    def heading(self, text: str, level: int = 1, cls: str = "", tid: str | None = None) -> None:
        """A heading (``<h1>``..``<h3>``): screen readers list a page by them; it looks like the label it replaced."""
        node: Node = {"t": "h", "l": min(max(int(level), 1), 3), "x": text, "c": ("mafia-h " + cls).strip()}
        self._add(node, tid)

    def button(self, text: str, on: Handler, tid: str, cls: str = "", icon: str | None = None,
               outline: bool = False, enabled: bool = True, no_caps: bool = False,
               aria_label: str | None = None, flat: bool = False, color: str | None = None,
               tip: str | None = None, covers: bool = False, group: str | None = None) -> None:
        """A q-btn (primary colour unless ``color``, filled unless ``outline``; ``flat``: a small round icon
        button) that calls ``on()`` when tapped; ``tip`` is its tooltip (and its accessible name); ``covers``:
        the screen covers itself again shortly after the tap (a confirmed secret choice). ``group``: the button
        sends the pick of that group (``pick``), ``on(seat)``; the browser draws it disabled (id ``<tid>-off``) until
        a player is picked, or, when ``text`` names the pick (``{number}``, his seat), not at all."""
        node: Node = {"t": "button", "x": text}
        if group is not None:
            node["g"] = group
        if covers:
            node["h"] = 1
        if cls:
            node["c"] = cls
        if icon:
            node["i"] = icon
        if outline:
            node["o"] = 1
        if not enabled:
            node["d"] = 1
        if no_caps:
            node["n"] = 1
        if flat:
            node["f"] = 1
        if color:
            node["col"] = color
        if tip:
            node["tip"] = tip
        if aria_label:
            node["a"] = aria_label
        elif tip:  # the accessible name starts with the visible label (WCAG 2.5.3), the tip after it
            node["a"] = f"{text}: {tip}" if text else tip
        self._add(node, tid)
        if enabled:
            self.handlers[tid] = on

    def link(self, text: str, href: str, tid: str, icon: str | None = None) -> None:
        """A button that opens ``href`` (a share link we build) in a new tab, with no message to the server."""
        node: Node = {"t": "link", "x": text, "href": href}
        if icon:
            node["i"] = icon
        self._add(node, tid)

    def share(self, text: str, done: str, url: str, message: str, tid: str) -> None:
        """The share button: the phone's share sheet (Web Share API), else the link copied and ``done`` said for a
        few seconds (to screen readers too); in the browser alone: the share sheet needs the tap itself."""
        self._add({"t": "share", "x": text, "y": done, "url": url, "msg": message}, tid)

    def badge(self, text: str, color: str) -> None:
        self._add({"t": "badge", "x": text, "col": color})

    def icon(self, name: str) -> None:  # a picture only: a control's name is its text or aria label
        self._add({"t": "icon", "i": name})

    def clock(self, text: str, seconds: float | None, cls: str = "", tid: str | None = None) -> None:
        """A countdown the browser runs itself from ``seconds`` left (shown as ``text`` until its first tick);
        ``seconds=None``: ``text`` as it is (a paused clock). No message per second per phone."""
        node: Node = {"t": "clock", "x": text}
        if seconds is not None:
            node["ms"] = round(seconds * 1000)
        if cls:
            node["c"] = cls
        self._add(node, tid)

    def slot(self, name: str | None = None) -> None:
        """Where the element's NiceGUI children go: those of its default slot (the step's counts, drawn by their own
        ``Screen``), or of its slot ``name`` (the night's cover, ``RoomPage.cover``)."""
        node: Node = {"t": "slot"}
        if name:
            node["s"] = name
        self._add(node)

    def dot(self, connected: bool) -> None:
        self._add({"t": "dot", "on": 1 if connected else 0})  # a presence dot: green when the phone is connected

    def toggle(self, options: dict[str, str], value: str, on: Callable[[str], Any], tid: str, cls: str = "") -> None:
        """Exclusive choice among a few options (q-btn-toggle); ``on(value)`` when another one is tapped."""
        self._add({"t": "toggle", "opts": [[key, text] for key, text in options.items()], "v": value, "c": cls}, tid)
        self.handlers[tid] = on

    def switch(self, text: str, value: bool, on: Callable[[bool], Any], tid: str) -> None:
        """An on/off switch (q-toggle); the browser keeps its position, ``on(value)`` on every change."""
        self._add({"t": "switch", "x": text, "v": bool(value)}, tid)
        self.handlers[tid] = on

    def select(self, options: dict[str, str], value: str, on: Callable[[str], Any], tid: str, cls: str = "",
               aria_label: str | None = None) -> None:
        """A drop-down (q-select) of ``options`` (value -> text); ``on(value)`` when another one is picked."""
        node: Node = {"t": "select", "opts": [[key, text] for key, text in options.items()], "v": value, "c": cls}
        if aria_label:
            node["a"] = aria_label
        self._add(node, tid)
        self.handlers[tid] = on

    def image(self, src: str, cls: str = "", alt: str = "") -> None:
        """A picture of this server (``src`` is one of its own paths, never player text)."""
        self._add({"t": "img", "src": src, "c": cls, "a": alt})

    def form(self, label: str, button: str, on: Callable[[Any], Any], tid: str, send_tid: str,
             maxlength: int = 40, autofocus: bool = True) -> None:
        """One text field and a wide button under it (the join form): the browser keeps what is typed across
        redraws and sends ``{text}`` on the button or Enter. ``autofocus`` False: a second form on the screen."""
        self._add({"t": "form", "lb": label, "x": button, "sid": send_tid, "ml": maxlength, "af": int(autofocus)}, tid)
        self.handlers[tid] = on
        self.handlers[send_tid] = on

    def reveal(self, show: str, hide: str, tid: str = "reveal", cover_tid: str = "cover", cls: str = "") -> None:
        """The toggle between the covered screen and what only its owner may see (``revealed``). It works in the
        browser alone (no message to the server, so the traffic says nothing); the screen covers itself again
        after a few seconds, when the page is hidden, the phone turned or put down, or the phase changes."""
        self._add({"t": "reveal", "x": show, "y": hide, "id": tid, "cid": cover_tid, "c": cls})

    def buzz(self, key: str) -> None:
        """The phone vibrates (and beeps, where it may) when its part is drawn with a ``key`` it has not buzzed for:
        this viewer has something to do at a new step. Sent as the element's ``buzz`` prop beside the model, not in
        it (like ``own_seat``): the covered screen's model stays the same for a phone that has a move and one that
        made it, and it goes with the part's update, no message of its own (issue 32: it was a script and a task sent
        to each phone at every step)."""
        self.buzz_key = key

    def veil_key(self, key: str) -> None:
        """When this changes (a new phase), a revealed screen covers itself."""
        self._add({"t": "vk", "v": key})

    def tile(self, text: str, dead: bool = False, tid: str | None = None) -> None:
        """A player's name in the covered grid: every tile alike in the model. The browser marks the phone's own
        (the tile ``tile-<seat>`` of the element's ``seat``, ``own_seat``), so the grid is one model for all."""
        node: Node = {"t": "tile", "x": text}
        if dead:
            node["dd"] = 1
        self._add(node, tid)

    def pick(self, text: str, group: str, seat: int, tid: str, cls: str = "", enabled: bool = True) -> None:
        """A player in a grid of ``group``, picked in the browser alone: a pick sends nothing and gets no answer
        (issue 32: it was a message and a padded redraw of the panel); the pick is filled, the others outlined, and
        the group's button (``button(group=...)``) sends it. A group names its step, so a new step has no pick."""
        node: Node = {"t": "pick", "x": text, "g": group, "v": int(seat)}
        if cls:
            node["c"] = cls
        if not enabled:
            node["d"] = 1
        self._add(node, tid)

    def chosen(self, text: str, group: str, tid: str, before: str = "", cls: str = "") -> None:
        """The line under a pick grid, drawn in the browser: ``text`` with ``{name}`` the picked player's label once
        one of ``group`` is picked, else ``before`` (muted; nothing when empty)."""
        node: Node = {"t": "chosen", "x": text, "g": group}
        if before:
            node["y"] = before
        if cls:
            node["c"] = cls
        self._add(node, tid)

    def own_seat(self, seat: int) -> None:
        """This page's own seat (0: none), sent as the element's ``seat`` prop beside its model, not in it: a model
        shared by many pages (``adopt``) stays one string, and the browser marks the tile ``tile-<seat>`` itself.
        A phone's seat number is no secret to that phone (the table knows who sits where); its role is."""
        self.seat = int(seat)

    def theme(self, label: str, tid: str = "theme", cls: str = "") -> None:
        """The switch of the day's dark and light colours: kept and followed in the browser, nothing is sent."""
        self._add({"t": "theme", "a": label, "c": cls}, tid)

    def dark(self, on: bool) -> None:
        """The page's colours: dark (the night), or the phone's day colours (its switch, else its own setting)."""
        self._add({"t": "dark", "on": 1 if on else 0})

    def chat_box(self, channels: dict[str, str], on: Callable[[Any], Any], tid: str, send_tid: str,
                 placeholder: str, send_label: str, refused: int) -> None:
        """Where a player writes: a channel picker (when there is more than one), the text and a send button.
        The browser keeps what is typed across redraws, sends ``{channel, text}`` and empties the box; when
        ``refused`` grows (the server refused a message) it puts the text back, to be sent again."""
        self._add({"t": "chat", "opts": [[key, text] for key, text in channels.items()], "v": next(iter(channels)),
                   "ph": placeholder, "a": send_label, "sid": send_tid, "rf": refused}, tid)
        self.handlers[tid] = on
        self.handlers[send_tid] = on

    # ------------------------------------------------------------ containers

    def _box(self, node: Node, tid: str | None = None) -> _Box:
        return _Box(self, node, tid)

    def div(self, cls: str = "", tid: str | None = None) -> Any:
        return self._box({"t": "div", "c": cls}, tid)

    def row(self, cls: str = "") -> Any:
        return self._box({"t": "row", "c": cls})

    def column(self, cls: str = "", tid: str | None = None) -> Any:
        return self._box({"t": "col", "c": cls}, tid)

    def card(self, cls: str = "") -> Any:
        return self._box({"t": "card", "c": cls})

    def covered(self) -> Any:
        """Nodes shown while the screen is covered (the default): the same for every role."""
        return self._box({"t": "cov"})

    def revealed(self) -> Any:
        """Nodes shown only while the phone's owner reveals his screen (the role, the secret move)."""
        return self._box({"t": "rev"})

    def bar(self) -> Any:
        """The step's buttons, pinned to the bottom of the phone's screen (always in the first screenful)."""
        return self._box({"t": "bar"})

    def expansion(self, title: str, opened: bool, cls: str = "", tid: str | None = None) -> Any:
        """A part that folds, ``opened`` at first (and whenever that changes); ``tid``: a tap as it opens, folds."""
        return self._box({"t": "exp", "x": title, "o": 1 if opened else 0, "c": cls}, tid)

    def adopt(self, nodes: list[Node], model: str) -> None:
        """This part is one built once for many pages (``webgame.pages.shared_parts``): its nodes and its model,
        as they are (read, never changed), in an empty draft."""
        if self.nodes or self.handlers:
            raise ValueError("a shared part is the whole of its draft")
        self.nodes.extend(nodes)
        self.shared = model

    def graft(self, nodes: list[Node]) -> None:
        """Nodes built once for many pages (``webgame.pages.shared_parts.graft``) put here as they are (read, never
        changed): the part's own JSON is still made per page, the nodes are not built again."""
        self._stack[-1].extend(nodes)

    def model(self) -> str:  # what the browser draws (screen.js), as one JSON string
        return self.shared if self.shared is not None else dumps(self.nodes)

    @property
    def texts(self) -> list[str]:
        return model_texts(self.nodes)


class _Box:
    """A container node of a draft as a ``with`` block: put in its place on entering, the nodes drawn inside go
    into it. A plain class, not ``contextlib.contextmanager``'s generator (four more calls a box, some hundred boxes
    at every change of a room: issue 32)."""

    __slots__ = ("draft", "node", "tid")

    def __init__(self, draft: Draft, node: Node, tid: str | None) -> None:
        self.draft, self.node, self.tid = draft, node, tid

    def __enter__(self) -> None:
        node = self.node
        children: list[Node] = []
        node["k"] = children
        self.draft._add(node, self.tid)  # noqa: SLF001 (the draft's own helper)
        self.draft._stack.append(children)  # noqa: SLF001

    def __exit__(self, *_exc: object) -> None:
        self.draft._stack.pop()  # noqa: SLF001


class Screen(ModelElement, component="screen.js"):
    """One screen part of one page: ``build(draft)`` fills it from the page's projection; ``refresh()``
    builds it again and sends the new model only if it differs."""

    def __init__(self, build: Callable[[Draft], None]) -> None:
        super().__init__(_TAP, _TAP_EVENTS)  # one listener shared by every part of every page (see _TAP)
        self.build = build
        self.draw()

    def draw(self) -> bool:
        """Build the part; True if its model changed (``refresh`` then sends it to the browser). The handlers of its
        buttons are not kept (a dict and a function a button, on every part of every phone: memory): a tap builds
        the part again to find its own (``tap``)."""
        draft = Draft()
        self.build(draft)
        model = _pooled(draft.model())
        props_changed = self.set_plain_prop("seat", draft.seat)  # ``Draft.own_seat``: there only when set
        props_changed |= self.set_plain_prop("buzz", draft.buzz_key)  # ``Draft.buzz``: the same
        if model == self.drawn_model and not props_changed:
            return False
        self.set_model(model)  # sent by ``refresh``
        return True

    def refresh(self) -> None:
        if self.is_deleted:
            return
        if self.draw():
            self.update()

    def show(self, model: str) -> None:
        """Send ``model``, built once for many pages (``shared_parts.model``), if this part does not have it: what
        ``refresh`` does for a part whose build is that shared model alone (no handler, no seat, no buzz), without
        building a draft (issue 32: the step's counts, drawn again on most phones at every tap)."""
        if self.is_deleted or model == self.drawn_model:
            return
        self.set_model(model)
        self.update()

    @property
    def handlers(self) -> dict[str, Handler]:
        """The handlers of the part's buttons as it is now: built again (a part is drawn from its page's state at
        every change, so this is what its last drawing holds, or what the drawing it is about to get will)."""
        if self.is_deleted:
            return {}
        draft = Draft()
        draft.for_handlers = True
        self.build(draft)
        return draft.handlers

    async def tap(self, tid: str, value: Any = None) -> None:
        """What a tap on the node ``tid`` does (nothing for an unknown or disabled one): the handler of the part
        as it is now, so a tap on a part redrawn meanwhile means what its node means now."""
        handler = self.handlers.get(tid)
        if handler is None:
            return
        result = handler(value) if _takes_value(handler) else handler()
        if inspect.isawaitable(result):
            await result

    async def _tapped(self, event: GenericEventArguments) -> None:
        args = event.args
        if isinstance(args, list) and args:
            args = args[0]
        if not isinstance(args, dict) or not isinstance(args.get("id"), str):
            return
        await self.tap(args["id"], args.get("value"))

    @property
    def texts(self) -> list[str]:
        """What the part displays (for NiceGUI's simulated user, ``should_see``), read from its model: not kept
        beside it (every text would be held twice on every page)."""
        return model_texts(json.loads(self.drawn_model))

    @property
    def node_ids(self) -> dict[str, bool]:
        """The id of every node of the drawn model -> enabled (read from the model, not kept beside it)."""
        return model_ids(json.loads(self.drawn_model))


async def _tap(event: GenericEventArguments) -> None:
    if isinstance(event.sender, Screen):
        await event.sender._tapped(event)  # noqa: SLF001


# A part's "tap" listener, shared by every part of every page instead of one per element (memory on every
# phone, docs/PERFORMANCE.md): NiceGUI hands the handler the element that was tapped (``event.sender``). It
# keeps no page's request (``request=None``): a handler that read ``app.storage.user`` would fail instead of
# reading some other browser's; no part's handler reads it (a page reads its identity once, when built).
_TAP = EventListener(element_id=-1, type="tap", args=None,  # type: ignore[arg-type]  # None, as ``on()`` passes it
                     handler=_tap, js_handler=None, throttle=0.0, leading_events=True, trailing_events=True,
                     request=None)
_TAP_EVENTS: list[dict[str, Any]] = [_TAP.to_dict()]


_POOL: dict[str, str] = {}  # the models drawn in this turn of the event loop (``_pooled``)


def _pooled(model: str) -> str:
    """One string for equal models drawn in one turn of the loop: a room's change draws every page's parts in one go,
    and the pages of one language and role often draw the same model (the heading, the news and the players of the
    town's phones). Each page held its own copy until its next change; now they share one (memory on every phone).
    The pool is emptied at the loop's next turn, so it holds no model longer than the change that drew it."""
    if not _POOL:
        try:
            asyncio.get_running_loop().call_soon(_POOL.clear)
        except RuntimeError:  # no loop (a plain call in a test): no pool
            return model
    return _POOL.setdefault(model, model)


def _takes_value(handler: Handler) -> bool:
    """Whether a handler wants the tap's value (a positional parameter without a default)."""
    code = getattr(handler, "__code__", None)
    if code is None or getattr(handler, "__self__", None) is not None:  # a bound method, a partial, a builtin
        return _signature_takes_value(handler)
    return _code_takes_value(code, len(getattr(handler, "__defaults__", None) or ()))


@functools.lru_cache(maxsize=1024)
def _code_takes_value(code: CodeType, defaults: int) -> bool:
    """The same for a plain function, from its code: cached, the handlers of a part are new lambdas at every
    redraw but share a few code objects."""
    return code.co_argcount > defaults or bool(code.co_flags & inspect.CO_VARARGS)


def _signature_takes_value(handler: Handler) -> bool:
    try:
        parameters = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) and p.default is p.empty
               for p in parameters)


class ScreenSection:
    """A ``Screen`` placed once in a page (``RoomPage``'s parts) and redrawn in place by ``refresh``.

    It holds its screen weakly: the page's client holds the element, and a page that is gone takes the
    element, its model and its handlers with it (``refresh`` then does nothing)."""

    __slots__ = ("_screen", "build")  # six on every phone: no dict each

    def __init__(self, build: Callable[[Draft], None]) -> None:
        self.build = build
        self._screen: weakref.ref[Screen] | None = None

    @property
    def screen(self) -> Screen | None:
        return self._screen() if self._screen is not None else None

    def __call__(self) -> Screen:
        screen = Screen(self.build)
        self._screen = weakref.ref(screen)
        return screen

    def refresh(self) -> None:
        screen = self.screen
        if screen is not None:
            screen.refresh()

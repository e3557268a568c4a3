"""The pages showing a room: told of every change, the hooks that look at all of them after one, and who is online.

A page subscribes when it is built and unsubscribes when its tab closes. The room (``Room.change``) calls
``notify`` after every change, outside its lock, with what changed (a ``Change``); a page recomputes its own
projection and redraws what changed. One broken page must not stop the others, so every call is guarded and
logged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from webgame.room.chat import ChatLine

log = logging.getLogger(__name__)

PRESENCE_DELAY = 0.3  # seconds: the connections and departures of this long are told to the pages at once
PRESENCE_BUSY_DELAY = 1.5  # ... or of this long, when the pages were told of one less than PRESENCE_BUSY ago
PRESENCE_BUSY = 3.0  # seconds: a room whose phones come and go this often (a restart's storm) is told less often

OwnerT = TypeVar("OwnerT")


class Change(StrEnum):
    """What changed in a room: each page redraws only the parts that show it. The values are the words the
    pages, the hooks and the logs always saw."""

    SEATS = "seats"  # who sits where in the lobby (names, order, bots, the moderator's badge)
    SETTINGS = "settings"  # the lobby's options and timers (the host's inputs are kept)
    STRUCTURE = "structure"  # what the lobby's page is made of (the rule set, the host) or who is the host
    STAGE = "stage"  # the lobby, a game, or its results
    STATE = "state"  # the game itself: an action, a step ended, the day's result's hold over
    CLOCK = "clock"  # the host's clock buttons: paused, resumed, more time
    PRESENCE = "presence"  # who has a page open; the moderator's phone gone or back
    TICK = "tick"  # the countdown's whole second
    CHAT = "chat"  # a chat line (the pages got it through ``chat_added``; the hooks are told this)
    STANDINGS = "standings"  # the evening's standings, read again from the database


class Subscriber(Protocol):
    """A page showing a room. Called synchronously after every change; must not raise."""

    def room_changed(self, what: Change) -> None: ...

    def chat_added(self, line: ChatLine) -> None: ...


class Audience(Generic[OwnerT]):
    """One room's subscribed pages, its after-notify hooks (called with the room), and each seat's open pages."""

    def __init__(self, owner: OwnerT, code: str, now: Callable[[], float] = time.time) -> None:
        self.owner = owner
        self.code = code
        self.now = now  # the room's clock (tests replace it)
        self.since = now()  # a seat never connected since the room was loaded counts as gone since then
        self.left_at: dict[str, float] = {}  # token hash -> when its last page closed (webgame.room.seat_moves)
        self.pages: list[Subscriber] = []
        self.hooks: list[Callable[[OwnerT, Change], None]] = []  # e.g. webgame.pages.evenness.even_out
        self.connections: dict[str, int] = {}  # token hash -> pages of his connected now
        self.shown_second: int | None = None  # the countdown's whole second the pages were last told of
        self.presence_due: asyncio.Task[None] | None = None  # telling the pages who is online, shortly
        self.presence_told = -PRESENCE_BUSY  # time.monotonic() when the pages were last told who is online
        # Which telling of the pages is under way (``notify``), None between two: what every page reads alike of the
        # room may be read once per telling (``webgame.pages.game_view.room_keys``): nothing changes while they draw.
        self.telling: int | None = None
        self._told = 0

    def subscribe(self, page: Subscriber) -> None:
        self.pages.append(page)

    def unsubscribe(self, page: Subscriber) -> None:
        if page in self.pages:
            self.pages.remove(page)

    def notify(self, what: Change) -> None:
        self._told += 1
        self.telling = self._told
        try:
            for page in list(self.pages):
                try:
                    page.room_changed(what)
                except Exception:  # one broken page must not stop the others
                    log.exception("room %s: a page failed to render", self.code)
        finally:
            self.telling = None
        self.after_notify(what)

    def notify_chat(self, line: ChatLine) -> None:
        for page in list(self.pages):
            try:
                page.chat_added(line)
            except Exception:
                log.exception("room %s: a page failed to show a chat line", self.code)
        self.after_notify(Change.CHAT)

    def after_notify(self, what: Change) -> None:
        """Hooks that look at every page's pending update together (the pages' padding), before it is sent."""
        for hook in list(self.hooks):
            try:
                hook(self.owner, what)
            except Exception:
                log.exception("room %s: an after-notify hook failed", self.code)

    def tick(self, remaining: float | None) -> None:
        """When the countdown's whole second changes, every page sets its countdown label (one server-side tick
        per room instead of a timer per page)."""
        shown = None if remaining is None else int(remaining + 0.999)
        if shown != self.shown_second:
            self.shown_second = shown
            self.notify(Change.TICK)

    # ------------------------------------------------------------ presence

    def is_connected(self, token_hash: str) -> bool:
        return self.connections.get(token_hash, 0) > 0

    def gone_for(self, token_hash: str) -> float:
        """Seconds this seat has had no connected page (0 while it has one; since the room was loaded if never)."""
        if self.is_connected(token_hash):
            return 0.0
        return max(0.0, self.now() - self.left_at.get(token_hash, self.since))

    def client_connected(self, token_hash: str | None) -> None:
        if token_hash is None:
            return
        self.connections[token_hash] = self.connections.get(token_hash, 0) + 1
        if self.connections[token_hash] == 1:
            self._presence_changed()

    def client_disconnected(self, token_hash: str | None) -> None:
        if token_hash is None or not self.connections.get(token_hash):
            return
        self.connections[token_hash] -= 1
        if self.connections[token_hash] == 0:
            self.left_at[token_hash] = self.now()
            self._presence_changed()

    def _presence_changed(self) -> None:
        """Tell the pages who is online, once for every change of the next ``PRESENCE_DELAY`` seconds. After a
        restart a room's phones come back one after the other, and each one's arrival redrew the players' dots
        on every page of the room (a dozen phones: 78 redraws; a tenth of the server's work in the reconnect
        storm, docs/PERFORMANCE.md). While phones keep coming (the pages were told less than ``PRESENCE_BUSY``
        ago) the changes gather for ``PRESENCE_BUSY_DELAY``: a table coming back over several seconds is redrawn
        a few times, not once per phone. ``is_connected`` itself is never late (the host's watch reads it)."""
        if self.presence_due is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test's plain call): at once
            self.notify(Change.PRESENCE)
            return
        busy = time.monotonic() - self.presence_told < PRESENCE_BUSY
        delay = PRESENCE_BUSY_DELAY if busy else PRESENCE_DELAY
        self.presence_due = loop.create_task(self._tell_presence(delay), name=f"presence of room {self.code}")

    async def _tell_presence(self, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
        finally:
            self.presence_due = None
        self.presence_told = time.monotonic()
        self.notify(Change.PRESENCE)

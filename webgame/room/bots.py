"""The bots of one room: they play through the same door as a phone, from their own seat's projection.

A bot is a seat like any other (``SeatInfo.is_bot``, kept in the seat record): nobody holds its token, the
server acts for it with its token's hash. ``Bots.tick(now)``, called by the game clock a few times a second,
looks at the room when it changed: each bot seat that has a legal action in ITS projection
(``Room.projection(its hash)``) gets a time to act, a human-like few seconds away (soon when every human is
done, never past the step's deadline). When that time comes the bot asks its projection again, lets
``engine.seat_bots.decide`` choose from that view alone, and sends the action through ``Room.act``: the room
checks it like a phone's, and a stale choice is simply refused. Nothing is remembered between calls that is
not in the projection, so after a restart the bots go on from the replayed log.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Protocol

from engine.actions import Action
from engine.errors import RuleError
from engine.seat_bots import decide
from webgame.errors import Refusal
from webgame.room.projection import Projection
from webgame.room.seating import SeatInfo

__all__ = ["ALONE_SECONDS", "NEXT_SECONDS", "THINKING_SECONDS", "BotTable", "Bots", "decide"]

log = logging.getLogger(__name__)

THINKING_SECONDS = (2.0, 6.0)  # a bot's first choice of a step, like a person reading his screen
NEXT_SECONDS = (0.8, 2.0)  # its next choice in the same step (a nomination, then the end of its speech)
ALONE_SECONDS = (0.3, 1.0)  # when every human at the table is done: the bots do not hold the step up
MARGIN_SECONDS = 1.0  # a bot acts at least this long before the step's deadline


class BotTable(Protocol):
    """What the bots use of a room (``webgame.room.rooms.Room``): its seating, its projections, its one door in."""

    code: str
    now: Callable[[], float]

    @property
    def seating(self) -> list[SeatInfo]: ...

    @property
    def paused(self) -> bool: ...

    def remaining(self) -> float | None: ...

    def holding(self) -> bool: ...

    def version(self) -> tuple[int | None, int, int, int]: ...

    def projection(self, token_hash: str | None) -> Projection | None: ...

    async def act(self, token_hash: str | None, action: Action) -> None: ...


class Bots:
    """One room's bots: when each bot seat acts next, and the acting itself (through ``Room.act``)."""

    def __init__(self, room: BotTable, rng: random.Random | None = None) -> None:
        self.room = room
        self.rng = rng or random.Random()
        self.level = "simple"  # a seat without a level of its own
        self.due: dict[str, tuple[int, float]] = {}  # bot token hash -> (step, when it acts)
        self.seen: tuple[int | None, int, int, int] | None = None
        self._seated: tuple[list[SeatInfo], bool] | None = None  # a game's seating, and whether it seats a bot

    def bot_hashes(self) -> list[str]:
        return [seat.token_hash for seat in self.room.seating if seat.is_bot] if self.has_bots() else []

    def has_bots(self) -> bool:
        """Whether the present game seats a bot, remembered per seating: the clock asks every room a few times a
        second, and most games have none (a game's seats stay bots or people; a new game brings a new list)."""
        seating = self.room.seating
        held = self._seated
        if held is None or held[0] is not seating:
            held = self._seated = (seating, any(seat.is_bot for seat in seating))
        return held[1]

    def level_of(self, token_hash: str) -> str:
        """The level the host picked for this bot (``engine.seat_bots.LEVELS``)."""
        return next((seat.bot_level for seat in self.room.seating if seat.token_hash == token_hash), self.level)

    async def tick(self, now: float) -> int:
        """Plan after a change, then act for every bot whose time has come; how many actions were taken."""
        if not self.has_bots():  # (first: the clock's every look at a room without bots ends here)
            self.due.clear()
            self.seen = None
            return 0
        remaining = self.room.remaining()
        if remaining is None or self.room.paused or self.room.holding():
            self.due.clear()  # (the day's result on the screens: the night's choices wait, planned after it)
            self.seen = None
            return 0
        version = self.room.version()
        if version != self.seen:
            self.seen = version
            self.plan(now, now + remaining)
        acted = 0
        for token_hash, (step, when) in sorted(self.due.items(), key=lambda item: item[1][1]):
            if when > now or self.due.get(token_hash) != (step, when):
                continue  # (not yet; or a bot's act just before re-planned this one: its new plan counts)
            del self.due[token_hash]
            if await self._act(token_hash, step):
                acted += 1
                self.seen = self.room.version()
                self.plan(now, now + (self.room.remaining() or 0.0), after=token_hash)
        return acted

    def plan(self, now: float, deadline: float, after: str | None = None) -> None:
        """When each bot with something to do acts: kept if already planned for this step, else a few seconds
        away (``after``: the bot that just acted, sooner); soon for all when the humans are done."""
        waiting: dict[str, int] = {}
        for token_hash in self.bot_hashes():
            projection = self.room.projection(token_hash)
            if projection is not None and projection.view.get("actions"):
                waiting[token_hash] = projection.step
        self.due = {h: plan for h, plan in self.due.items() if waiting.get(h) == plan[0]}
        humans_done = not any(self._human_waits(seat) for seat in self.room.seating if not seat.is_bot)
        latest = max(now, deadline - MARGIN_SECONDS)
        for token_hash, step in waiting.items():
            if token_hash not in self.due:
                low, high = NEXT_SECONDS if token_hash == after else THINKING_SECONDS
                self.due[token_hash] = (step, now + self.rng.uniform(low, high))
            step, when = self.due[token_hash]
            if humans_done:
                when = min(when, now + self.rng.uniform(*ALONE_SECONDS))
            self.due[token_hash] = (step, min(when, latest))

    def _human_waits(self, seat: SeatInfo) -> bool:
        projection = self.room.projection(seat.token_hash)
        return projection is not None and bool(projection.view.get("actions"))

    async def _act(self, token_hash: str, step: int) -> bool:
        """The bot's choice from its own projection now, through the room's door; False if nothing was done."""
        projection = self.room.projection(token_hash)
        if projection is None or projection.step != step:
            return False
        action = decide(projection.view, self.rng, self.level_of(token_hash))
        if action is None:
            return False
        try:
            await self.room.act(token_hash, action)
        except (Refusal, RuleError) as refused:  # the step moved on meanwhile: the engine says no, nothing changed
            log.info("room %s: a bot's %s was refused: %s", self.room.code, action.kind, refused)
            return False
        return True

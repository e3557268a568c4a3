"""Rooms: the long-lived server objects a game is played in, and the registry of them (code -> Room).

A room lives in exactly one process. It holds the lobby (rule set, options, timers, seats, host), the
engine's ``GameState`` of the running game, the clock (an absolute deadline, or the seconds left while
paused) and the pages subscribed to it. Every change goes the same way::

    page handler -> Room.<method>(token_hash, ...) -> engine.apply (validated, then in place) -> store (action
                 log; if that fails, the state is replayed without it) -> every subscriber re-renders what
                 changed in its own projection

A room's changes are serialized by its ``asyncio.Lock``. Callers identify themselves by the SHA-256 of
their seat token; every permission (seat, host, moderator) is checked here, whatever the page offered.
A refused request raises ``Refusal`` (or the engine's ``RuleError``) and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engine import actions as engine_actions
from engine.actions import Action, Deadline, Foul
from engine.dealing import PLAYER_RANGE
from engine.errors import RuleError, StaleAction
from engine.game import apply, new_game, replay, step_seconds
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.options import OPTION_TABLES, OptionValue, resolve
from engine.state import GameState, Phase
from engine.view import chat_channels, public_view
from webgame import chat_limits, store
from webgame.chat_limits import CHAT_BURST, CHAT_MAX_LENGTH, CHAT_WINDOW  # noqa: F401 - the chat's limits, here too
from webgame.errors import Refusal
from webgame.i18n import N_
from webgame.identity import clean_name
from webgame.store import RoomRecord, RoomStatus, SeatRecord

log = logging.getLogger(__name__)

RULE_SETS = ("uz", "uk")
EXTEND_SECONDS = 30
CHAT_KEPT = 500
# What the lobby offers before the host changes it: uk is a 12-player game (8-14 when allowed).
DEFAULT_PLAYER_LIMITS: dict[str, tuple[int, int]] = {"uz": PLAYER_RANGE["uz"], "uk": (12, 12)}


class Stage(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"  # the game is over; its results stay until the host plays again


@dataclass(eq=False, slots=True)
class SeatInfo:
    id: int
    token_hash: str
    name: str
    position: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    channel: str  # room, mafia, dead
    seat: int  # engine seat of the writer (0: the moderator)
    name: str
    text: str


class Subscriber(Protocol):
    """A page showing a room. Called synchronously after every change; must not raise."""

    def room_changed(self, what: str) -> None: ...

    def chat_added(self, line: ChatLine) -> None: ...


def _timer_names(rules: str) -> set[str]:
    return {spec.name for spec in OPTION_TABLES[rules] if spec.timer}


@dataclass(eq=False)
class Room:
    id: int
    code: str
    rules: str
    options: dict[str, OptionValue]  # the non-timer options the host changed
    timers: dict[str, OptionValue]  # the timer options the host changed
    moderated: bool
    host_hash: str | None
    min_players: int
    max_players: int
    language: str
    now: Callable[[], float]
    seats: list[SeatInfo] = field(default_factory=list)
    stage: Stage = Stage.LOBBY
    game_id: int | None = None
    seating: list[SeatInfo] = field(default_factory=list)  # engine seat n is seating[n - 1]
    state: GameState | None = None
    deadline: float | None = None
    paused_remaining: float | None = None
    chat: list[ChatLine] = field(default_factory=list)
    connections: dict[str, int] = field(default_factory=dict)
    subscribers: list[Subscriber] = field(default_factory=list)
    after_notify: list[Callable[[Room, str], None]] = field(default_factory=list)  # e.g. webgame.pages.evenness
    chat_times: dict[str, list[float]] = field(default_factory=dict)  # writer's token hash -> his last messages
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _public: dict[str, Any] | None = None
    _shown_second: int | None = None

    # ------------------------------------------------------------ building

    @classmethod
    def from_record(cls, record: RoomRecord, seats: list[SeatRecord], now: Callable[[], float]) -> Room:
        low, high = DEFAULT_PLAYER_LIMITS[record.rules]
        room = cls(
            id=record.id, code=record.code, rules=record.rules, options=dict(record.options),
            timers=dict(record.timers), moderated=record.moderated and record.rules == "uk",
            host_hash=record.host_token_hash, min_players=record.min_players or low,
            max_players=record.max_players or high, language=record.language, now=now,
        )
        room.seats = [_seat_info(seat) for seat in seats if not seat.left]
        return room

    # ------------------------------------------------------------ who is who

    def seat_by_hash(self, token_hash: str | None) -> SeatInfo | None:
        if token_hash is None:
            return None
        return next((seat for seat in self.seats if seat.token_hash == token_hash), None)

    def game_seat(self, token_hash: str | None) -> int:
        """The engine seat number of this token in the current game, 0 if none."""
        if token_hash is None:
            return 0
        for number, seat in enumerate(self.seating, 1):
            if seat.token_hash == token_hash:
                return number
        return 0

    def is_host(self, token_hash: str | None) -> bool:
        return token_hash is not None and token_hash == self.host_hash

    def is_moderator(self, token_hash: str | None) -> bool:
        return self.moderated and self.is_host(token_hash)

    @property
    def host_seat(self) -> SeatInfo | None:
        return self.seat_by_hash(self.host_hash)

    def viewer(self, token_hash: str | None) -> Viewer:
        """How this token sees the game: its seat, the moderator, or a spectator."""
        if self.state is None:
            return SPECTATOR
        if self.game_seat(token_hash):
            return Viewer.of_seat(self.game_seat(token_hash))
        if self.moderated and self.is_host(token_hash) and self.game_id is not None:
            return MODERATOR
        return SPECTATOR

    def name_of(self, seat: int) -> str:
        """The name at engine seat ``seat`` of the current game."""
        if 1 <= seat <= len(self.seating):
            return self.seating[seat - 1].name
        return "?"

    def players(self) -> list[SeatInfo]:
        """The lobby seats that will play: everyone but the moderator."""
        return [seat for seat in self.seats if not (self.moderated and seat.token_hash == self.host_hash)]

    def is_connected(self, token_hash: str) -> bool:
        return self.connections.get(token_hash, 0) > 0

    def engine_options(self) -> dict[str, OptionValue]:
        return resolve(self.rules, {**self.options, **self.timers})

    def public(self) -> dict[str, Any]:
        """The public part of the projection, computed once per state change and shared by every viewer."""
        if self._public is None and self.state is not None:
            self._public = public_view(self.state)
        return self._public or {}

    def remaining(self) -> float | None:
        """Seconds left in the current step (None when no game is running)."""
        if self.stage is not Stage.PLAYING:
            return None
        if self.paused_remaining is not None:
            return self.paused_remaining
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.now())

    @property
    def paused(self) -> bool:
        return self.stage is Stage.PLAYING and self.paused_remaining is not None

    def start_problem(self) -> tuple[str, dict[str, object]] | None:
        """Why the game cannot start now (a message id and its parameters), or None."""
        count = len(self.players())
        low, high = self.player_limits()
        if count < low:
            return N_("Waiting for players: at least {count} are needed, {now} are here."), {"count": low, "now": count}
        if count > high:
            return N_("Too many players: at most {count} can play, {now} are here."), {"count": high, "now": count}
        return None

    def player_limits(self) -> tuple[int, int]:
        low, high = PLAYER_RANGE[self.rules]
        return max(low, self.min_players), min(high, self.max_players)

    # ------------------------------------------------------------ subscribers

    def subscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber in self.subscribers:
            self.subscribers.remove(subscriber)

    def notify(self, what: str) -> None:
        for subscriber in list(self.subscribers):
            try:
                subscriber.room_changed(what)
            except Exception:  # one broken page must not stop the others
                log.exception("room %s: a page failed to render", self.code)
        self._after_notify(what)

    def _after_notify(self, what: str) -> None:
        """Hooks that look at every page's pending update together (the pages' padding), before it is sent."""
        for hook in list(self.after_notify):
            try:
                hook(self, what)
            except Exception:
                log.exception("room %s: an after-notify hook failed", self.code)

    def tick(self) -> None:
        """The clock, a few times a second: when the countdown's whole second changes, every page sets its
        countdown label (one server-side tick per room instead of a timer per page)."""
        remaining = self.remaining()
        shown = None if remaining is None else int(remaining + 0.999)
        if shown != self._shown_second:
            self._shown_second = shown
            self.notify("tick")

    def _notify_chat(self, line: ChatLine) -> None:
        for subscriber in list(self.subscribers):
            try:
                subscriber.chat_added(line)
            except Exception:
                log.exception("room %s: a page failed to show a chat line", self.code)
        self._after_notify("chat")

    def client_connected(self, token_hash: str | None) -> None:
        if token_hash is None:
            return
        self.connections[token_hash] = self.connections.get(token_hash, 0) + 1
        if self.connections[token_hash] == 1:
            self.notify("presence")

    def client_disconnected(self, token_hash: str | None) -> None:
        if token_hash is None or token_hash not in self.connections:
            return
        self.connections[token_hash] = max(0, self.connections[token_hash] - 1)
        if self.connections[token_hash] == 0:
            self.notify("presence")

    # ------------------------------------------------------------ permissions

    def _require_host(self, token_hash: str | None) -> None:
        if not self.is_host(token_hash):
            raise Refusal(N_("Only the host can do that."))

    def _require_lobby(self) -> None:
        if self.stage is not Stage.LOBBY:
            raise Refusal(N_("The game has already started."))

    def _require_game(self) -> GameState:
        if self.stage is Stage.LOBBY or self.state is None:
            raise Refusal(N_("The game has not started yet."))
        if self.stage is Stage.FINISHED:
            raise Refusal(N_("The game is over."))
        return self.state

    # ------------------------------------------------------------ lobby

    async def join(self, token: str, name: str) -> SeatInfo:
        """Seat a new person at the table (lobby only)."""
        async with self.lock:
            self._require_lobby()
            existing = self.seat_by_hash(store.hash_token(token))
            if existing is not None:
                return existing
            low, high = PLAYER_RANGE[self.rules]
            if len(self.players()) >= high:
                raise Refusal(N_("This room is full: {count} players is the most this rule set allows."), count=high)
            clean = clean_name(name, [seat.name for seat in self.seats])
            record = await store.add_seat(self.id, token=token, name=clean)
            seat = _seat_info(record)
            self.seats.append(seat)
        self.notify("seats")
        return seat

    async def set_rules(self, token_hash: str | None, rules: str) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            if rules not in RULE_SETS:
                raise Refusal(N_("Unknown rule set {name}."), name=str(rules)[:20])
            if rules == self.rules:
                return
            low, high = DEFAULT_PLAYER_LIMITS[rules]
            await store.update_room(self.id, rules=rules, options={}, timers={}, moderated=False,
                                    min_players=low, max_players=high)
            self.rules, self.options, self.timers, self.moderated = rules, {}, {}, False
            self.min_players, self.max_players = low, high
        self.notify("structure")

    async def set_option(self, token_hash: str | None, name: str, value: object) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            spec = next((spec for spec in OPTION_TABLES[self.rules] if spec.name == name), None)
            if spec is None:
                raise Refusal(N_("There is no option named {name}."), name=str(name)[:40])
            checked = spec.check(value)  # RuleError when out of range or of the wrong type
            if spec.timer:
                timers = {**self.timers, name: checked}
                await store.update_room(self.id, timers=timers)
                self.timers = timers
            else:
                options = {**self.options, name: checked}
                await store.update_room(self.id, options=options)
                self.options = options
        self.notify("settings")

    async def set_player_limits(self, token_hash: str | None, low: int, high: int) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            floor, ceiling = PLAYER_RANGE[self.rules]
            if not (floor <= low <= high <= ceiling):
                raise Refusal(N_("Player counts must be between {low} and {high}, the smaller first."),
                              low=floor, high=ceiling)
            await store.update_room(self.id, min_players=low, max_players=high)
            self.min_players, self.max_players = low, high
        self.notify("settings")

    async def set_moderated(self, token_hash: str | None, moderated: bool) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            if moderated and self.rules != "uk":
                raise Refusal(N_("Only the uk rule set has a moderator."))
            await store.update_room(self.id, moderated=moderated)
            self.moderated = moderated
        self.notify("structure")

    async def move_seat(self, token_hash: str | None, seat_id: int, delta: int) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            index = next((i for i, seat in enumerate(self.seats) if seat.id == seat_id), None)
            if index is None:
                raise Refusal(N_("That seat is no longer at the table."))
            other = index + delta
            if not 0 <= other < len(self.seats):
                return
            order = list(self.seats)
            order[index], order[other] = order[other], order[index]
            positions = {seat.id: position for position, seat in enumerate(order)}
            await store.set_seat_positions(self.id, positions)
            for seat in order:
                seat.position = positions[seat.id]
            self.seats = order
        self.notify("seats")

    async def remove_seat(self, token_hash: str | None, seat_id: int) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            seat = next((seat for seat in self.seats if seat.id == seat_id), None)
            if seat is None:
                raise Refusal(N_("That seat is no longer at the table."))
            if seat.token_hash == self.host_hash:
                raise Refusal(N_("The host cannot remove himself; hand the host role to someone first."))
            await store.leave_seat(seat.id)
            self.seats.remove(seat)
        self.notify("seats")

    async def make_host(self, token_hash: str | None, seat_id: int) -> None:
        async with self.lock:
            self._require_host(token_hash)
            if self.stage is Stage.PLAYING:
                raise Refusal(N_("The host role can only be handed over outside a game."))
            seat = next((seat for seat in self.seats if seat.id == seat_id), None)
            if seat is None:
                raise Refusal(N_("That seat is no longer at the table."))
            await store.update_room(self.id, host_token_hash=seat.token_hash)
            self.host_hash = seat.token_hash
        self.notify("structure")

    async def start(self, token_hash: str | None) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_lobby()
            problem = self.start_problem()
            if problem is not None:
                raise Refusal(problem[0], **problem[1])
            players = self.players()
            options = self.engine_options()
            seed = secrets.randbelow(2**63)
            state = new_game(self.rules, len(players), seed, options)
            seating = [{"seat_id": seat.id, "name": seat.name} for seat in players]
            game = await store.start_game(self.id, rules=self.rules, seed=seed, seating=seating, options=options)
            self.game_id, self.state, self.seating = game.id, state, list(players)
            self.chat, self._public = [], None
            self.paused_remaining = None
            self.deadline = self.now() + step_seconds(state)
            await store.set_deadline(game.id, deadline_at=self.deadline)
            self.stage = Stage.PLAYING
        self.notify("stage")

    async def play_again(self, token_hash: str | None) -> None:
        """Back to the lobby with the same people, after a game ended."""
        async with self.lock:
            self._require_host(token_hash)
            if self.stage is not Stage.FINISHED:
                raise Refusal(N_("The game is not over yet."))
            await store.set_room_status(self.id, RoomStatus.LOBBY)
            self.stage, self.state, self.game_id, self.seating = Stage.LOBBY, None, None, []
            self.chat, self._public, self.deadline, self.paused_remaining = [], None, None, None
        self.notify("stage")

    # ------------------------------------------------------------ the game

    async def act(self, token_hash: str | None, action: Action) -> None:
        """A player's (or the moderator's) action, checked against who sent it, then the rules."""
        async with self.lock:
            self._require_game()
            if isinstance(action, Deadline):
                raise Refusal(N_("Only the clock or the host ends a step."))
            if isinstance(action, Foul):
                if not self.is_moderator(token_hash):
                    raise Refusal(N_("Only the moderator gives fouls."))
            else:
                seat = self.game_seat(token_hash)
                if not seat:
                    raise Refusal(N_("You are not playing in this game."))
                if action.seat != seat:
                    raise Refusal(N_("You can only act for yourself."))
            await self._apply(action)
        self.notify("state")

    async def expire(self, step: int, now: float) -> bool:
        """The clock: end step ``step`` if its deadline has passed. False when there was nothing to do."""
        async with self.lock:
            state = self.state
            if (self.stage is not Stage.PLAYING or state is None or state.step != step
                    or self.deadline is None or now < self.deadline):
                return False
            try:
                await self._apply(Deadline(step))
            except StaleAction:
                return False
        self.notify("state")
        return True

    async def skip(self, token_hash: str | None, step: int) -> None:
        """The host ends the current step now (``step`` is the one his screen showed: a stale tab is refused)."""
        async with self.lock:
            self._require_host(token_hash)
            self._require_game()
            await self._apply(Deadline(step))
        self.notify("state")

    async def pause(self, token_hash: str | None) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_game()
            if self.paused_remaining is not None or self.deadline is None:
                return
            self.paused_remaining = max(0.0, self.deadline - self.now())
            self.deadline = None
            await self._save_clock()
        self.notify("clock")

    async def resume(self, token_hash: str | None) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_game()
            if self.paused_remaining is None:
                return
            self.deadline = self.now() + self.paused_remaining
            self.paused_remaining = None
            await self._save_clock()
        self.notify("clock")

    async def extend(self, token_hash: str | None, seconds: int = EXTEND_SECONDS) -> None:
        async with self.lock:
            self._require_host(token_hash)
            self._require_game()
            if self.paused_remaining is not None:
                self.paused_remaining += seconds
            elif self.deadline is not None:
                self.deadline += seconds
            await self._save_clock()
        self.notify("clock")

    async def say(self, token_hash: str | None, channel: str, text: str) -> ChatLine:
        """A chat message, on a channel this person may write to now."""
        async with self.lock:
            state = self.state
            if state is None:
                raise Refusal(N_("The chat opens when the game starts."))
            viewer = self.viewer(token_hash)
            if channel not in chat_channels(state, viewer)["write"]:
                raise Refusal(N_("You cannot write in this chat now."))
            clean = chat_limits.admit(self.chat_times, token_hash or "", text, self.now())  # every attempt counts
            seat = viewer.seat if viewer.kind == "seat" else 0
            name = self.name_of(seat) if seat else (self.host_seat.name if self.host_seat else "?")
            try:
                await store.append_chat(self.id, channel=channel, seat_position=seat, text=clean,
                                        game_id=self.game_id)
            except Exception:
                log.exception("room %s: a chat message could not be saved", self.code)
                raise Refusal(N_("The message could not be saved. Please try again.")) from None
            line = ChatLine(channel=channel, seat=seat, name=name, text=clean)
            self.chat.append(line)
            del self.chat[:-CHAT_KEPT]
        self._notify_chat(line)
        return line

    async def _apply(self, action: Action) -> None:
        """Apply in place, then log it: a refused or unsaved action changes nothing.

        The engine validates before it mutates (a ``RuleError`` leaves the state as it was), so no copy is
        needed for a refusal. If the log write fails, the state is rebuilt by replaying the log without the
        new action (the log the database holds), and every page is shown that state again.
        """
        state = self.state
        assert state is not None and self.game_id is not None
        before, index = state.step, len(state.log)
        apply(state, action)
        try:
            await store.append_action(self.game_id, index, engine_actions.to_dict(action))
        except BaseException as error:
            # The database is the truth: take the game back as its log says (without this action, unless the
            # write did land before failing), so memory and database never disagree.
            without = _without_last(state)
            logged = await self._as_logged(without) if isinstance(error, Exception) else without
            self.state, self._public = logged, None
            if len(logged.log) > index and not isinstance(error, store.ActionIndexConflict):
                log.warning("room %s: a write reported %r but the action is in the log", self.code, error)
                await self._after_step(before)
                return  # it counted after all
            self.notify("state")  # a page built while the write was pending showed the unsaved action
            if isinstance(error, store.ActionIndexConflict):
                log.exception("room %s: the action log and the game disagree", self.code)
                raise Refusal(N_("Something went wrong; please try again.")) from None
            if isinstance(error, Exception):  # the disk is full, the file locked or read-only, the server gone
                log.exception("room %s: an action could not be saved", self.code)
                raise Refusal(N_("The game could not be saved, so your action did not count. "
                                 "Please try again.")) from None
            raise
        self._public = None
        await self._after_step(before)

    async def _after_step(self, before: int) -> None:
        """The clock (a new step, a new deadline) or the end, saved as well as the database allows: the action
        itself is in the log, and a restart recomputes what these writes would have kept."""
        new_state = self.state
        assert new_state is not None and self.game_id is not None
        try:
            if new_state.phase is Phase.ENDED:
                self.stage, self.deadline, self.paused_remaining = Stage.FINISHED, None, None
                await store.finish_game(self.game_id, winner=new_state.winner, room_status=RoomStatus.FINISHED)
            elif new_state.step != before:
                seconds = float(step_seconds(new_state))
                if self.paused_remaining is not None:
                    self.paused_remaining = seconds
                else:
                    self.deadline = self.now() + seconds
                await self._save_clock()
        except Exception:
            log.exception("room %s: the clock or the end of the game could not be saved", self.code)

    async def _as_logged(self, fallback: GameState) -> GameState:
        """The game as the database's action log replays it (``fallback`` if the database cannot be read)."""
        assert self.game_id is not None and self.state is not None
        try:
            payloads = await store.load_actions(self.game_id)
            state = self.state
            return replay(state.rules, state.n, state.seed, state.options,
                          [engine_actions.from_dict(payload) for payload in payloads])
        except Exception:
            log.exception("room %s: the action log could not be read back", self.code)
            return fallback

    async def _save_clock(self) -> None:
        if self.game_id is not None:
            await store.set_deadline(self.game_id, deadline_at=self.deadline, paused_remaining=self.paused_remaining)


def _without_last(state: GameState) -> GameState:
    """The state before its last action: the game replayed from its seed and the rest of its log."""
    return replay(state.rules, state.n, state.seed, state.options, state.log[:-1])


def _seat_info(record: SeatRecord) -> SeatInfo:
    return SeatInfo(id=record.id, token_hash=record.token_hash, name=record.name, position=record.position)


class Registry:
    """Every room this process serves, by code. ``now`` is the one time source of rooms and clock
    (tests replace it)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.rooms: dict[str, Room] = {}
        self.now = now
        self._loading = asyncio.Lock()

    def _now(self) -> float:
        return self.now()

    def clear(self) -> None:
        self.rooms.clear()

    async def create(self, *, token: str, name: str, rules: str, language: str) -> Room:
        """A new room in the lobby, with its creator seated as the host."""
        if rules not in RULE_SETS:
            raise Refusal(N_("Unknown rule set {name}."), name=str(rules)[:20])
        clean = clean_name(name, [])
        low, high = DEFAULT_PLAYER_LIMITS[rules]
        record = await store.create_room(rules=rules, language=language)
        record = await store.update_room(record.id, min_players=low, max_players=high)
        seat = await store.add_seat(record.id, token=token, name=clean, is_host=True)
        record = await store.get_room(record.id)
        room = Room.from_record(record, [seat], self._now)
        self.rooms[room.code] = room
        return room

    def get(self, code: str) -> Room | None:
        return self.rooms.get(store.normalize_code(code))

    async def find(self, code: str) -> Room | None:
        """The room with this code: in memory, else rebuilt from the database (finished ones too)."""
        code = store.normalize_code(code)
        if not code or len(code) > 12:
            return None
        room = self.rooms.get(code)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(code)
            if room is not None:
                return room
            record = await store.get_room_by_code(code)
            if record is None:
                return None
            room = await self._rebuild(record)
            if room is not None:
                self.rooms[code] = room
            return room

    async def restore_all(self) -> int:
        """Startup: rebuild every room in the lobby or playing, by replaying its games' logs.

        It runs while the server already answers (NiceGUI starts it as a background task), so a phone's page
        may ask ``find`` for a room first: both rebuild under the same lock, and a room already rebuilt is
        kept. Two copies of one room would split its phones: pages subscribed to the copy the registry lost
        would get no update again, and their taps would play on a stale state."""
        count = 0
        for record in await store.list_active_rooms():
            async with self._loading:
                if record.code in self.rooms:
                    continue
                room = await self._rebuild(record)
                if room is not None:
                    self.rooms[record.code] = room
                    count += 1
        return count

    async def _rebuild(self, record: RoomRecord) -> Room | None:
        try:
            return await rebuild_room(record, self._now)
        except Exception:
            log.exception("room %s could not be rebuilt from the database", record.code)
            return None


async def rebuild_room(record: RoomRecord, now: Callable[[], float]) -> Room:
    """A room as its records say: the lobby, or the latest game replayed to the same step and deadline."""
    seats = await store.list_seats(record.id, include_left=True)
    room = Room.from_record(record, seats, now)
    game = await store.latest_game(record.id)
    if game is None or record.status is RoomStatus.LOBBY:
        return room
    actions = [engine_actions.from_dict(payload) for payload in await store.load_actions(game.id)]
    state = replay(game.rules, len(game.seating), game.seed, game.options, actions)
    by_id = {seat.id: seat for seat in seats}
    room.seating = [_seat_info(by_id[int(entry["seat_id"])]) for entry in game.seating]
    room.game_id, room.state = game.id, state
    chat = await store.list_chat(record.id, game_id=game.id, limit=CHAT_KEPT)
    room.chat = [ChatLine(channel=line.channel, seat=line.seat_position, name=_chat_name(room, line.seat_position),
                          text=line.text) for line in chat]
    if state.phase is Phase.ENDED:
        room.stage = Stage.FINISHED
        if game.finished_at is None:
            await store.finish_game(game.id, winner=state.winner, room_status=RoomStatus.FINISHED)
        return room
    room.stage = Stage.PLAYING
    room.deadline, room.paused_remaining = game.deadline_at, game.paused_remaining
    if room.deadline is None and room.paused_remaining is None:
        room.deadline = now() + step_seconds(state)
        await store.set_deadline(game.id, deadline_at=room.deadline)
    return room


def _chat_name(room: Room, seat: int) -> str:
    if seat:
        return room.name_of(seat)
    return room.host_seat.name if room.host_seat else "?"


registry = Registry()
"""The process's rooms. Pages and the clock use this one; tests clear it."""


def refusal_text(error: Refusal | RuleError, gettext: Callable[[str], str]) -> str:
    """A refusal in the reader's language."""
    try:
        return gettext(error.msgid).format(**error.params)
    except (KeyError, IndexError, ValueError):
        return gettext(error.msgid)

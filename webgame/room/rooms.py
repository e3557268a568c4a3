"""Rooms: the long-lived server objects a game is played in, and the registry of them (code -> Room).

A room lives in exactly one process. ``Room`` is its one way in and its one way out; what it holds is in
parts a page never touches directly:

- ``webgame.room.seating.Lobby``: the settings and the seats (rule set, options, timers, moderator, host);
- ``webgame.room.table_game.TableGame``: the game with its clock (seating, engine state, deadline, action log);
- ``webgame.room.chat.Chat``: the chat lines and flood control; ``webgame.room.subscribers.Audience``: the pages
  showing the room, and who is online;
- ``webgame.room.host_watch.HostWatch``: the host role handed on (by the host, or when his phone is gone), and
  ``webgame.room.seat_moves.SeatMoves``: a seat moved to another phone with a one-time code.

Every change goes the same way, through ``Room.change`` (the parts never take the lock nor tell the pages)::

    page handler -> Room.<method>(token_hash, ...) -> Room.change(what, ...): under the lock, the checks, then
                 the part (a game's action: validated, written to the log, then applied) -> Room.notify(what)
                 -> every subscriber redraws from Room.projection(its token hash)

A room's changes are serialized by its ``asyncio.Lock``. Callers identify themselves by the SHA-256 of their
seat token; every permission (seat, host, moderator) is checked here, whatever the page offered. A refused
request raises ``Refusal`` (or the engine's ``RuleError``) and changes nothing; ``what`` (a ``Change``) says
the pages what to redraw.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from engine.actions import MODERATOR_ACTIONS, Action, Deadline
from engine.errors import StaleAction
from engine.knowledge import SPECTATOR, Viewer
from engine.options import OptionValue
from engine.state import GameState, Phase
from engine.view_types import PublicView
from webgame.errors import Refusal, refusal_text
from webgame.language.i18n import N_
from webgame.room import host_watch, lookup as room_lookup, notices as room_notices, seat_moves
from webgame.room.bots import Bots
from webgame.room.chat import CHAT_BURST, CHAT_KEPT, CHAT_MAX_LENGTH, CHAT_WINDOW, Chat, ChatLine
from webgame.room.delegation import Held
from webgame.room.projection import Projection
from webgame.room.seating import DEFAULT_PLAYER_LIMITS, RULE_SETS, Lobby, SeatInfo, open_lobby
from webgame.room.subscribers import Audience, Change, Subscriber
from webgame.room.table_game import Stage, TableGame
from webgame.store import leases, queries as store
from webgame.store.queries import RoomRecord, RoomStatus, SeatRecord

__all__ = [
    "CHAT_BURST", "CHAT_KEPT", "CHAT_MAX_LENGTH", "CHAT_WINDOW", "DEFAULT_PLAYER_LIMITS", "EXTEND_SECONDS",
    "RULE_SETS", "Change", "ChatLine", "Projection", "Registry", "Room", "SeatInfo", "Stage", "Subscriber",
    "rebuild_room", "refusal_text", "registry",
]

log = logging.getLogger(__name__)

EXTEND_SECONDS = 30
T = TypeVar("T")


class Room:
    """A room: every request comes in through its methods (checked, under its lock) and every screen's content
    goes out through ``projection``; its parts hold the lobby, the game, the chat and the pages."""

    # What the parts hold and answer, read through the room (the pages and the tests name them so):
    # the lobby's settings and seats,
    rules, language, moderated = Held[str]("lobby"), Held[str]("lobby"), Held[bool]("lobby")
    options, timers = Held[dict[str, OptionValue]]("lobby"), Held[dict[str, OptionValue]]("lobby")
    min_players, max_players, host_hash = Held[int]("lobby"), Held[int]("lobby"), Held[str | None]("lobby")
    seats, host_seat = Held[list[SeatInfo]]("lobby"), Held[SeatInfo | None]("lobby")
    seat_by_hash = Held[Callable[[str | None], SeatInfo | None]]("lobby")
    is_host = Held[Callable[[str | None], bool]]("lobby")
    is_moderator = Held[Callable[[str | None], bool]]("lobby")
    handover_seconds, moderator_takeover = Held[int]("lobby"), Held[bool]("lobby")  # webgame.room.host_watch
    players = Held[Callable[[], list[SeatInfo]]]("lobby")  # the lobby seats that will play: all but the moderator
    engine_options = Held[Callable[[], dict[str, OptionValue]]]("lobby")
    start_problem = Held[Callable[[], tuple[str, dict[str, object]] | None]]("lobby")  # why it cannot start
    player_limits = Held[Callable[[], tuple[int, int]]]("lobby")
    # the game and its clock,
    stage, game_id, state = Held[Stage]("game"), Held[int | None]("game"), Held[GameState | None]("game")
    seating = Held[list[SeatInfo]]("game")  # engine seat n is seating[n - 1]
    deadline, paused_remaining = Held[float | None]("game"), Held[float | None]("game")
    paused, holding = Held[bool]("game"), Held[Callable[[], bool]]("game")  # holding: the day's result shown
    remaining = Held[Callable[[], float | None]]("game")  # seconds left in the step, None without a game
    game_seat = Held[Callable[[str | None], int]]("game")  # engine seat of a token in this game, 0 if none
    name_of = Held[Callable[[int], str]]("game")  # the name at an engine seat of this game
    seat_is_bot = Held[Callable[[int], bool]]("game")  # whether a bot plays that seat (webgame.room.bots)
    public = Held[Callable[[], PublicView | None]]("game")  # every projection's public part, made once per state
    # the host role and the seats' phones,
    make_host, set_handover = Held[host_watch.HostCall]("host_watch"), Held[host_watch.HostCall]("host_watch")
    offer_move, take_seat = Held[seat_moves.Offer]("moves"), Held[seat_moves.Take]("moves")
    live_code = Held[Callable[[int], str | None]]("moves")  # the code that moves a seat now, if any
    # the pages.
    subscribe = Held[Callable[[Subscriber], None]]("audience")
    unsubscribe = Held[Callable[[Subscriber], None]]("audience")
    notify = Held[Callable[[Change], None]]("audience")  # every page redraws what changed, then the hooks run
    is_connected = Held[Callable[[str], bool]]("audience")
    client_connected = Held[Callable[[str | None], None]]("audience")
    client_disconnected = Held[Callable[[str | None], None]]("audience")

    def __init__(self, record: RoomRecord, seats: list[SeatRecord], now: Callable[[], float]) -> None:
        self.id, self.code, self.now = record.id, record.code, now
        self.lock = asyncio.Lock()
        self.audience: Audience[Room] = Audience(self, record.code, now)
        self.lobby = Lobby.from_record(record, seats)
        self.game = TableGame(record.id, record.code, now)
        self.chat_log = Chat(record.code)
        # the projections made in the room's present state, by way of seeing it (``projection``)
        self._projections: tuple[object, dict[tuple[Viewer, bool], tuple[int, Projection | None]]] = (None, {})
        self._holding: tuple[int | None, bool] = (None, False)  # (the telling it was read in, the result's hold on)
        self.bots = Bots(self)  # the bot seats' player, driven by the clock (webgame.room.bots)
        self.notices = room_notices.Notices()  # what the room told everyone (a seat moved, a new host)
        self.host_watch, self.moves = host_watch.HostWatch(self), seat_moves.SeatMoves(self)

    @property
    def chat(self) -> list[ChatLine]:
        return self.chat_log.lines

    @property
    def subscribers(self) -> list[Subscriber]:
        return self.audience.pages

    @property
    def after_notify(self) -> list[Callable[[Room, Change], None]]:
        """Hooks called with the room after the pages were told of a change (e.g. ``webgame.pages.evenness``)."""
        return self.audience.hooks

    # ------------------------------------------------------------ who is who

    def viewer(self, token_hash: str | None) -> Viewer:
        """How this token sees the game: its seat, the moderator, or a spectator."""
        return self.game.viewer(token_hash, self.lobby.is_moderator(token_hash))

    # ------------------------------------------------------------ the way out

    def projection(self, token_hash: str | None) -> Projection | None:
        """Everything this token's screen may show of the game (None when there is no game). Made once per state of
        the room (the game's ``version`` without its chat, and the day's result's hold: all a view is made from) and
        way of seeing it (the viewer, and whether he holds a gone moderator's controls): a viewer's pages, every
        spectator and the TV, and the bots' plans share it, and a page told of a change that is not its view's
        gets the very same object (its screen's keys then match at once). A chat line changes no view: a
        reader of its channel gets the projection he had with the new lines (the same view object), anyone else
        the very same projection. Read it, never change it."""
        moderator = self.lobby.is_moderator(token_hash)
        viewer = self.game.viewer(token_hash, moderator)
        game, actions, step, said = self.version()
        now = (game, actions, step, self.holding_now())
        if self._projections[0] != now:
            self._projections = (now, {})
        made = self._projections[1]
        key = (viewer, moderator)
        held = made.get(key)
        if held is None:
            projection = self.game.projection(viewer, self.chat_log, moderator)
        elif held[0] == said or held[1] is None:
            return held[1]
        else:  # only the chat was said more: the lines this viewer reads, if any are new to him
            projection = held[1]
            lines = self.chat_log.readable(projection.view["chat"]["read"])
            if len(lines) != len(projection.chat) or any(a is not b for a, b in zip(lines, projection.chat,
                                                                                           strict=True)):
                projection = dataclasses.replace(projection, chat=lines)
        made[key] = (said, projection)
        return projection

    def moved_since(self, projection: Projection, applied: int) -> frozenset[str] | None:
        """What changed of the public part since ``projection`` was read, ``applied`` actions into its game, when
        nothing since could change its viewer's own part (``TableGame.moved_since``); None when something could have."""
        if projection.viewer_kind == "moderator" or projection.game_id != self.game.game_id:
            return None
        seat = projection.viewer_seat
        return self.game.moved_since(Viewer.of_seat(seat) if projection.viewer_kind == "seat" else SPECTATOR, applied)

    def holding_now(self) -> bool:
        """Whether the day's result is held on the screens (``TableGame.holding``), read once per telling of the pages
        (``Audience.telling``): every page of one telling sees the hold alike."""
        telling = self.audience.telling
        if telling is None or self._holding[0] != telling:
            self._holding = (telling, self.game.holding())
        return self._holding[1]

    def seat_alive(self, token_hash: str | None) -> bool | None:
        """Whether this token's seat in the running game is alive; None when it has none or no game runs."""
        seat = self.game.game_seat(token_hash)
        if self.stage is not Stage.PLAYING or not seat:
            return None
        return self.game.seat_alive(seat)

    def seats_connected(self) -> list[bool]:
        """For each engine seat of the current game, whether its person has a page open (public dots)."""
        return [seat.is_bot or self.audience.is_connected(seat.token_hash) for seat in self.game.seating]

    def at_night(self) -> bool:
        """Whether the running game is in a night (public: every screen says so)."""
        state = self.game.state
        return self.stage is Stage.PLAYING and state is not None and state.phase is Phase.NIGHT

    def version(self) -> tuple[int | None, int, int, int]:
        """Changes whenever what any page of the game shows may change: (game, actions, step, chat lines said)."""
        state = self.game.state
        if state is None:
            return self.game_id, 0, 0, self.chat_log.said
        return self.game_id, len(state.log), state.step, self.chat_log.said

    # ------------------------------------------------------------ the way in

    async def change(self, what: Change | None, change: Callable[[], Awaitable[T]]) -> T:
        """The one way a room changes: under its lock, ``change`` checks and lets a part change itself (a
        ``Refusal`` or ``RuleError`` changes nothing and tells nobody); then, outside the lock, every page is told
        ``what`` unless the change answered False (nothing changed) or ``what`` is None (nothing a page shows).
        Its answer is the change's."""
        async with self.lock:
            answer = await change()
        if what is not None and answer is not False:
            self.notify(what)
        return answer

    # ------------------------------------------------------------ subscribers

    def tick(self) -> None:
        """The clock, a few times a second: the pages set their countdown labels when its second changes."""
        self.audience.tick(self.remaining())

    # ------------------------------------------------------------ the lobby

    def _require_lobby(self) -> None:
        if self.stage is not Stage.LOBBY:
            raise Refusal(N_("The game has already started."))

    async def _host_in_lobby(self, token_hash: str | None, what: Change,
                             change: Callable[[], Awaitable[Any]]) -> None:
        """A change of the host's in the lobby; the pages are told (``what``) unless it returned False."""

        async def checked() -> Any:
            self.lobby.require_host(token_hash)
            self._require_lobby()
            return await change()

        await self.change(what, checked)

    async def join(self, token: str, name: str) -> SeatInfo:
        """Seat a new person at the table (lobby only)."""
        seated: list[SeatInfo] = []

        async def sit() -> bool:
            self._require_lobby()
            seat, new = await self.lobby.join(token, name)
            seated.append(seat)
            return new  # a person already seated (another tab of his): nothing changed

        await self.change(Change.SEATS, sit)
        return seated[0]

    async def set_rules(self, token_hash: str | None, rules: str) -> None:
        await self._host_in_lobby(token_hash, Change.STRUCTURE, lambda: self.lobby.set_rules(rules))

    async def set_option(self, token_hash: str | None, name: str, value: object) -> None:
        await self._host_in_lobby(token_hash, Change.SETTINGS, lambda: self.lobby.set_option(name, value))

    async def set_player_limits(self, token_hash: str | None, low: int, high: int) -> None:
        await self._host_in_lobby(token_hash, Change.SETTINGS, lambda: self.lobby.set_player_limits(low, high))

    async def set_moderated(self, token_hash: str | None, moderated: bool) -> None:
        # SEATS (the badge and the seat numbers), then SETTINGS: not STRUCTURE, which would rebuild the
        # host's inputs and lose the timers he is typing into them.
        await self._host_in_lobby(token_hash, Change.SEATS, lambda: self.lobby.set_moderated(moderated))
        self.notify(Change.SETTINGS)

    async def move_seat(self, token_hash: str | None, seat_id: int, delta: int) -> None:
        await self._host_in_lobby(token_hash, Change.SEATS, lambda: self.lobby.move_seat(seat_id, delta))

    async def remove_seat(self, token_hash: str | None, seat_id: int) -> None:
        await self._host_in_lobby(token_hash, Change.SEATS, lambda: self.lobby.remove_seat(seat_id))

    async def add_bot(self, token_hash: str | None, level: str = "simple") -> None:
        await self._host_in_lobby(token_hash, Change.SEATS, lambda: self.lobby.add_bot(level))

    async def remove_bot(self, token_hash: str | None) -> None:
        await self._host_in_lobby(token_hash, Change.SEATS, self.lobby.remove_bot)

    async def start(self, token_hash: str | None) -> None:
        async def start() -> None:
            problem = self.lobby.start_problem()
            if problem is not None:
                raise Refusal(problem[0], **problem[1])
            self.chat_log.clear()
            seed = secrets.randbelow(2**63)
            await self.game.start(self.rules, self.lobby.players(), self.lobby.engine_options(), seed)

        await self._host_in_lobby(token_hash, Change.STAGE, start)

    async def play_again(self, token_hash: str | None) -> None:
        """Back to the lobby with the same people, after a game ended."""
        async def close() -> None:
            self.lobby.require_host(token_hash)
            if self.stage is not Stage.FINISHED:
                raise Refusal(N_("The game is not over yet."))
            await self.game.close()
            self.chat_log.clear()

        await self.change(Change.STAGE, close)

    # ------------------------------------------------------------ the game

    async def act(self, token_hash: str | None, action: Action) -> None:
        """A player's (or the moderator's) action, checked against who sent it, then the rules."""
        await self.change(Change.STATE, lambda: self._act(token_hash, action))

    async def _act(self, token_hash: str | None, action: Action) -> None:
        """Under the lock: who sent it, then the game (validated, written, applied: ``TableGame.apply``)."""
        self.game.require_running()
        if isinstance(action, Deadline):
            raise Refusal(N_("Only the clock or the host ends a step."))
        if isinstance(action, MODERATOR_ACTIONS):  # fouls, taking one back, sending a player off
            if not self.is_moderator(token_hash):
                raise Refusal(N_("Only the moderator gives fouls."))
        else:
            seat = self.game_seat(token_hash)
            if not seat:
                raise Refusal(N_("You are not playing in this game."))
            if action.seat != seat:
                raise Refusal(N_("You can only act for yourself."))
        await self.game.apply(action)

    async def expire(self, step: int, now: float) -> bool:
        """The clock: end step ``step`` if its deadline has passed. False when there was nothing to do."""
        async def end() -> bool:
            if not self.game.due(step, now):
                return False
            try:
                await self.game.apply(Deadline(step))
            except StaleAction:
                return False
            return True

        return await self.change(Change.STATE, end)

    async def end_hold(self) -> bool:
        """The clock: the night begins on every screen once the day's result's hold is over
        (``webgame.room.result_hold``). False when no hold was over."""
        return await self.change(Change.STATE, self.game.release)

    async def _host_in_game(self, token_hash: str | None, what: Change,
                            change: Callable[[], Awaitable[Any]]) -> None:
        """A change of the host's during the game; the pages are told (``what``) unless it returned False."""

        async def checked() -> Any:
            self.lobby.require_host(token_hash)
            self.game.require_running()
            return await change()

        await self.change(what, checked)

    async def skip(self, token_hash: str | None, step: int) -> None:
        """The host ends the current step now (``step`` is the one his screen showed: a stale tab is refused)."""
        await self._host_in_game(token_hash, Change.STATE, lambda: self.game.skip(step))  # (or the result's hold)

    async def pause(self, token_hash: str | None) -> None:
        await self._host_in_game(token_hash, Change.CLOCK, self.game.pause)

    async def resume(self, token_hash: str | None) -> None:
        await self._host_in_game(token_hash, Change.CLOCK, self.game.resume)

    async def extend(self, token_hash: str | None, seconds: int = EXTEND_SECONDS) -> None:
        await self._host_in_game(token_hash, Change.CLOCK, lambda: self.game.extend(seconds))

    async def say(self, token_hash: str | None, channel: str, text: str) -> ChatLine:
        """A chat message, on a channel this person may write to now."""
        async with self.lock:
            if self.state is None:
                raise Refusal(N_("The chat opens when the game starts."))
            viewer = self.viewer(token_hash)
            if channel not in self.game.write_channels(viewer):
                raise Refusal(N_("You cannot write in this chat now."))
            writer, now = token_hash or "", self.now()
            clean = self.chat_log.admit(writer, text, now)
            seat = viewer.seat if viewer.kind == "seat" else 0
            line = ChatLine(channel=channel, seat=seat, name=self.chat_name(seat), text=clean)
            await self.chat_log.keep(self.id, self.game_id, writer, line, now)
        self.audience.notify_chat(line)
        return line

    def chat_name(self, seat: int) -> str:
        """The name a chat line of engine seat ``seat`` shows (0: the moderator, by his lobby name)."""
        if seat:
            return self.name_of(seat)
        return self.host_seat.name if self.host_seat else "?"


class Registry:
    """Every room this process serves, by code. ``now``: the time of rooms and clock (tests replace it).
    ``claims``: in a cluster, a room is loaded only once its lease is ours (``webgame.cluster.process``)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.rooms: dict[str, Room] = {}
        self.now = now
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}  # code -> its rebuild's lock, and its users
        self.claims: leases.Claims | None = None

    def _now(self) -> float:
        return self.now()

    @asynccontextmanager
    async def _loading_lock(self, code: str) -> AsyncIterator[None]:
        """One rebuild of a code at a time (rooms load side by side). The lock is forgotten once nobody holds or
        waits for it: a wrong code typed, or a room dropped, leaves nothing behind in the registry."""
        lock, users = self._loading.get(code, (asyncio.Lock(), 0))
        self._loading[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            held = self._loading.get(code)
            if held is not None and held[0] is lock:
                if held[1] <= 1:
                    del self._loading[code]
                else:
                    self._loading[code] = (lock, held[1] - 1)

    def clear(self) -> None:
        self.rooms.clear()
        self._loading.clear()

    async def create(self, *, token: str, name: str, rules: str, language: str) -> Room:
        """A new room in the lobby, with its creator seated as the host."""
        record, seat = await open_lobby(token=token, name=name, rules=rules, language=language)
        room = Room(record, [seat], self._now)
        if self.claims is None:  # (a cluster: the process the proxy sends the code to loads it, ``find``)
            self.rooms[room.code] = room
        return room

    def get(self, code: str) -> Room | None:
        return self.rooms.get(store.normalize_code(code))

    async def find(self, code: str) -> Room | None:  # RoomMoving, RoomElsewhere: a cluster (webgame.room.lookup)
        return await room_lookup.find(self, code)  # (look-alike codes: room_codes)

    async def load(self, code: str) -> Room | None:
        """The room with this exact code: in memory, else rebuilt from the database (finished ones too)."""
        code = store.normalize_code(code)
        if not code or len(code) > 12 or code in self.rooms:
            return self.rooms.get(code)
        if self.claims is not None and not await self.claims.claim(code):  # a cluster: the lease, then the log
            if await store.get_room_by_code(code) is not None:
                raise leases.RoomMoving(code)  # a room another process holds (a hand-over): not a wrong code
            return None
        async with self._loading_lock(code):
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
        """Startup: rebuild every room in the lobby or playing from its log. The server already answers, so a page
        may ``find`` a room first: both rebuild under one lock and keep a room already rebuilt (two copies would
        split its phones: those on the lost copy would get no update again, and play on a stale state)."""
        count = 0  # (a cluster restores none: a room comes back where the proxy sends its code, ``find``)
        for record in await store.list_active_rooms() if self.claims is None else []:
            async with self._loading_lock(record.code):
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
    room = Room(record, seats, now)
    game = await store.latest_game(record.id)
    if game is None or record.status is RoomStatus.LOBBY:
        return room
    await room.game.restore(game, seats)
    chat = await store.list_chat(record.id, game_id=game.id, limit=CHAT_KEPT)
    room.chat_log.lines = [ChatLine(channel=line.channel, seat=line.seat_position,
                                    name=room.chat_name(line.seat_position), text=line.text) for line in chat]
    return room


registry = Registry()
"""The process's rooms. Pages and the clock use this one; tests clear it."""

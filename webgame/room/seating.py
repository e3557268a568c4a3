"""The lobby of a room: its settings (rule set, options, timers, moderator, player limits) and the people at the
table (seats, host).

``Lobby`` changes itself and the database together, and nothing else: the room (``webgame.room.rooms.Room``) holds
the lock, checks that the room is in its lobby, and tells the pages afterwards. A refused change raises
``Refusal`` (or the engine's ``RuleError`` for an option out of range) before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dealing import PLAYER_RANGE
from engine.options import OPTION_TABLES, OptionValue, resolve
from engine.seat_bots import LEVELS
from webgame.browser.identity import clean_name
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room.bot_names import bot_names
from webgame.store import queries as store
from webgame.store.queries import RoomRecord, SeatRecord

RULE_SETS = ("uz", "uk")
HANDOVER_RANGE = (10, 300)  # seconds the host's phone may be gone before the host role passes on (default 30)
# What the lobby offers before the host changes it: uk is a 12-player game (8-14 when allowed).
DEFAULT_PLAYER_LIMITS: dict[str, tuple[int, int]] = {"uz": PLAYER_RANGE["uz"], "uk": (12, 12)}


@dataclass(eq=False, slots=True)
class SeatInfo:
    """One person at the table: his seat's id, his token's SHA-256 (never the token), his name, his place."""

    id: int
    token_hash: str
    name: str
    position: int
    is_bot: bool = False  # the server plays it (webgame.room.bots); nobody holds its token
    bot_level: str = "simple"  # engine.seat_bots.LEVELS: the host picks it when he adds the bot


def seat_info(record: SeatRecord) -> SeatInfo:
    return SeatInfo(id=record.id, token_hash=record.token_hash, name=record.name, position=record.position,
                    is_bot=record.is_bot, bot_level=record.bot_level)


async def open_lobby(*, token: str, name: str, rules: str, language: str) -> tuple[RoomRecord, SeatRecord]:
    """A new room's records: its lobby with the default settings of ``rules``, its creator seated as the host."""
    if rules not in RULE_SETS:
        raise Refusal(N_("Unknown rule set {name}."), name=str(rules)[:20])
    clean = clean_name(name, [])
    low, high = DEFAULT_PLAYER_LIMITS[rules]
    record = await store.create_room(rules=rules, language=language)
    record = await store.update_room(record.id, min_players=low, max_players=high)
    seat = await store.add_seat(record.id, token=token, name=clean, is_host=True)
    return await store.get_room(record.id), seat


@dataclass(eq=False)
class Lobby:
    """The room's settings and its seats, as the host set them and the database keeps them."""

    room_id: int
    rules: str
    options: dict[str, OptionValue]  # the non-timer options the host changed
    timers: dict[str, OptionValue]  # the timer options the host changed
    moderated: bool
    host_hash: str | None
    min_players: int
    max_players: int
    language: str
    seats: list[SeatInfo] = field(default_factory=list)
    handover_seconds: int = 30  # webgame.room.host_watch: how long the host's phone may be gone
    moderator_takeover: bool = False  # whether a player may take a gone moderator's controls mid-game

    @classmethod
    def from_record(cls, record: RoomRecord, seats: list[SeatRecord]) -> Lobby:
        low, high = DEFAULT_PLAYER_LIMITS[record.rules]
        return cls(
            room_id=record.id, rules=record.rules, options=dict(record.options), timers=dict(record.timers),
            moderated=record.moderated and record.rules == "uk", host_hash=record.host_token_hash,
            min_players=record.min_players or low, max_players=record.max_players or high,
            language=record.language, seats=[seat_info(seat) for seat in seats if not seat.left],
            handover_seconds=record.handover_seconds, moderator_takeover=record.moderator_takeover,
        )

    # ------------------------------------------------------------ who is who

    def seat_by_hash(self, token_hash: str | None) -> SeatInfo | None:
        if token_hash is None:
            return None
        return next((seat for seat in self.seats if seat.token_hash == token_hash), None)

    def is_host(self, token_hash: str | None) -> bool:
        return token_hash is not None and token_hash == self.host_hash

    def is_moderator(self, token_hash: str | None) -> bool:
        return self.moderated and self.is_host(token_hash)

    @property
    def host_seat(self) -> SeatInfo | None:
        return self.seat_by_hash(self.host_hash)

    def players(self) -> list[SeatInfo]:
        """The lobby seats that will play: everyone but the moderator."""
        return [seat for seat in self.seats if not (self.moderated and seat.token_hash == self.host_hash)]

    def engine_options(self) -> dict[str, OptionValue]:
        return resolve(self.rules, {**self.options, **self.timers})

    def player_limits(self) -> tuple[int, int]:
        low, high = PLAYER_RANGE[self.rules]
        return max(low, self.min_players), min(high, self.max_players)

    def start_problem(self) -> tuple[str, dict[str, object]] | None:
        """Why the game cannot start now (a message id and its parameters), or None."""
        count = len(self.players())
        low, high = self.player_limits()
        if count < low:
            return N_("Waiting for players: {now} here, at least {count} needed."), {"count": low, "now": count}
        if count > high:
            return N_("Too many players: {now} here, at most {count} can play."), {"count": high, "now": count}
        return None

    def require_host(self, token_hash: str | None) -> None:
        if not self.is_host(token_hash):
            raise Refusal(N_("Only the host can do that."))

    # ------------------------------------------------------------ changes (the room holds its lock)

    async def join(self, token: str, name: str) -> tuple[SeatInfo, bool]:
        """Seat a new person (or find his seat again); the seat and whether it is new."""
        existing = self.seat_by_hash(store.hash_token(token))
        if existing is not None:
            return existing, False
        high = PLAYER_RANGE[self.rules][1]
        if len(self.players()) >= high:
            raise Refusal(N_("This room is full: {count} players is the most this rule set allows."), count=high)
        clean = clean_name(name, [seat.name for seat in self.seats])
        seat = seat_info(await store.add_seat(self.room_id, token=token, name=clean))
        self.seats.append(seat)
        return seat, True

    async def add_bot(self, level: str = "simple") -> SeatInfo:
        """Seat a bot of ``level`` named from the room's language's list: its token is made here and forgotten
        (only its hash is kept), so no browser can ever play it."""
        if level not in LEVELS:
            raise Refusal(N_("Unknown bot level {name}."), name=str(level)[:20])
        high = self.player_limits()[1]
        if len(self.players()) >= high:
            raise Refusal(N_("The table is full: {count} players at most."), count=high)
        taken = {seat.name.casefold() for seat in self.seats}
        name = next(n for n in bot_names(self.language, len(self.seats)) if n.casefold() not in taken)
        seat = seat_info(await store.add_seat(self.room_id, token=store.new_seat_token(), name=name, is_bot=True,
                                              bot_level=level))
        self.seats.append(seat)
        return seat

    async def remove_bot(self) -> None:
        """Take the last bot off the table."""
        bots = [seat for seat in self.seats if seat.is_bot]
        if not bots:
            raise Refusal(N_("There is no bot at the table."))
        await self.remove_seat(bots[-1].id)

    async def set_rules(self, rules: str) -> bool:
        """Another rule set, with its default settings; False when it was already this one."""
        if rules not in RULE_SETS:
            raise Refusal(N_("Unknown rule set {name}."), name=str(rules)[:20])
        if rules == self.rules:
            return False
        low, high = DEFAULT_PLAYER_LIMITS[rules]
        await store.update_room(self.room_id, rules=rules, options={}, timers={}, moderated=False,
                                min_players=low, max_players=high)
        self.rules, self.options, self.timers, self.moderated = rules, {}, {}, False
        self.min_players, self.max_players = low, high
        return True

    async def set_option(self, name: str, value: object) -> None:
        spec = next((spec for spec in OPTION_TABLES[self.rules] if spec.name == name), None)
        if spec is None:
            raise Refusal(N_("There is no option named {name}."), name=str(name)[:40])
        checked = spec.check(value)  # RuleError when out of range or of the wrong type
        if spec.timer:
            timers = {**self.timers, name: checked}
            await store.update_room(self.room_id, timers=timers)
            self.timers = timers
        else:
            options = {**self.options, name: checked}
            await store.update_room(self.room_id, options=options)
            self.options = options

    async def set_player_limits(self, low: int, high: int) -> None:
        floor, ceiling = PLAYER_RANGE[self.rules]
        if not (floor <= low <= high <= ceiling):
            raise Refusal(N_("Player counts must be between {low} and {high}, the smaller first."),
                          low=floor, high=ceiling)
        await store.update_room(self.room_id, min_players=low, max_players=high)
        self.min_players, self.max_players = low, high

    async def set_handover(self, seconds: int | None = None, takeover: bool | None = None) -> None:
        """How long the host's phone may be gone before the host role passes on; whether a gone moderator's
        controls may pass to a player mid-game (``webgame.room.host_watch``)."""
        low, high = HANDOVER_RANGE
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)
                                    or not low <= seconds <= high):
            raise Refusal(N_("The host's hand-over delay must be between {low} and {high} seconds."), low=low,
                          high=high)
        await store.update_room(self.room_id, handover_seconds=seconds, moderator_takeover=takeover)
        if seconds is not None:
            self.handover_seconds = seconds
        if takeover is not None:
            self.moderator_takeover = bool(takeover)

    async def set_moderated(self, moderated: bool) -> None:
        if moderated and self.rules != "uk":
            raise Refusal(N_("Only the uk rule set has a moderator."))
        await store.update_room(self.room_id, moderated=moderated)
        self.moderated = moderated

    def _seat(self, seat_id: int) -> SeatInfo:
        seat = next((seat for seat in self.seats if seat.id == seat_id), None)
        if seat is None:
            raise Refusal(N_("That seat is no longer at the table."))
        return seat

    async def move_seat(self, seat_id: int, delta: int) -> bool:
        """Swap a seat with its neighbour ``delta`` places on; False when there is none that way."""
        index = self.seats.index(self._seat(seat_id))
        other = index + delta
        if not 0 <= other < len(self.seats):
            return False
        order = list(self.seats)
        order[index], order[other] = order[other], order[index]
        positions = {seat.id: position for position, seat in enumerate(order)}
        await store.set_seat_positions(self.room_id, positions)
        for seat in order:
            seat.position = positions[seat.id]
        self.seats = order
        return True

    async def remove_seat(self, seat_id: int) -> None:
        seat = self._seat(seat_id)
        if seat.token_hash == self.host_hash:
            raise Refusal(N_("The host's own seat cannot be removed; hand the host role to someone first."))
        await store.leave_seat(seat.id)
        self.seats.remove(seat)

    async def make_host(self, seat_id: int) -> None:
        seat = self._seat(seat_id)
        if seat.is_bot:  # nobody could start or run the game: the server holds a bot's token
            raise Refusal(N_("A bot cannot be the host."))
        await store.update_room(self.room_id, host_token_hash=seat.token_hash)
        self.host_hash = seat.token_hash

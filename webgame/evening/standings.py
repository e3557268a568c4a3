"""The evening of a room (issue 30): its finished games, replayed from the database, and the standings they add up
to, per player by name (whatever seat he took): games, wins, wins by team, points (``engine.points``).

A room's ``RoomEvening`` is made the first time a page asks for it; it follows the room through the room's
after-notify hooks: when a game ends, or the moderator gives extra points after it, the evening reads the room's
finished games again (``webgame.store.evening``; each game's replay is cached by its log's length) and tells the
pages (``Change.STANDINGS``). Nothing is kept that the database does not hold: a restart or a failover rebuilds it.

The host's new evening and the moderator's extra points are requests to the room: checked (host, moderator, stage)
under the room's lock, written in its fence, like every other change of a room.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine import actions as engine_actions
from engine.actions import ExtraPoints
from engine.game import replay
from engine.points import SeatPoints, score
from engine.state import GameState
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room.subscribers import Change
from webgame.room.table_game import Stage
from webgame.store import evening as evening_store, queries as store
from webgame.store.records import GameRecord

if TYPE_CHECKING:
    from webgame.room.rooms import Room

log = logging.getLogger(__name__)

REPLAYS_KEPT = 256  # finished games' replays kept by the process (a protocol page, the standings)
_replays: OrderedDict[tuple[int, int, int], GameState] = OrderedDict()
_tasks: set[asyncio.Task[None]] = set()


async def replayed(game: GameRecord) -> GameState:
    """A stored game replayed from its log (cached while its log has this length). The key holds the game's seed
    too: an id alone is another game in another database (tests; a process that opened a fresh one)."""
    payloads = await store.load_actions(game.id)
    key = (game.id, game.seed, len(payloads))
    state = _replays.get(key)
    if state is None:
        state = replay(game.rules, len(game.seating), game.seed, game.options,
                       [engine_actions.from_dict(payload) for payload in payloads])
        _replays[key] = state
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    else:
        _replays.move_to_end(key)
    return state


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat of a finished game: who, the role, and the points (with where they come from)."""

    seat: int
    name: str
    is_bot: bool
    role: str
    points: SeatPoints


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of the evening."""

    number: int
    game_id: int
    rules: str
    winner: str
    players: list[PlayerResult]


@dataclass(slots=True)
class Standing:
    """A player's evening: games, wins, wins by team, points."""

    name: str
    is_bot: bool = False
    games: int = 0
    wins: int = 0
    by_team: dict[str, int] = field(default_factory=dict)
    points: Fraction = Fraction(0)


def game_result(game: GameRecord, state: GameState, bots: set[int]) -> GameResult:
    scored = score(state)
    players = []
    for seat, entry in enumerate(game.seating, 1):
        seat_id = int(entry["seat_id"])
        players.append(PlayerResult(seat=seat, name=str(entry["name"]), is_bot=seat_id in bots,
                                    role=str(state.role(seat)), points=scored[seat]))
    return GameResult(number=game.number, game_id=game.id, rules=game.rules, winner=state.winner or "draw",
                      players=players)


def standings(games: list[GameResult]) -> list[Standing]:
    """Per player by name (case aside), best first: points, then wins, then fewer games, then the name."""
    rows: dict[str, Standing] = {}
    for game in games:
        for player in game.players:
            row = rows.setdefault(player.name.casefold(), Standing(name=player.name, is_bot=player.is_bot))
            row.games += 1
            row.points += player.points.total
            if player.points.won:
                row.wins += 1
                row.by_team[player.points.team] = row.by_team.get(player.points.team, 0) + 1
    return sorted(rows.values(), key=lambda r: (-r.points, -r.wins, r.games, r.name.casefold()))


class RoomEvening:
    """The evening of one room, kept up to date with its games."""

    def __init__(self, room: Room) -> None:
        self.room = weakref.ref(room)
        self.first_game = 1
        self.games: list[GameResult] = []
        self.loaded = False
        self._seen: tuple[Any, ...] | None = None
        self._loading = False
        self._again = False
        room.after_notify.append(self._changed)

    def standings(self) -> list[Standing]:
        return standings(self.games)

    def _changed(self, room: Room, what: Change) -> None:
        state = room.state
        seen = (room.game_id, room.stage, len(state.log) if state is not None else 0)
        if seen != self._seen:
            self._seen = seen
            if room.stage is Stage.FINISHED:
                self.reload()

    def reload(self) -> None:
        """Read the evening's games again in the background, then tell the pages."""
        if self._loading:
            self._again = True
            return
        self._loading = True
        task = asyncio.get_running_loop().create_task(self._load(), name="evening")
        _tasks.add(task)  # kept until done (a task only the loop holds may be collected mid-way)
        task.add_done_callback(_tasks.discard)

    async def _load(self) -> None:
        try:
            while True:
                self._again = False
                room = self.room()
                if room is None:
                    return
                await self.load(room)
                if not self._again:
                    break
        except Exception:
            log.exception("the evening's games could not be read")
        finally:
            self._loading = False
        room = self.room()
        if room is not None:
            room.notify(Change.STANDINGS)  # read in the background: nothing of the room itself changed

    async def load(self, room: Room) -> None:
        self.first_game, self.games = await evening_games(room.id)
        self.loaded = True


async def bot_seats(room_id: int) -> set[int]:
    """The ids of the room's bot seats (those that left included)."""
    return {seat.id for seat in await store.list_seats(room_id, include_left=True) if seat.is_bot}


async def evening_games(room_id: int) -> tuple[int, list[GameResult]]:
    """The evening's first game number and its finished games, from the database."""
    first = await evening_store.first_game(room_id)
    games = await evening_store.finished_games(room_id, first)
    bots = await bot_seats(room_id)
    return first, [game_result(game, await replayed(game), bots) for game in games]


_evenings: weakref.WeakKeyDictionary[Room, RoomEvening] = weakref.WeakKeyDictionary()


def evening_of(room: Room) -> RoomEvening:
    """The room's evening (read from the database in the background the first time: the pages are told)."""
    evening = _evenings.get(room)
    if evening is None:
        evening = _evenings[room] = RoomEvening(room)
        evening.reload()
    return evening


async def new_evening(room: Room, token_hash: str | None) -> None:
    """The host starts a new evening: the standings count the games played from now on (between games only)."""
    async def start() -> None:
        room.lobby.require_host(token_hash)
        if room.stage is Stage.PLAYING:
            raise Refusal(N_("A new evening starts between games."))
        await evening_store.start_evening(room.id)
        await evening_of(room).load(room)

    await room.change(Change.STANDINGS, start)


async def give_extra_points(room: Room, token_hash: str | None, seat: int, amount: float) -> None:
    """The moderator's extra points for a player of the finished game (engine.points checks the limit)."""
    async def give() -> None:
        if not room.is_moderator(token_hash):
            raise Refusal(N_("Only the moderator gives extra points."))
        if room.stage is not Stage.FINISHED or room.state is None:
            raise Refusal(N_("Extra points are given when the game is over."))
        await room.game.apply(ExtraPoints(seat, amount))

    await room.change(Change.STATE, give)

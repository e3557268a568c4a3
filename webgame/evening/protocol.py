"""A finished game as the club's paper protocol (issue 30): the seats (name, role, fouls, points) and, in the order
they happened, every line of the game: fouls and their withdrawal, nominations and by whom, every vote of every
round, night kills and checks (the night's real choices, then its deaths), the commissar's note, removals, the best
move, the moderator's extra points, the winner. Built from the replayed game (``webgame.evening.standings.replayed``),
only
once it has ended (everything is public then): the pages draw it and the CSV export writes it, never the rules'
state itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.export import export
from engine.points import as_float, score
from engine.state import GameState, Phase
from webgame.evening.standings import bot_seats, replayed
from webgame.store import evening as evening_store
from webgame.store.records import GameRecord

SKIPPED = frozenset({"game_over", "quiet_visit", "frozen"})  # said elsewhere (the winner; a freeze: by its
# night choice, "frozen by the courtesan: it did not happen"), or nothing for a protocol; "frozen" is worded for
# the frozen player himself ("you were frozen"), never a line of a protocol


@dataclass(frozen=True, slots=True)
class ProtocolSeat:
    """A seat of the protocol: who, the role and team, the fouls, how he left, and his points by their source."""

    seat: int
    name: str
    is_bot: bool
    role: str
    team: str
    fouls: float
    removed: str  # how he left the table: "" (alive at the end), "vote", "fouls", "mafia", ...
    win: float
    foul_points: float
    best_move: float
    extra: float
    points: float


@dataclass(frozen=True, slots=True)
class ProtocolLine:
    """One line of the protocol: when (day, "night" or "day"), what (an event type, or ``act`` for a night choice)
    and its parameters as the engine gives them."""

    day: int
    night: bool
    kind: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Protocol:
    """A finished game's protocol: its number, rule set, winner, seats, lines and options."""

    number: int
    rules: str
    winner: str
    seats: list[ProtocolSeat]
    lines: list[ProtocolLine]
    options: dict[str, Any]


def protocol(game: GameRecord, state: GameState, bots: set[int]) -> Protocol | None:
    """The protocol of a finished game (None while it runs: roles are never given out before the end)."""
    if state.phase is not Phase.ENDED:
        return None
    scored = score(state)
    left = {int(e.params["seat"]): str(e.params.get("cause", "")) for e in state.events if e.type == "death"}
    seats = []
    for seat, entry in enumerate(game.seating, 1):
        line = scored[seat]
        seats.append(ProtocolSeat(
            seat=seat, name=str(entry["name"]), is_bot=int(entry["seat_id"]) in bots, role=str(state.role(seat)),
            team=line.team, fouls=float(state.fouls.get(seat, 0.0)), removed=left.get(seat, ""),
            win=as_float(line.win), foul_points=as_float(line.fouls), best_move=as_float(line.best_move),
            extra=as_float(line.extra), points=as_float(line.total)))
    return Protocol(number=game.number, rules=state.rules, winner=state.winner or "draw", seats=seats,
                    lines=lines(state), options=dict(state.options))


def lines(state: GameState) -> list[ProtocolLine]:
    """Every line in order. A night's real choices (the timeline's) come first, then what the night brought."""
    choices: dict[int, list[dict[str, Any]]] = {}
    for item in state.choices:  # every night's real choices, checks included (their result is the check's line)
        choices.setdefault(int(item["day"]), []).append(item)
    out: list[ProtocolLine] = []
    nights_told: set[int] = set()
    for event in state.events:
        if event.type in SKIPPED:
            continue
        night = event.phase == str(Phase.NIGHT)
        if night and event.day not in nights_told:
            nights_told.add(event.day)
            out += [ProtocolLine(event.day, True, "act", _choice(item)) for item in choices.get(event.day, [])]
        out.append(ProtocolLine(event.day, night, event.type, {"type": event.type, "phase": event.phase,
                                                               "day": event.day, **event.params}))
    for day in sorted(set(choices) - nights_told):  # a night with choices and no event at all
        out += [ProtocolLine(day, True, "act", _choice(item)) for item in choices[day]]
    return out


def _choice(item: dict[str, Any]) -> dict[str, Any]:
    return dict(item)  # type "choice", seat, role, act, target, note, blocked


async def load_protocol(room_id: int, number: int) -> Protocol | None:
    """Game ``number`` of the room as its protocol, or None: no such game, or not over (never before the end)."""
    game = await evening_store.game_by_number(room_id, number)
    if game is None or game.finished_at is None:
        return None
    return protocol(game, await replayed(game), await bot_seats(room_id))


async def load_scenario(room_id: int, number: int, name: str) -> dict[str, Any] | None:
    """Game ``number`` as a scenario file (``engine.export``) that ``python -m engine.replay`` replays, or None
    (no such game, or not over)."""
    game = await evening_store.game_by_number(room_id, number)
    if game is None or game.finished_at is None:
        return None
    state = await replayed(game)
    if state.phase is not Phase.ENDED:
        return None
    data = export(state, name)
    data["players"] = [str(entry["name"]) for entry in game.seating]  # (not read by the engine: who sat where)
    return data

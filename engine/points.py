"""Points of a finished game, from the rule set's points table (options ``points_*``, docs/RULES.md "Points").

A player of the winning team scores ``points_win`` (a draw: nobody); uk adds ``points_fouls_removed`` for a player
removed by fouls (or sent off) and the best move's points (``engine.best_move``); the moderator's extra points
(``ExtraPoints``, after the end, within ``points_extra_limit``) come last. Points are ``Fraction`` so that sums of
quarters stay exact; ``as_float`` gives them to screens and files.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import best_move
from engine.actions import ExtraPoints
from engine.errors import GameOver, IllegalTarget, RuleError
from engine.i18n import N_
from engine.roles import Team, team_of
from engine.state import PUBLIC, GameState, Phase
from engine.view_types import Offer

WINNING_TEAMS: dict[str, Team] = {"town": Team.TOWN, "mafia": Team.MAFIA, "killer": Team.KILLER,
                                  "red": Team.RED, "black": Team.BLACK}
EXTRA_STEP = Fraction(1, 20)  # the moderator's extra points go in hundredths of five: 0.05, 0.1, 0.25 ...


def option_points(state: GameState, name: str) -> Fraction:
    """A points option as an exact number (absent, e.g. a rule set without it: 0)."""
    value = state.options.get(name)
    return Fraction(str(value)) if value is not None else Fraction(0)


@dataclass(frozen=True, slots=True)
class SeatPoints:
    """One seat's points of a game, and where they come from."""

    seat: int
    team: str
    won: bool
    win: Fraction
    fouls: Fraction
    best_move: Fraction
    extra: Fraction

    @property
    def total(self) -> Fraction:
        return self.win + self.fouls + self.best_move + self.extra

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "team": self.team, "won": self.won, "win": as_float(self.win),
                "fouls": as_float(self.fouls), "best_move": as_float(self.best_move), "extra": as_float(self.extra),
                "total": as_float(self.total)}


def as_float(value: Fraction) -> float:
    return round(float(value), 4)


def extras(state: GameState) -> dict[int, Fraction]:
    """The moderator's extra points, the latest given for each seat."""
    given: dict[int, Fraction] = {}
    for action in state.log:
        if isinstance(action, ExtraPoints):
            given[action.seat] = Fraction(str(action.amount))
    return {seat: amount for seat, amount in given.items() if amount}


def removed_by_fouls(state: GameState) -> set[int]:
    return {int(e.params["seat"]) for e in state.events if e.type == "death" and e.params.get("cause") == "fouls"}


def score(state: GameState) -> dict[int, SeatPoints]:
    """Every seat's points; empty until the game has ended."""
    if state.phase is not Phase.ENDED:
        return {}
    winning = WINNING_TEAMS.get(state.winner or "")
    win, fouls = option_points(state, "points_win"), option_points(state, "points_fouls_removed")
    removed, extra = removed_by_fouls(state), extras(state)
    moves = best_move.named(state)
    two, three = option_points(state, "points_best_move_two"), option_points(state, "points_best_move_three")
    result: dict[int, SeatPoints] = {}
    for seat in range(1, state.n + 1):
        team = team_of(state.rules, state.role(seat))
        black = best_move.black_named(state, moves[seat]) if seat in moves else 0
        result[seat] = SeatPoints(
            seat=seat, team=str(team), won=team is winning, win=win if team is winning else Fraction(0),
            fouls=fouls if seat in removed else Fraction(0),
            best_move=three if black >= 3 else two if black == 2 else Fraction(0),
            extra=extra.get(seat, Fraction(0)))
    return result


def extra_actions(state: GameState) -> list[Offer]:
    """The moderator's action after the end: extra points for any seat, within the limit (none when it is 0)."""
    limit = option_points(state, "points_extra_limit")
    if state.phase is not Phase.ENDED or not limit:
        return []
    return [{"type": "extra_points", "targets": list(range(1, state.n + 1)), "limit": as_float(limit),
             "given": {str(seat): as_float(amount) for seat, amount in extras(state).items()}}]


def apply_extra(state: GameState, action: ExtraPoints) -> None:
    """Validate, then record the moderator's extra points for one player (the latest for him counts)."""
    if state.phase is not Phase.ENDED:
        raise RuleError(N_("Extra points are given when the game is over."))
    limit = option_points(state, "points_extra_limit")
    if not limit:
        raise RuleError(N_("There are no extra points in this game."))
    if not 1 <= action.seat <= state.n:
        raise IllegalTarget(N_("There is no such player."))
    try:
        amount = Fraction(str(action.amount))
    except (ValueError, ZeroDivisionError):
        raise RuleError(N_("Unknown action.")) from None
    if abs(amount) > limit or amount % EXTRA_STEP:
        raise IllegalTarget(N_("Extra points go from -{limit} to {limit}."), limit=as_float(limit))
    state.log.append(action)
    state.emit("extra_points", PUBLIC, seat=action.seat, amount=as_float(amount))


def apply_after_end(state: GameState, action: object) -> None:
    """The only actions of a finished game: the moderator's extra points. Anything else: the game is over."""
    if not isinstance(action, ExtraPoints):
        raise GameOver()
    apply_extra(state, action)

"""The scenario format's two entries for the evening's points (issue 30; docs/RULES.md "Scenario files"):

- a uk day's ``"best_move": {"seat": 4, "targets": [1, 2, 7]}``: a first night's dead names up to three players,
  made at the start of that day (during the last words, before the speeches), see ``engine.best_move``;
- a step ``{"extra_points": {"3": 0.5, "5": -0.25}}`` after the game's end: the moderator's extra points (seat ->
  amount, the latest for a seat counts), see ``engine.points``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import BestMove, ExtraPoints
from engine.scenario_common import ScenarioFormatError, as_int, do, seat_map
from engine.state import GameState


def best_move_action(entry: Any) -> BestMove:
    if not isinstance(entry, Mapping) or "seat" not in entry or not isinstance(entry.get("targets"), list):
        raise ScenarioFormatError("best_move is an object with seat and targets (a list of seats)")
    return BestMove(as_int(entry["seat"], "seat"), tuple(as_int(t, "target") for t in entry["targets"]))


def run_best_move(state: GameState, day: Mapping[str, Any]) -> None:
    """The day's best move, if it has one, at its start."""
    if "best_move" in day:
        do(state, best_move_action(day["best_move"]))


def extra_points_actions(entry: Any) -> list[ExtraPoints]:
    given = seat_map(entry, "extra_points")
    actions = []
    for seat, amount in given.items():
        if isinstance(amount, bool) or not isinstance(amount, int | float):
            raise ScenarioFormatError("extra_points maps seats to numbers")
        actions.append(ExtraPoints(seat, float(amount)))
    return actions


def run_extra_points(state: GameState, entry: Any) -> None:
    for action in extra_points_actions(entry):
        do(state, action)

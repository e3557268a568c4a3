"""Points of a game (engine.points) and the best move (engine.best_move): scored from the rule set's points table,
replayed from a scenario, and exported to a scenario that replays to the same points (issue 30)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine import points
from engine.actions import BestMove, ExtraPoints, from_dict, to_dict
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.scenario import export, run
from engine.state import Phase
from engine.view import view

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def parity_game(best_move: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
                extra: dict[str, float] | None = None) -> dict[str, Any]:
    """uk-black-parity-wins (the don kills the doctor, seat 4, on night 1; black wins on night 2) with a best move
    on day 2 and the moderator's extra points."""
    data = json.loads((SCENARIOS / "uk-black-parity-wins.json").read_text())
    data["options"] = {"best_move": True, **(options or {})}
    if best_move is not None:
        data["steps"][2]["day"]["best_move"] = best_move
    if extra is not None:
        data["steps"].append({"extra_points": extra})
    return data


def totals(state: Any) -> dict[int, float]:
    return {seat: points.as_float(line.total) for seat, line in points.score(state).items()}


def test_a_best_move_of_two_black_and_the_win_and_the_extra_points_add_up() -> None:
    result = run(parity_game({"seat": 4, "targets": [1, 2, 6]}, extra={"3": 0.5, "5": -0.25}))
    assert result.error is None and result.winner == "black"
    state = result.state
    assert state is not None
    scored = points.score(state)
    assert scored[1].win == 1 and scored[2].win == 1 and scored[1].won  # the don and the courtesan: black won
    assert scored[4].best_move == Fraction(1, 4) and scored[4].win == 0  # two black named: 0.25
    assert totals(state) == {1: 1.0, 2: 1.0, 3: 0.5, 4: 0.25, 5: -0.25, 6: 0.0, 7: 0.0, 8: 0.0}


def test_three_black_named_score_the_three_points_and_one_scores_nothing() -> None:
    data = parity_game({"seat": 4, "targets": [1, 2, 6]}, options={"points_best_move_two": "0.3"})
    assert totals(run(data).state)[4] == 0.3
    data = parity_game({"seat": 4, "targets": [1, 6, 7]})
    assert totals(run(data).state)[4] == 0.0
    # a table with three black: the don, the courtesan and a mafia
    data = parity_game(options={"points_best_move_three": "0.75"})
    data["roles"][7] = "mafia"
    data["steps"][1:] = [{"night": [{"seat": 1, "act": "kill", "target": 7}]},
                         {"day": {"best_move": {"seat": 7, "targets": [1, 2, 8]}}},
                         {"night": [{"seat": 1, "act": "kill", "target": 4}]}]
    result = run(data)
    assert result.error is None and result.winner == "black"
    assert result.state is not None and points.score(result.state)[7].best_move == Fraction(3, 4)


def test_the_best_move_is_public_made_once_and_only_by_the_first_nights_dead_before_the_speeches() -> None:
    data = parity_game()
    data["steps"] = data["steps"][:2]  # day 1, night 1: seat 4 is dead, day 2's last words
    state = run(data).state
    assert state is not None and state.phase is Phase.LAST_WORDS and state.day == 2
    assert view(state, Viewer.of_seat(4))["actions"][0]["type"] == "best_move"
    assert all(a["type"] != "best_move" for a in view(state, Viewer.of_seat(5))["actions"])
    for wrong in (BestMove(5, (1,)), BestMove(4, ()), BestMove(4, (1, 2, 3, 5)), BestMove(4, (4, 1)),
                  BestMove(4, (1, 1)), BestMove(4, (1, 99))):
        before = copy.deepcopy(state)
        with pytest.raises(RuleError):
            apply(state, wrong)
        assert state.log == before.log and state.events == before.events  # refused: nothing changed
    apply(state, BestMove(4, (1, 2)))
    for viewer in (SPECTATOR, Viewer.of_seat(7), MODERATOR):
        shown = view(state, viewer)
        assert shown["best_moves"] == {"4": [1, 2]}
        assert any(e["type"] == "best_move" and e["targets"] == [1, 2] for e in shown["events"])
    with pytest.raises(RuleError):
        apply(state, BestMove(4, (1, 3)))  # once


def test_without_the_option_there_is_no_best_move() -> None:
    data = parity_game({"seat": 4, "targets": [1, 2]}, options={"best_move": False})
    assert run(data).error is not None


def test_extra_points_are_the_moderators_after_the_end_within_the_limit() -> None:
    state = run(parity_game()).state
    assert state is not None and state.phase is Phase.ENDED
    moderator = view(state, MODERATOR)["actions"]
    assert moderator == [{"type": "extra_points", "targets": list(range(1, 9)), "limit": 0.5, "given": {}}]
    assert view(state, Viewer.of_seat(3))["actions"] == []
    for wrong in (ExtraPoints(3, 0.75), ExtraPoints(3, -0.6), ExtraPoints(9, 0.5), ExtraPoints(3, 0.33)):
        with pytest.raises(RuleError):
            apply(state, wrong)
    apply(state, ExtraPoints(3, 0.5))
    apply(state, ExtraPoints(3, 0.25))  # the latest counts
    assert totals(state)[3] == 0.25
    assert view(state, SPECTATOR)["points"]["3"]["extra"] == 0.25
    none = run(parity_game(options={"points_extra_limit": "0"})).state
    assert none is not None and view(none, MODERATOR)["actions"] == []
    with pytest.raises(RuleError):
        apply(none, ExtraPoints(3, 0.25))
    running = new_game("uk", 10, 1)
    with pytest.raises(RuleError):
        apply(running, ExtraPoints(3, 0.25))  # not before the end


def test_the_points_table_of_uz_a_win_and_a_draw() -> None:
    state = new_game("uz", 6, 3, {"points_win": "2"}, ["don", "mafia", "doctor", "commissar", "civilian", "civilian"])
    assert points.score(state) == {}  # nothing before the end
    won = run({"rules": "uz", "options": {"points_win": "2"}, "roles": [str(r) for r in state.dealt],
               "steps": [{"night": [{"seat": 1, "act": "kill", "target": 5}]},
                         {"day": {"votes": {"2": 1, "3": 1, "4": 1, "6": 1}}},
                         {"night": [{"seat": 2, "act": "kill", "target": 6}, {"seat": 4, "act": "check", "target": 2}]},
                         {"day": {"votes": {"3": 2, "4": 2, "2": 3}}}]})
    assert won.winner == "town", won.error
    assert totals(won.state) == {1: 0.0, 2: 0.0, 3: 2.0, 4: 2.0, 5: 2.0, 6: 2.0}


def test_a_game_with_a_best_move_and_extra_points_exports_and_replays_to_the_same_points() -> None:
    state = run(parity_game({"seat": 4, "targets": [2, 1]}, extra={"8": -0.5, "1": 0.1})).state
    assert state is not None
    exported = json.loads(json.dumps(export(state), ensure_ascii=False))  # through a file's text
    assert exported["steps"][2]["day"]["best_move"] == {"seat": 4, "targets": [2, 1]}
    assert exported["steps"][-1] == {"extra_points": {"8": -0.5, "1": 0.1}}
    again = run(exported).state
    assert again is not None and again.winner == state.winner
    assert [e.as_dict() for e in again.events] == [e.as_dict() for e in state.events]
    assert totals(again) == totals(state) == {1: 1.1, 2: 1.0, 3: 0.0, 4: 0.25, 5: 0.0, 6: 0.0, 7: 0.0, 8: -0.5}


def test_the_new_actions_round_trip_through_the_log() -> None:
    for action in (BestMove(4, (1, 2, 3)), ExtraPoints(2, -0.25)):
        assert from_dict(json.loads(json.dumps(to_dict(action)))) == action
    for bad in ({"type": "best_move", "seat": 4, "targets": [1, 2, 3, 5]}, {"type": "best_move", "seat": 4},
                {"type": "best_move", "seat": 4, "targets": ["1"]}, {"type": "extra_points", "seat": 1, "amount": "1"}):
        with pytest.raises(RuleError):
            from_dict(bad)

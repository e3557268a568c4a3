"""The stalemate guard (RULES.md): a game with no winner when day N's vote, and what follows from it, is over ends
in a draw, on the same day in both rule sets (uz starts with a night, uk with a day; uk once played a day more)."""

from __future__ import annotations

import pytest

from engine.actions import Deadline
from engine.game import apply, new_game
from engine.state import GameState, Phase
from tests.engine.play_helpers import random_game


def quiet_game(rules: str, players: int, limit: int) -> tuple[GameState, set[int]]:
    """Nobody acts, nobody nominates: only the clock, so nobody dies and only the guard ends the game. Also the
    nights it went through."""
    state = new_game(rules, players, 7, {"day_limit": limit})
    nights: set[int] = set()
    for _ in range(1_000):
        if state.phase is Phase.ENDED:
            break
        if state.phase is Phase.NIGHT:
            nights.add(state.day)
        apply(state, Deadline(state.step))
    return state, nights


@pytest.mark.parametrize(("rules", "players"), [("uz", 7), ("uk", 12)])
@pytest.mark.parametrize("limit", [3, 5])
def test_a_quiet_game_is_a_draw_when_day_n_is_over(rules: str, players: int, limit: int) -> None:
    state, nights = quiet_game(rules, players, limit)
    assert state.winner == "draw" and state.day == limit and all(state.alive)
    over = state.events[-1]
    assert over.type == "game_over" and over.day == limit
    assert max(nights) == (limit if rules == "uz" else limit - 1), "no night after day N"


@pytest.mark.parametrize("rules", ["uz", "uk"])
def test_random_games_never_play_past_day_n(rules: str) -> None:
    """Random play with a short limit: a game the guard ends was a draw on day N after its vote; none goes on."""
    guarded = 0
    for seed in range(60):
        state = random_game(rules, 12, seed, fouls=True, options={"day_limit": 3})
        assert state.day <= 3 and all(e.day <= 3 for e in state.events)
        days = [e for e in state.events if e.phase != "night" and e.day == 3 and e.type == "vote_result"]
        if state.winner == "draw" and any(state.alive) and days:
            guarded += 1
            assert state.events[-1].day == 3
    assert guarded > 0

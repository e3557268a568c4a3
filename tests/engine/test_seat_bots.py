"""The table bots' policy (``engine.seat_bots``): it reads only its seat's view, so it cannot cheat, and it
plays whole games of both rule sets to an end."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from engine import best_move
from engine.actions import BestMove, Deadline
from engine.game import apply, new_game
from engine.knowledge import Viewer
from engine.seat_bots import decide
from engine.simulate import play_seats
from engine.state import GameState, Phase
from engine.view import view


def _hidden_swap(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A copy of ``state`` where two seats this seat knows nothing about have swapped roles (the hidden state
    differs, what the seat may know does not); None when there are no two such seats."""
    known = {int(s) for s in view(state, Viewer.of_seat(seat))["roles"]}
    unknown = [s for s in range(1, state.n + 1) if s not in known and state.roles[s - 1] != state.roles[seat - 1]]
    pairs = [(a, b) for a in unknown for b in unknown if a < b and state.roles[a - 1] != state.roles[b - 1]]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    other = copy.deepcopy(state)
    other.roles[a - 1], other.roles[b - 1] = other.roles[b - 1], other.roles[a - 1]
    other.cache = {}
    return other


@pytest.mark.parametrize(("rules", "players"), [("uz", 6), ("uz", 10), ("uk", 12)])
def test_the_same_view_gives_the_same_choices_whatever_is_hidden(rules: str, players: int) -> None:
    rng, compared = random.Random(11), 0
    for game in range(6):
        state = new_game(rules, players, 100 + game)
        while state.phase is not Phase.ENDED:
            step, acted = state.step, False
            for seat in range(1, state.n + 1):
                mine = view(state, Viewer.of_seat(seat))
                other = _hidden_swap(state, seat, rng)
                if other is not None and view(other, Viewer.of_seat(seat)) == mine:
                    theirs = view(other, Viewer.of_seat(seat))
                    for draw in range(3):  # the same rng -> the same action: the same distribution
                        assert decide(mine, random.Random(draw)) == decide(theirs, random.Random(draw))
                        assert decide(mine, random.Random(draw), "strong") == decide(
                            theirs, random.Random(draw), "strong")
                    compared += 1
                action = decide(mine, rng)
                if action is not None:
                    apply(state, action)
                    acted = True
                    if state.step != step:
                        break
            if not acted and state.step == step and state.winner is None:
                apply(state, Deadline(step))
    assert compared > 50  # the property was really exercised


def test_a_bot_only_chooses_what_its_screen_offers() -> None:
    """Every decision is one of the seat's legal actions in its view (the engine accepts it)."""
    for seed in range(20):
        state = new_game("uk", 12, seed)
        for seat in range(1, 13):
            action = decide(view(state, Viewer.of_seat(seat)), random.Random(seed))
            legal = view(state, Viewer.of_seat(seat))["actions"]
            assert (action is None) == (not legal)


def test_a_town_bot_acts_on_its_own_check() -> None:
    """The commissar who found a mafia player nominates and votes him (from the check event in his view)."""
    shown = {"me": {"seat": 3}, "teams": {"3": "town"}, "alive": [1, 2, 3, 4, 5],
             "events": [{"type": "check", "seat": 3, "target": 5, "result": "mafia"}],
             "actions": [{"type": "vote", "targets": [1, 2, 4, 5], "none": True}]}
    assert all(decide(shown, random.Random(n)).target == 5 for n in range(20))  # type: ignore[union-attr]


@pytest.mark.parametrize(("rules", "players"), [("uz", 4), ("uz", 12), ("uk", 12)])
def test_bots_play_games_to_an_end(rules: str, players: int) -> None:
    winners = Counter(play_seats(new_game(rules, players, seed), random.Random(seed)).winner for seed in range(10))
    assert sum(winners.values()) == 10 and None not in winners


def test_a_strong_town_bot_reads_the_vote_record() -> None:
    """Seats 4 and 5 voted out seat 2, whose card then showed a civilian: a strong town bot votes one of them,
    a simple one anyone; both read only the public record of their view."""
    shown = {"me": {"seat": 3}, "teams": {"3": "town"}, "alive": [1, 3, 4, 5, 6], "rules": "uz",
             "events": [{"type": "vote_result", "votes": {"1": 6, "4": 2, "5": 2, "6": 1}, "eliminated": 2},
                        {"type": "death", "seat": 2, "role": "civilian", "cause": "vote"}],
             "actions": [{"type": "vote", "targets": [1, 4, 5, 6], "none": True}]}
    strong = Counter(decide(shown, random.Random(n), "strong").target for n in range(40))  # type: ignore[union-attr]
    simple = Counter(decide(shown, random.Random(n)).target for n in range(40))  # type: ignore[union-attr]
    assert set(strong) == {4, 5}
    assert len(simple) > 2


def test_strong_mafia_votes_as_one_for_the_leading_town_player() -> None:
    shown = {"me": {"seat": 2}, "teams": {"2": "mafia", "5": "mafia"}, "alive": [1, 2, 3, 4, 5],
             "votes": {"1": 3, "4": 3, "3": 1}, "events": [],
             "actions": [{"type": "vote", "targets": [1, 3, 4, 5], "none": True}]}
    assert {decide(shown, random.Random(n), "strong").target for n in range(20)} == {3}  # type: ignore[union-attr]


def _best_move_view(teams: dict[str, str], events: list[dict[str, object]]) -> dict[str, object]:
    """Seat 4, killed on the first night, in the last words of day 2 with his best move to make."""
    return {"rules": "uk", "me": {"seat": 4, "alive": False}, "teams": teams, "events": events,
            "alive": [s for s in range(1, 13) if s != 4], "phase": "last_words", "day": 2,
            "actions": [{"type": "best_move", "targets": [s for s in range(1, 13) if s != 4], "most": 3},
                        {"type": "end_speech"}]}


def test_a_bot_makes_its_best_move_before_its_last_words_end() -> None:
    """A red bot names its checked black and never its checked red; a black one (the maniac's) names no
    teammate; both before they end the speech, three players each, never themselves."""
    checks = [{"type": "check", "target": 7, "result": "black"}, {"type": "check", "target": 2, "result": "red"}]
    for draw in range(20):
        for level in ("simple", "strong"):
            red = decide(_best_move_view({}, checks), random.Random(draw), level)
            assert isinstance(red, BestMove) and red.seat == 4 and len(set(red.targets)) == 3
            assert 7 in red.targets and 2 not in red.targets and 4 not in red.targets
            black = decide(_best_move_view({"4": "black", "9": "black", "11": "black"}, []), random.Random(draw), level)
            assert isinstance(black, BestMove) and len(set(black.targets)) == 3
            assert not {4, 9, 11} & set(black.targets)


def test_bots_playing_uk_with_the_best_move_make_it_and_the_game_ends() -> None:
    made = 0
    for seed in range(8):
        state = new_game("uk", 12, 500 + seed, {"best_move": True})
        rng = random.Random(seed)
        while state.phase is not Phase.ENDED:
            step, acted = state.step, False
            for seat in range(1, state.n + 1):
                action = decide(view(state, Viewer.of_seat(seat)), rng)
                if action is not None:
                    apply(state, action)
                    acted = True
                    if state.step != step:
                        break
            if not acted and state.step == step:
                apply(state, Deadline(step))
        moves = best_move.named(state)
        assert set(moves) == set(best_move.first_night_dead(state))  # every first night's dead made his
        for seat, targets in moves.items():
            assert 1 <= len(set(targets)) == len(targets) <= 3 and seat not in targets
        made += len(moves)
    assert made >= 4

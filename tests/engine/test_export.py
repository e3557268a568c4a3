"""Exports are faithful (RULES.md, decided after the first games): a uk game in which the moderator gives fouls,
takes them back and sends players from the table at every moment the app allows (each night choice, each
speech before and after its nomination, the defences, between any two votes of a round, the tied players'
speeches, the vote on eliminating them all, last words) is exported and replayed, and the replay is the same
game: the same events in the same order, on the same day and phase, and the same final state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.actions import Action, Deadline, Foul, SendOff, WithdrawFoul
from engine.bots import Memory, Policy, next_actions
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.scenario import export, run
from engine.state import GameState, Phase
from tests.engine.test_properties import comparable

OPTIONS = st.fixed_dictionaries({
    "single_nominee": st.sampled_from(["eliminated_except_day_one", "always_eliminated", "never_eliminated"]),
    "withdrawn_foul_restores": st.booleans(),
    "double_foul_by_day": st.booleans(),
    "missed_vote": st.sampled_from(["last_nominee", "not_counted"]),
    "second_tie": st.sampled_from(["eliminate_all_vote", "nobody"]),
    "three_fouls_penalty_vote": st.booleans(),
    "day_one_votes": st.booleans(),
    "day_limit": st.integers(3, 8),
})


def moderator(state: GameState, rng: random.Random) -> Action:
    """A legal moderator's action now: mostly a foul (more often on a player already fouled, so that 3 and 4 come
    up), often one taken back, now and then a send-off."""
    living = state.living()
    fouled = [s for s in living if state.foul_amounts.get(s)]
    roll = rng.random()
    if roll < 0.05:
        return SendOff(rng.choice(living))
    if roll < 0.35 and fouled:
        return WithdrawFoul(rng.choice(fouled))
    seat = rng.choice(fouled) if fouled and rng.random() < 0.6 else rng.choice(living)
    by_day_two = state.phase is Phase.NIGHT or bool(state.options["double_foul_by_day"])
    return Foul(seat, rng.choice([0.5, 1.0, 2.0] if by_day_two else [0.5, 1.0]))


def moderated_game(players: int, seed: int, options: dict[str, object], rate: float) -> GameState:
    """Random legal play; before any player's action, and before the clock ends a step, the moderator may act."""
    rng = random.Random(seed)
    state = new_game("uk", players, seed, options)
    memory = Memory()
    bot = Policy(rng, memory)
    for _ in range(5_000):
        if state.phase is Phase.ENDED:
            break
        memory.update(state)
        step, interrupted = state.step, False
        for action in next_actions(state, bot):
            if rng.random() < rate:
                apply(state, moderator(state, rng))
                interrupted = True  # the bots plan again for what the moderator changed
                break
            try:
                apply(state, action)
            except RuleError:
                continue  # planned before the moderator acted (a vote already cast, by a player since removed)
            if state.step != step:
                break
        if interrupted or state.step != step or state.phase is Phase.ENDED:
            continue
        if rng.random() < rate:
            apply(state, moderator(state, rng))
            continue
        apply(state, Deadline(step))
    assert state.phase is Phase.ENDED
    return state


def moderated_actions(state: GameState) -> set[str]:
    return {type(a).__name__ for a in state.log if isinstance(a, Foul | WithdrawFoul | SendOff)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(8, 14), st.integers(0, 2**32 - 1), OPTIONS, st.sampled_from([0.03, 0.08, 0.2]))
def test_a_moderated_game_exports_and_replays_to_the_same_game(players: int, seed: int, options: dict[str, object],
                                                                rate: float) -> None:
    state = moderated_game(players, seed, options, rate)
    scenario = export(state)
    result = run(scenario)
    assert result.error is None, result.error
    assert result.state is not None
    assert comparable(result.state) == comparable(state)


def test_the_random_games_reach_the_moments_that_matter() -> None:
    """The property above sees what it is for: removals during a vote and during the defences, a foul between two
    votes, withdrawals, send-offs, at night and by day (a test that cannot fail is a defect)."""
    seen: set[str] = set()
    for seed in range(40):
        state = moderated_game(12, seed, {"day_limit": 8}, 0.08)
        seen |= moderated_actions(state)
        for event in state.events:
            if event.type == "death" and event.params.get("cause") == "fouls":
                seen.add(f"removed at {event.phase}")
            if event.type in ("foul", "foul_withdrawn", "speech_lost"):
                seen.add(f"{event.type} at {event.phase}")
        for step in export(state)["steps"]:
            for entry in step.get("day", {}).get("fouls", []):
                seen |= {f"place {key}" for key in entry if key not in ("seat", "amount", "withdraw", "send_off")}
            seen |= {"place night" for item in step.get("night", []) if "foul" in item}
    wanted = {"Foul", "WithdrawFoul", "SendOff", "removed at vote", "removed at defence", "removed at night",
              "removed at speeches", "foul at eliminate_all", "foul_withdrawn at speeches", "speech_lost at speeches",
              "place during", "place after", "place defence", "place tied", "place round", "place votes",
              "place answers", "place last_words", "place night"}
    assert wanted <= seen, wanted - seen

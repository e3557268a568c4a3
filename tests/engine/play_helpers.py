"""Driving random games step by step for the property and golden tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.actions import Action, Deadline, Foul
from engine.bots import Memory, Policy, next_actions
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.state import GameState, Phase


def random_game(rules: str, players: int, seed: int, fouls: bool = False,
                policy: type[Policy] = Policy, options: dict[str, object] | None = None) -> GameState:
    state = new_game(rules, players, seed, options)
    for _ in steps(state, random.Random(seed), fouls, policy):
        pass
    return state


def steps(state: GameState, rng: random.Random, fouls: bool = False,
          policy: type[Policy] = Policy, tolerant: bool = False) -> Iterator[Action]:
    """Play to the end, yielding after every applied action. With ``fouls``, a moderator gives a
    random foul at the very start of some days (the one moment a scenario file can place it)."""
    memory = Memory()
    bot = policy(rng, memory)
    was_night = state.phase is Phase.NIGHT
    guard = 0
    while state.phase is not Phase.ENDED and guard < 20_000:
        guard += 1
        memory.update(state)
        is_night = state.phase is Phase.NIGHT
        if fouls and state.rules == "uk" and was_night and not is_night and rng.random() < 0.5:
            living = state.living()
            foul = Foul(rng.choice(living), rng.choice([0.5, 1.0]))
            apply(state, foul)
            yield foul
        was_night = state.phase is Phase.NIGHT
        step = state.step
        for action in next_actions(state, bot):
            try:
                apply(state, action)
            except RuleError:
                if not tolerant:  # only a test that interferes with the bots may see one
                    raise
                continue
            yield action
            if state.step != step:
                break
        if state.step == step and state.phase is not Phase.ENDED:
            deadline = Deadline(step)
            apply(state, deadline)
            yield deadline

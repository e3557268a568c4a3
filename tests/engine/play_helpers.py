"""Driving random games step by step for the property and golden tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.actions import Action, Deadline, Foul, SendOff, WithdrawFoul
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
    """Play to the end, yielding after every applied action. With ``fouls`` (uk), a moderator gives a random
    foul at the very start of some days, and now and then, at any moment of a day or a night, a foul (2 at
    once at night), takes one back or sends a player from the table."""
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
            if state.phase is Phase.ENDED:
                break
        was_night = state.phase is Phase.NIGHT
        if fouls and state.rules == "uk" and rng.random() < 0.08:
            action = moderator_action(state, rng)
            apply(state, action)
            yield action
            if state.phase is Phase.ENDED:
                break
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


def moderator_action(state: GameState, rng: random.Random) -> Action:
    """A legal moderator's action at this moment: mostly a foul, sometimes one taken back, rarely a send-off."""
    seat = rng.choice(state.living())
    fouled = [s for s in state.living() if state.foul_amounts.get(s)]
    roll = rng.random()
    if roll < 0.04:
        return SendOff(seat)
    if roll < 0.2 and fouled:
        return WithdrawFoul(rng.choice(fouled))
    amounts = [0.5, 1.0, 2.0] if state.phase is Phase.NIGHT else [0.5, 1.0]
    return Foul(seat, rng.choice(amounts))

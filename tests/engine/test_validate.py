"""``engine.game.validate``: the check a room makes before it writes an action to its log and applies it.

It must refuse exactly what ``apply`` refuses (the same error, the same message), never change the state, and
the copy it tries the action on must share nothing ``apply`` changes in place with the live state.
"""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from engine.actions import (
    Act,
    Action,
    BestMove,
    Deadline,
    EliminateAll,
    EndSpeech,
    ExtraPoints,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    Ready,
    SendOff,
    Vote,
    WithdrawFoul,
)
from engine.errors import RuleError
from engine.game import SCRATCH_COPIES, _scratch, applied, apply, new_game, validate
from engine.state import GameState, Phase
from tests.engine.play_helpers import steps


def candidates(state: GameState, rng: random.Random) -> list[Action]:
    """A few actions of every kind, most of them illegal now (a wrong seat, phase, target or step)."""
    seats = list(range(0, state.n + 2))
    seat, target = rng.choice(seats), rng.choice([*seats, None])
    return [
        NightAct(seat, rng.choice(list(Act)), target, rng.random() < 0.2), Vote(seat, target), Ready(seat),
        Nominate(seat, target or 1), EndSpeech(seat), EliminateAll(seat, rng.random() < 0.5),
        KamikazePick(seat, target), Foul(seat, rng.choice([0.5, 1.0, 3.0])), WithdrawFoul(seat), SendOff(seat),
        BestMove(seat, tuple(rng.sample(range(1, state.n + 1), rng.randint(1, 4)))),
        ExtraPoints(seat, rng.choice([0.1, 0.5, 2.0])), Deadline(state.step + rng.choice([-1, 0, 1])),
        *([NightAct(state.speaker or seat, Act.PASS)] if state.phase is Phase.NIGHT else []),
    ]


def outcome(call: object) -> tuple[str, object] | None:
    """What a call raised (its type and message), or None when it went through."""
    try:
        call()  # type: ignore[operator]
    except RuleError as error:
        return type(error).__name__, (error.msgid, dict(error.params))
    return None


@pytest.mark.parametrize(("rules", "players", "fouls"), [("uz", 9, False), ("uk", 10, True)])
@pytest.mark.parametrize("seed", range(3))
def test_validate_refuses_what_apply_refuses_and_changes_nothing(rules: str, players: int, fouls: bool,
                                                                 seed: int) -> None:
    rng = random.Random(seed)
    options = {"best_move": True} if rules == "uk" else None
    state = new_game(rules, players, seed, options)
    checked = legal = 0
    for _ in steps(state, random.Random(seed + 100), fouls=fouls, tolerant=True):
        for action in candidates(state, rng):
            before = copy.deepcopy(state)
            refused = outcome(lambda: validate(state, action))  # noqa: B023
            assert state == before, f"validate({action}) changed the state"
            assert refused == outcome(lambda: applied(state, action)), action  # noqa: B023
            if refused is None:  # the scratch copy leads where the live state would, and shares nothing with it
                tried = _scratch(state)
                apply(tried, action)
                assert state == before and tried == applied(state, action)[0], action
                legal += 1
            checked += 1
    assert state.phase is Phase.ENDED
    for action in (ExtraPoints(1, 0.5), Vote(1, 2)):  # after the end: the moderator's extra points, or GameOver
        before = copy.deepcopy(state)
        assert outcome(lambda: validate(state, action)) == outcome(lambda: applied(state, action))  # noqa: B023
        assert state == before
    assert checked > 100 and legal > 0, (checked, legal)


def _containers(value: object) -> list[object]:
    """Every list, dict and set inside ``value`` (itself included), not looking into frozen records (the actions,
    the events: ``apply`` never changes them)."""
    found: list[object] = []
    if isinstance(value, (list, dict, set)):
        found.append(value)
        items = value.items() if isinstance(value, dict) else value
        for item in items:
            found.extend(_containers(item))
    elif isinstance(value, tuple):
        for item in value:
            found.extend(_containers(item))
    return found


def test_the_scratch_copy_knows_every_field_and_shares_no_container() -> None:
    """``_scratch`` copies each field by a table (not ``copy.deepcopy``, five times the action's own time): the table
    names every field of the state, and through whole games of both rule sets the copy equals the state and holds
    none of its lists, dicts or sets, at any depth (a shared one would let a tried action change the live game)."""
    assert set(SCRATCH_COPIES) == {field.name for field in dataclasses.fields(GameState)}
    copied = 0
    for rules, players, fouls in (("uz", 9, False), ("uk", 10, True), ("uz", 16, False)):
        state = new_game(rules, players, 5, {"best_move": True} if rules == "uk" else None)
        for _ in steps(state, random.Random(players), fouls=fouls, tolerant=True):
            tried = _scratch(state)
            assert tried == state
            for field in dataclasses.fields(GameState):
                mine = {id(c) for c in _containers(getattr(state, field.name))}
                theirs = {id(c) for c in _containers(getattr(tried, field.name))}
                assert not mine & theirs, f"{field.name} shares a container with the live state"
                if SCRATCH_COPIES[field.name] == "shared":
                    hash(getattr(state, field.name))  # immutable: a number, a string, an enum, a tuple
            copied += 1
        assert state.phase is Phase.ENDED and state.choices and state.log
    assert copied > 50

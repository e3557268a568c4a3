"""Properties of the engine over random legal play (hypothesis chooses rules, sizes and seeds)."""

from __future__ import annotations

import copy
import random
from dataclasses import fields

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.actions import (
    Act,
    Action,
    Deadline,
    EliminateAll,
    EndSpeech,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    Ready,
    Vote,
)
from engine.errors import RuleError
from engine.game import apply, new_game, ruleset
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.roles import Role
from engine.scenario import export, run
from engine.state import GameState, Phase
from engine.view import view
from tests.engine.play_helpers import random_game, steps

games = st.one_of(
    st.tuples(st.just("uz"), st.integers(4, 30), st.integers(0, 2**32 - 1)),
    st.tuples(st.just("uk"), st.integers(8, 14), st.integers(0, 2**32 - 1)),
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

MAFIA = {Role.DON, Role.MAFIA, Role.LAWYER, Role.COURTESAN}


@SETTINGS
@given(games)
def test_random_legal_play_always_ends_within_the_day_limit(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    state = random_game(rules, players, seed, fouls=True)
    assert state.phase is Phase.ENDED
    assert state.winner in {"uz": {"town", "mafia", "killer", "draw"}, "uk": {"red", "black", "draw"}}[rules]
    limit = int(state.options["day_limit"])
    assert state.day <= limit and all(e.day <= limit for e in state.events)  # no night after day N, in both sets


def allowed_roles(state: GameState, seat: int, revealed: set[int]) -> set[int]:
    """What the rulebook lets a living seat know, written independently of engine.knowledge."""
    allowed = {seat} | revealed
    role = state.roles[seat - 1]
    if role in MAFIA:
        allowed |= {s for s in range(1, state.n + 1) if state.roles[s - 1] in MAFIA}
    if state.rules == "uz" and role in (Role.COMMISSAR, Role.SERGEANT):
        allowed |= {s for s in range(1, state.n + 1) if state.roles[s - 1] in (Role.COMMISSAR, Role.SERGEANT)}
    return allowed


PRIVATE_EVENTS = {"check", "witness", "quiet_visit", "role_change", "frozen"}


def check_views(state: GameState) -> None:
    ended = state.phase is Phase.ENDED
    revealed = {int(e.params["seat"]) for e in state.events if e.type == "death" and "role" in e.params}
    for seat in range(1, state.n + 1):
        v = view(state, Viewer.of_seat(seat))
        shown = {int(s) for s in v["roles"]}
        if ended:
            assert shown == set(range(1, state.n + 1))
            continue
        assert shown <= allowed_roles(state, seat, revealed), (seat, shown)
        assert v["roles"][str(seat)] == str(state.roles[seat - 1])
        for event in v["events"]:
            if event["type"] in ("check",):
                assert event["seat"] == seat or state.roles[seat - 1] in (Role.SERGEANT, Role.COMMISSAR)
            if event["type"] in ("witness", "quiet_visit"):
                assert event["seat"] == seat
            if event["type"] == "frozen":
                assert event["seat"] == seat
            if event["type"] == "role_change":
                assert event["seat"] == seat or state.roles[seat - 1] in MAFIA | {Role.COMMISSAR, Role.SERGEANT}
            assert event["type"] != "game_over"
            if event["type"] == "death" and event["phase"] == "night":
                assert event.get("cause") in (None, "fouls"), "who killed at night is not announced"
        if v["team_night"] is not None:
            assert state.roles[seat - 1] in MAFIA
        if "mafia" in v["chat"]["read"]:
            assert state.roles[seat - 1] in MAFIA and state.alive[seat - 1]
        if not state.alive[seat - 1]:
            assert "room" not in v["chat"]["write"]
    spectator = view(state, SPECTATOR)
    if not ended:
        assert {int(s) for s in spectator["roles"]} <= revealed
        assert not any(e["type"] in PRIVATE_EVENTS for e in spectator["events"])
        assert "dead" not in spectator["chat"]["read"] and "mafia" not in spectator["chat"]["read"]
        assert spectator["team_night"] is None and spectator["timeline"] is None
    assert len(view(state, MODERATOR)["roles"]) == state.n


@SETTINGS
@given(games)
def test_no_view_ever_shows_what_its_viewer_may_not_know(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    state = new_game(rules, min(players, 14), seed)
    check_views(state)
    for _ in steps(state, random.Random(seed), fouls=True):
        check_views(state)


NOT_REPLAYED = {"log", "step", "opening_step", "cache"}
"""What a replay need not reproduce: the log itself (a scenario is coarser: no harmless night choices, no "ready",
the clock's ticks where nobody acted), and the step counter and the opening step that count those ticks."""


def comparable(state: GameState) -> dict[str, object]:
    """What a replay must reproduce exactly: every event in order, with its audience, day and phase, and every
    other part of the state."""
    return {f.name: getattr(state, f.name) for f in fields(state) if f.name not in NOT_REPLAYED}


@SETTINGS
@given(games)
def test_export_then_replay_reproduces_the_state(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    state = random_game(rules, players, seed, fouls=True)
    scenario = export(state)
    result = run(scenario)
    assert result.error is None, result.error
    assert result.state is not None
    assert comparable(result.state) == comparable(state)


def random_action(state: GameState, rng: random.Random) -> Action:
    seat = rng.randint(-1, state.n + 2)
    target = rng.choice([None, rng.randint(-1, state.n + 2)])
    choices: list[Action] = [
        NightAct(seat, rng.choice(list(Act)), target, rng.random() < 0.2),
        Vote(seat, target), Ready(seat), Nominate(seat, target or 0), EndSpeech(seat),
        EliminateAll(seat, rng.random() < 0.5), KamikazePick(seat, target), Foul(seat, rng.choice([0.5, 1, 2, -1])),
        Deadline(state.step + rng.choice([-2, -1, 1, 5])),
    ]
    return rng.choice(choices)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_a_rejected_action_leaves_the_state_equal(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    rng = random.Random(seed ^ 0x5EED)
    state = new_game(rules, players, seed)
    rejected = 0
    for _ in steps(state, random.Random(seed), tolerant=True):
        for _ in range(3):
            before = copy.deepcopy(state)
            try:
                apply(state, random_action(state, rng))
            except RuleError as error:
                assert error.msgid, "every rejection says why"
                assert state == before
                rejected += 1
            else:
                break
        if state.phase is Phase.ENDED:
            break
    assert rejected > 0


@SETTINGS
@given(games)
def test_offered_targets_are_exactly_the_accepted_ones(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    state = new_game(rules, players, seed)
    for _ in steps(state, random.Random(seed)):
        if state.phase is not Phase.NIGHT:
            continue
        rs = ruleset(state)
        for seat in state.living():
            offered = {a["act"]: set(a["targets"]) for a in view(state, Viewer.of_seat(seat))["actions"]}
            for act in rs.night_powers:
                for target in range(1, state.n + 1):
                    try:  # validation never mutates (the rejected-action property checks that)
                        rs.validate_night(state, NightAct(seat, act, target))
                        accepted = True
                    except RuleError:
                        accepted = False
                    assert accepted == (target in offered.get(act, set())), (seat, act, target, offered)
        break

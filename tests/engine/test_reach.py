"""``engine.reach``: a seat an action does not reach sees, after it, what it saw before beside the new public part.

Random games of both rule sets with random options (the moderator's fouls among the moves): after every action,
every seat ``reach`` leaves out, and the spectator when it names seats, has the very same own view as before it.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.actions import NightAct
from engine.game import apply, new_game
from engine.knowledge import SPECTATOR, Viewer
from engine.options import OPTION_TABLES, OptionValue
from engine.reach import mark, reach
from engine.state import GameState, Phase
from engine.view import OWN_KEYS, own_part, public_view, view, with_public
from engine.view_types import View
from tests.engine.play_helpers import steps

games = st.one_of(
    st.tuples(st.just("uz"), st.integers(4, 16), st.integers(0, 2**32 - 1)),
    st.tuples(st.just("uk"), st.integers(8, 14), st.integers(0, 2**32 - 1)),
)


def random_options(rules: str, rng: random.Random) -> dict[str, OptionValue]:
    """Every rule option at a random value (the timers and the day limit left as they are)."""
    chosen: dict[str, OptionValue] = {}
    for spec in OPTION_TABLES[rules]:
        if spec.timer or spec.name == "day_limit":
            continue
        if isinstance(spec.default, bool):
            chosen[spec.name] = rng.random() < 0.5
        elif isinstance(spec.default, int):
            chosen[spec.name] = rng.randint(spec.minimum, min(spec.maximum, spec.minimum + 3))
        else:
            chosen[spec.name] = rng.choice(spec.choices)
    return chosen


def made(state: GameState) -> dict[Viewer, View]:
    return {v: view(state, v) for v in viewers(state)}


def viewers(state: GameState) -> list[Viewer]:
    return [SPECTATOR, *(Viewer.of_seat(seat) for seat in range(1, state.n + 1))]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_a_seat_the_action_does_not_reach_sees_what_it_saw(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    rng = random.Random(seed)
    state = new_game(rules, players, seed, random_options(rules, rng))
    before, seen = mark(state), made(state)
    named = 0
    for action in steps(state, rng, fouls=True):
        reached = reach(before, state, action)
        now, public = made(state), public_view(state)
        if reached is not None:
            named += 1
            for v in viewers(state):
                if v.kind == "spectator" or v.seat not in reached:
                    assert with_public(own_part(seen[v]), public) == now[v], (action, v)
        before, seen = mark(state), now
    assert state.phase is Phase.ENDED
    assert named > 0  # every game has votes or night choices that reach only their own seats


def test_a_townsman_s_night_choice_reaches_him_alone_and_a_mafia_s_the_team() -> None:
    state = new_game("uz", 12, 5)
    mafia = [s for s in range(1, 13) if str(state.role(s)) in ("don", "mafia")]
    town = next(s for s in range(1, 13) if str(state.role(s)) == "civilian")
    before = mark(state)
    choice = NightAct(town, "suspect", next(s for s in range(1, 13) if s != town))
    apply(state, choice)
    assert reach(before, state, choice) == frozenset({town})
    member = next(s for s in mafia if str(state.role(s)) == "mafia")
    before = mark(state)
    action = NightAct(member, "suggest", town)
    apply(state, action)
    team = reach(before, state, action)
    assert team is not None and set(mafia) <= team and town not in team


def test_an_action_that_ends_the_step_reaches_everyone() -> None:
    state = new_game("uz", 4, 1)
    for seat in range(1, 5):
        if state.phase is not Phase.NIGHT:
            break
        before = mark(state)
        action = NightAct(seat, "pass")
        apply(state, action)
    assert state.phase is not Phase.NIGHT
    assert reach(before, state, action) is None  # the last choice resolved the night


def test_a_view_is_its_public_part_then_its_own_keys() -> None:
    """``with_public`` rebuilds a view from ``OWN_KEYS``: a key added to the view must be named there."""
    state = new_game("uk", 10, 3)
    for v in viewers(state):
        made_now = view(state, v)
        assert list(made_now) == [*public_view(state), *OWN_KEYS]
        assert list(with_public(own_part(made_now), public_view(state)).items()) == list(made_now.items())

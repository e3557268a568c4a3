"""The game's random state is kept packed (engine.rng): small, and drawing exactly as random.Random does."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from engine.dealing import deal
from engine.game import new_game
from engine.options import resolve
from engine.rng import pack, packed_state, restored, unpack
from engine.scenario import run


def draws(rng: random.Random) -> list[object]:
    return [rng.random(), rng.getrandbits(64), rng.choice(range(1000)), rng.gauss(0.0, 1.0), rng.randint(1, 12),
            *(rng.random() for _ in range(700))]  # past one full twist of the 624 words


def generators() -> list[random.Random]:
    """Fresh generators, ones part of the way through their words, and one holding a spare gauss value."""
    found = []
    for seed in (0, 1, 2024, 2**64 + 7):
        rng = random.Random(seed)
        found.append(random.Random(seed))
        rng.random()
        found.append(rng)
    spare = random.Random(5)
    spare.gauss(0.0, 1.0)
    assert spare.getstate()[2] is not None
    found.append(spare)
    return found


@pytest.mark.parametrize("rng", generators())
def test_pack_then_unpack_gives_the_same_state_and_the_same_draws(rng: random.Random) -> None:
    state = rng.getstate()
    assert unpack(pack(state)) == state
    reference = random.Random()
    reference.setstate(state)
    again = restored(packed_state(rng))
    assert again.getstate() == state
    assert draws(again) == draws(reference)
    assert packed_state(again) == pack(reference.getstate())  # and the states after the draws match too


def test_pack_refuses_what_is_not_a_random_state() -> None:
    version, internal, gauss = random.Random(1).getstate()
    with pytest.raises(ValueError):
        pack((version, internal[:-1], gauss))
    with pytest.raises(OverflowError):
        pack((version, (2**32, *internal[1:]), gauss))


def deep_size(obj: Any) -> int:
    """sys.getsizeof of an object and, for a tuple, of everything in it."""
    return sys.getsizeof(obj) + (sum(deep_size(item) for item in obj) if isinstance(obj, tuple) else 0)


@pytest.mark.parametrize("rules, players", [("uz", 12), ("uk", 10)])
def test_a_games_random_state_is_small(rules: str, players: int) -> None:
    state = new_game(rules, players, 2024)
    version, words, gauss = state.rng_state
    assert isinstance(words, bytes) and len(words) == 625 * 4
    size = deep_size(state.rng_state)
    assert size < 3000, size  # getstate()'s own tuple of 625 ints: about 24,500 bytes


ROLES = ["don", "mafia", "doctor", "commissar", *["civilian"] * 6]
OPTIONS = {"tie_result": "random"}


def tie_scenario(seed: int) -> dict[str, Any]:
    """Two uz days, each a tied vote between two civilians that the game draws from."""
    return {"rules": "uz", "seed": seed, "options": OPTIONS, "roles": ROLES, "steps": [
        {"night": []}, {"day": {"votes": {"1": 9, "2": 9, "3": 10, "4": 10}}},
        {"night": []}, {"day": {"votes": {"1": 7, "2": 7, "3": 8, "4": 8}}},
    ]}


def reference_draws(seed: int) -> tuple[list[int], tuple[Any, ...]]:
    """What the tie draws are with random.Random's own getstate/setstate, as the engine drew them before the
    state was packed: the deal from the seed, then one choice per tie from the state kept between them."""
    rng = random.Random(seed)
    deal("uz", len(ROLES), resolve("uz", OPTIONS), rng)
    kept = rng.getstate()
    picks = []
    for leaders in ([9, 10], [7, 8]):
        drawer = random.Random()
        drawer.setstate(kept)
        picks.append(drawer.choice(leaders))
        kept = drawer.getstate()
    return picks, kept


def test_a_uz_random_tie_draws_the_seat_plain_random_draws() -> None:
    seen = set()
    for seed in range(40):
        result = run(tie_scenario(seed))
        assert result.error is None, result.error
        assert result.state is not None
        picks = [e.params["eliminated"] for e in result.state.events if e.type == "vote_result"]
        expected, kept = reference_draws(seed)
        assert picks == expected, seed
        assert unpack(result.state.rng_state) == kept
        seen.add(tuple(picks))
    assert len(seen) == 4  # every pair of outcomes came up: the draws do depend on the seed

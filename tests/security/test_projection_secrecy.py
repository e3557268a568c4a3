"""Secrecy of the projection itself, over many random games of both rule sets (bots choose the actions).

After every applied action, every viewer's ``engine.view.view`` is checked against the independent
oracle (tests/security/oracle.py): roles, teams, private results, the mafia's night, chats, the timeline;
and swapping the roles of the seats the viewer may not know must leave his projection byte for byte the
same. The page tests (test_secrecy.py) then check that pages add nothing to the projection.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import Heuristic, Policy
from engine.game import new_game
from tests.engine.play_helpers import steps

from .oracle import Oracle
from .projection_checks import MODERATOR_ID, SPECTATOR_ID, private_index, problems, swap_problems
from .stats import STATS

GAMES = [("uz", players, seed) for players, seed in ((4, 1), (6, 2), (8, 3), (10, 4), (12, 5), (14, 6), (18, 7),
                                                     (22, 8), (25, 9), (30, 10), (23, 11), (27, 12))]
GAMES += [("uk", players, seed) for players, seed in ((8, 21), (9, 22), (10, 23), (11, 24), (12, 25), (13, 26),
                                                      (14, 27), (12, 28))]
ROUNDS = 4  # each (rules, players) with several seeds and both bot policies


def option_variants(rules: str, rng: random.Random) -> dict[str, object]:
    """Random rule options (never dead_see_roles: with it on, the dead may see everything)."""
    if rules == "uz":
        return {"commissar_knows_sergeant": rng.random() < 0.8, "reveal_roles_on_death": rng.random() < 0.7,
                "sergeant_succession": rng.random() < 0.8, "werewolf_order": rng.choice(
                    ["killer_mafia_commissar", "mafia_commissar_killer"])}
    return {"reveal_roles_on_death": rng.random() < 0.3, "lone_courtesan_kills": rng.random() < 0.8}


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players", "seed"), GAMES)
def test_no_projection_shows_what_its_viewer_may_not_know(rules: str, players: int, seed: int) -> None:
    for round_ in range(ROUNDS):
        game_seed = seed * 1000 + round_
        rng = random.Random(game_seed)
        state = new_game(rules, players, game_seed, option_variants(rules, rng))
        oracle = Oracle.start(state)
        viewers = [*range(1, players + 1), SPECTATOR_ID, MODERATOR_ID]
        policy = Heuristic if round_ % 2 else Policy
        found: list[str] = []
        checked = 0
        for _action in steps(state, rng, fouls=True, policy=policy):
            oracle.update(state)
            keys = private_index(state)
            for viewer in viewers:
                found += [f"{viewer}: {p}" for p in problems(state, oracle, viewer, keys=keys)]
                checked += 1
            viewer = rng.choice(viewers)  # the swap test is dearer: one viewer per action
            found += [f"{viewer}: {p}" for p in swap_problems(state, oracle, viewer, rng)]
            assert not found, (rules, players, game_seed, state.day, str(state.phase), found[:5])
        STATS.add("projection games", 1)
        STATS.add("projections checked", checked)

"""Golden playthroughs per rule set: every viewer's view after every action, diffed line by line."""

from __future__ import annotations

import difflib

import pytest

from engine.rulesets import RULESETS
from tests.engine.golden import GAMES, path_for, playthrough

CASES = [(rules, players, seed) for rules, games in GAMES.items() for players, seed in games]


def test_every_rule_set_has_a_golden_playthrough() -> None:
    for rules in RULESETS:
        files = [path_for(rules, p, s) for p, s in GAMES.get(rules, [])]
        assert files and all(f.exists() for f in files), f"rule set {rules} has no golden playthrough"


@pytest.mark.parametrize(("rules", "players", "seed"), CASES)
def test_playthrough_matches_golden(rules: str, players: int, seed: int) -> None:
    expected = path_for(rules, players, seed).read_text().splitlines()
    actual = playthrough(rules, players, seed)
    diff = list(difflib.unified_diff(expected, actual, "golden", "now", lineterm="", n=1))
    assert not diff, "\n".join(diff[:40])

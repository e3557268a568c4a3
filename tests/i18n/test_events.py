"""Every engine event reaches the reader as a sentence in his language: bot games of both rule sets,
each event and the after-game timeline worded in all five languages."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from engine.bots import POLICIES, Memory, play
from engine.game import new_game
from engine.state import GameState
from engine.view import timeline
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages import wording

from .catalogs import ROOT

GAMES = [("uz", 24, seed) for seed in (1, 2, 3, 4)] + [("uk", 12, seed) for seed in (1, 2, 3, 4)]


@cache
def finished_game(rules: str, players: int, seed: int) -> GameState:
    rng = random.Random(seed)
    memory = Memory()
    return play(new_game(rules, players, seed), POLICIES["heuristic"](rng, memory), memory)


def name_of(seat: int) -> str:
    return f"{seat}. P{seat}"


def test_every_event_type_the_engine_emits_has_a_wording() -> None:
    emitted = set()
    for path in (ROOT / "engine").glob("*.py"):
        emitted |= set(re.findall(r'\.emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    worded = set(re.findall(r'kind == "([a-z_]+)"', (ROOT / "webgame/pages/wording.py").read_text(encoding="utf-8")))
    assert emitted and emitted <= worded, f"events without a sentence: {sorted(emitted - worded)}"


@pytest.mark.parametrize(("rules", "players", "seed"), GAMES)
def test_events_and_timeline_are_worded_in_every_language(rules: str, players: int, seed: int) -> None:
    state = finished_game(rules, players, seed)
    assert state.winner is not None
    items = [(event.as_dict(), event.phase) for event in state.events]
    items += [(item, "timeline") for item in timeline(state)]
    english = translator("en")
    for item, phase in items:
        if phase == "timeline":
            source = wording.timeline_text(english, rules, item, name_of)
        else:
            source = wording.event_text(english, rules, item, name_of, 1, phase)
        for language in sorted(LANGUAGES):
            _ = translator(language)
            if phase == "timeline":
                text = wording.timeline_text(_, rules, item, name_of)
            else:
                text = wording.event_text(_, rules, item, name_of, 1, phase)
            assert (text is None) == (source is None), (language, item)
            if text is None:
                continue
            assert "{" not in text and "}" not in text, (language, text)
            if language != "en":
                assert text != source, (language, item, text)

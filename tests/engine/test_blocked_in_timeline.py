"""The timeline names blocked acts (issue 27.11): a kill or a check blocked by the lover (uz) or frozen by the
courtesan (uk) says so after the game, on every phone and the TV; an act nobody blocked says nothing of the kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.scenario import run
from engine.view import timeline
from webgame.language.i18n import translator
from webgame.pages import wording

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _lines(name: str) -> list[tuple[dict[str, Any], str]]:
    data = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    state = run(data).state
    assert state is not None
    _ = translator("en")
    said = []
    for item in timeline(state):
        if item.get("type") == "choice":
            text = wording.timeline_text(_, state.rules, item, lambda seat: f"{seat}.")
            assert text is not None
            said.append((item, text))
    return said


def test_the_lovers_block_is_told_in_the_timeline() -> None:
    lines = _lines("uz-lover-blocks-don.json")
    kill = next(text for item, text in lines if item["act"] == "kill")
    assert kill.endswith("Blocked by the lover: it did not happen.")
    block = next(text for item, text in lines if item["act"] == "block")
    assert "Blocked" not in block  # the lover's own act happened


def test_the_courtesans_freeze_is_told_in_the_timeline_and_a_free_act_says_nothing() -> None:
    lines = _lines("uk-courtesan-freezes-maniac.json")
    frozen = [text for item, text in lines if item.get("blocked")]
    assert frozen and all(text.endswith("Frozen by the courtesan: it did not happen.") for text in frozen)
    free = [text for item, text in lines if not item.get("blocked")]
    assert free and not any("it did not happen" in text for text in free)
    assert translator("uk")(wording.BLOCKED_BY["courtesan"]) != "Frozen by the courtesan: it did not happen."

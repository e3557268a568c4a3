"""What the table reads about votes, fouls and the night (issue 13): each outcome in its own words, no
line twice, no "his" for a player who may be a woman, the timeline in the rule set's order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from engine.actions import Deadline, EndSpeech, Foul, NightAct, Nominate, SendOff, Vote, WithdrawFoul
from engine.game import apply, new_game
from engine.knowledge import MODERATOR
from engine.state import GameState, Phase
from engine.view import view
from webgame.language.i18n import LANGUAGES, Translator, translator
from webgame.pages import moderator, outcome, wording
from webgame.pages.screen import Draft, Node

UK12 = ["don", "mafia", "mafia", "courtesan", "commissar", "doctor", "maniac",
        "civilian", "civilian", "civilian", "civilian", "civilian"]
NAMES = {1: "Olena", 2: "Myroslava", 11: "Pavlo"}


def name_of(seat: int) -> str:
    return f"{seat}. {NAMES.get(seat, f'P{seat}')}"


def labels(d: Draft) -> list[str]:
    found: list[str] = []

    def walk(nodes: list[Node]) -> None:
        for node in nodes:
            if "x" in node and node.get("t") == "label":
                found.append(str(node["x"]))
            walk(node.get("k", []) or node.get("children", []) or [])
    walk(d.nodes)
    return found


def texts(_: Translator, state: GameState) -> list[str]:
    lines = [wording.event_text(_, "uk", e.as_dict(), name_of, 0, e.phase) for e in state.events]
    return [line for line in lines if line]


def a_day_with_two_ties() -> GameState:
    state = new_game("uk", 12, 1, {"three_fouls_penalty_vote": False}, UK12)
    for speaker in range(1, 13):
        if speaker == 11:
            apply(state, Nominate(11, 2))
        if speaker == 1:
            apply(state, Nominate(1, 11))
        apply(state, EndSpeech(speaker))
    for _round in (1, 2):
        while state.phase is Phase.DEFENCE:
            apply(state, EndSpeech(state.speaker))
        for voter in state.living():
            apply(state, Vote(voter, 11 if voter % 2 and voter != 11 else 2 if voter != 2 else 11))
    return state


def test_the_vote_and_the_revote_ties_read_differently() -> None:
    state = a_day_with_two_ties()
    _ = translator("en")
    lines = texts(_, state)
    assert "The vote is tied between 11. Pavlo and 2. Myroslava." in lines
    assert "The re-vote is tied again between 11. Pavlo and 2. Myroslava." in lines
    assert len(lines) == len(set(lines)), lines
    for language in LANGUAGES:
        worded = texts(translator(language), state)
        assert len(worded) == len(set(worded)), (language, worded)


def test_a_tie_still_names_both_after_one_is_removed_by_fouls() -> None:
    state = a_day_with_two_ties()
    for _ in range(4):
        apply(state, Foul(2, 1))
    assert not state.is_alive(2)
    assert "The vote is tied between 11. Pavlo and 2. Myroslava." in texts(translator("en"), state)


def test_a_single_nominee_is_not_a_vote() -> None:
    _ = translator("en")
    spared = {"type": "vote_result", "votes": {}, "eliminated": None, "single": 4}
    gone = {"type": "vote_result", "votes": {}, "eliminated": 4, "single": 4}
    assert wording.event_text(_, "uk", spared, name_of, 0) == "4. P4 was the only nominee: nobody is eliminated today."
    assert wording.event_text(_, "uk", gone, name_of, 0) == "4. P4 was the only nominee: eliminated without a vote."
    nobody = {"type": "vote_result", "votes": {"1": None, "2": None}, "eliminated": None}
    tie = {"type": "vote_result", "votes": {"1": 2, "2": 1}, "eliminated": None}
    assert wording.event_text(_, "uz", nobody, name_of, 0) == "Nobody voted: nobody is eliminated."
    assert wording.event_text(_, "uz", tie, name_of, 0) == "The vote is tied: nobody is eliminated."
    penalty = {"type": "vote_result", "votes": {"1": 2}, "eliminated": 2, "round": 1, "tied": [], "penalties": [2]}
    assert wording.event_text(_, "uk", penalty, name_of, 0) == (
        "The vote: 2. Myroslava is eliminated. +1 penalty vote for 2. Myroslava.")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_fouls_are_told_without_a_gender(language: str) -> None:
    _ = translator(language)
    lost = wording.event_text(_, "uk", {"type": "speech_lost", "seat": 2}, name_of, 0)
    assert lost and "Myroslava" in lost
    if language == "en":
        assert lost == "2. Myroslava loses this speech to fouls."
    sent = wording.event_text(_, "uk", {"type": "death", "seat": 2, "cause": "fouls", "sent_off": True}, name_of, 0,
                              "night")
    removed = wording.event_text(_, "uk", {"type": "death", "seat": 2, "cause": "fouls"}, name_of, 0, "night")
    back = wording.event_text(_, "uk", {"type": "foul_withdrawn", "seat": 2, "amount": 1.0, "total": 1.5},
                              name_of, 0)
    assert sent and removed and back and sent != removed
    assert _.number(1.5) in back
    if language == "en":
        assert sent == "2. Myroslava was sent from the table."
        assert removed == "2. Myroslava was removed for four fouls."  # not "died tonight": the table saw it


def test_the_uk_timeline_shows_day_one_before_night_one() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    apply(state, Foul(8, 0.5))
    for speaker in range(1, 13):
        apply(state, EndSpeech(speaker))
    apply(state, NightAct(1, "kill", 9))
    apply(state, NightAct(5, "check", 1))
    apply(state, Deadline(state.step))
    for _ in range(4):
        apply(state, Foul(1, 1))  # the don, then the game goes on until the end below
    while state.phase is not Phase.ENDED:
        black = [s for s in state.living() if s in (2, 3, 4)]
        apply(state, SendOff(black[0]))
    _ = translator("en")
    d = Draft()
    outcome.show(d, _, view(state, MODERATOR), name_of)
    shown = labels(d)
    assert shown.index("Day 1") < shown.index("Night 1") < shown.index("Day 2")
    assert sum("checked 1. Olena" in line for line in shown) == 1, shown


@dataclass
class Page:
    t: Translator


@dataclass
class StubView:
    """What ``moderator_night`` reads of a GameView: the translator, the projection, the seat labels."""

    page: Page
    p: dict[str, Any]

    def name_of(self, seat: int) -> str:
        return name_of(seat)


def test_the_moderators_night_card() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    for speaker in range(1, 13):
        apply(state, EndSpeech(speaker))
    apply(state, NightAct(1, "kill", 9))
    apply(state, NightAct(2, "suggest", 10))
    apply(state, NightAct(4, "freeze", 5))
    apply(state, Foul(12, 2))
    apply(state, WithdrawFoul(12))
    d = Draft()
    moderator.moderator_night(StubView(Page(translator("en")), view(state, MODERATOR)), d)  # type: ignore[arg-type]
    shown = labels(d)
    assert any(line.startswith("Still choosing: ") and "9. P9" in line for line in shown)
    assert "1. Olena (Don) chose to kill 9. P9." in shown
    assert "2. Myroslava suggests 10. P10." in shown
    assert "9. P9 was killed by the mafia." in shown
    assert "5. P5 is frozen tonight." in shown
    d = Draft()
    apply(state, Deadline(state.step))
    moderator.moderator_night(StubView(Page(translator("en")), view(state, MODERATOR)), d)  # type: ignore[arg-type]
    assert d.nodes == []  # by day: nothing


def test_the_timeline_tells_a_check_and_its_note_in_one_line() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    for speaker in range(1, 13):
        apply(state, EndSpeech(speaker))
    apply(state, NightAct(5, "check", 1, note=True))
    apply(state, Deadline(state.step))
    for _ in range(4):
        apply(state, Foul(5, 1))
    while state.phase is not Phase.ENDED:
        apply(state, SendOff([s for s in state.living() if s in (1, 2, 3, 4)][0]))
    d = Draft()
    outcome.show(d, translator("en"), view(state, MODERATOR), name_of)
    lines = [line for line in labels(d) if "checked 1. Olena" in line]
    assert lines == ["5. P5 checked 1. Olena: black. A note was left with it."]

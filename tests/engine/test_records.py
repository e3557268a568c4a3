"""The record of a game: an event, once made, never changes; the timeline reads in the rule set's order."""

from __future__ import annotations

import copy
import random

from hypothesis import given

from engine.actions import Deadline, EndSpeech, Foul, NightAct, Nominate, Vote
from engine.game import apply, new_game
from engine.knowledge import MODERATOR
from engine.state import GameState, Phase
from engine.view import timeline, view
from tests.engine.play_helpers import steps
from tests.engine.test_properties import SETTINGS, games

UK12 = ["don", "mafia", "mafia", "courtesan", "commissar", "doctor", "maniac",
        "civilian", "civilian", "civilian", "civilian", "civilian"]


def uk_game(**options: object) -> GameState:
    return new_game("uk", 12, 1, options, UK12)


def speak_to_the_vote(state: GameState, nominations: dict[int, int]) -> None:
    while state.phase is Phase.SPEECHES:
        speaker = state.speaker
        if speaker in nominations:
            apply(state, Nominate(speaker, nominations[speaker]))
        apply(state, EndSpeech(speaker))
    while state.phase is Phase.DEFENCE:
        apply(state, EndSpeech(state.speaker))


def test_a_tie_announced_stays_as_announced_after_a_nominee_is_removed() -> None:
    state = uk_game(three_fouls_penalty_vote=False)
    for _ in range(3):
        apply(state, Foul(2, 1))  # seat 2 lost day 1's speech; he is still nominated
    speak_to_the_vote(state, {11: 2, 1: 11})
    for voter in state.living():
        apply(state, Vote(voter, 11 if voter != 11 and voter % 2 else 2 if voter != 2 else 11))
    tie = [e for e in state.events if e.type == "vote_result"][-1]
    assert tie.params["tied"] == [11, 2], tie.params
    shown_before = view(state, MODERATOR)["events"][-1]
    apply(state, Foul(2, 1))  # the 4th: removed between the vote and the re-vote
    assert not state.is_alive(2)
    assert tie.params["tied"] == [11, 2]
    assert tie.as_dict()["tied"] == [11, 2]
    after = [e for e in view(state, MODERATOR)["events"] if e["type"] == "vote_result"][-1]
    assert after == shown_before


@SETTINGS
@given(games)
def test_no_later_action_changes_an_event_already_made(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    state = new_game(rules, players, seed)
    made: list[dict[str, object]] = []
    kinds: set[str] = set()
    for _ in steps(state, random.Random(seed), fouls=True):
        for event in state.events[len(made):]:
            made.append(copy.deepcopy({"type": event.type, "params": event.params, "audience": event.audience,
                                       "day": event.day, "phase": event.phase}))
            kinds.add(event.type)
        reader = state.events[0].as_dict() if state.events else {}
        for value in reader.values():  # a reader changing what it was given changes nothing either
            if isinstance(value, list):
                value.append(-1)
            elif isinstance(value, dict):
                value["changed"] = True
    now = [{"type": e.type, "params": e.params, "audience": e.audience, "day": e.day, "phase": e.phase}
           for e in state.events]
    assert now == made
    assert "death" in kinds


def test_the_uk_timeline_reads_day_night_day() -> None:
    state = uk_game()
    apply(state, Foul(8, 0.5))  # something on day 1
    speak_to_the_vote(state, {})
    apply(state, NightAct(1, "kill", 9))
    apply(state, Deadline(state.step))
    apply(state, Foul(10, 0.5))  # something on day 2
    order = []
    for item in timeline(state):
        half = (int(item["day"]), item["phase"] == "night")
        if half not in order:
            order.append(half)
    assert order == [(1, False), (1, True), (2, False)]


def test_the_uz_timeline_reads_night_day_night() -> None:
    state = new_game("uz", 7, 1, {}, ["don", "mafia", "doctor", "commissar", "civilian", "civilian", "civilian"])
    apply(state, NightAct(1, "kill", 5))
    apply(state, Deadline(state.step))
    apply(state, Deadline(state.step))  # the discussion
    apply(state, Vote(1, 6))
    apply(state, Deadline(state.step))
    apply(state, NightAct(1, "kill", 7))
    apply(state, Deadline(state.step))
    order = []
    for item in timeline(state):
        half = (int(item["day"]), item["phase"] == "night")
        if half not in order:
            order.append(half)
    assert order == [(1, True), (1, False), (2, True)]


def test_a_check_is_listed_once_in_the_timeline() -> None:
    state = uk_game()
    speak_to_the_vote(state, {})
    apply(state, NightAct(5, "check", 1))
    apply(state, Deadline(state.step))
    checks = [item for item in timeline(state) if item.get("act") == "check" or item["type"] == "check"]
    assert len(checks) == 1 and checks[0]["type"] == "check" and checks[0]["result"] == "black"


def test_a_game_with_a_third_foul_after_a_nomination_exports_and_replays() -> None:
    from engine.scenario import export, run
    from tests.engine.test_properties import comparable

    state = uk_game()
    apply(state, Foul(5, 1))
    apply(state, Foul(5, 1))
    apply(state, Nominate(1, 9))
    apply(state, Foul(5, 1))  # the 3rd, during seat 1's speech after his nomination: seat 5 loses today's speech
    apply(state, EndSpeech(1))
    apply(state, Foul(3, 1))  # during seat 2's speech
    speak_to_the_vote(state, {2: 10})
    for voter in state.living():
        apply(state, Foul(11, 0.5)) if voter == 6 else None  # during the vote
        apply(state, Vote(voter, 9 if voter != 9 else 10))
    apply(state, Deadline(state.step))  # the last words: the day is over
    assert state.phase is Phase.NIGHT
    scenario = export(state)
    day = scenario["steps"][0]["day"]
    places = [{k: v for k, v in f.items() if k not in ("seat", "amount")} for f in day["fouls"]]
    assert places == [{"during": 1}, {"during": 1}, {"after": 1}, {"during": 2}, {"round": 1, "votes": 5}]
    result = run(scenario)
    assert result.error is None and result.state is not None
    assert comparable(result.state) == comparable(state)


def test_a_check_with_a_note_says_so_once() -> None:
    state = uk_game()
    speak_to_the_vote(state, {})
    apply(state, NightAct(5, "check", 1, note=True))
    apply(state, Deadline(state.step))
    checks = [item for item in timeline(state) if item.get("act") == "check" or item["type"] == "check"]
    assert len(checks) == 1 and checks[0]["note"] is True

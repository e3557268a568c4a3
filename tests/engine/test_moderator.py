"""The uk moderator: fouls (2 at once at night), taking one back, sending a player from the table, what he
sees at night; and the projection's other new parts (the penalty vote in the tally, the uz shot on night 1)."""

from __future__ import annotations

import copy

import pytest

from engine.actions import Deadline, EndSpeech, Foul, NightAct, Nominate, SendOff, Vote, WithdrawFoul
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.state import GameState, Phase
from engine.uk_day import LOST_SPEECH
from engine.view import SHOOT_NIGHT_ONE, view
from tests.engine.test_records import UK12, speak_to_the_vote

UK8 = ["don", "courtesan", "commissar", "doctor", "maniac", "civilian", "civilian", "civilian"]


def at_night(roles: list[str] = UK12) -> GameState:
    state = new_game("uk", len(roles), 1, {}, roles)
    speak_to_the_vote(state, {})
    assert state.phase is Phase.NIGHT
    return state


def acts(state: GameState, seat: int) -> set[str]:
    return {str(a.get("act")) for a in view(state, Viewer.of_seat(seat))["actions"]}


def test_the_next_mafia_kills_the_same_night_when_the_don_is_sent_off() -> None:
    state = at_night()
    apply(state, NightAct(2, "suggest", 9))  # done for the night: he does not choose the kill
    apply(state, NightAct(1, "kill", 10))
    assert "kill" not in acts(state, 2)
    apply(state, SendOff(1))
    assert not state.is_alive(1) and state.phase is Phase.NIGHT
    assert "kill" in acts(state, 2)
    apply(state, NightAct(2, "kill", 9))
    apply(state, Deadline(state.step))
    assert not state.is_alive(9) and state.is_alive(10), "the don's choice left with him"


def test_a_lone_courtesan_kills_the_same_night_when_the_last_mafia_leaves() -> None:
    state = at_night(UK8)
    apply(state, NightAct(2, "freeze", 6))
    assert "kill" not in acts(state, 2)
    for _ in range(2):
        apply(state, Foul(1, 2))  # gestures at night: 2 fouls at once, twice
    assert not state.is_alive(1)
    assert "kill" in acts(state, 2)
    apply(state, NightAct(2, "kill", 7))
    apply(state, Deadline(state.step))
    assert not state.is_alive(7)


def test_sending_off_the_last_one_still_choosing_ends_the_night() -> None:
    state = at_night()
    for seat in state.living():
        if seat != 12:
            apply(state, NightAct(seat, "pass"))
    night = state.day
    apply(state, SendOff(12))
    assert state.phase is not Phase.NIGHT and state.day == night + 1


def test_two_fouls_at_once_only_at_night() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    with pytest.raises(RuleError):
        apply(state, Foul(3, 2))
    assert [a["amounts"] for a in view(state, MODERATOR)["actions"] if a["type"] == "foul"] == [[0.5, 1]]
    speak_to_the_vote(state, {})
    assert [a["amounts"] for a in view(state, MODERATOR)["actions"] if a["type"] == "foul"] == [[0.5, 1, 2]]
    apply(state, Foul(3, 2))
    assert state.fouls[3] == 2


def test_a_withdrawn_third_foul_gives_back_the_speech_and_the_penalty_vote() -> None:
    state = at_night()
    apply(state, Foul(8, 1))
    apply(state, Foul(8, 2))
    assert 8 in state.loses_speech and 8 in state.penalty_vote
    moderator = {a["type"]: a for a in view(state, MODERATOR)["actions"]}
    assert moderator["withdraw_foul"]["targets"] == [8] and moderator["withdraw_foul"]["last"] == {"8": 2.0}
    apply(state, WithdrawFoul(8))
    assert state.fouls[8] == 1 and 8 not in state.loses_speech and 8 not in state.penalty_vote
    assert state.events[-1].type == "foul_withdrawn"
    apply(state, WithdrawFoul(8))
    with pytest.raises(RuleError) as error:
        apply(state, WithdrawFoul(8))
    assert "no foul" in str(error.value)


def test_the_moderator_sees_the_night_as_it_is_chosen() -> None:
    state = at_night()
    apply(state, NightAct(1, "kill", 9))
    apply(state, NightAct(5, "check", 2))
    before = copy.deepcopy(state)
    night = view(state, MODERATOR)["moderator_night"]
    assert state == before, "the outcome is worked out on a copy"
    assert 1 not in night["waiting"] and 5 not in night["waiting"] and 9 in night["waiting"]
    assert {"seat": 1, "role": "don", "act": "kill", "target": 9, "note": False} in night["picks"]
    outcome = {(e["type"], e.get("seat")) for e in night["outcome"]}
    assert ("death", 9) in outcome and ("check", 5) in outcome
    apply(state, NightAct(6, "heal", 9))
    healed = view(state, MODERATOR)["moderator_night"]["outcome"]
    assert ("death", 9) not in {(e["type"], e.get("seat")) for e in healed}
    for viewer in (SPECTATOR, Viewer.of_seat(1), Viewer.of_seat(5)):
        assert view(state, viewer)["moderator_night"] is None


def test_a_player_who_lost_his_speech_is_told_so() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    apply(state, EndSpeech(1))
    for _ in range(3):
        apply(state, Foul(5, 1))
    for seat in (2, 3, 4):  # his speech is lost when its turn comes
        apply(state, EndSpeech(seat))
    assert state.speaker == 6 and state.events[-1].type == "speech_lost"
    with pytest.raises(RuleError) as error:
        apply(state, Nominate(5, 1))
    assert error.value.msgid == LOST_SPEECH


def test_the_penalty_vote_is_in_the_projection_of_the_first_round() -> None:
    state = new_game("uk", 12, 1, {}, UK12)
    for _ in range(3):
        apply(state, Foul(7, 1))
    speak_to_the_vote(state, {1: 7, 2: 8})
    assert state.phase is Phase.VOTE
    assert view(state, SPECTATOR)["penalties"] == [7]
    for voter in state.living():
        apply(state, Vote(voter, 8 if voter != 8 else 7))
    result = [e for e in state.events if e.type == "vote_result"][-1]
    assert result.params["penalties"] == [7] and result.params["eliminated"] == 8


def test_the_uz_commissar_is_told_why_he_cannot_shoot_on_night_one() -> None:
    state = new_game("uz", 7, 1, {}, ["don", "mafia", "doctor", "commissar", "civilian", "civilian", "civilian"])
    shoot = next(a for a in view(state, Viewer.of_seat(4))["actions"] if a.get("act") == "shoot")
    assert shoot["allowed"] is False and shoot["reason"] == SHOOT_NIGHT_ONE and shoot["targets"] == []
    apply(state, Deadline(state.step))
    apply(state, Deadline(state.step))
    apply(state, Deadline(state.step))
    assert state.phase is Phase.NIGHT and state.day == 2
    shoot = next(a for a in view(state, Viewer.of_seat(4))["actions"] if a.get("act") == "shoot")
    assert "allowed" not in shoot and shoot["targets"]

"""A uk day of a scenario: its nominations in speaking order, its voting rounds, and the moderator's fouls placed
where the day's ``fouls`` say (docs/RULES.md, "Scenario files": the places a day's foul may name).

Two kinds of place. A **moment** names an exact point of the day, as an export writes it: during a speech before
its nomination (``during``), after it (``after`` a seat), during a defence (``defence``) or a tied player's speech
(``tied``), during a voting round after so many of its votes (``round`` and ``votes``), during the vote on
eliminating them all after so many answers (``answers``), during last words (``last_words``). A **stage** names a
point between the day's parts: ``"speeches"`` (after the speeches and the defences, before the vote begins),
``"vote"`` (after the first voting round), ``"revote"`` (after the re-vote); a stage the day passes without a
moment in between (no vote that day) is given at the day's last moment before it, so by the day's rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Deadline, EliminateAll, Foul, Nominate, Vote
from engine.errors import IllegalTarget, RuleError
from engine.game import applied
from engine.i18n import N_
from engine.scenario_common import ScenarioFormatError, as_int, do, moderator_action, phase, seat_map, tick
from engine.scenario_points import run_best_move
from engine.state import GameState, Phase
from engine.uk_day import DOUBLE_FOUL_BY_NIGHT, LOST_SPEECH, speech_opening

STAGES = ("speeches", "vote", "revote")
_SEAT_MOMENTS = {"during": Phase.SPEECHES, "defence": Phase.DEFENCE, "tied": Phase.DEFENCE,
                 "last_words": Phase.LAST_WORDS}
PLACE_KEYS = ("after", *_SEAT_MOMENTS, "round", "answers")
NEVER_REACHED = N_("A foul of this day is placed at a moment the day did not have.")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a day's foul falls: ``kind`` is a stage, or a moment with its seat, voting round and count."""

    kind: str
    seat: int = 0
    round: int = 0
    count: int = 0


Moment = tuple[str, int] | None  # ("turn", 0) a speaker's turn, before his nomination; ("made", seat); ("count", k)


def _place(item: Mapping[str, Any]) -> Place:
    keys = [key for key in PLACE_KEYS if key in item]
    if len(keys) != 1:
        raise ScenarioFormatError("every foul of a day needs seat, amount and one place: " + ", ".join(PLACE_KEYS))
    key = keys[0]
    value = item[key]
    if key == "after" and isinstance(value, str) and value in STAGES:
        return Place(value)
    if key == "round":
        number, count = as_int(value, "round"), as_int(item.get("votes", 0), "votes")
        if number not in (1, 2) or count < 0:
            raise ScenarioFormatError("a foul's round is 1 or 2, and its votes a count")
        return Place("round", round=number, count=count)
    if key == "answers":
        count = as_int(value, "answers")
        if count < 0:
            raise ScenarioFormatError("a foul's answers is a count")
        return Place("answers", count=count)
    return Place(key, seat=as_int(value, key))


def day_fouls(day: Mapping[str, Any]) -> list[tuple[Place, Action]]:
    """The day's ``fouls``: (place, action) in the order given."""
    raw = day.get("fouls") or []
    if not isinstance(raw, list) or not all(isinstance(item, Mapping) for item in raw):
        raise ScenarioFormatError("fouls must be a list of {seat, amount, after}")
    return [(_place(item), moderator_action(item)) for item in raw]


def _over(state: GameState, night: int) -> bool:
    return phase(state) in (Phase.NIGHT, Phase.ENDED) or state.day != night


def stage_reached(state: GameState, stage: str, night: int) -> bool:
    """Has the day gone past the point ``stage`` names?"""
    over = _over(state, night)
    current = phase(state)
    if stage == "speeches":
        closing = current is Phase.LAST_WORDS and state.after_last_words is Phase.NIGHT
        return over or closing or state.vote_round >= 1 or current in (Phase.VOTE, Phase.ELIMINATE_ALL)
    if stage == "vote":
        return over or (state.vote_round >= 1 and not (current is Phase.VOTE and state.vote_round == 1))
    return over or (state.vote_round >= 2 and not (current is Phase.VOTE and state.vote_round == 2))


def _due(state: GameState, place: Place, night: int, moment: Moment) -> bool:
    if place.kind in STAGES:
        return stage_reached(state, place.kind, night)
    if moment is None:
        return False
    current = phase(state)
    if place.kind == "after":
        return moment == ("made", place.seat) and current is Phase.SPEECHES and state.speaker == place.seat
    if place.kind == "round":
        return moment == ("count", place.count) and current is Phase.VOTE and state.vote_round == place.round
    if place.kind == "answers":
        return moment == ("count", place.count) and current is Phase.ELIMINATE_ALL
    if moment[0] != "turn" or current is not _SEAT_MOMENTS[place.kind] or state.speaker != place.seat:
        return False
    if place.kind == "defence":
        return state.vote_round == 0
    return state.vote_round == 1 if place.kind == "tied" else True


def give_fouls(state: GameState, pending: list[tuple[Place, Action]], night: int, moment: Moment = None) -> None:
    """Give the pending fouls whose place the day has reached, in the order given (a foul waits for the one
    before it)."""
    while pending and _due(state, pending[0][0], night, moment):
        if phase(state) is Phase.ENDED:
            raise RuleError(N_("The game is over."))
        place, action = pending.pop(0)
        if place.kind == "after" and speech_opening(state):
            state.opening_step = -1  # "after" this speech: it has been made (a 3rd foul costs the next one)
        do(state, action)


def _give_before_passing(state: GameState, pending: list[tuple[Place, Action]], night: int) -> None:
    """Before the clock ends a speech: a stage this tick would pass (the day's last speech before the vote, or
    before the night on a day with no vote) is given now, while the day is still on."""
    while pending and pending[0][0].kind in STAGES and not stage_reached(state, pending[0][0].kind, night):
        ahead, _events = applied(state, Deadline(state.step))
        if not stage_reached(ahead, pending[0][0].kind, night):
            return
        do(state, pending.pop(0)[1])


def _nominations(day: Mapping[str, Any]) -> dict[int, int]:
    nominations: dict[int, int] = {}
    raw = day.get("nominations") or []
    if not isinstance(raw, list):
        raise ScenarioFormatError("nominations must be a list of [by, nominee]")
    for pair in raw:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScenarioFormatError("nominations must be a list of [by, nominee]")
        by, nominee = as_int(pair[0], "nomination"), as_int(pair[1], "nomination")
        if by in nominations:
            raise RuleError(N_("You have already nominated a player today."))
        nominations[by] = nominee
    return nominations


def _speech(state: GameState, nominations: dict[int, int], pending: list[tuple[Place, Action]], night: int) -> None:
    """One turn of the speeches, defences or last words: fouls during it, the nomination, fouls after it."""
    speaker, step = state.speaker, state.step
    give_fouls(state, pending, night, ("turn", 0))
    if phase(state) is not Phase.SPEECHES or state.speaker != speaker or state.step != step:
        return
    if speaker in nominations:
        do(state, Nominate(speaker, nominations.pop(speaker)))
    give_fouls(state, pending, night, ("made", speaker))


def _ballots(state: GameState, listed: Mapping[int, Any], pending: list[tuple[Place, Action]], night: int,
             make: type[Vote] | type[EliminateAll], voting: Phase) -> None:
    """A voting round's votes (or the answers on eliminating them all) in the order listed, each foul given
    after as many of them as its place says."""
    for count, (voter, choice) in enumerate(listed.items()):
        give_fouls(state, pending, night, ("count", count))
        if phase(state) is not voting:
            raise RuleError(N_("There is no vote now.") if voting is Phase.VOTE
                            else N_("There is no vote on eliminating everyone now."))
        if make is Vote:
            do(state, Vote(voter, None if choice is None else as_int(choice, "vote")))
        else:
            if not isinstance(choice, bool):
                raise ScenarioFormatError("eliminate_all maps seats to true or false")
            do(state, EliminateAll(voter, choice))
    give_fouls(state, pending, night, ("count", len(listed)))


def run_uk_day(state: GameState, day: Mapping[str, Any]) -> None:
    if phase(state) not in (Phase.SPEECHES, Phase.LAST_WORDS) or state.speaker == 0:
        raise RuleError(N_("It is not day now."))
    nominations = _nominations(day)
    rounds = day.get("votes") or []
    if not isinstance(rounds, list):
        raise ScenarioFormatError("votes must be a list of voting rounds")
    all_in = seat_map(day.get("eliminate_all"), "eliminate_all")
    pending = day_fouls(day)
    night = state.day
    run_best_move(state, day)  # a first night's dead names his black, before the last words end (uk, option)
    used_rounds = 0
    used_all = False
    while not _over(state, night):
        give_fouls(state, pending, night)
        if _over(state, night):
            break
        current = phase(state)
        if current in (Phase.SPEECHES, Phase.DEFENCE, Phase.LAST_WORDS):
            speaker, step = state.speaker, state.step
            _speech(state, nominations, pending, night)
            if phase(state) is current and state.speaker == speaker and state.step == step:
                _give_before_passing(state, pending, night)
            if phase(state) is current and state.speaker == speaker and state.step == step:
                tick(state)
        elif current is Phase.VOTE:
            listed = seat_map(rounds[used_rounds], "votes") if used_rounds < len(rounds) else {}
            used_rounds += 1
            _ballots(state, listed, pending, night, Vote, Phase.VOTE)
            if phase(state) is Phase.VOTE and state.vote_round == used_rounds:
                tick(state)
        elif current is Phase.ELIMINATE_ALL:
            used_all = True
            _ballots(state, all_in, pending, night, EliminateAll, Phase.ELIMINATE_ALL)
            if phase(state) is Phase.ELIMINATE_ALL:
                tick(state)
        else:
            tick(state)
    for by, nominee in nominations.items():
        if by in state.silenced:
            raise RuleError(LOST_SPEECH, seat=by)
        do(state, Nominate(by, nominee))  # never legal now: raises the reason
    _leftover_fouls(state, pending, night)
    if any(rounds[i] for i in range(used_rounds, len(rounds))):
        raise RuleError(N_("There is no vote now."))
    if all_in and not used_all:
        raise RuleError(N_("There is no vote on eliminating everyone now."))


def _leftover_fouls(state: GameState, pending: list[tuple[Place, Action]], night: int) -> None:
    """Fouls placed where the day never came: a moment is an error; a stage after the day's last moment (a
    voting round that ended the day) is given as the day ends, by the day's rules."""
    if not pending:
        return
    place, _action = pending[0]
    if place.kind in ("after", "during"):
        raise RuleError(N_("Player {seat} did not speak today: no foul can be placed after that speech."),
                        seat=place.seat)
    if place.kind not in STAGES:
        raise RuleError(NEVER_REACHED)
    for _where, action in pending:
        if isinstance(action, Foul) and action.amount == 2 and not state.options["double_foul_by_day"]:
            raise IllegalTarget(DOUBLE_FOUL_BY_NIGHT)
    give_fouls(state, pending, night)
    if pending:
        raise RuleError(NEVER_REACHED)

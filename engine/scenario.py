"""Scenario files (a whole game as data, see docs/SCENARIOS.md): running them and exporting a
game's log to one.

A scenario step is coarse (a whole night, a whole day); ``run`` turns each into the engine's
own actions, the same ones a live game logs, with the clock's deadlines in between.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    MODERATOR_ACTIONS,
    Act,
    Action,
    Deadline,
    EliminateAll,
    EndSpeech,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    SendOff,
    Vote,
    WithdrawFoul,
)
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.i18n import N_
from engine.night import HARMLESS
from engine.state import GameState, Phase
from engine.uk_day import LOST_SPEECH, speech_opening


class ScenarioFormatError(ValueError):
    """The file is not a scenario: exit code 2."""


@dataclass(slots=True)
class Result:
    steps: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    error: dict[str, Any] | None = None
    state: GameState | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "winner": self.winner, "error": self.error}


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise ScenarioFormatError(f"{what} must be a seat number, not {value!r}")
    return value


def _seat_map(value: Any, what: str) -> dict[int, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioFormatError(f"{what} must be an object of seat -> choice")
    return {_int(k, what): v for k, v in value.items()}


def check_format(data: Any) -> None:
    if not isinstance(data, Mapping):
        raise ScenarioFormatError("a scenario is a JSON object")
    for key in ("rules", "roles", "steps"):
        if key not in data:
            raise ScenarioFormatError(f"missing key {key!r}")
    if data["rules"] not in ("uz", "uk"):
        raise ScenarioFormatError(f"rules must be 'uz' or 'uk', not {data['rules']!r}")
    if not isinstance(data["roles"], list) or not all(isinstance(r, str) for r in data["roles"]):
        raise ScenarioFormatError("roles must be a list of role ids")
    if not isinstance(data.get("options", {}), Mapping):
        raise ScenarioFormatError("options must be an object")
    if not isinstance(data["steps"], list):
        raise ScenarioFormatError("steps must be a list")
    for index, step in enumerate(data["steps"]):
        if not isinstance(step, Mapping) or len(step.keys() & {"night", "day", "foul"}) != 1:
            raise ScenarioFormatError(f"step {index} must have exactly one of night, day, foul")
        if "night" in step:
            if not isinstance(step["night"], list) or not all(isinstance(a, Mapping) for a in step["night"]):
                raise ScenarioFormatError(f"step {index}: night must be a list of acts")
            for act in step["night"]:
                if "seat" not in act or "act" not in act:
                    raise ScenarioFormatError(f"step {index}: every night act needs seat and act")
                _int(act["seat"], "seat")
                if act.get("target") is not None:
                    _int(act["target"], "target")
        elif "day" in step:
            if not isinstance(step["day"], Mapping):
                raise ScenarioFormatError(f"step {index}: day must be an object")
        elif not isinstance(step["foul"], Mapping) or "seat" not in step["foul"]:
            raise ScenarioFormatError(f"step {index}: foul must be an object with seat and amount")


def run(data: Mapping[str, Any], options_strict: bool = False) -> Result:
    """Replay a scenario. Format problems raise ScenarioFormatError; rule problems end in ``error``."""
    check_format(data)
    given = dict(data.get("options", {}))
    result = Result()
    try:
        state = new_game(str(data["rules"]), len(data["roles"]), int(data.get("seed", 0) or 0), given,
                         data["roles"])
    except RuleError as exc:
        raise ScenarioFormatError(str(exc)) from None
    result.state = state
    for index, step in enumerate(data["steps"]):
        first_event = len(state.events)
        try:
            _run_step(state, step)
        except RuleError as exc:
            result.error = {"step": index, "message": str(exc)}
            break
        result.steps.append({
            "alive": state.living(),
            "roles": {str(s): str(r) for s, r in enumerate(state.roles, 1)},
            "winner": state.winner,
            "events": [e.as_dict() for e in state.events[first_event:] if e.type in _SCENARIO_EVENTS],
        })
        result.winner = state.winner
    return result


_SCENARIO_EVENTS = frozenset({"death", "check", "witness", "note", "role_change"})


def _do(state: GameState, action: Action) -> None:
    apply(state, action)


def _phase(state: GameState) -> Phase:
    """The phase now (a call, so type narrowing does not outlive the actions in between)."""
    return state.phase


def _tick(state: GameState) -> None:
    _do(state, Deadline(state.step))


def _run_step(state: GameState, step: Mapping[str, Any]) -> None:
    if state.phase is Phase.ENDED:
        raise RuleError(N_("The game is over."))
    if "foul" in step:
        _do(state, _moderator_action(step["foul"]))
    elif "night" in step:
        _run_night(state, step["night"])
    elif state.rules == "uz":
        _run_uz_day(state, step["day"])
    else:
        _run_uk_day(state, step["day"])


def _moderator_action(foul: Mapping[str, Any]) -> Action:
    """A foul entry: ``{"seat", "amount"}``; with ``"withdraw": true`` the moderator takes back that player's last
    foul, with ``"send_off": true`` he sends the player from the table (extensions of the format, see
    docs/RULES.md)."""
    if not isinstance(foul, Mapping) or "seat" not in foul:
        raise ScenarioFormatError("a foul is an object with seat and amount")
    seat = _int(foul["seat"], "seat")
    if foul.get("withdraw") is True:
        return WithdrawFoul(seat)
    if foul.get("send_off") is True:
        return SendOff(seat)
    amount = foul.get("amount", 0.5)
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise RuleError(N_("A foul is 0.5 or 1."))
    return Foul(seat, float(amount))


def _run_night(state: GameState, acts: list[Mapping[str, Any]]) -> None:
    if state.phase is not Phase.NIGHT:
        raise RuleError(N_("It is not night now."))
    night = state.day
    for item in acts:
        if state.phase is not Phase.NIGHT or state.day != night:
            raise RuleError(N_("The night is already over."))
        act = str(item["act"])
        if act not in set(Act) or act in HARMLESS:
            raise RuleError(N_("Your role has no such action tonight."))
        target = item.get("target")
        _do(state, NightAct(_int(item["seat"], "seat"), act, None if target is None else _int(target, "target"),
                            bool(item.get("note", False))))
    if state.phase is Phase.NIGHT and state.day == night:
        _tick(state)


def _run_uz_day(state: GameState, day: Mapping[str, Any]) -> None:
    if _phase(state) is not Phase.DISCUSSION:
        raise RuleError(N_("It is not day now."))
    _tick(state)
    for voter, target in _seat_map(day.get("votes"), "votes").items():
        if _phase(state) is not Phase.VOTE:
            raise RuleError(N_("There is no vote now."))
        _do(state, Vote(voter, None if target is None else _int(target, "vote")))
    if _phase(state) is Phase.VOTE:
        _tick(state)
    pick = day.get("kamikaze")
    if _phase(state) is Phase.KAMIKAZE:
        if pick is None:
            _tick(state)
        else:
            _do(state, KamikazePick(state.eliminated_by_vote, _int(pick, "kamikaze")))
    elif pick is not None:
        raise RuleError(N_("Only the voted-out kamikaze picks now."))


_PLACES = ("speeches", "vote", "revote")


def _day_fouls(day: Mapping[str, Any]) -> list[tuple[int | str, Action]]:
    """The day's ``fouls``: (where, action) in the order given; ``after`` is a seat or one of ``_PLACES``."""
    raw = day.get("fouls") or []
    if not isinstance(raw, list):
        raise ScenarioFormatError("fouls must be a list of {seat, amount, after}")
    fouls: list[tuple[int | str, Action]] = []
    for item in raw:
        if not isinstance(item, Mapping) or "after" not in item:
            raise ScenarioFormatError("every foul of a day needs seat, amount and after")
        after = item["after"]
        where: int | str = after if isinstance(after, str) and after in _PLACES else _int(after, "after")
        fouls.append((where, _moderator_action(item)))
    return fouls


def _place_reached(state: GameState, where: int | str, night: int) -> bool:
    """Has the day gone past the point ``where`` names (a seat's speech is handled by the caller)?"""
    over = _phase(state) in (Phase.NIGHT, Phase.ENDED) or state.day != night
    if where == "speeches":
        closing = _phase(state) is Phase.LAST_WORDS and state.after_last_words is Phase.NIGHT
        return over or closing or state.vote_round >= 1 or _phase(state) in (Phase.VOTE, Phase.ELIMINATE_ALL)
    if where == "vote":
        return over or (state.vote_round >= 1 and not (_phase(state) is Phase.VOTE and state.vote_round == 1))
    if where == "revote":
        return over or (state.vote_round >= 2 and not (_phase(state) is Phase.VOTE and state.vote_round == 2))
    return False


def _give_fouls(state: GameState, pending: list[tuple[int | str, Action]], night: int,
                after_speech: int = 0) -> None:
    """Give the pending fouls whose place the day has reached, in the order given (a foul waits for the one
    before it). ``after_speech`` is the seat whose speech, nomination included, has just been made."""
    while pending:
        where, action = pending[0]
        if isinstance(where, int):
            reached = where == after_speech and _phase(state) is Phase.SPEECHES and state.speaker == where
        else:
            reached = _place_reached(state, where, night)
        if not reached:
            return
        if _phase(state) is Phase.ENDED:
            raise RuleError(N_("The game is over."))
        pending.pop(0)
        _do(state, action)


def _run_uk_day(state: GameState, day: Mapping[str, Any]) -> None:
    if _phase(state) not in (Phase.SPEECHES, Phase.LAST_WORDS) or state.speaker == 0:
        raise RuleError(N_("It is not day now."))
    nominations: dict[int, int] = {}
    raw = day.get("nominations") or []
    if not isinstance(raw, list):
        raise ScenarioFormatError("nominations must be a list of [by, nominee]")
    for pair in raw:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScenarioFormatError("nominations must be a list of [by, nominee]")
        by, nominee = _int(pair[0], "nomination"), _int(pair[1], "nomination")
        if by in nominations:
            raise RuleError(N_("You have already nominated a player today."))
        nominations[by] = nominee
    rounds = day.get("votes") or []
    if not isinstance(rounds, list):
        raise ScenarioFormatError("votes must be a list of voting rounds")
    all_in = _seat_map(day.get("eliminate_all"), "eliminate_all")
    pending = _day_fouls(day)
    night = state.day
    used_rounds = 0
    used_all = False
    while _phase(state) not in (Phase.NIGHT, Phase.ENDED) and state.day == night:
        _give_fouls(state, pending, night)
        if _phase(state) in (Phase.NIGHT, Phase.ENDED) or state.day != night:
            break
        if _phase(state) is Phase.SPEECHES:
            speaker, step = state.speaker, state.step
            if speaker in nominations:
                _do(state, Nominate(speaker, nominations.pop(speaker)))
            if pending and pending[0][0] == speaker:
                state.opening_step = -1  # "after" this speech: it has been made (a 3rd foul costs the next one)
            _give_fouls(state, pending, night, speaker)  # his nomination included
            if _phase(state) is Phase.SPEECHES and state.speaker == speaker and state.step == step:
                _tick(state)
        elif _phase(state) is Phase.VOTE:
            if used_rounds < len(rounds):
                for voter, target in _seat_map(rounds[used_rounds], "votes").items():
                    if _phase(state) is not Phase.VOTE:
                        raise RuleError(N_("There is no vote now."))
                    _do(state, Vote(voter, None if target is None else _int(target, "vote")))
            used_rounds += 1
            if _phase(state) is Phase.VOTE and state.vote_round == used_rounds:
                _tick(state)
        elif _phase(state) is Phase.ELIMINATE_ALL:
            used_all = True
            for voter, yes in all_in.items():
                if not isinstance(yes, bool):
                    raise ScenarioFormatError("eliminate_all maps seats to true or false")
                _do(state, EliminateAll(voter, yes))
            if _phase(state) is Phase.ELIMINATE_ALL:
                _tick(state)
        else:
            _tick(state)
    for by, nominee in nominations.items():
        if by in state.silenced:
            raise RuleError(LOST_SPEECH, seat=by)
        _do(state, Nominate(by, nominee))  # never legal now: raises the reason
    if pending:
        where, _action = pending[0]
        if isinstance(where, int):
            raise RuleError(N_("Player {seat} did not speak today: no foul can be placed after that speech."),
                            seat=where)
        _give_fouls(state, pending, night)  # a place the day never had (no vote): given as the day ends
    if any(rounds[i] for i in range(used_rounds, len(rounds))):
        raise RuleError(N_("There is no vote now."))
    if all_in and not used_all:
        raise RuleError(N_("There is no vote on eliminating everyone now."))


def export(state: GameState, name: str = "") -> dict[str, Any]:
    """A finished (or running) game's log as a scenario file that replays to the same state.

    Every moderator action is placed where it was given: at night or at the dawn's last words, as a foul step
    before that night or day; inside a day, in the day's ``fouls`` with its ``after``; during the last words
    that close a day, as a foul step after it."""
    replayed = new_game(state.rules, state.n, state.seed, state.options, [str(r) for r in state.dealt])
    steps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    after_day: list[dict[str, Any]] = []  # foul steps given while the day's last words closed it

    def flush() -> None:
        nonlocal current
        if current is not None:
            steps.append(current)
            current = None
        steps.extend(after_day)
        after_day.clear()

    for action in state.log:
        phase_before = replayed.phase
        if isinstance(action, MODERATOR_ACTIONS):
            where = _foul_place(replayed)
            entry = _foul_entry(action)
            if where is None:  # before the step it fell in (the night, or the day at its dawn)
                steps.append({"foul": entry})
            elif where == "after_day":
                after_day.append({"foul": entry})
            else:
                if current is None or "day" not in current:
                    flush()
                    current = {"day": {}}
                current["day"].setdefault("fouls", []).append({**entry, "after": where})
            alive_before = replayed.living()
            apply(replayed, action)
            gone = set(alive_before) - set(replayed.living())
            if where is None and replayed.phase is Phase.ENDED:
                current = None  # the step it stands before never comes: the game ended first
            elif gone and current is not None:
                _forget(current, gone, where)
        else:
            if phase_before is Phase.NIGHT:
                if current is None or "night" not in current:
                    flush()
                    current = {"night": []}
                if isinstance(action, NightAct) and action.act not in HARMLESS:
                    act: dict[str, Any] = {"seat": action.seat, "act": action.act, "target": action.target}
                    if action.note:
                        act["note"] = True
                    current["night"].append(act)
            else:
                if current is None or "day" not in current:
                    flush()
                    current = {"day": {}}
                _export_day_action(replayed, current["day"], action)
            apply(replayed, action)
        if replayed.phase is Phase.ENDED or (phase_before is Phase.NIGHT) != (replayed.phase is Phase.NIGHT):
            flush()
    flush()
    return {"name": name or f"{state.rules}-game-{state.seed}", "rules": state.rules, "options": dict(state.options),
            "seed": state.seed, "roles": [str(r) for r in state.dealt], "steps": steps}


def _foul_entry(action: Action) -> dict[str, Any]:
    if isinstance(action, WithdrawFoul):
        return {"seat": action.seat, "withdraw": True}
    if isinstance(action, SendOff):
        return {"seat": action.seat, "send_off": True}
    assert isinstance(action, Foul)
    return {"seat": action.seat, "amount": action.amount}


def _foul_place(state: GameState) -> int | str | None:
    """Where a moderator's action given now stands in a scenario: None before the current step (a night, a day
    at its dawn), ``after_day`` after the day (its closing last words), else the day's ``after``."""
    phase = state.phase
    if phase is Phase.NIGHT or (phase is Phase.LAST_WORDS and state.after_last_words is Phase.SPEECHES):
        return None
    if phase is Phase.SPEECHES:  # the day's first speech not begun yet is still "before the day"
        return None if speech_opening(state) else state.speaker
    if phase is Phase.LAST_WORDS:
        return "after_day"
    if state.vote_round == 0 or (phase is Phase.VOTE and state.vote_round == 1):
        return "speeches"  # the defences and the first round
    if state.vote_round == 1 or (phase is Phase.VOTE and state.vote_round == 2):
        return "vote"  # the tied players' speeches and the re-vote
    return "revote"  # the vote on eliminating them all


def _forget(current: dict[str, Any], gone: set[int], where: int | str | None) -> None:
    """A player removed by the moderator took his choices with him: his night acts and votes made before his
    removal, and the votes for him (those voters vote again), leave the step that now follows the removal."""
    if "night" in current and where is None:
        current["night"] = [a for a in current["night"] if a["seat"] not in gone]
    day = current.get("day")
    if day is None or where is None or isinstance(where, int):
        return
    rounds = day.get("votes") or []
    index = {"speeches": 0, "vote": 1}.get(str(where))
    if index is not None and index < len(rounds):
        rounds[index] = {v: t for v, t in rounds[index].items() if int(v) not in gone and t not in gone}
    if where == "revote" and "eliminate_all" in day:
        day["eliminate_all"] = {v: y for v, y in day["eliminate_all"].items() if int(v) not in gone}


def _export_day_action(replayed: GameState, day: dict[str, Any], action: Action) -> None:
    if isinstance(action, Nominate):
        day.setdefault("nominations", []).append([action.seat, action.target])
    elif isinstance(action, Vote):
        if replayed.rules == "uz":
            day.setdefault("votes", {})[str(action.seat)] = action.target
        else:
            rounds = day.setdefault("votes", [])
            while len(rounds) < replayed.vote_round:
                rounds.append({})
            rounds[replayed.vote_round - 1][str(action.seat)] = action.target
    elif isinstance(action, EliminateAll):
        day.setdefault("eliminate_all", {})[str(action.seat)] = action.yes
    elif isinstance(action, KamikazePick):
        day["kamikaze"] = action.target
    elif isinstance(action, EndSpeech | Deadline):
        return

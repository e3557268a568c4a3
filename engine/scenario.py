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
    Act,
    Action,
    Deadline,
    EliminateAll,
    EndSpeech,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    Vote,
)
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.i18n import N_
from engine.night import HARMLESS
from engine.state import GameState, Phase


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
        foul = step["foul"]
        amount = foul.get("amount", 0.5)
        if isinstance(amount, bool) or not isinstance(amount, int | float):
            raise RuleError(N_("A foul is 0.5 or 1."))
        _do(state, Foul(_int(foul["seat"], "seat"), float(amount)))
    elif "night" in step:
        _run_night(state, step["night"])
    elif state.rules == "uz":
        _run_uz_day(state, step["day"])
    else:
        _run_uk_day(state, step["day"])


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
    night = state.day
    used_rounds = 0
    used_all = False
    while _phase(state) not in (Phase.NIGHT, Phase.ENDED) and state.day == night:
        if _phase(state) is Phase.SPEECHES and state.speaker in nominations:
            _do(state, Nominate(state.speaker, nominations.pop(state.speaker)))
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
        _do(state, Nominate(by, nominee))  # never legal now: raises the reason
    if any(rounds[i] for i in range(used_rounds, len(rounds))):
        raise RuleError(N_("There is no vote now."))
    if all_in and not used_all:
        raise RuleError(N_("There is no vote on eliminating everyone now."))


def export(state: GameState, name: str = "") -> dict[str, Any]:
    """A finished (or running) game's log as a scenario file that replays to the same state."""
    replayed = new_game(state.rules, state.n, state.seed, state.options, [str(r) for r in state.dealt])
    steps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None

    def flush() -> None:
        nonlocal current
        if current is not None:
            steps.append(current)
            current = None

    for action in state.log:
        phase_before = replayed.phase
        if isinstance(action, Foul):
            flush_foul = {"foul": {"seat": action.seat, "amount": action.amount}}
            if current is None:
                steps.append(flush_foul)
            else:
                steps.append(flush_foul)  # fouls stand before the step they fell in
                steps[-1], current_copy = flush_foul, current
                current = current_copy
        elif phase_before is Phase.NIGHT:
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

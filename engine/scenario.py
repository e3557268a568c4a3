"""Scenario files (a whole game as data, see ../shared/SCENARIOS.md and docs/RULES.md): running them; exporting
a game's log to one is ``engine.export``.

A scenario step is coarse (a whole night, a whole day); ``run`` turns each into the engine's
own actions, the same ones a live game logs, with the clock's deadlines in between. A uk day is
``engine.scenario_day``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import scenario_points
from engine.actions import Act, KamikazePick, NightAct, Vote
from engine.errors import RuleError
from engine.export import export
from engine.game import new_game
from engine.i18n import N_
from engine.night import HARMLESS
from engine.scenario_common import ScenarioFormatError, as_int, do, moderator_action, phase, seat_map, tick
from engine.scenario_day import run_uk_day
from engine.state import GameState, Phase

__all__ = ["Result", "ScenarioFormatError", "check_format", "export", "run"]


@dataclass(slots=True)
class Result:
    steps: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    error: dict[str, Any] | None = None
    state: GameState | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "winner": self.winner, "error": self.error}


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
        if not isinstance(step, Mapping) or len(step.keys() & {"night", "day", "foul", "extra_points"}) != 1:
            raise ScenarioFormatError(f"step {index} must have exactly one of night, day, foul, extra_points")
        if "extra_points" in step:  # after the end (engine.scenario_points)
            scenario_points.extra_points_actions(step["extra_points"])
            continue
        if "night" in step:
            if not isinstance(step["night"], list) or not all(isinstance(a, Mapping) for a in step["night"]):
                raise ScenarioFormatError(f"step {index}: night must be a list of acts")
            for act in step["night"]:
                if "foul" in act:  # the moderator, at this point of the night
                    moderator_action(act["foul"])
                    continue
                if "seat" not in act or "act" not in act:
                    raise ScenarioFormatError(f"step {index}: every night act needs seat and act")
                as_int(act["seat"], "seat")
                if act.get("target") is not None:
                    as_int(act["target"], "target")
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


def _run_step(state: GameState, step: Mapping[str, Any]) -> None:
    if "extra_points" in step:
        scenario_points.run_extra_points(state, step["extra_points"])
        return
    if state.phase is Phase.ENDED:
        raise RuleError(N_("The game is over."))
    if "foul" in step:
        do(state, moderator_action(step["foul"]))
    elif "night" in step:
        _run_night(state, step["night"])
    else:
        _DAY_RUNNERS[state.rules](state, step["day"])


def _run_night(state: GameState, acts: list[Mapping[str, Any]]) -> None:
    if state.phase is not Phase.NIGHT:
        raise RuleError(N_("It is not night now."))
    night = state.day
    for item in acts:
        if state.phase is not Phase.NIGHT or state.day != night:
            raise RuleError(N_("The night is already over."))
        if "foul" in item:  # a foul, its withdrawal or a send-off, given at this point of the night
            do(state, moderator_action(item["foul"]))
            continue
        act = str(item["act"])
        if act not in set(Act) or act in HARMLESS:
            raise RuleError(N_("Your role has no such action tonight."))
        target = item.get("target")
        do(state, NightAct(as_int(item["seat"], "seat"), act, None if target is None else as_int(target, "target"),
                           bool(item.get("note", False))))
    if state.phase is Phase.NIGHT and state.day == night:
        tick(state)


def _run_uz_day(state: GameState, day: Mapping[str, Any]) -> None:
    if phase(state) is not Phase.DISCUSSION:
        raise RuleError(N_("It is not day now."))
    tick(state)
    for voter, target in seat_map(day.get("votes"), "votes").items():
        if phase(state) is not Phase.VOTE:
            raise RuleError(N_("There is no vote now."))
        do(state, Vote(voter, None if target is None else as_int(target, "vote")))
    if phase(state) is Phase.VOTE:
        tick(state)
    pick = day.get("kamikaze")
    if phase(state) is Phase.KAMIKAZE:
        if pick is None:
            tick(state)
        else:
            do(state, KamikazePick(state.eliminated_by_vote, as_int(pick, "kamikaze")))
    elif pick is not None:
        raise RuleError(N_("Only the voted-out kamikaze picks now."))


# A day step is written in its rule set's own terms (uz: votes and the kamikaze's pick; uk: speeches,
# nominations, ballots), so each rule set's scenario days have their own reader.
_DAY_RUNNERS: dict[str, Callable[[GameState, Mapping[str, Any]], None]] = {"uz": _run_uz_day, "uk": run_uk_day}

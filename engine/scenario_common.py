"""What the scenario runner's parts share: the format error, reading seats and choices, the moderator's entries,
and applying one engine action the way a live game does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Deadline, Foul, SendOff, WithdrawFoul
from engine.errors import RuleError
from engine.game import apply
from engine.i18n import N_
from engine.state import GameState, Phase


class ScenarioFormatError(ValueError):
    """The file is not a scenario: exit code 2."""


def as_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise ScenarioFormatError(f"{what} must be a seat number, not {value!r}")
    return value


def seat_map(value: Any, what: str) -> dict[int, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioFormatError(f"{what} must be an object of seat -> choice")
    return {as_int(k, what): v for k, v in value.items()}


def moderator_action(foul: Mapping[str, Any]) -> Action:
    """A foul entry: ``{"seat", "amount"}``; with ``"withdraw": true`` the moderator takes back that player's last
    foul, with ``"send_off": true`` he sends the player from the table (extensions of the format, see
    docs/RULES.md)."""
    if not isinstance(foul, Mapping) or "seat" not in foul:
        raise ScenarioFormatError("a foul is an object with seat and amount")
    seat = as_int(foul["seat"], "seat")
    if foul.get("withdraw") is True:
        return WithdrawFoul(seat)
    if foul.get("send_off") is True:
        return SendOff(seat)
    amount = foul.get("amount", 0.5)
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise RuleError(N_("A foul is 0.5 or 1."))
    return Foul(seat, float(amount))


def do(state: GameState, action: Action) -> None:
    apply(state, action)


def phase(state: GameState) -> Phase:
    """The phase now (a call, so type narrowing does not outlive the actions in between)."""
    return state.phase


def tick(state: GameState) -> None:
    do(state, Deadline(state.step))

"""The two rule sets as data plus a few hooks, registered by name (``uz``, ``uk``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import uk_night, uz_night
from engine.actions import Act, NightAct
from engine.dealing import PLAYER_RANGE
from engine.night import Slots
from engine.options import OPTION_TABLES, OptionSpec
from engine.roles import ROLE_TABLES, Role, RoleInfo
from engine.state import GameState, Phase
from engine.wins import uk_winner, uz_winner


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    roles: dict[Role, RoleInfo]
    options: tuple[OptionSpec, ...]
    players: tuple[int, int]
    first_phase: Phase
    night_slots: Callable[[GameState, int], Slots]
    night_targets: Callable[[GameState, int, Act], list[int]]
    validate_night: Callable[[GameState, NightAct], None]
    resolve_night: Callable[[GameState], None]
    winner: Callable[[GameState], str | None]
    night_powers: tuple[str, ...]


RULESETS: dict[str, RuleSet] = {
    "uz": RuleSet("uz", ROLE_TABLES["uz"], OPTION_TABLES["uz"], PLAYER_RANGE["uz"], Phase.NIGHT,
                  uz_night.slots, uz_night.targets, uz_night.validate, uz_night.resolve, uz_winner,
                  ("kill", "check", "shoot", "heal", "block", "cover", "visit")),
    "uk": RuleSet("uk", ROLE_TABLES["uk"], OPTION_TABLES["uk"], PLAYER_RANGE["uk"], Phase.SPEECHES,
                  uk_night.slots, uk_night.targets, uk_night.validate, uk_night.resolve, uk_winner,
                  ("kill", "check", "heal", "freeze")),
}

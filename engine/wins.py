"""Win conditions, checked in the rulebook's order after every night and every day death."""

from __future__ import annotations

from engine.common import MAFIA_ROLES
from engine.roles import Role
from engine.state import GameState


def uz_winner(state: GameState) -> str | None:
    living = [r for r, a in zip(state.roles, state.alive, strict=True) if a]
    if not living:
        return "draw"
    if len(living) == 1 and living[0] is Role.KILLER:
        return "killer"
    mafia = sum(1 for r in living if r in MAFIA_ROLES)
    if mafia == 0 and Role.KILLER not in living:
        return "town"
    if mafia >= len(living) - mafia:
        return "mafia"
    return None


def uk_winner(state: GameState) -> str | None:
    living = [r for r, a in zip(state.roles, state.alive, strict=True) if a]
    if not living:
        return "draw"
    black = sum(1 for r in living if r in MAFIA_ROLES)
    if black == 0:
        return "red"
    roles = set(living)
    if len(living) == 2 and black == 1 and Role.MANIAC in roles:
        return "draw"
    if black >= len(living) - black and not (Role.DOCTOR in roles and Role.MANIAC in roles):
        return "black"
    return None

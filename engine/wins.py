"""Win conditions, checked in the rulebook's order after every night and every day death."""

from __future__ import annotations

from engine.common import in_mafia_team
from engine.roles import Role
from engine.state import GameState


def uz_winner(state: GameState) -> str | None:
    living = state.living()
    if not living:
        return "draw"
    if len(living) == 1 and state.role(living[0]) is Role.KILLER:
        return "killer"
    mafia = sum(1 for s in living if in_mafia_team(state, s))
    killers = sum(1 for s in living if state.role(s) is Role.KILLER)
    if mafia == 0 and killers == 0:
        return "town"
    if mafia >= len(living) - mafia:
        return "mafia"
    return None


def uk_winner(state: GameState) -> str | None:
    living = state.living()
    if not living:
        return "draw"
    black = sum(1 for s in living if in_mafia_team(state, s))
    if black == 0:
        return "red"
    roles = {state.role(s) for s in living}
    if len(living) == 2 and black == 1 and Role.MANIAC in roles:
        return "draw"
    if black >= len(living) - black and not (Role.DOCTOR in roles and Role.MANIAC in roles):
        return "black"
    return None

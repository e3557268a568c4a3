"""Helpers both rule sets share: deaths, the acting don, teams, seat checks, phase changes."""

from __future__ import annotations

from engine.errors import IllegalTarget, NotYourTurn
from engine.i18n import N_
from engine.roles import ROLE_TABLES, Role, Team
from engine.state import PUBLIC, GameState, Phase

MAFIA_TEAMS = (Team.MAFIA, Team.BLACK)
MAFIA_ROLES = frozenset(r for table in ROLE_TABLES.values() for r, info in table.items() if info.team in MAFIA_TEAMS)


def in_mafia_team(state: GameState, seat: int) -> bool:
    """On the mafia (uz) or black (uk) team: by role, which a werewolf's turn changes."""
    return state.roles[seat - 1] in MAFIA_ROLES


def mafia_team(state: GameState, living_only: bool = True) -> frozenset[int]:
    return frozenset(
        s for s in range(1, state.n + 1)
        if in_mafia_team(state, s) and (state.is_alive(s) or not living_only)
    )


def acting_don(state: GameState) -> int | None:
    """The seat that chooses the mafia's kill tonight, or None when nobody may.

    ``acting_don`` "none" stops the kill only once a dealt don is dead: a small uz table dealt no don
    (4-6 players) has its plain mafia kill from night 1 (RULES.md, decided after the first games)."""
    dons = state.living_with(Role.DON)
    if dons:
        return dons[0]
    if state.options.get("acting_don") == "none" and Role.DON in state.dealt:
        return None
    mafia = state.living_with(Role.MAFIA)
    return mafia[0] if mafia else None


def check_seat(state: GameState, seat: int) -> None:
    """The acting seat exists and is alive."""
    if not 1 <= seat <= state.n:
        raise IllegalTarget(N_("There is no seat {seat}."), seat=seat)
    if not state.alive[seat - 1]:
        raise NotYourTurn(N_("Player {seat} is dead and cannot act."), seat=seat)


def check_target(state: GameState, seat: int, target: int | None, allow_self: bool) -> int:
    if target is None:
        raise IllegalTarget(N_("Choose a player."))
    if not 1 <= target <= state.n:
        raise IllegalTarget(N_("There is no seat {seat}."), seat=target)
    if not state.alive[target - 1]:
        raise IllegalTarget(N_("Player {seat} is dead."), seat=target)
    if target == seat and not allow_self:
        raise IllegalTarget(N_("You cannot choose yourself."))
    return target


def kill(state: GameState, seat: int, cause: str, **more: object) -> None:
    """A death, announced to everyone (with the role where the rule set reveals it)."""
    if not state.alive[seat - 1]:
        return
    state.alive[seat - 1] = False
    params: dict[str, object] = {"seat": seat, "cause": cause, **more}
    if state.options.get("reveal_roles_on_death"):
        params["role"] = str(state.role(seat))
    state.emit("death", PUBLIC, **params)


def set_phase(state: GameState, phase: Phase) -> None:
    state.phase = phase
    state.step += 1


def end_game(state: GameState, winner: str) -> None:
    state.winner = winner
    set_phase(state, Phase.ENDED)
    state.emit("game_over", PUBLIC, winner=winner, roles={str(s): str(r) for s, r in enumerate(state.roles, 1)})


def commissar_team(state: GameState) -> frozenset[int]:
    """uz: the living commissar and sergeants (they share checks)."""
    return frozenset(state.living_with(Role.COMMISSAR) + state.living_with(Role.SERGEANT))

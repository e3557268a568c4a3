"""Who may know what: the roles a seat knows and the events a viewer may read.

This is the one place secrecy is decided; ``engine.view`` only assembles what it allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.common import in_mafia_team
from engine.roles import Role
from engine.state import Event, GameState, Phase


@dataclass(frozen=True, slots=True)
class Viewer:
    kind: Literal["seat", "moderator", "spectator"]
    seat: int = 0

    @staticmethod
    def of_seat(seat: int) -> Viewer:
        return Viewer("seat", seat)


MODERATOR = Viewer("moderator")
SPECTATOR = Viewer("spectator")


def sees_everything(state: GameState, viewer: Viewer) -> bool:
    if viewer.kind == "moderator" or state.phase is Phase.ENDED:
        return True
    return (viewer.kind == "seat" and bool(state.options.get("dead_see_roles"))
            and 1 <= viewer.seat <= state.n and not state.alive[viewer.seat - 1])


def revealed_roles(state: GameState) -> dict[int, str]:
    """Roles announced to everyone (deaths where the rule set reveals roles)."""
    cache = state.derived()
    if "revealed" not in cache:
        cache["revealed"] = {int(e.params["seat"]): str(e.params["role"]) for e in state.events
                             if e.audience is None and e.type == "death" and "role" in e.params}
    return dict(cache["revealed"])


def known_roles(state: GameState, viewer: Viewer) -> dict[int, str]:
    """Seat -> role id for every role this viewer may know right now."""
    if sees_everything(state, viewer):
        return {s: str(r) for s, r in enumerate(state.roles, 1)}
    known = revealed_roles(state)
    if viewer.kind != "seat" or not 1 <= viewer.seat <= state.n:
        return known
    me = viewer.seat
    cache = state.derived()
    if "groups" not in cache:
        law = (Role.COMMISSAR, Role.SERGEANT)
        cache["groups"] = (
            [s for s in range(1, state.n + 1) if in_mafia_team(state, s)],
            [s for s in range(1, state.n + 1) if state.role(s) in law]
            if state.rules == "uz" and state.options.get("commissar_knows_sergeant") else [],
        )
    mafia, law_team = cache["groups"]
    known[me] = str(state.role(me))
    for group in (mafia, law_team):
        if me in group:
            for s in group:
                known[s] = str(state.roles[s - 1])
    return known


def may_read(state: GameState, viewer: Viewer, event: Event) -> bool:
    if event.audience is None or sees_everything(state, viewer):
        return True
    return viewer.kind == "seat" and viewer.seat in event.audience


SECRET_PARAMS = {"death": ("cause",)}
"""Parts of a public event that only the moderator (and everyone after the end) may read: who
killed a player at night is not announced, only that he died."""


def _dated(event: Event, secret: bool) -> dict[str, Any]:
    data = {"day": event.day, "phase": event.phase, **event.as_dict()}
    if secret and event.phase == "night":
        for key in SECRET_PARAMS.get(event.type, ()):
            data.pop(key, None)
    return data


def visible_events(state: GameState, viewer: Viewer) -> list[dict[str, Any]]:
    """The events this viewer may read, as dicts with their day and phase (shared between viewers:
    do not mutate). A night death's cause is left out for everyone who does not see everything."""
    cache = state.derived()
    pairs = cache.get("event_dicts")
    if pairs is None:
        pairs = cache["event_dicts"] = [(e.audience, _dated(e, False), _dated(e, True)) for e in state.events]
    if sees_everything(state, viewer):
        return [full for _, full, _ in pairs]
    if viewer.kind == "seat":
        seat = viewer.seat
        return [told for audience, _, told in pairs if audience is None or seat in audience]
    return [told for audience, _, told in pairs if audience is None]

"""Who may know what: the roles a seat knows and the events a viewer may read.

This is the one place secrecy is decided; ``engine.view`` only assembles what it allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.common import MAFIA_ROLES
from engine.roles import Role
from engine.rulesets import ruleset
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
        cache["groups"] = _groups(state, state.roles)
    mafia, law_team = cache["groups"]
    known[me] = str(state.role(me))
    roles: list[Role] = state.roles
    if not state.alive[me - 1]:  # the dead keep what they knew alive: the teams as they were then
        then = cache.setdefault("dead_groups", {})
        if me not in then:
            at_death = roles_at(state, _deaths(state)[me][0]) if me in _deaths(state) else list(state.roles)
            then[me] = (at_death, *_groups(state, at_death))
        roles, mafia, law_team = then[me]
    for group in (mafia, law_team):
        if me in group:
            for s in group:
                known[s] = str(roles[s - 1])
    return known


def _groups(state: GameState, roles: list[Role]) -> tuple[list[int], list[int]]:
    """The seats of the mafia team, and (uz, when they know each other) of the commissar's team."""
    law = (Role.COMMISSAR, Role.SERGEANT)
    return (
        [s for s in range(1, state.n + 1) if roles[s - 1] in MAFIA_ROLES],
        [s for s in range(1, state.n + 1) if roles[s - 1] in law]
        if ruleset(state).sergeant and state.options.get("commissar_knows_sergeant") else [],
    )


def roles_at(state: GameState, index: int) -> list[Role]:
    """Every seat's role just before event ``index``: the deal with the role changes told before it."""
    roles = list(state.dealt)
    for event in state.events[:index]:
        if event.type == "role_change":
            roles[int(event.params["seat"]) - 1] = Role(str(event.params["role"]))
    return roles


def _deaths(state: GameState) -> dict[int, tuple[int, int | None]]:
    """Seat -> (index of his death event, the night's number if he died at night, else None)."""
    cache = state.derived()
    if "deaths" not in cache:
        deaths: dict[int, tuple[int, int | None]] = {}
        for index, event in enumerate(state.events):
            if event.type == "death":
                deaths.setdefault(int(event.params["seat"]), (index, event.day if event.phase == "night" else None))
        cache["deaths"] = deaths
    result: dict[int, tuple[int, int | None]] = cache["deaths"]
    return result


def _told_in_time(death: tuple[int, int | None] | None, index: int, event: Event) -> bool:
    """A private result reaches a player only while he lives: not after his death, and not at the dawn
    of the night he died in (a commissar killed tonight does not read tonight's check; the uk note is
    the one way such a result gets out)."""
    if death is None:
        return True
    at, night = death
    if index > at:
        return False
    return not (night is not None and event.phase == "night" and event.day == night)


def _delivered(state: GameState) -> list[frozenset[int] | None]:
    """Per event: None for a public one, else the seats of its audience that were alive to be told."""
    cache = state.derived()
    if "delivered" not in cache:
        deaths = _deaths(state)
        cache["delivered"] = [
            None if event.audience is None
            else frozenset(s for s in event.audience if _told_in_time(deaths.get(s), index, event))
            for index, event in enumerate(state.events)
        ]
    result: list[frozenset[int] | None] = cache["delivered"]
    return result


def may_read(state: GameState, viewer: Viewer, event: Event) -> bool:
    if event.audience is None or sees_everything(state, viewer):
        return True
    if viewer.kind != "seat" or viewer.seat not in event.audience:
        return False
    for to, e in zip(_delivered(state), state.events, strict=True):
        if e is event:
            return to is not None and viewer.seat in to
    return False


SECRET_PARAMS = {"death": ("cause",)}
"""Parts of a public event that only the moderator (and everyone after the end) may read: who
killed a player at night is not announced, only that he died."""


def _dated(event: Event, secret: bool) -> dict[str, Any]:
    data = {"day": event.day, "phase": event.phase, **event.as_dict()}
    if event.audience is not None:
        data["private"] = True  # told to some seats only: a phone shows it behind its owner's reveal
    if secret and event.phase == "night" and event.params.get("cause") != "fouls":  # the moderator's is seen
        for key in SECRET_PARAMS.get(event.type, ()):
            data.pop(key, None)
    return data


EventDicts = list[tuple[frozenset[int] | None, dict[str, Any], dict[str, Any]]]


def _event_dicts(state: GameState) -> EventDicts:
    """Each event's audience, its dict for those who see everything and its dict for the others. The engine only
    appends to a state's list of events (never replaces or edits one in it), so the dicts made for the version before
    are kept (``CARRIED``) while the list is the very one they were made from: an event's dicts are made once, not
    again at every action for every event of the game."""
    events = state.events
    kept: tuple[list[Event], EventDicts] | None = state.cache.get("event_dicts_of")
    pairs = list(kept[1]) if kept is not None and kept[0] is events and len(kept[1]) <= len(events) else []
    pairs.extend((e.audience, _dated(e, False), _dated(e, True)) for e in events[len(pairs):])
    state.cache["event_dicts_of"] = (events, pairs)
    return pairs


def visible_events(state: GameState, viewer: Viewer) -> list[dict[str, Any]]:
    """The events this viewer may read, as dicts with their day and phase (shared between viewers:
    do not mutate). A night death's cause is left out for everyone who does not see everything."""
    cache = state.derived()
    pairs = cache.get("event_dicts")
    if pairs is None:
        pairs = cache["event_dicts"] = _event_dicts(state)
    if sees_everything(state, viewer):
        return [full for _, full, _ in pairs]
    if viewer.kind == "seat":
        seat = viewer.seat
        delivered = _delivered(state)
        mine = [told for (audience, _, told), to in zip(pairs, delivered, strict=True)
                if audience is None or (to is not None and seat in to)]
        unsigned = ruleset(state).sergeant and not state.options.get("commissar_knows_sergeant")
        if unsigned and any(e["type"] == "check" and e["seat"] != seat for e in mine):
            known = known_roles(state, viewer)  # a sergeant who may not know the commissar reads his checks
            mine = [{k: v for k, v in e.items() if k != "seat"}  # unsigned
                    if e["type"] == "check" and e["seat"] != seat and e["seat"] not in known else e for e in mine]
        return mine
    return [told for audience, _, told in pairs if audience is None]

"""Checks of one projection (``engine.view.view``) against the oracle, and the role-swap test.

``problems(state, oracle, viewer)`` lists everything a viewer's projection holds that the oracle says he
may not know. ``swap_problems`` is non-interference: swapping the roles of seats whose roles the viewer
may not know must not change a single byte of his projection (whatever field would carry it).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.roles import Role
from engine.state import GameState, Phase
from engine.view import view

from .oracle import NIGHT_CAUSES, PRIVATE_TYPES, Oracle, event_key

MODERATOR_ID, SPECTATOR_ID = -1, 0


def viewer_of(viewer_id: int) -> Viewer:
    if viewer_id == MODERATOR_ID:
        return MODERATOR
    if viewer_id == SPECTATOR_ID:
        return SPECTATOR
    return Viewer.of_seat(viewer_id)


def private_index(state: GameState) -> dict[tuple[Any, ...], list[int]]:
    keys: dict[tuple[Any, ...], list[int]] = {}
    for index, event in enumerate(state.events):
        if event.type in PRIVATE_TYPES:
            keys.setdefault(event_key(event.as_dict()), []).append(index)
            if event.type == "check":  # as a sergeant who may not know the commissar reads it: unsigned
                unsigned = {k: v for k, v in event.as_dict().items() if k != "seat"}
                keys.setdefault(event_key(unsigned), []).append(index)
    return keys


def problems(state: GameState, oracle: Oracle, viewer_id: int, p: dict[str, Any] | None = None,
             keys: dict[tuple[Any, ...], list[int]] | None = None) -> list[str]:
    p = p if p is not None else view(state, viewer_of(viewer_id))
    keys = keys if keys is not None else private_index(state)
    found: list[str] = []
    for seat, role in p["roles"].items():
        if not oracle.may_know(viewer_id, int(seat), str(role)):
            found.append(f"role of seat {seat} ({role})")
    if set(p["teams"]) != set(p["roles"]):
        found.append(f"teams of seats whose roles are not shown: {sorted(set(p['teams']) - set(p['roles']))}")
    for event in p["events"]:
        if event["type"] in PRIVATE_TYPES:
            indices = keys.get(event_key(event), [])
            if not any(oracle.may_read(viewer_id, i, state.events[i]) for i in indices):
                found.append(f"private event {event}")
            checker = event.get("seat")
            if (event["type"] == "check" and checker is not None and checker != viewer_id
                    and not oracle.may_know(viewer_id, int(checker), "commissar")):
                found.append(f"a check that names the commissar to one who may not know him: {event}")
        if (event["type"] == "death" and event.get("phase") == "night" and "cause" in event
                and viewer_id != MODERATOR_ID and not oracle.ended and event["cause"] in NIGHT_CAUSES):
            found.append(f"who killed at night: {event}")
    if p.get("team_night") is not None and not oracle.reads_mafia_chat(viewer_id):
        found.append("the mafia's night")
    if "mafia" in p["chat"]["read"] and not oracle.reads_mafia_chat(viewer_id):
        found.append("the mafia chat")
    if "dead" in p["chat"]["read"] and not oracle.reads_dead_chat(viewer_id):
        found.append("the dead chat")
    if p.get("timeline") and not oracle.ended:
        found.append("the timeline before the end")
    return found


def swapped(state: GameState, seats: list[int], rng: random.Random) -> GameState | None:
    """A copy of ``state`` with the roles of ``seats`` shuffled among them (None if they are all alike)."""
    roles = [state.roles[s - 1] for s in seats]
    if len(set(roles)) < 2:
        return None
    shuffled = list(roles)
    while shuffled == roles:
        rng.shuffle(shuffled)
    other = copy.copy(state)
    other.roles = list(state.roles)
    other.dealt = list(state.dealt)
    for seat, role in zip(seats, shuffled, strict=True):
        other.roles[seat - 1] = Role(role)
        other.dealt[seat - 1] = Role(role)
    other.cache = {}
    return other


def swap_problems(state: GameState, oracle: Oracle, viewer_id: int, rng: random.Random) -> list[str]:
    if state.phase is Phase.ENDED or viewer_id == MODERATOR_ID:
        return []
    unknown = oracle.unknown_seats(viewer_id)
    other = swapped(state, unknown, rng)
    if other is None:
        return []
    viewer = viewer_of(viewer_id)
    mine = json.dumps(view(state, viewer), sort_keys=True, default=str)
    theirs = json.dumps(view(other, viewer), sort_keys=True, default=str)
    state.cache = {}
    if mine != theirs:
        return [f"the projection changes when the roles of seats {unknown} are swapped"]
    return []

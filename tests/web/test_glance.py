"""A glance at a phone tells nothing: every seat's covered screen is the same, whatever the role.

The covered screen is what the browser draws while its owner has not revealed it (``Draft.covered``, no
``Draft.revealed`` nodes). These tests read it from every phone's screen models at several moments of a game
and compare them, after taking out the differences the whole table knows anyway: the phone's own name tile
(``me``), the host's clock buttons and his codes for moving a seat, and the dead. The real-browser version (boxes,
colours, the viewport) is ``e2e/test_privacy.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from nicegui.testing import User

from engine.state import Phase
from webgame.pages.screen import Screen
from webgame.pages.screen_model import revealed_nodes
from webgame.room import rooms
from webgame.room.rooms import Room

from .helpers import covered_screen, settle, start_game, tap, wait_for

# The host's clock and his codes for moving a seat to another phone: the table knows who the host is.
HOST_ONLY = {"pause", "resume", "extend", "skip", "host-moves"}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms.secrets, "randbelow", lambda _n: 20240607)


def glance(user: User) -> str:
    """The covered screen as comparable text: the host's clock taken out (the own tile's mark is not in the models:
    the browser draws it from the page's ``seat`` prop, so the models are compared whole)."""
    def clean(nodes: list[Any]) -> list[Any]:
        kept = []
        for node in nodes:
            if node.get("id") in HOST_ONLY:
                continue
            had_children = bool(node.get("k"))
            node = {key: (clean(value) if key == "k" else value) for key, value in node.items()}
            if had_children and not node["k"]:
                continue  # the host's clock row, emptied
            kept.append(node)
        return kept
    return json.dumps([clean(part) for part in covered_screen(user)], ensure_ascii=False, sort_keys=True)


def revealed(user: User) -> str:
    assert user.client is not None
    parts = [revealed_nodes(json.loads(e.props["model"])) for e in user.client.elements.values()
             if isinstance(e, Screen) and not e.is_deleted]
    return json.dumps(parts, ensure_ascii=False, sort_keys=True)


def assert_alike(room: Room, users: list[User], moment: str, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Every living seat's covered screen is the same (the dead are public, compared among themselves)."""
    assert room.state is not None
    groups: dict[bool, dict[str, list[str]]] = {}
    for seat, user in enumerate(users, 1):
        if seat in skip:
            continue
        role = str(room.state.role(seat))
        groups.setdefault(room.state.alive[seat - 1], {}).setdefault(glance(user), []).append(f"{seat}={role}")
    for alive, screens in groups.items():
        assert len(screens) == 1, f"{moment}: {'living' if alive else 'dead'} phones differ: {list(screens.values())}"


async def test_uz_covered_screens_are_alike_for_every_role(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 14, "uz")  # every acting role of the uz table is dealt
    state = room.state
    assert state is not None and state.phase is Phase.NIGHT
    roles = {str(role) for role in state.roles}
    assert {"don", "doctor", "commissar", "killer", "lover"} <= roles
    assert_alike(room, users, "night 1, nobody acted")
    # Revealed, the screens differ: the test can tell a difference when there is one.
    doctor = next(s for s in range(1, 15) if str(state.role(s)) == "doctor")
    civilian = next(s for s in range(1, 15) if str(state.role(s)) == "civilian")
    assert revealed(users[doctor - 1]) != revealed(users[civilian - 1])

    # Some phones pick and confirm (the don, the doctor, the commissar, a civilian): still alike.
    for role in ("don", "doctor", "commissar", "civilian"):
        seat = next(s for s in range(1, 15) if str(state.role(s)) == role)
        user = users[seat - 1]
        target = 1 if seat != 1 else 2
        tap(user, f"target-{target}")
        await settle()
        tap(user, "confirm")
        await settle()
    assert len(state.night_done) == 4
    assert_alike(room, users, "night 1, four confirmed")

    # The night ends (the host ends the step): the dawn's news, the commissar's private check, the day.
    await room.skip(room.host_hash, state.step)
    await wait_for(lambda: room.state is not None and room.state.phase is Phase.DISCUSSION)
    await settle()
    assert_alike(room, users, "day 1, discussion")
    commissar = next(s for s in range(1, 15) if str(state.role(s)) == "commissar")
    assert any(node_text == "news" for node_text in _ids(revealed(users[commissar - 1])))


def _ids(dump: str) -> list[str]:
    found: list[str] = []

    def walk(nodes: list[Any]) -> None:
        for node in nodes:
            if isinstance(node.get("id"), str):
                found.append(node["id"])
            walk(node.get("k", []))

    for part in json.loads(dump):
        walk(part)
    return found


async def test_uk_covered_screens_are_alike_for_every_role(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 12, "uk")
    state = room.state
    assert state is not None
    assert {"don", "doctor", "commissar", "courtesan", "maniac"} <= {str(role) for role in state.roles}
    speaker = state.speaker
    assert_alike(room, users, f"{state.phase} {state.day}", skip={speaker} if speaker else set())
    # To the first night: the host ends every step until it is night.
    for _ in range(40):
        if state.phase is Phase.NIGHT:
            break
        await room.skip(room.host_hash, state.step)
        await settle()
    assert state.phase is Phase.NIGHT and room.holding()
    assert_alike(room, users, "uk day 1's result, held before the night")  # webgame.room.result_hold
    await room.skip(room.host_hash, state.step)  # the host's "End now": the night begins
    await settle()
    assert state.phase is Phase.NIGHT and not room.holding()
    assert_alike(room, users, "uk night 1")
    commissar = next(s for s in range(1, 13) if str(state.role(s)) == "commissar")
    user = users[commissar - 1]
    tap(user, f"target-{1 if commissar != 1 else 2}")
    await settle()
    tap(user, "confirm")
    await settle()
    assert_alike(room, users, "uk night 1, the commissar checked")

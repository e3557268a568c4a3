"""Helpers of the simulated-user tests: seating people through the pages, reading what a page holds."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from nicegui import ui
from nicegui.testing import User

from webgame import rooms, store
from webgame.rooms import Room


def page_dump(user: User) -> str:
    """Everything this user's page holds (texts and props of every element): what reaches his browser."""
    assert user.client is not None
    parts = []
    for element in list(user.client.elements.values()):
        text = getattr(element, "text", None)
        if isinstance(text, str):
            parts.append(text)
        parts.append(json.dumps(element.props, ensure_ascii=False, default=str))
    return "\n".join(parts)


def texts(user: User) -> list[str]:
    assert user.client is not None
    return [el.text for el in list(user.client.elements.values()) if isinstance(getattr(el, "text", None), str)]


async def settle(*users: User) -> None:
    """Let background refreshes and handlers run."""
    for _ in range(3):
        await asyncio.sleep(0.02)


async def create_room(user: User, name: str = "Host", rules: str = "uz") -> Room:
    await user.open("/")
    user.find(marker="create-name").type(name)
    select = next(iter(user.find(marker="create-rules").elements))
    assert isinstance(select, ui.select)
    select.value = rules
    user.find(marker="create").click()
    for _ in range(50):
        await asyncio.sleep(0.02)
        if rooms.registry.rooms and user.back_history[-1].startswith("/r/"):
            break
    code = user.back_history[-1].split("/")[-1]
    room = rooms.registry.get(code)
    assert room is not None
    await user.should_see(marker="start")
    return room


async def join(user: User, room: Room, name: str) -> None:
    await user.open(f"/r/{room.code}")
    user.find(marker="join-name").type(name)
    user.find(marker="join").click()
    await wait_for(lambda: any(seat.name == name for seat in room.seats))
    await user.should_see(content=name)


async def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


async def seat_directly(room: Room, names: list[str]) -> list[str]:
    """Seat people without pages (to fill a table fast); returns their token hashes."""
    hashes = []
    for name in names:
        token = store.new_seat_token()
        await room.join(token, name)
        hashes.append(store.hash_token(token))
    return hashes


def click(user: User, marker: str) -> None:
    user.find(marker=marker).click()


async def click_when_enabled(user: User, marker: str) -> None:
    """Click the (live, enabled) element with this marker once the page shows it."""

    def ready() -> bool:
        assert user.client is not None
        return any(
            marker in element._markers and not element.is_deleted and getattr(element, "enabled", True)
            for element in list(user.client.elements.values())
        )

    await wait_for(ready)
    user.find(marker=marker).click()

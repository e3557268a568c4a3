"""The start page, once it has sent its browser to the room it made or found, is not kept for a return: deleted a
moment after its socket closes (``page_sockets.delete_once_left``), not after NiceGUI's 30 seconds; a socket
back within that moment keeps it, and a start page nobody left keeps NiceGUI's wait (a phone that slept)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from uuid import uuid4

import pytest
from nicegui import Client
from nicegui.nicegui import _on_handshake
from nicegui.testing import User

from webgame.framework import page_sockets
from webgame.room import rooms
from webgame.room.rooms import Room

from .helpers import create_room, join, wait_for

GRACE = 0.2


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_sockets, "LEFT_GRACE", GRACE)


def leave(page: Client) -> None:
    """The browser's socket for the page closes (it went elsewhere, or the Wi-Fi dropped)."""
    (sid,) = page_sockets.sockets_of(page)
    page.handle_disconnect(sid)


async def start_page(user: User) -> Client:
    return await user.open("/")


async def test_the_start_page_goes_soon_after_its_browser_left_for_the_room(user: User) -> None:
    home = await start_page(user)
    room = await create_room_from(user)
    assert home.id in Client.instances  # the room's page is another page; the start page waits for its socket
    leave(home)
    await wait_for(lambda: home.id not in Client.instances, timeout=GRACE + 2.0)
    assert room.code in user.back_history[-1] and user.client.id in Client.instances  # the room's page lives


async def test_a_start_page_whose_socket_came_back_is_kept(user: User) -> None:
    home = await start_page(user)
    await create_room_from(user)
    leave(home)
    assert await _on_handshake(f"test-{uuid4()}", {"client_id": home.id, "tab_id": user.tab_id,
                                                   "document_id": str(uuid4())})  # back within the moment
    await asyncio.sleep(GRACE * 3)
    assert home.id in Client.instances and not home.is_deleted


async def test_a_start_page_nobody_left_keeps_the_frameworks_wait(create_user: Callable[[], User]) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host)
    home = await start_page(guest)  # a phone on the start page goes to sleep: it comes back to the same page
    leave(home)
    await asyncio.sleep(GRACE * 3)
    assert home.id in Client.instances and not home.is_deleted
    await join(guest, room, "Olena")  # and joining through the room's link is unchanged


async def create_room_from(user: User) -> Room:
    """The start page's own form (the page ``user`` shows), not a new one: it sends its browser to the room."""
    user.find(marker="create-name").type("Host")
    user.find(marker="create").click()
    await wait_for(lambda: user.back_history[-1].startswith("/r/"), timeout=10.0)
    room = rooms.registry.get(user.back_history[-1].split("/")[-1])
    assert room is not None
    return room

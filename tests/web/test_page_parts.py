"""A room page is made once: the lobby, the game and the next lobby are drawn in the same few elements."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from nicegui import core
from nicegui.testing import User

from engine.actions import NightAct, Ready, Vote
from webgame.pages.room import RoomPage
from webgame.pages.screen import Screen
from webgame.room.rooms import Room

from .helpers import click_when_enabled, create_room, has, join, settle, tap, wait_for


def page_of(room: Room, user: User) -> RoomPage:
    page = next(s for s in room.subscribers if getattr(s, "client", None) is user.client)
    assert isinstance(page, RoomPage)
    return page


def element_ids(user: User) -> set[int]:
    assert user.client is not None
    return {element.id for element in user.client.elements.values() if not element.is_deleted}


def chat_ids(user: User) -> set[int]:
    """The chat's column and its lines: in the game, each shown chat line is an element of its own in the
    ``start_or_chat`` part's slot (``webgame.pages.chat_part``: a new line sends that line, not the chat again)."""
    assert user.client is not None
    columns = [element for element in user.client.elements.values()
               if not element.is_deleted and element.props.get("data-testid") == "chat"]
    return {element.id for column in columns for element in column.descendants(include_self=True)}


async def test_a_phone_keeps_its_elements_from_the_lobby_through_the_game(create_user: Callable[[], User]) -> None:
    host, *guests = [create_user() for _ in range(4)]
    room = await create_room(host, "Host")
    phone = guests[0]
    await phone.open(f"/r/{room.code}")
    await phone.should_see(marker="join-name")
    before_joining = element_ids(phone)
    tap(phone, "join", {"text": "Guest"})
    await wait_for(lambda: any(seat.name == "Guest" for seat in room.seats))
    await phone.should_not_see(marker="join-name")  # seated: the form is gone, his line has a "you" badge
    await phone.should_see("you")
    for number, other in enumerate(guests[1:], 2):
        await join(other, room, f"Guest {number}")
    assert element_ids(phone) == before_joining  # joins redrew the parts, made nothing new

    host_inputs = element_ids(host)
    await click_when_enabled(host, "start")
    await wait_for(lambda: room.state is not None)
    await settle()
    await phone.should_see(marker="reveal")
    assert element_ids(phone) - chat_ids(phone) == before_joining  # the game is drawn in the lobby's parts
    assert phone.client is not None
    screens = [e for e in phone.client.elements.values() if isinstance(e, Screen) and e.id not in chat_ids(phone)]
    assert len(screens) == 6  # the first (header and heading), the panel, its counts, its cover, the record, the chat
    assert len(element_ids(phone) - chat_ids(phone)) == 10  # in NiceGUI's own frame: no column of their own
    # The host's settings were inputs in his third part's slot: gone with the lobby.
    assert not has(host, "rules") and element_ids(host) - chat_ids(host) < host_inputs

    # Play it out (the mafia kills a civilian, the town votes the mafia out), then the host's "Play again".
    assert room.state is not None
    hashes = [seat.token_hash for seat in room.seating]
    mafia = next(seat for seat in range(1, 5) if str(room.state.role(seat)) == "mafia")
    civilians = [seat for seat in range(1, 5) if str(room.state.role(seat)) == "civilian"]
    for seat in range(1, 5):
        night = NightAct(seat, "kill", civilians[0]) if seat == mafia else NightAct(seat, "pass")
        await room.act(hashes[seat - 1], night)
    for seat in room.state.living():
        await room.act(hashes[seat - 1], Ready(seat))
    for seat in room.state.living():
        await room.act(hashes[seat - 1], Vote(seat, mafia if seat != mafia else civilians[1]))
    await phone.should_see(marker="winner")
    assert element_ids(phone) - chat_ids(phone) == before_joining
    await click_when_enabled(host, "play-again")
    await wait_for(lambda: room.state is None)
    await host.should_see(marker="rules")  # the host's inputs are back in his third part
    await phone.should_see("Waiting for the host to start the game.")
    assert element_ids(phone) == before_joining


async def test_the_qr_code_is_an_image_of_the_rooms_link(create_user: Callable[[], User]) -> None:
    host = create_user()
    room = await create_room(host, "Host")
    response = await host.http_client.get(f"/qr/{room.code}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.lstrip().startswith("<") and "<svg" in response.text
    assert (await host.http_client.get(f"/qr/{room.code.lower()}")).status_code == 200
    assert (await host.http_client.get("/qr/ZZZZZ")).status_code == 404  # no room: nothing, no lookup


async def test_a_page_deleted_under_an_open_socket_closes_it(create_user: Callable[[], User],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """NiceGUI can drop a client whose socket is still open (nothing would reach that phone again, and its taps
    would be ignored): the page closes the socket, so the phone reconnects, is refused and reloads."""
    host = create_user()
    room = await create_room(host, "Host")
    page = page_of(room, host)
    closed: list[str] = []

    async def disconnect(sid: str) -> None:
        closed.append(sid)

    monkeypatch.setattr(core.sio, "disconnect", disconnect)
    assert host.client is not None
    host.client._socket_to_document_id["a-live-socket"] = "its-document"  # noqa: SLF001
    host.client.delete()
    await wait_for(lambda: "a-live-socket" in closed)
    assert page not in room.subscribers

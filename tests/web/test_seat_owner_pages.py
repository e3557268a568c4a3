"""A seat is its owner's, through the phones (issue 26, point 1): the host's tap for a code for a seat whose phone
is at the table is refused with why, in the host's language, and shows no code; once that phone has been gone for
the hand-over delay the code works, every phone and the TV read who moved the seat, and the old phone, opened
again, is told plainly that its seat was moved and by whom."""

from __future__ import annotations

from collections.abc import Callable

from nicegui.testing import User

from webgame.room.rooms import Room

from .conftest import FakeTime
from .helpers import node, settle, start_game, tap, texts, wait_for

REFUSED_RU = "Телефон игрока P3 на связи: перенести место может только он сам (за кнопкой «Показать»)."
MOVED = "3. P3 was moved to another phone by the host, P1."
AWAY = "Your seat (P3) was moved to another phone by the host, P1. This phone has no seat here any more."


async def game_of_four(create_user: Callable[[], User], host_language: str = "en") -> tuple[Room, list[User]]:
    return await start_game(create_user, 4, host_language=host_language)


async def test_the_hosts_tap_for_a_connected_phone_is_refused_in_his_language(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, users = await game_of_four(create_user, "ru")
    host, seat = users[0], room.seating[2]
    assert room.is_connected(seat.token_hash)
    fake_time.advance(600)
    tap(host, "move-for-seat-3")
    await wait_for(lambda: host.notify.contains(REFUSED_RU))
    await settle()
    assert room.live_code(seat.id) is None and node(host, "move-code-seat-3") is None
    assert room.game_seat(seat.token_hash) == 3 and room.viewer(seat.token_hash).kind == "seat"
    assert not any("moved to another phone" in text for phone in users for text in texts(phone))


async def test_a_gone_phone_moves_by_the_hosts_code_told_everywhere_and_to_the_old_phone(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, users = await game_of_four(create_user)
    host, old = users[0], users[2]
    seat = room.seating[2]
    old_hash = seat.token_hash
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    while room.is_connected(old_hash):  # seat 3's phone dies: its page's socket closed
        room.client_disconnected(old_hash)
    fake_time.advance(room.handover_seconds)
    tap(host, "move-for-seat-3")
    await wait_for(lambda: room.live_code(seat.id) is not None)
    code = room.live_code(seat.id)
    assert code is not None
    new = create_user()
    await new.open(f"/r/{room.code}")
    await new.should_see(marker="move-code")
    tap(new, "move-take", {"text": code})
    await wait_for(lambda: seat.token_hash != old_hash)
    for phone in (host, users[1], users[3], new, tv):
        await wait_for(lambda p=phone: MOVED in texts(p))  # type: ignore[misc]
    assert node(new, "my-role") is not None
    await old.open(f"/r/{room.code}")  # the old phone wakes up: a reload, its old token
    await wait_for(lambda: AWAY in texts(old))
    assert node(old, "my-role") is None and "You are watching this game." in texts(old)
    assert all(AWAY not in texts(phone) for phone in (host, users[1], users[3], new, tv))  # its own, alone

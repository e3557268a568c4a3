"""A seat moved to another phone with a one-time code: asked for by its owner or by the host; the new phone gets
the seat with what it knew (role, the move still to make), the old one only watches; used, expired or guessed codes
and names alone are refused; every move is told to the room; a move survives a restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from nicegui.testing import User

from engine.actions import NightAct
from webgame.errors import Refusal
from webgame.guard import ratelimit
from webgame.room import rooms
from webgame.room.rooms import Room
from webgame.room.seat_moves import MOVE_CODE_LENGTH, MOVE_CODE_SECONDS, WRONG_CODE
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime
from .helpers import covered_ids, create_room, join, node, settle, start_game, tap, texts, wait_for


async def make_room(players: int) -> tuple[Room, list[str]]:
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules="uz", language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    return room, [store.hash_token(token) for token in tokens]


def notices(room: Room) -> list[str]:
    return room.notices.texts(lambda text: text)


async def test_the_owner_moves_his_seat_mid_night_and_keeps_his_role_and_move(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(5)
    await room.start(hashes[0])
    old = hashes[2]
    seat = room.game_seat(old)
    before = room.projection(old)
    assert before is not None and before.view["actions"]  # his night choice is still to be made
    code = await room.offer_move(old)
    assert len(code) == MOVE_CODE_LENGTH and room.live_code(room.seat_by_hash(old).id) == code
    token = store.new_seat_token()
    moved, old_hash = await room.take_seat(code.lower()[:4] + " " + code.lower()[4:], token)  # as typed
    new = store.hash_token(token)
    assert old_hash == old and moved.token_hash == new and room.game_seat(new) == seat
    after = room.projection(new)
    assert after is not None and after.viewer_kind == "seat" and after.viewer_seat == seat
    assert after.view["me"] == before.view["me"] and after.view["actions"] == before.view["actions"]
    assert room.viewer(old).kind == "spectator"  # the old phone only watches
    act = next(a for a in after.view["actions"] if a["targets"])
    with pytest.raises(Refusal):
        await room.act(old, NightAct(seat, act["act"], act["targets"][0]))  # the old phone's tap
    await room.act(new, NightAct(seat, act["act"], act["targets"][0]))
    assert notices(room) == [f"{seat}. Player 2 moved to another phone by himself."]
    with pytest.raises(Refusal) as refused:
        await room.take_seat(code, store.new_seat_token())  # used once
    assert refused.value.msgid == WRONG_CODE


async def test_the_host_gives_a_code_for_a_dead_phone_and_the_host_role_follows_a_moved_host(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    target = room.seat_by_hash(hashes[3])
    assert target is not None
    with pytest.raises(Refusal):
        await room.offer_move(hashes[1], target.id)  # only the host gives codes for others' seats
    code = await room.offer_move(hashes[0], target.id)
    token = store.new_seat_token()
    await room.take_seat(code, token)
    assert room.seat_by_hash(store.hash_token(token)) is target and room.seat_by_hash(hashes[3]) is None
    assert notices(room) == ["Player 3 was moved to another phone by the host, Host."]
    host_code = await room.offer_move(hashes[0])
    host_token = store.new_seat_token()
    await room.take_seat(host_code, host_token)
    assert room.is_host(store.hash_token(host_token)) and not room.is_host(hashes[0])


async def test_wrong_expired_and_renewed_codes_are_refused(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    for wrong in ("", "AAAAAAAA", "Player 1", "x" * 200):
        with pytest.raises(Refusal) as refused:
            await room.take_seat(wrong, store.new_seat_token())
        assert refused.value.msgid == WRONG_CODE
    first = await room.offer_move(hashes[1])
    second = await room.offer_move(hashes[1])  # a new code voids the one before
    with pytest.raises(Refusal):
        await room.take_seat(first, store.new_seat_token())
    fake_time.advance(MOVE_CODE_SECONDS + 1)
    with pytest.raises(Refusal):
        await room.take_seat(second, store.new_seat_token())  # expired
    assert room.seat_by_hash(hashes[1]) is not None and notices(room) == []


async def test_a_phone_with_a_seat_cannot_take_another_and_a_name_alone_takes_nothing(
        db: Path, fake_time: FakeTime) -> None:
    tokens = [store.new_seat_token() for _ in range(4)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules="uz", language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    code = await room.offer_move(store.hash_token(tokens[1]))
    with pytest.raises(Refusal):
        await room.take_seat(code, tokens[2])  # Player 2's phone holds a seat already
    with pytest.raises(Refusal) as refused:
        await room.join(store.new_seat_token(), "Player 1")  # his name alone, from another browser
    assert "already taken" in refused.value.msgid
    await room.start(store.hash_token(tokens[0]))
    with pytest.raises(Refusal):
        await room.join(store.new_seat_token(), "Player 1")
    with pytest.raises(Refusal):
        await room.offer_move(store.hash_token(store.new_seat_token()))  # no seat, no code


async def test_a_bot_cannot_be_moved(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(2)
    await room.add_bot(hashes[0])
    bot = room.seats[-1]
    with pytest.raises(Refusal):
        await room.offer_move(hashes[0], bot.id)


async def test_a_move_survives_a_restart(isolated_data: Path) -> None:
    time = FakeTime()
    config = tortoise_config()
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, hashes = await make_room(4)
            await room.start(hashes[0])
            token = store.new_seat_token()
            await room.take_seat(await room.offer_move(hashes[1]), token)
            pending = await room.offer_move(hashes[2])
            code = room.code
        finally:
            rooms.registry.clear()
    async with open_database(config):
        restored = await rooms.registry.find(code)
        assert restored is not None
        assert restored.game_seat(store.hash_token(token)) == 2 and restored.game_seat(hashes[1]) == 0
        assert restored.viewer(hashes[1]).kind == "spectator"
        with pytest.raises(Refusal):
            await restored.take_seat(pending, store.new_seat_token())  # a restart voids pending codes
        again = store.new_seat_token()  # a seat moved after the restart: the game's seating follows too
        await restored.take_seat(await restored.offer_move(hashes[2]), again)
        assert restored.game_seat(store.hash_token(again)) == 3
    rooms.registry.now = __import__("time").time


# ---------------------------------------------------------------- through the phones (simulated users)


async def test_a_phone_moves_its_seat_mid_night_with_the_code_behind_its_reveal(
        create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 5)
    old = users[2]
    old_hash = room.seating[2].token_hash
    tap(old, "move-offer")
    await wait_for(lambda: room.live_code(room.seating[2].id) is not None)
    code = room.live_code(room.seating[2].id)
    assert code is not None
    await wait_for(lambda: node(old, "move-own-code") is not None)
    shown = node(old, "move-own-code")
    assert shown is not None and shown["x"].replace(" ", "") == code
    assert "move-own-code" not in covered_ids(old)  # a glance at the covered screen cannot take the seat
    assert all(code not in text for text in texts(users[0]))
    new = create_user()
    await new.open(f"/r/{room.code}")
    await new.should_see(marker="move-code")
    tap(new, "move-take", {"text": code.lower()})
    await wait_for(lambda: room.seat_by_hash(old_hash) is None)
    await settle()
    assert node(new, "my-role") is not None  # the seat, with its role, on the new phone
    assert node(old, "my-role") is None and "You are watching this game." in texts(old)
    for phone in (users[0], new, old):
        await wait_for(lambda p=phone: "3. P3 moved to another phone by himself." in texts(p))  # type: ignore[misc]
    away = ("Your seat (P3) was moved to another phone with a code from this phone. This phone has no seat here "
            "any more.")
    assert away in texts(old) and all(away not in texts(phone) for phone in (users[0], new))  # the old phone's own


async def test_the_host_gives_a_code_in_the_lobby_and_guessing_runs_out_of_attempts(
        create_user: Callable[[], User]) -> None:
    host, other, new, guesser = create_user(), create_user(), create_user(), create_user()
    room = await create_room(host, "Host")
    await join(other, room, "Sevara")
    seat = room.seats[1]
    old_hash = seat.token_hash
    tap(host, f"move-for-{seat.id}")
    await wait_for(lambda: room.live_code(seat.id) is not None)
    code = room.live_code(seat.id)
    assert code is not None
    await wait_for(lambda: node(host, f"move-code-{seat.id}") is not None)
    assert node(other, f"move-code-{seat.id}") is None  # only the host's phone shows it
    await guesser.open(f"/r/{room.code}")
    await guesser.should_see(marker="move-code")
    for _attempt in range(ratelimit.WRONG_CODE_BROWSER.burst):
        tap(guesser, "move-take", {"text": "WRONGCOD"})
        await settle()
    tap(guesser, "move-take", {"text": code})  # the right code, out of attempts: not even tried
    await settle()
    assert seat.token_hash == old_hash and room.live_code(seat.id) == code
    await new.open(f"/r/{room.code}")
    await new.should_see(marker="move-code")
    tap(new, "move-take", {"text": code})
    await wait_for(lambda: seat.token_hash != old_hash)
    await wait_for(lambda: "Sevara was moved to another phone by the host, Host." in texts(host))
    assert node(other, "join-name") is not None  # the old phone: no seat any more, the join form again


async def test_the_qr_codes_link_moves_the_seat_once_the_page_connects(create_user: Callable[[], User]) -> None:
    host, other, new = create_user(), create_user(), create_user()
    room = await create_room(host, "Host")
    await join(other, room, "Sevara")
    seat = room.seats[1]
    old_hash = seat.token_hash
    tap(other, "move-offer")
    await wait_for(lambda: room.live_code(seat.id) is not None)
    code = room.live_code(seat.id)
    await new.open(f"/r/{room.code}?move={code}")
    await wait_for(lambda: seat.token_hash != old_hash)
    await new.should_see(content="you")
    assert room.live_code(seat.id) is None  # used up


async def test_the_move_qr_code_is_served_only_to_the_seat_it_moves_and_the_tv_qr_to_visitors(
        create_user: Callable[[], User]) -> None:
    host, other, stranger = create_user(), create_user(), create_user()
    room = await create_room(host, "Host")
    await join(other, room, "Sevara")
    seat = room.seats[1]
    tap(other, "move-offer")
    await wait_for(lambda: room.live_code(seat.id) is not None)
    code = room.live_code(seat.id)
    path = f"/qr/{room.code}/move/{code}"
    response = await other.http_client.get(path)
    assert response.status_code == 200 and "<svg" in response.text
    assert response.headers["cache-control"] == "no-store"
    for somebody in (host, stranger):  # the host did not ask for this code; a stranger has no seat
        assert (await somebody.http_client.get(path)).status_code == 404
    assert (await other.http_client.get(f"/qr/{room.code}/move/AAAAAAAA")).status_code == 404
    assert (await host.http_client.get(f"/qr/{room.code}/tv")).status_code == 200
    assert (await stranger.http_client.get(f"/qr/{room.code}/tv")).status_code == 404  # never opened the room

"""A seat is its owner's (issue 26, point 1): once roles are dealt, no host (the first one, one by hand-over, a uk
moderator's stand-in) takes a seat whose phone is at the table by giving its code to a browser of his own; the
host's code only for a phone gone for the hand-over delay, checked when asked for and again when typed; every
move is told to the room with who asked for it, and the old phone, back, is told its seat moved and by whom.

Room-level, on a test clock: each phone's pages are counted as the pages count them (``client_connected``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.knowledge import Viewer, known_roles
from webgame.errors import Refusal
from webgame.language.i18n import translator
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.rooms import Room
from webgame.room.seat_moves import HOST_CHANGED, PHONE_CAME_BACK, PHONE_HERE, PHONE_JUST_LEFT, WRONG_CODE
from webgame.store import queries as store

from .conftest import FakeTime
from .stats import STATS


async def seated_room(players: int, rules: str = "uz") -> tuple[Room, list[str]]:
    """A room of ``players`` people (the first one, "Aziz", the host), every phone connected."""
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name="Aziz", rules=rules, language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    hashes = [store.hash_token(token) for token in tokens]
    for token_hash in hashes:
        room.client_connected(token_hash)
    return room, hashes


def notices(room: Room) -> list[str]:
    return room.notices.texts(lambda text: text)


async def refused(work: object, msgid: str) -> Refusal:
    with pytest.raises(Refusal) as refusal:
        await work  # type: ignore[misc]
    assert refusal.value.msgid == msgid, refusal.value.msgid
    STATS.add("seat moves refused")
    return refusal.value


async def take(room: Room, code: str) -> str:
    """A new browser types the code; its token's hash."""
    token = store.new_seat_token()
    await room.take_seat(code, token)
    return store.hash_token(token)


def role_of(room: Room, token_hash: str) -> str | None:
    projection = room.projection(token_hash)
    assert projection is not None
    me = projection.view.get("me") or {}
    return me.get("role")


async def test_the_host_cannot_move_a_connected_players_seat_to_read_his_role(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.start(hashes[0])
    victim = room.seat_by_hash(hashes[3])
    assert victim is not None
    before = notices(room)
    refusal = await refused(room.offer_move(hashes[0], victim.id), PHONE_HERE)
    assert room.live_code(victim.id) is None and notices(room) == before
    ru = translator("ru")
    text = ru(refusal.msgid).format(**refusal.params)
    assert "Player 3" in text and text != refusal.msgid.format(**refusal.params)  # told in the host's language
    fake_time.advance(3600)  # however long the game has run: a connected phone moves only from itself
    await refused(room.offer_move(hashes[0], victim.id), PHONE_HERE)
    assert room.game_seat(hashes[3]) == 4 and room.viewer(hashes[3]).kind == "seat"
    await room.take_seat(await room.offer_move(hashes[3]), store.new_seat_token())  # the owner's own code works
    assert notices(room)[-1] == "4. Player 3 moved to another phone by himself."


async def test_a_phone_gone_longer_than_the_delay_moves_with_the_hosts_code_told_with_his_name(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.start(hashes[0])
    seat = room.seat_by_hash(hashes[3])
    assert seat is not None
    role = role_of(room, hashes[3])
    room.client_disconnected(hashes[3])  # the phone dies
    fake_time.advance(29)
    refusal = await refused(room.offer_move(hashes[0], seat.id), PHONE_JUST_LEFT)
    assert refusal.params == {"name": "Player 3", "gone": 29, "delay": 30}
    fake_time.advance(1)
    new = await take(room, await room.offer_move(hashes[0], seat.id))
    assert room.game_seat(new) == 4 and role_of(room, new) == role  # the seat, on the person's new phone
    assert notices(room)[-1] == "4. Player 3 was moved to another phone by the host, Aziz."
    away = room.moves.away_notice(hashes[3])
    assert away is not None and away.text(lambda text: text) == (
        "Your seat (Player 3) was moved to another phone by the host, Aziz. This phone has no seat here any more.")
    assert room.moves.away_notice(new) is None and room.moves.away_notice(hashes[1]) is None


async def test_the_delay_is_the_rooms_hand_over_setting(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.set_handover(hashes[0], 90)
    await room.start(hashes[0])
    seat = room.seat_by_hash(hashes[2])
    assert seat is not None
    room.client_disconnected(hashes[2])
    fake_time.advance(60)
    await refused(room.offer_move(hashes[0], seat.id), PHONE_JUST_LEFT)
    fake_time.advance(30)
    assert await room.offer_move(hashes[0], seat.id)


async def test_the_host_moves_a_seat_back_and_forth_only_while_its_phones_are_gone(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.start(hashes[0])
    seat = room.seat_by_hash(hashes[3])
    assert seat is not None
    room.client_disconnected(hashes[3])
    fake_time.advance(30)
    second = await take(room, await room.offer_move(hashes[0], seat.id))  # to a browser of the host's own
    room.client_connected(second)
    await refused(room.offer_move(hashes[0], seat.id), PHONE_HERE)  # back: refused while that browser is open
    room.client_disconnected(second)
    fake_time.advance(10)
    await refused(room.offer_move(hashes[0], seat.id), PHONE_JUST_LEFT)
    fake_time.advance(20)
    third = await take(room, await room.offer_move(hashes[0], seat.id))
    assert room.game_seat(third) == 4 and room.game_seat(second) == 0
    moved = [line for line in notices(room) if "Player 3" in line]
    assert moved == ["4. Player 3 was moved to another phone by the host, Aziz."] * 2  # each move told


async def test_a_phone_back_before_the_code_is_typed_voids_it(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.start(hashes[0])
    seat = room.seat_by_hash(hashes[3])
    assert seat is not None
    room.client_disconnected(hashes[3])
    fake_time.advance(31)
    code = await room.offer_move(hashes[0], seat.id)
    room.client_connected(hashes[3])  # its owner is back at the table
    await refused(room.take_seat(code, store.new_seat_token()), PHONE_CAME_BACK)
    assert room.live_code(seat.id) is None  # voided
    room.client_disconnected(hashes[3])
    fake_time.advance(60)
    await refused(room.take_seat(code, store.new_seat_token()), WRONG_CODE)  # still void once gone again
    code = await room.offer_move(hashes[0], seat.id)
    fake_time.advance(5)
    room.client_connected(hashes[3])  # a flicker: back, then gone again before the code is typed
    room.client_disconnected(hashes[3])
    fake_time.advance(60)
    await refused(room.take_seat(code, store.new_seat_token()), PHONE_CAME_BACK)
    assert room.seat_by_hash(hashes[3]) is seat and room.game_seat(hashes[3]) == 4


async def test_a_code_asked_for_in_the_lobby_does_not_take_a_connected_seat_in_the_game(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    seat = room.seat_by_hash(hashes[2])
    assert seat is not None
    code = await room.offer_move(hashes[0], seat.id)  # the lobby: free, nothing is dealt yet
    await room.start(hashes[0])
    await refused(room.take_seat(code, store.new_seat_token()), PHONE_CAME_BACK)
    assert room.game_seat(hashes[2]) == 3


async def test_in_the_lobby_the_host_moves_any_seat_and_the_old_phone_is_told(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(4)
    seat = room.seat_by_hash(hashes[1])
    assert seat is not None
    new = await take(room, await room.offer_move(hashes[0], seat.id))
    assert room.seat_by_hash(new) is seat
    assert notices(room) == ["Player 1 was moved to another phone by the host, Aziz."]
    away = room.moves.away_notice(hashes[1])
    assert away is not None and "by the host, Aziz" in away.text(lambda text: text)
    own = await take(room, await room.offer_move(hashes[2]))  # the owner's own code
    assert room.seat_by_hash(own) is not None and notices(room)[-1] == "Player 2 moved to another phone by himself."
    away = room.moves.away_notice(hashes[2])
    assert away is not None and "with a code from this phone" in away.text(lambda text: text)


async def test_an_heir_host_is_held_to_the_same_rule_and_an_old_hosts_codes_die(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(6)
    await room.start(hashes[0])
    gone = room.seat_by_hash(hashes[4])
    assert gone is not None
    room.client_disconnected(hashes[4])
    fake_time.advance(40)
    old_code = await room.offer_move(hashes[0], gone.id)  # the first host asks, then his own phone goes
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(31)
    await clock.tick()
    assert room.is_host(hashes[1])  # Player 1 is the host by hand-over
    await refused(room.take_seat(old_code, store.new_seat_token()), HOST_CHANGED)
    for connected in (hashes[2], hashes[3], hashes[5]):
        target = room.seat_by_hash(connected)
        assert target is not None
        await refused(room.offer_move(hashes[1], target.id), PHONE_HERE)  # the attack of issue 26, refused
        assert room.projection(hashes[1]) is not None
    heir_view = room.projection(hashes[1])
    assert heir_view is not None and room.state is not None  # the host role added nothing to what his seat knows
    assert {int(seat) for seat in heir_view.view["roles"]} == set(known_roles(room.state, Viewer.of_seat(2)))
    assert heir_view.view["moderator_night"] is None and len(heir_view.view["roles"]) < 6
    new = await take(room, await room.offer_move(hashes[1], gone.id))  # a phone gone long enough: allowed, told
    assert room.game_seat(new) == 5
    assert notices(room)[-1] == "5. Player 4 was moved to another phone by the host, Player 1."


async def test_the_moderators_stand_in_gets_the_controls_never_a_role(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(13, rules="uk")
    await room.set_moderated(hashes[0], True)
    await room.set_handover(hashes[0], 30, True)
    await room.start(hashes[0])
    assert room.state is not None
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(31)
    await clock.tick()
    stand_in = hashes[1]
    assert room.is_moderator(stand_in) and room.game_seat(stand_in) == 1
    for number in range(2, 13):  # every other player's seat, phones at the table
        target = room.seating[number - 1]
        await refused(room.offer_move(stand_in, target.id), PHONE_HERE)
    own = room.projection(stand_in)
    assert own is not None and own.viewer_kind == "seat"
    known = {int(seat) for seat in own.view.get("roles", {})}
    assert 1 in known and len(known) < 12  # his own role (and his team's), never the table's
    moderator_seat = room.seat_by_hash(hashes[0])  # the real moderator's seat, gone for good: moved to a browser
    assert moderator_seat is not None  # of the stand-in's own, it is a spectator's: no role with it
    second = await take(room, await room.offer_move(stand_in, moderator_seat.id))
    watched = room.projection(second)
    assert watched is not None and watched.viewer_kind == "spectator" and not watched.view.get("roles")
    assert not room.is_moderator(second)
    assert notices(room)[-1] == "Aziz was moved to another phone by the host, Player 1."

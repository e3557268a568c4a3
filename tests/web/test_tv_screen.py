"""The TV (``/r/CODE/screen``) on simulated browsers: the vote's result held alone before the game goes on (issue 27
point 5), each seat's fouls and the uk moderator's phone gone (points 6 and 7). How it fits a real screen is
``e2e/test_tv_layout.py``'s."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from nicegui.testing import User

from engine.actions import Foul, NightAct, Ready, Vote
from webgame.pages import tv_table
from webgame.room import moderator_presence, rooms
from webgame.room.clock import Clock

from .conftest import FakeTime
from .helpers import click_when_enabled, create_room, has, join, settle, start_game, texts, wait_for
from .test_pages_game import moderated_uk_game

GONE = "The moderator's phone is gone: the game goes on with the clock alone."
ASLEEP = "The city falls asleep."


async def test_the_tv_holds_the_votes_result_alone_then_shows_the_table_again(
        create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime) -> None:
    """Without the room's hold (its ``result_hold`` at 0; or a uk tie, which goes on to the defence) the TV holds the
    result itself."""
    monkeypatch.setattr(tv_table, "RESULT_SECONDS", 0.6)
    users = [create_user() for _ in range(6)]
    room = await create_room(users[0], "P1")
    for number, phone in enumerate(users[1:], 2):
        await join(phone, room, f"P{number}")
    assert room.host_hash is not None
    await room.set_option(room.host_hash, "result_hold", 0)
    await click_when_enabled(users[0], "start")
    await wait_for(lambda: room.state is not None)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(marker="seat-1")
    state = room.state
    assert state is not None
    hashes = [seat.token_hash for seat in room.seating]
    for seat in range(1, 7):
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))
    for seat in state.living():
        await room.act(hashes[seat - 1], Ready(seat))
    await tv.should_see(marker="seat-1")
    for seat in state.living():  # three and three: a tie, nobody is out, the night comes
        await room.act(hashes[seat - 1], Vote(seat, 1 if seat in (2, 3, 4) else 2))
    await settle(tv)
    await tv.should_see(marker="result-text", content="The vote is tied: nobody is eliminated.")
    await tv.should_see(content="Day 1")
    await tv.should_see(marker="phase", content="Night 2")  # the room holds the result before the night
    assert not has(tv, "seat-1") and not has(tv, "progress")
    fake_time.advance(5)  # the room's hold of the day's result (webgame.room.result_hold) is over: the night begins
    await Clock(rooms.registry).tick()
    await wait_for(lambda: has(tv, "seat-1"), timeout=3.0)  # ... then the whole screen again
    await tv.should_not_see(marker="result")
    await tv.should_see(marker="progress")


async def test_the_narrator_says_the_night_when_the_rooms_hold_of_the_result_ends(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, _users = await start_game(create_user, 4)  # the room holds the day's result 5 s (its default)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(marker="seat-1")
    state = room.state
    assert state is not None
    hashes = [seat.token_hash for seat in room.seating]
    for seat in state.living():
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))
    for seat in state.living():
        await room.act(hashes[seat - 1], Ready(seat))
    for seat in state.living():  # two and two: a tie
        await room.act(hashes[seat - 1], Vote(seat, 4 if seat < 3 else 1))
    assert room.holding()
    await tv.should_see(marker="result-text", content="The vote is tied: nobody is eliminated.")
    said = lambda: [text for text in texts(tv) if text in (ASLEEP, "The vote: nobody is eliminated.")]  # noqa: E731
    await wait_for(lambda: said() == ["The vote: nobody is eliminated."])  # the result now, the night not yet
    clock = Clock(rooms.registry)
    fake_time.advance(5)
    await clock.tick()
    assert not room.holding()
    await wait_for(lambda: said() == ["The vote: nobody is eliminated.", ASLEEP])
    await tv.should_see(marker="seat-1")


async def test_the_tv_shows_each_seats_fouls_and_when_the_moderator_is_gone(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, _moderator, _first, _hashes = await moderated_uk_game(create_user)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(marker="seat-3")
    await room.act(room.host_hash, Foul(3, 1))
    await room.act(room.host_hash, Foul(3, 0.5))
    await room.act(room.host_hash, Foul(5, 1))
    await tv.should_see(marker="fouls", content="Fouls: 1.5")
    await tv.should_see(marker="fouls", content="Fouls: 1")
    await tv.should_not_see(GONE)

    host = room.host_hash
    assert host is not None
    while room.is_connected(host):  # the moderator's phone is gone (its pages' sockets closed)
        room.client_disconnected(host)
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(room.handover_seconds - 2)
    await clock.tick()
    await settle(tv)
    assert not moderator_presence.moderator_gone(room)
    await tv.should_not_see(GONE)  # a phone asleep for a moment is not gone
    fake_time.advance(3)
    await clock.tick()
    await tv.should_see(marker="moderator-gone", content=GONE)
    room.client_connected(host)
    fake_time.advance(1)
    await clock.tick()
    await wait_for(lambda: not has(tv, "moderator-gone"))

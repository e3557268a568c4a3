"""The day's result held on every screen before the night (issue 27 point 5, ``webgame.room.result_hold``): the room's
clock holds the night back ``result_hold`` seconds, a night choice meanwhile is refused, every phone and the TV
show the same result screen, then the night runs its full time; a restart during the hold resumes it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from nicegui.testing import User

from engine.actions import NightAct, Ready, Vote
from engine.state import Phase
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.result_hold import NOT_YET
from webgame.room.rooms import Room
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime
from .helpers import covered_screen, has, node, settle, start_game, texts, wait_for

TIED = "The vote is tied: nobody is eliminated."
NIGHT_SECONDS = 20  # uz's default night


async def make_room(players: int, hold: int | None = None) -> tuple[Room, list[str]]:
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules="uz", language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    hashes = [store.hash_token(token) for token in tokens]
    if hold is not None:
        await room.set_option(hashes[0], "result_hold", hold)
    return room, hashes


async def tie_into_the_night(room: Room, hashes: list[str]) -> None:
    """Night 1 passed by everyone, day 1 ready, a tied vote: nobody is out and night 2 comes."""
    state = room.state
    assert state is not None
    for seat in state.living():
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))
    for seat in state.living():
        await room.act(hashes[seat - 1], Ready(seat))
    living = state.living()
    half = len(living) // 2
    for seat in living:  # the first half votes for the last seat, the rest for the first: a tie
        await room.act(hashes[seat - 1], Vote(seat, living[-1] if living.index(seat) < half else living[0]))
    assert room.state is not None and room.state.phase is Phase.NIGHT and room.state.day == 2


async def test_the_night_waits_for_the_days_result_then_runs_its_full_time(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    await tie_into_the_night(room, hashes)
    assert room.holding() and room.remaining() == 5
    assert room.deadline == fake_time.value + 5 + NIGHT_SECONDS
    seen = room.projection(hashes[1])
    assert seen is not None and seen.view["result_hold"] is True and seen.view["actions"] == []
    with pytest.raises(Refusal) as refused:
        await room.act(hashes[1], NightAct(2, "pass"))
    assert refused.value.msgid == NOT_YET
    assert room.state is not None and not room.state.night_done

    clock = Clock(rooms.registry)
    fake_time.advance(4.5)
    await clock.tick()
    assert room.holding() and room.remaining() == pytest.approx(0.5)
    fake_time.advance(0.5)
    await clock.tick()
    assert not room.holding() and room.game.hold.night_left is None
    assert room.remaining() == NIGHT_SECONDS and room.state.phase is Phase.NIGHT
    seen = room.projection(hashes[1])
    assert seen is not None and "result_hold" not in seen.view and seen.view["actions"]
    await room.act(hashes[1], NightAct(2, "pass"))  # the night has begun: taken
    fake_time.advance(NIGHT_SECONDS - 0.1)
    assert await clock.tick() == 0  # the night had its full seconds after the hold
    fake_time.advance(0.1)
    assert await clock.tick() == 1 and room.state.phase is Phase.DISCUSSION


async def test_the_hosts_clock_buttons_during_the_hold(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    await tie_into_the_night(room, hashes)
    await room.pause(hashes[0])
    fake_time.advance(60)
    assert room.holding() and room.remaining() == 5  # paused: the result stays
    await room.resume(hashes[0])
    await room.extend(hashes[0])
    assert room.holding() and room.remaining() == 35  # "+30 s" during the hold: a longer moment
    state = room.state
    assert state is not None
    step, actions = state.step, len(state.log)
    await room.skip(hashes[0], step)  # "End now": the night begins, with its full time
    assert not room.holding() and room.remaining() == NIGHT_SECONDS
    assert (state.step, len(state.log), state.phase) == (step, actions, Phase.NIGHT)  # not a step of the rules
    await room.skip(hashes[0], step)  # now it ends the night itself
    assert state.phase is Phase.DISCUSSION


async def test_a_hold_of_zero_starts_the_night_at_once(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4, hold=0)
    await room.start(hashes[0])
    await tie_into_the_night(room, hashes)
    assert not room.holding() and room.remaining() == NIGHT_SECONDS
    await room.act(hashes[1], NightAct(2, "pass"))


async def test_a_restart_during_the_hold_resumes_it(isolated_data: Path) -> None:
    time = FakeTime()
    config = tortoise_config()
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, hashes = await make_room(4, hold=8)
            await room.start(hashes[0])
            await tie_into_the_night(room, hashes)
            time.advance(3)
            code, deadline = room.code, room.deadline
        finally:
            rooms.registry.clear()
    try:
        async with open_database(config):
            restored = await rooms.registry.find(code)
            assert restored is not None and restored.state is not None
            assert restored.deadline == deadline
            assert restored.holding() and restored.remaining() == 5  # the rest of the hold
            with pytest.raises(Refusal):
                await restored.act(hashes[1], NightAct(2, "pass"))
            clock = Clock(rooms.registry)
            time.advance(5)
            await clock.tick()
            assert not restored.holding() and restored.remaining() == NIGHT_SECONDS
            await restored.act(hashes[1], NightAct(2, "pass"))
        rooms.registry.clear()
        async with open_database(config):  # the hold's end was saved: a later restart is in the night
            again = await rooms.registry.find(code)
            assert again is not None and not again.holding() and again.remaining() == NIGHT_SECONDS
    finally:
        rooms.registry.now = __import__("time").time


async def test_every_phone_and_the_tv_show_the_result_then_the_night(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, phones = await start_game(create_user, 4)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(marker="seat-1")
    await tie_into_the_night(room, [seat.token_hash for seat in room.seating])
    for phone in phones:
        await wait_for(lambda phone=phone: TIED in texts(phone) and node(phone, "night-soon") is not None)
        assert node(phone, "night-cover") is None and node(phone, "reveal") is None  # nothing to choose yet
    panels = [[part for part in covered_screen(phone) if "day-result" in str(part)] for phone in phones]
    assert all(len(panel) == 1 for panel in panels)
    # the same result screen on every phone: nothing about anyone's role
    assert len({str(panel) for panel in panels}) == 1  # no own mark in a model: the browser draws it
    await tv.should_see(marker="result-text", content=TIED)
    assert not has(tv, "progress")

    fake_time.advance(5)
    await Clock(rooms.registry).tick()
    await settle(*phones, tv)
    for phone in phones:
        await wait_for(lambda phone=phone: node(phone, "night-cover") is not None)
        assert node(phone, "night-soon") is None
    await wait_for(lambda: has(tv, "progress"))

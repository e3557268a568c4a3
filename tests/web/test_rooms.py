"""The room layer without pages: permissions, the clock on a fake time, and a restart from the database."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.actions import Foul, NightAct, Ready, Vote
from engine.errors import RuleError
from engine.state import Phase
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.rooms import Room, Stage
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime


async def make_room(players: int, rules: str = "uz") -> tuple[Room, list[str]]:
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules=rules, language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    return room, [store.hash_token(token) for token in tokens]


async def test_only_the_host_starts_and_only_with_enough_players(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(3)
    with pytest.raises(Refusal) as refused:
        await room.start(hashes[0])
    assert "at least" in refused.value.msgid and refused.value.params == {"count": 4, "now": 3}
    await room.join(store.new_seat_token(), "Fourth")
    with pytest.raises(Refusal):
        await room.start(hashes[1])
    await room.start(hashes[0])
    assert room.stage is Stage.PLAYING and room.state is not None
    assert room.state.phase is Phase.NIGHT
    assert room.deadline == fake_time.value + 20
    with pytest.raises(Refusal):
        await room.join(store.new_seat_token(), "Late")


async def test_names_are_checked(db: Path) -> None:
    room, _ = await make_room(2)
    for bad in ["", "   ", "x" * 25, "player 1", "PLAYER 1", "bell\x07", "a\u202eb"]:
        with pytest.raises(Refusal):
            await room.join(store.new_seat_token(), bad)
    seat = await room.join(store.new_seat_token(), "  <b>Bold</b>  ")
    assert seat.name == "<b>Bold</b>"


async def test_a_player_acts_only_for_his_own_seat(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    assert room.state is not None
    with pytest.raises(Refusal):
        await room.act(hashes[0], NightAct(2, "pass"))
    with pytest.raises(Refusal):
        await room.act(None, NightAct(1, "pass"))
    with pytest.raises(Refusal):
        await room.act(hashes[0], Foul(2, 1))  # uz, no moderator
    with pytest.raises(RuleError):
        await room.act(hashes[0], Vote(1, 2))  # out of phase
    await room.act(hashes[0], NightAct(1, "pass"))
    with pytest.raises(RuleError):
        await room.act(hashes[0], NightAct(1, "pass"))  # a double tap
    assert len(room.state.log) == 1


async def test_everyone_done_ends_the_night_early_and_the_clock_ends_the_day(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    for seat, token_hash in enumerate(hashes, 1):
        await room.act(token_hash, NightAct(seat, "pass"))
    assert room.state is not None and room.state.phase is Phase.DISCUSSION
    assert room.deadline == fake_time.value + 30

    clock = Clock(rooms.registry)
    assert await clock.tick() == 0
    fake_time.advance(29)
    assert await clock.tick() == 0
    fake_time.advance(1)
    assert await clock.tick() == 1
    assert room.state.phase is Phase.VOTE
    assert room.deadline == fake_time.value + 15


async def test_pause_extend_and_skip(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    assert room.state is not None
    with pytest.raises(Refusal):
        await room.pause(hashes[1])
    fake_time.advance(5)
    await room.pause(hashes[0])
    assert room.paused and room.remaining() == 15
    fake_time.advance(100)
    clock = Clock(rooms.registry)
    assert await clock.tick() == 0  # paused: nothing ends
    await room.extend(hashes[0])
    assert room.remaining() == 45
    await room.resume(hashes[0])
    assert room.deadline == fake_time.value + 45
    step = room.state.step
    with pytest.raises(Refusal):
        await room.skip(hashes[2], step)
    with pytest.raises(RuleError):
        await room.skip(hashes[0], step - 1)  # a stale tab
    await room.skip(hashes[0], step)
    assert room.state.phase is Phase.DISCUSSION


async def test_an_unsaved_action_changes_nothing(
    db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action is written before it is applied: a failed log write leaves the state as it was."""
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    await room.act(hashes[0], NightAct(1, "pass"))
    assert room.state is not None
    before = copy.deepcopy(room.state)
    real_append = store.append_action

    async def disk_full(*_args: object, **_kwargs: object) -> None:
        raise OSError("disk full")

    async def conflict(game_id: int, index: int, _payload: object) -> None:
        raise store.ActionIndexConflict(game_id, index, index + 1)

    monkeypatch.setattr(store, "append_action", disk_full)
    with pytest.raises(Refusal):  # said to the player in his language (webgame.room.table_game.TableGame.apply)
        await room.act(hashes[1], NightAct(2, "pass"))
    assert room.state == before and room.state.step == before.step
    monkeypatch.setattr(store, "append_action", conflict)
    with pytest.raises(Refusal):
        await room.act(hashes[3], NightAct(4, "pass"))  # the last one: it would have ended the night
    assert room.state == before and room.state.phase is Phase.NIGHT
    monkeypatch.setattr(store, "append_action", real_append)
    await room.act(hashes[1], NightAct(2, "pass"))
    assert len(room.state.log) == 2


async def test_moderator_gives_fouls_in_uk(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await make_room(13, rules="uk")
    await room.set_moderated(hashes[0], True)
    await room.start(hashes[0])
    assert room.state is not None and room.state.n == 12
    assert room.game_seat(hashes[0]) == 0 and room.viewer(hashes[0]).kind == "moderator"
    with pytest.raises(Refusal):
        await room.act(hashes[1], Foul(2, 1))
    await room.act(hashes[0], Foul(2, 1))
    assert room.state.fouls == {2: 1.0}


async def test_a_restart_rebuilds_the_same_phase_and_deadline(isolated_data: Path) -> None:
    time = FakeTime()
    config = tortoise_config()
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, hashes = await make_room(5)
            await room.start(hashes[0])
            for seat, token_hash in enumerate(hashes, 1):
                await room.act(token_hash, NightAct(seat, "pass"))
            await room.act(hashes[0], Ready(1))
            await room.say(hashes[1], "room", "hello")
            time.advance(7)
            await room.pause(hashes[0])
            before = room.state
            code, remaining = room.code, room.remaining()
        finally:
            rooms.registry.clear()

    async with open_database(config):
        restored = await rooms.registry.find(code.lower())
        assert restored is not None and restored.state is not None and before is not None
        assert restored.stage is Stage.PLAYING
        assert (restored.state.phase, restored.state.step, restored.state.ready) == (
            before.phase, before.step, before.ready)
        assert restored.paused_remaining == remaining
        assert [line.text for line in restored.chat] == ["hello"]
        assert restored.game_seat(hashes[2]) == 3

    rooms.registry.clear()
    async with open_database(config):
        assert await rooms.registry.restore_all() == 1
        again = rooms.registry.get(code)
        assert again is not None and again.state is not None and again.state.step == before.step
    rooms.registry.now = __import__("time").time


async def test_a_room_asked_for_while_the_restart_restores_it_is_one_room(
        isolated_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the server answers while it restores the rooms: a phone reloading its page at that
    moment must get the same room as everyone else (found in a storm of 960 reloads: a second copy of the room
    took that phone's page, which then got no update again)."""
    config = tortoise_config()
    async with open_database(config):
        try:
            room, hashes = await make_room(5)
            await room.start(hashes[0])
            code = room.code
        finally:
            rooms.registry.clear()

    rebuild = rooms.rebuild_room
    delays = [0.1]  # the restore's rebuild is slow (a reload storm on the database); the page's is not

    async def slow_rebuild(*args: object, **kwargs: object) -> Room:
        await asyncio.sleep(delays.pop() if delays else 0.0)
        return await rebuild(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rooms, "rebuild_room", slow_rebuild)
    async with open_database(config):
        try:
            restoring = asyncio.create_task(rooms.registry.restore_all())
            await asyncio.sleep(0.01)  # the restore has listed the rooms and is rebuilding this one
            found = await rooms.registry.find(code)
            await restoring
            assert found is not None and found is rooms.registry.get(code)
            assert found.state is not None and found.game_seat(hashes[2]) == 3
        finally:
            rooms.registry.clear()


# How late after its moment a room may be ended in these tests: far under the clock's next tick (30 s away), with room
# for a busy CI machine (a write to the database, the test's own polling).
LATE_AT_MOST = 2.0


async def run_clock_until(clock: Clock, done: Callable[[], bool], seconds: float) -> float | None:
    """Run the clock's own loop (real time) until ``done()``; when it was done, or None."""
    runner = asyncio.create_task(clock.run())
    try:
        deadline = time.time() + seconds
        while time.time() < deadline:
            if done():
                return time.time()
            await asyncio.sleep(0.01)
        return None
    finally:
        runner.cancel()


async def test_the_clock_ends_a_step_at_its_deadline_not_at_its_next_tick(db: Path) -> None:
    """A deadline that comes between two ticks of the clock ends its step at that moment (a timer the tick before
    set), not at the next tick: the rooms whose moments fall within one tick are not told their steps one right after
    the other (issue 32)."""
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    for seat, token_hash in enumerate(hashes, 1):
        await room.act(token_hash, NightAct(seat, "pass"))
    assert room.state is not None and room.state.phase is Phase.DISCUSSION
    moment = room.game.deadline = time.time() + 0.3  # as if the discussion had 0.3 s left
    ended = await run_clock_until(Clock(rooms.registry, interval=30.0), lambda: room.state.phase is Phase.VOTE, 10.0)
    assert ended is not None and ended - moment < LATE_AT_MOST  # its next tick was 30 s away


async def test_the_clock_ends_the_days_result_at_its_moment_not_at_its_next_tick(db: Path) -> None:
    """The same for the day's result held on the screens: the night begins when the hold's time is up."""
    room, hashes = await make_room(8)
    await room.start(hashes[0])
    for seat, token_hash in enumerate(hashes, 1):
        await room.act(token_hash, NightAct(seat, "pass"))
    for seat, token_hash in enumerate(hashes, 1):
        await room.act(token_hash, Ready(seat))
    assert room.state is not None and room.state.phase is Phase.VOTE
    out = room.state.roles.index("civilian") + 1  # a townsman voted out: the game goes on into the night
    for seat, token_hash in enumerate(hashes, 1):
        await room.act(token_hash, Vote(seat, out if seat != out else out % 8 + 1))
    assert room.state.phase is Phase.NIGHT and room.holding()
    night = room.game.hold.night_left
    assert night is not None
    moment = time.time() + 0.3
    room.game.deadline = moment + night  # as if the hold had 0.3 s left
    ended = await run_clock_until(Clock(rooms.registry, interval=30.0), lambda: room.game.hold.night_left is None,
                                  10.0)  # the hold released: the night's own countdown
    assert ended is not None and ended - moment < LATE_AT_MOST
    assert not room.holding() and room.remaining() == pytest.approx(night, abs=0.5)

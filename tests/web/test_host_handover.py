"""The host's phone gone: his role passes to the next connected player after the room's delay (driven by the
game clock on a fake time), in the lobby and mid-game; a uk moderator's controls only if the room allows it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from nicegui.testing import User

from engine.actions import Foul
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.rooms import Room
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime
from .helpers import node, start_game, tap, texts, wait_for


async def seated_room(players: int, rules: str = "uz", connected: bool = True) -> tuple[Room, list[str]]:
    """A room of ``players`` people (the first one the host), every phone connected unless told otherwise."""
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules=rules, language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    hashes = [store.hash_token(token) for token in tokens]
    if connected:
        for token_hash in hashes:
            room.client_connected(token_hash)
    return room, hashes


async def gone_for(clock: Clock, time: FakeTime, seconds: float) -> None:
    """The clock ticks through ``seconds`` (the first tick notes the absence, as the real clock does)."""
    await clock.tick()
    time.advance(seconds)
    await clock.tick()


async def test_in_the_lobby_the_next_connected_player_becomes_host(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    room.client_disconnected(hashes[1])  # Player 1's phone is gone too: he is skipped
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await gone_for(clock, fake_time, 29)
    assert room.is_host(hashes[0])  # 29 s: still the host
    fake_time.advance(1)
    await clock.tick()
    assert room.is_host(hashes[2]) and not room.is_host(hashes[0])
    assert room.notices.texts(lambda text: text) == ["Host's phone was gone, so Player 2 is the host now."]
    await room.set_player_limits(hashes[2], 4, 6)  # the new host's controls work
    with pytest.raises(Refusal):
        await room.set_player_limits(hashes[0], 4, 8)  # the old host, back, is a player
    room.client_connected(hashes[0])
    await clock.tick()
    assert room.is_host(hashes[2])
    await room.start(hashes[2])
    assert room.game_seat(hashes[0]) == 1  # he plays in his seat


async def test_a_host_back_in_time_keeps_the_role_and_a_bot_never_gets_it(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(2)
    await room.add_bot(hashes[0])  # seated right after the others; a bot is "always there" but never a host
    room.client_disconnected(hashes[1])
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await gone_for(clock, fake_time, 60)
    assert room.is_host(hashes[0])  # nobody connected to take it: it waits
    room.client_connected(hashes[1])
    await clock.tick()
    assert room.is_host(hashes[1])
    room.client_disconnected(hashes[1])
    room.client_connected(hashes[0])
    await gone_for(clock, fake_time, 20)
    room.client_connected(hashes[1])  # back within the delay: the count starts again next time
    fake_time.advance(20)
    await clock.tick()
    assert room.is_host(hashes[1])


async def test_the_delay_is_a_lobby_option_kept_in_the_database(isolated_data: Path) -> None:
    time = FakeTime()
    config = tortoise_config()
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, hashes = await seated_room(4)
            for wrong in (5, 301, "30", True):
                with pytest.raises(Refusal):
                    await room.set_handover(hashes[0], wrong)
            with pytest.raises(Refusal):
                await room.set_handover(hashes[1], 60)  # only the host
            await room.set_handover(hashes[0], 60, True)
            assert (room.handover_seconds, room.moderator_takeover) == (60, True)
            room.client_disconnected(hashes[0])
            clock = Clock(rooms.registry)
            await gone_for(clock, time, 45)
            assert room.is_host(hashes[0])
            time.advance(15)
            await clock.tick()
            assert room.is_host(hashes[1])
            code = room.code
        finally:
            rooms.registry.clear()
    async with open_database(config):
        restored = await rooms.registry.find(code)
        assert restored is not None and restored.is_host(hashes[1]) and not restored.is_host(hashes[0])
        assert (restored.handover_seconds, restored.moderator_takeover) == (60, True)
    rooms.registry.now = __import__("time").time


async def test_mid_game_the_new_host_runs_the_clock(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(5)
    await room.start(hashes[0])
    assert room.state is not None
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(12)  # the night is 20 s: the step is still running
    await clock.tick()
    fake_time.advance(18)
    await clock.tick()  # the night ended on its own meanwhile; now the host role passes
    assert room.is_host(hashes[1])
    for token_hash in (hashes[0], hashes[2]):
        with pytest.raises(Refusal):
            await room.pause(token_hash)
    await room.pause(hashes[1])
    assert room.paused
    await room.extend(hashes[1])
    await room.resume(hashes[1])
    step = room.state.step
    await room.skip(hashes[1], step)
    assert room.state.step > step
    assert room.viewer(hashes[1]).kind == "seat"


async def uk_moderated(takeover: bool) -> tuple[Room, list[str]]:
    room, hashes = await seated_room(13, rules="uk")
    await room.set_moderated(hashes[0], True)
    await room.set_handover(hashes[0], 30, takeover)
    await room.start(hashes[0])
    return room, hashes


async def test_a_gone_moderator_keeps_his_controls_unless_the_room_allows_a_takeover(
        db: Path, fake_time: FakeTime) -> None:
    room, hashes = await uk_moderated(takeover=False)
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await gone_for(clock, fake_time, 100)
    assert room.is_moderator(hashes[0]) and not room.is_host(hashes[1])
    with pytest.raises(Refusal):
        await room.act(hashes[1], Foul(3, 1))


async def test_a_player_takes_a_gone_moderators_controls_without_the_roles(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await uk_moderated(takeover=True)
    room.client_disconnected(hashes[0])
    clock = Clock(rooms.registry)
    await gone_for(clock, fake_time, 31)
    assert room.is_moderator(hashes[1]) and not room.is_moderator(hashes[0])
    assert "moderator's controls" in room.notices.texts(lambda text: text)[-1]
    await room.act(hashes[1], Foul(3, 1))
    assert room.state is not None and room.state.fouls == {3: 1.0}
    with pytest.raises(Refusal):
        await room.act(hashes[2], Foul(3, 1))
    projection = room.projection(hashes[1])
    assert projection is not None and projection.viewer_kind == "seat" and projection.viewer_seat == 1
    assert len(projection.view.get("roles", {})) < 12  # the moderator's projection names all twelve roles
    assert room.viewer(hashes[0]).kind == "spectator"  # the old moderator, back, watches


async def test_the_new_host_gets_the_clock_buttons_on_his_phone(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, users = await start_game(create_user, 4)
    host_hash = room.seating[0].token_hash
    await wait_for(lambda: node(users[0], "pause") is not None)
    assert node(users[1], "pause") is None
    while room.is_connected(host_hash):  # the host's phone is gone (its pages' sockets closed)
        room.client_disconnected(host_hash)
    clock = Clock(rooms.registry)
    await gone_for(clock, fake_time, 31)
    assert room.is_host(room.seating[1].token_hash)
    await wait_for(lambda: node(users[1], "pause") is not None)
    await wait_for(lambda: "P1's phone was gone, so P2 is the host now." in texts(users[2]))
    tap(users[1], "pause")
    await wait_for(lambda: room.paused)

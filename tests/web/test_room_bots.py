"""Bots at a room's table: the host seats them, they play through ``Room.act`` on the game clock, from their
own seat's projection, and they go on after a restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.seat_bots import decide
from engine.state import Phase
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.bots import THINKING_SECONDS
from webgame.room.clock import Clock
from webgame.room.rooms import Room, Stage
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime


async def room_with_bots(rules: str, bots: int, language: str = "en") -> tuple[Room, str]:
    token = store.new_seat_token()
    room = await rooms.registry.create(token=token, name="Human", rules=rules, language=language)
    host = store.hash_token(token)
    for _ in range(bots):
        await room.add_bot(host)
    room.bots.rng = random.Random(7)
    return room, host


async def play_out(room: Room, human: str, time: FakeTime, limit: int = 20_000) -> int:
    """The clock every half second; the human answers his own screen through ``Room.act``; how many ticks."""
    clock, rng = Clock(rooms.registry), random.Random(3)
    for ticks in range(limit):
        if room.stage is not Stage.PLAYING:
            return ticks
        projection = room.projection(human)
        action = decide(projection.view, rng) if projection is not None else None
        if action is not None:
            await room.act(human, action)
        time.advance(0.5)
        await clock.tick()
    raise AssertionError("the game did not end")


async def test_the_host_adds_and_removes_bots(db: Path, fake_time: FakeTime) -> None:
    room, host = await room_with_bots("uz", 0, language="uk")
    guest = store.new_seat_token()
    await room.join(guest, "Guest")
    with pytest.raises(Refusal):
        await room.add_bot(store.hash_token(guest))
    await room.add_bot(host)
    await room.add_bot(host)
    bots = [seat for seat in room.seats if seat.is_bot]
    assert len(bots) == 2 and len({seat.name for seat in bots}) == 2
    assert all(seat.name[0] in "АБВГДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЮЯ" for seat in bots)  # the room's language
    assert not any(seat.is_bot for seat in room.seats if seat.name in ("Human", "Guest"))
    with pytest.raises(Refusal):
        await room.add_bot(host, "genius")
    with pytest.raises(Refusal):
        await room.make_host(host, bots[0].id)
    assert room.host_hash == host
    await room.add_bot(host, "strong")
    assert [seat.bot_level for seat in room.seats if seat.is_bot] == ["simple", "simple", "strong"]
    await room.remove_bot(host)
    await room.remove_bot(host)
    assert [seat.is_bot for seat in room.seats] == [False, False, True]
    await room.remove_bot(host)
    with pytest.raises(Refusal):
        await room.remove_bot(host)
    assert len(room.seats) == 2


async def test_bots_fill_the_table_up_to_its_limit(db: Path, fake_time: FakeTime) -> None:
    room, host = await room_with_bots("uk", 11)
    assert len(room.players()) == 12
    with pytest.raises(Refusal) as refused:
        await room.add_bot(host)
    assert refused.value.params == {"count": 12}
    assert len(room.seats) == 12


async def test_one_human_and_eleven_bots_play_uk_to_the_end(db: Path, fake_time: FakeTime) -> None:
    room, host = await room_with_bots("uk", 11)
    await room.start(host)
    assert room.state is not None and room.state.n == 12
    await play_out(room, host, fake_time)
    assert room.stage is Stage.FINISHED and room.state.phase is Phase.ENDED and room.state.winner
    kinds = {action.kind for action in room.state.log}
    assert {"night_act", "vote", "end_speech"} <= kinds  # the bots played, not only the clock


async def test_one_human_and_three_bots_play_uz_to_the_end(db: Path, fake_time: FakeTime) -> None:
    room, host = await room_with_bots("uz", 3)
    await room.start(host)
    await play_out(room, host, fake_time)
    assert room.state is not None and room.state.phase is Phase.ENDED


async def test_bots_wait_like_people_but_not_for_nobody(db: Path, fake_time: FakeTime) -> None:
    """While the human has not chosen, no bot acts before a human-like delay; once he is done, the bots end
    the step within a couple of seconds, long before its deadline."""
    room, host = await room_with_bots("uz", 3)
    await room.start(host)
    assert room.state is not None and room.deadline is not None
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(THINKING_SECONDS[0] - 0.1)
    await clock.tick()
    assert room.state.log == []
    await room.act(host, decide(room.projection(host).view, random.Random(1)))  # type: ignore[union-attr,arg-type]
    for _ in range(5):
        fake_time.advance(0.5)
        await clock.tick()
    assert room.state.phase is not Phase.NIGHT and room.state.day == 1


async def test_bots_play_the_next_game_after_one_without_them(db: Path, fake_time: FakeTime) -> None:
    """The clock's look at a room's bots is remembered for a game (``Bots.has_bots``): a table whose first game had
    none plays its next one with the bots the host seated in between, and they act."""
    room, host = await room_with_bots("uz", 0)
    humans = [host]
    for name in ("Guest A", "Guest B", "Guest C"):
        token = store.new_seat_token()
        await room.join(token, name)
        humans.append(store.hash_token(token))
    clock, rng = Clock(rooms.registry), random.Random(5)

    async def play_out_all() -> None:
        for _ in range(20_000):
            if room.stage is not Stage.PLAYING:
                return
            for human in humans:
                projection = room.projection(human)
                action = decide(projection.view, rng) if projection is not None else None
                if action is not None and room.stage is Stage.PLAYING:
                    await room.act(human, action)
            fake_time.advance(0.5)
            await clock.tick()
        raise AssertionError("the game did not end")

    await room.start(host)
    await play_out_all()  # the clock looked at this game's bots at every tick: none
    assert room.stage is Stage.FINISHED and not room.bots.bot_hashes()
    await room.play_again(host)
    for _ in range(3):
        await room.add_bot(host)
    await room.start(host)
    assert room.state is not None and room.state.n == 7
    bot_seats = {number for number, seat in enumerate(room.seating, 1) if seat.is_bot}
    assert len(bot_seats) == 3 and len(room.bots.bot_hashes()) == 3
    await play_out_all()
    assert room.stage is Stage.FINISHED
    assert any(getattr(action, "seat", None) in bot_seats for action in room.state.log)  # the bots played


async def test_bots_go_on_after_a_restart(isolated_data: Path) -> None:
    time = FakeTime()
    config = tortoise_config()
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, host = await room_with_bots("uk", 10)
            await room.add_bot(host, "strong")
            await room.start(host)
            clock = Clock(rooms.registry)
            for _ in range(300):  # the human sleeps: his speech runs out, then the bots play their part
                time.advance(0.5)
                await clock.tick()
            assert room.stage is Stage.PLAYING and room.state is not None
            assert any(action.kind != "deadline" for action in room.state.log)
            code, logged = room.code, len(room.state.log)
        finally:
            rooms.registry.clear()
    async with open_database(config):
        try:
            restored = await rooms.registry.find(code)
            assert restored is not None and restored.state is not None
            assert len(restored.state.log) == logged
            assert sum(seat.is_bot for seat in restored.seating) == 11
            assert [seat.bot_level for seat in restored.seating][-1] == "strong"  # the host's pick is kept
            await play_out(restored, host, time)
            assert restored.state.phase is Phase.ENDED
        finally:
            rooms.registry.clear()
            rooms.registry.now = __import__("time").time


async def test_a_bot_decides_only_from_its_own_seat_view(db: Path, fake_time: FakeTime,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Secrecy: what a bot's brain is given is its own seat's view (never the moderator's or the state), so
    a town bot knows one role, its own; a mafia bot its team; and every action goes through ``Room.act``."""
    from engine.knowledge import Viewer
    from engine.view import view
    from webgame.room import bots as room_bots

    room, host = await room_with_bots("uk", 11)
    await room.start(host)
    assert room.state is not None
    given: list[tuple[dict[str, object], dict[str, object]]] = []
    real = room_bots.decide

    def recording(shown: dict[str, object], rng: random.Random, level: str = "simple") -> object:
        assert room.state is not None
        seat = shown["me"]["seat"]  # type: ignore[index]
        given.append((shown, view(room.state, Viewer.of_seat(seat))))
        return real(shown, rng, level)

    acts: list[str | None] = []
    real_act = room.act

    async def door(token_hash: str | None, action: object) -> None:
        acts.append(token_hash)
        await real_act(token_hash, action)  # type: ignore[arg-type]

    monkeypatch.setattr(room_bots, "decide", recording)
    monkeypatch.setattr(room, "act", door)
    await play_out(room, host, fake_time)
    assert len(given) > 50
    bot_hashes = {seat.token_hash for seat in room.seating if seat.is_bot}
    assert {h for h in acts if h != host} <= bot_hashes and len(set(acts) - {host}) > 5
    for shown, own in given:
        assert shown == own
        roles = shown["roles"]
        assert isinstance(roles, dict) and (len(roles) == 1 or set(shown["teams"].values()) == {"black"})  # type: ignore[attr-defined]

"""The best move on the phones and the TV (issue 30, uk, option ``best_move``): the player killed on the first night
taps up to three names on his phone during the last words of day 2 and confirms; every phone and the TV show it at
once; nobody else gets the grid, and it is made once."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from nicegui.testing import User

from engine import best_move
from engine.actions import NightAct
from engine.options import UK_OPTIONS
from webgame.language.i18n import translator
from webgame.room import rooms
from webgame.room.rooms import Room, Stage

from .conftest import FakeTime
from .helpers import click_when_enabled, create_room, has, join, screen_with, settle, tap, wait_for
from .test_room_bots import play_out, room_with_bots

MAFIA_TEAM = ("don", "mafia")
# The deals of the bots' games (the bots' own draws seeded by the game's place in this list): black wins at the first
# dawn (day 1 voted out two red, night 1 kills two more: its dead bot never sees day 2); the person and a bot killed
# on night 1; two bots killed on night 1. A deal drawn at random ended at the first dawn about one game in 85.
BOT_DEALS = (10, 1, 4)


async def uk_room_with_best_move(create_user: Callable[[], User]) -> tuple[Room, list[User], str]:
    users = [create_user() for _ in range(12)]
    room = await create_room(users[0], "P1", "uk")
    for number, phone in enumerate(users[1:], 2):
        await join(phone, room, f"P{number}")
    host = room.host_hash
    assert host is not None
    await room.set_option(host, "best_move", True)
    if any(spec.name == "result_hold" for spec in UK_OPTIONS):  # the day's result held on the screens: not here
        await room.set_option(host, "result_hold", 0)
    await click_when_enabled(users[0], "start")
    await wait_for(lambda: room.state is not None)
    return room, users, host


async def to_the_first_night_kill(room: Room, host: str) -> int:
    """Day 1 skipped speech by speech; night 1: the mafia kills the first town player it may, everyone else
    passes. Returns the seat killed (day 2 opens on his last words)."""
    state = room.state
    assert state is not None
    for _ in range(40):
        if str(state.phase) == "night":
            break
        await room.skip(host, state.step)
    hashes = {seat: info.token_hash for seat, info in enumerate(room.seating, 1)}
    victim = 0
    for seat in range(1, 13):
        projection = room.projection(hashes[seat])
        assert projection is not None
        acts = [a for a in projection.view.get("actions", []) if a.get("type") == "night_act"]
        kill = next((a for a in acts if a.get("act") == "kill"), None)
        if kill is not None and not victim:
            roles = projection.view.get("roles", {})
            victim = next(int(t) for t in kill["targets"] if str(roles.get(str(t), "")) not in MAFIA_TEAM)
            await room.act(hashes[seat], NightAct(seat, "kill", victim))
        elif acts:
            await room.act(hashes[seat], NightAct(seat, "pass"))
    await wait_for(lambda: str(state.phase) == "last_words" and state.day == 2)
    assert victim and not state.is_alive(victim)
    return victim


async def test_the_first_nights_dead_makes_his_best_move_on_his_phone_and_everyone_sees_it(
        create_user: Callable[[], User]) -> None:
    room, users, host = await uk_room_with_best_move(create_user)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    victim = await to_the_first_night_kill(room, host)
    names = [info.name for info in room.seating]
    phone = users[int(names[victim - 1].removeprefix("P")) - 1]
    others = [user for user in users if user is not phone]
    await settle(*users)
    await phone.should_see(marker="best-move-ask")
    assert not any(has(user, "best-move-ask") or has(user, f"best-{victim % 12 + 1}") for user in others)
    assert not has(phone, f"best-{victim}")  # never himself
    picks = [seat for seat in range(1, 13) if seat != victim][:4]
    for seat in picks[:3]:
        tap(phone, f"best-{seat}")
        await settle(phone)
    assert screen_with(phone, f"best-{picks[3]}") is None  # three at most: the others wait, disabled
    assert screen_with(phone, f"best-{picks[0]}") is not None  # a name tapped again is taken back
    await phone.should_see(marker="best-chosen")
    await click_when_enabled(phone, "best-confirm")
    state = room.state
    assert state is not None
    await wait_for(lambda: any(e.type == "best_move" for e in state.events))
    made = next(e for e in state.events if e.type == "best_move")
    assert made.params == {"seat": victim, "targets": picks[:3]}
    label = "{}. {}".format
    named = translator("en").join(label(s, names[s - 1]) for s in picks[:3])  # "2. P2, 3. P3, and 4. P4"
    line = f"Best move of {label(victim, names[victim - 1])}: {named}."

    for user in users:  # on the day's panel and in the news
        await user.should_see(marker="best-move", content=line)
        await user.should_see(marker="news", content=line)
    await tv.should_see(marker="tv-best-move", content=line)
    await settle(phone)
    assert not has(phone, "best-move-ask")  # once


async def test_bots_killed_on_the_first_night_make_their_best_move_through_the_room(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    """One person and eleven bots (uk, best move on): each bot killed on the first night makes its best move on the
    game clock, through the room's door, before day 2's speeches; the game goes on to its end. A game won at the
    first dawn has no day 2, so no last words and no best move (RULES.md: it is made while those last words last)."""
    made = 0
    for attempt, seed in enumerate(BOT_DEALS):
        monkeypatch.setattr(rooms.secrets, "randbelow", lambda _n, seed=seed: seed)  # this game's deal
        room, human = await room_with_bots("uk", 11)
        room.bots.rng = random.Random(attempt)
        await room.set_option(human, "best_move", True)
        await room.start(human)
        await play_out(room, human, fake_time)
        state = room.state
        assert state is not None and room.stage is Stage.FINISHED
        human_seat = next(seat for seat, info in enumerate(room.seating, 1) if info.token_hash == human)
        dead = [seat for seat in best_move.first_night_dead(state) if seat != human_seat]
        moves = best_move.named(state)
        if any(event.day == 2 for event in state.events):
            assert all(seat in moves for seat in dead)  # every bot among them made it
            made += len(dead)
        else:  # over at the first dawn: nobody had the last words of day 2
            assert state.winner is not None and not moves
    assert made >= 1

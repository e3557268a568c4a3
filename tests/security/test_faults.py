"""Faults: a server killed at any moment, a database that fails, many votes arriving at the deadline.

- In-process kills: 20 bot games of both rule sets; at random points the process "dies" (the room registry
  is dropped and the database closed, sometimes in the middle of an action, whose task is cancelled at a
  random await), then "starts again" (database reopened, rooms restored from it as ``python -m webgame``
  does). Every action the room had accepted must be in the restored game, an action in flight may have
  counted or not but never half, and every game is played on to its end.
- A real SIGKILL: a child process (tests/security/crash_child.py: the same rooms, store and SQLite code,
  without the web) plays a game and is killed with SIGKILL at random points, then started again until the
  game ends; every action it reported accepted is in the database. (The full server, ``python -m webgame``
  with phones, is SIGKILLed mid-night by e2e/test_screen_and_reconnects.py::
  test_every_phone_comes_back_after_the_server_is_killed.)
- A database that fails (locked, disk full, a write that lands but reports an error, a real lock held by
  another connection): the player gets a clear, translated refusal, and the room's game equals what the
  database holds.
- Votes and the clock's deadline at once: one consistent tally, each voter counted at most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from nicegui.testing import User

from engine import actions as engine_actions
from engine.actions import Action, Deadline, NightAct, Ready, Vote
from engine.bots import Heuristic, Memory, Policy, next_actions
from engine.errors import RuleError
from engine.game import replay
from engine.state import Phase
from webgame.errors import Refusal
from webgame.language.i18n import translator
from webgame.room import rooms
from webgame.room.rooms import Room, refusal_text
from webgame.store import db as webdb, queries as store

from ..web.helpers import tap
from .conftest import FakeTime
from .stats import STATS

ROOT = Path(__file__).resolve().parents[2]
NOT_SAVED = "The game could not be saved, so your action did not count. Please try again."


class Process:
    """The database open, rooms restored: one life of a server process."""

    def __init__(self) -> None:
        self._database: contextlib.AbstractAsyncContextManager[None] | None = None

    async def start(self) -> None:
        self._database = webdb.open_database(webdb.tortoise_config())
        await self._database.__aenter__()
        await rooms.registry.restore_all()

    async def die(self) -> None:
        rooms.registry.clear()
        assert self._database is not None
        await self._database.__aexit__(None, None, None)
        self._database = None


@contextlib.asynccontextmanager
async def server() -> AsyncIterator[Process]:
    process = Process()
    await process.start()
    try:
        yield process
    finally:
        if process._database is not None:
            await process.die()


async def logged(room: Room) -> list[Action]:
    assert room.game_id is not None
    return [engine_actions.from_dict(payload) for payload in await store.load_actions(room.game_id)]


async def same_as_database(room: Room) -> None:
    """The room's game is exactly the game its database log replays to."""
    assert room.state is not None
    log = await logged(room)
    assert room.state.log == log
    state = room.state
    again = replay(state.rules, state.n, state.seed, state.options, log)
    assert (again.roles, again.alive, again.phase, again.step, again.day, again.winner) == (
        state.roles, state.alive, state.phase, state.step, state.day, state.winner)


async def new_room(rules: str, players: int, seed: int, moderated: bool = False) -> tuple[Room, list[str]]:
    tokens = [f"token-{seed}-{index}-{random.random()}" for index in range(players + (1 if moderated else 0))]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules=rules, language="en")
    host = store.hash_token(tokens[0])
    if rules == "uk":
        await room.set_player_limits(host, 8, 14)
    if moderated:
        await room.set_moderated(host, True)
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    randbelow = rooms.secrets.randbelow
    rooms.secrets.randbelow = lambda _n: seed  # the deal of this seed (the module's own, put back below)
    try:
        await room.start(host)
    finally:
        rooms.secrets.randbelow = randbelow
    return room, [store.hash_token(token) for token in tokens]


def next_moves(room: Room, bot: Policy, memory: Memory) -> list[Action]:
    assert room.state is not None
    memory.update(room.state)
    moves = list(next_actions(room.state, bot))
    return moves or [Deadline(room.state.step)]


async def perform(room: Room, action: Action) -> None:
    if isinstance(action, Deadline):
        await room.expire(action.step, room.deadline or room.now())
    else:
        await room.act(room.seating[action.seat - 1].token_hash, action)


@pytest.mark.slow
async def test_kills_at_random_points_of_twenty_games(isolated_data: Path, fake_time: FakeTime) -> None:
    rng = random.Random(6)
    kills = mid_action = 0
    async with server() as process:
        for game in range(20):
            rules = "uz" if game % 2 == 0 else "uk"
            players = rng.randint(4, 11) if rules == "uz" else rng.randint(8, 10)
            room, _hashes = await new_room(rules, players, 1000 + game)
            code = room.code
            memory = Memory()
            bot = (Heuristic if game % 3 else Policy)(rng, memory)
            accepted: list[Action] = []
            guard = 0
            while room.stage is rooms.Stage.PLAYING and guard < 2000:
                guard += 1
                assert room.state is not None
                action = next_moves(room, bot, memory)[0]
                step = room.state.step
                if rng.random() < 0.06:  # the process dies in the middle of this action
                    task = asyncio.create_task(perform(room, action))
                    for _ in range(rng.randint(0, 6)):
                        await asyncio.sleep(0)
                    task.cancel()
                    finished = False
                    with contextlib.suppress(asyncio.CancelledError, RuleError, Refusal):
                        await task
                        finished = True
                    await process.die()
                    await process.start()
                    kills += 1
                    mid_action += 1
                    room = _restored(code)
                    log = await logged(room)
                    assert log[:len(accepted)] == accepted, "an accepted action was lost"
                    assert len(log) in (len(accepted), len(accepted) + 1), "more than the action in flight"
                    if finished:
                        assert len(log) == len(accepted) + 1
                    accepted = log
                    await same_as_database(room)
                    continue
                try:
                    await perform(room, action)
                except (RuleError, Refusal):
                    if room.state is not None and room.state.step == step:
                        await perform(room, Deadline(step))
                assert room.state is not None
                accepted = list(room.state.log)
                if rng.random() < 0.08:  # the process dies between two actions
                    deadline = room.deadline
                    await process.die()
                    await process.start()
                    kills += 1
                    room = _restored(code) if room.stage is rooms.Stage.PLAYING else room
                    if room.stage is rooms.Stage.PLAYING:
                        assert await logged(room) == accepted and room.state is not None
                        assert room.state.log == accepted and room.deadline == deadline
            assert room.stage is rooms.Stage.FINISHED, f"game {game} did not finish"
            assert room.state is not None and room.state.phase is Phase.ENDED
            await same_as_database(room)
            STATS.add("fault games played", 1)
    STATS.add("kills survived (in process)", kills)
    STATS.add("kills in the middle of an action", mid_action)
    assert kills >= 20


def _restored(code: str) -> Room:
    room = rooms.registry.get(code)
    assert room is not None, "the room was not restored"
    return room


KILLS = 12  # SIGKILLs of the game's process, each after 2-12 accepted actions


@pytest.mark.slow
async def test_a_sigkilled_process_keeps_every_accepted_action(isolated_data: Path) -> None:
    rng = random.Random(11)
    env = {**os.environ, "MAFIA_DATA_DIR": str(isolated_data), "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_CURRENT_TEST", None)
    accepted: dict[int, dict[str, Any]] = {}
    kills = 0
    ended = False
    # KILLS kills, then a child that plays the game to its end: how many actions a game takes depends on where the
    # kills fell (the restarted bots play on differently), and twelve kills of 2-12 actions could end before it did.
    while not ended:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.security.crash_child", "7", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert child.stdin is not None and child.stdout is not None
        target = rng.randint(2, 12) if kills < KILLS else None
        seen = 0
        while True:
            line = (await asyncio.wait_for(child.stdout.readline(), timeout=60)).decode()
            if not line or line.startswith("ended"):
                ended = True
                break
            _, index, payload = line.split(" ", 2)
            accepted[int(index)] = json.loads(payload)
            seen += 1
            child.stdin.write(b"\n")  # go on: the child waits for it after every action (it ran ahead on a busy
            await child.stdin.drain()  # machine, and a whole game was played between two kills)
            if target is not None and seen >= target:
                child.send_signal(signal.SIGKILL)  # no shutdown handler, no flush, as when the power goes
                kills += 1  # (the child may be in the middle of its next action)
                break
        await child.wait()
        async with webdb.open_database(webdb.tortoise_config()):
            game = await store.latest_game(1)
            assert game is not None
            log = await store.load_actions(game.id)
            for index, payload in accepted.items():
                assert index < len(log) and log[index] == payload, f"accepted action {index} lost"
            state = replay(game.rules, len(game.seating), game.seed, game.options,
                           [engine_actions.from_dict(p) for p in log])
            ended = ended or state.phase is Phase.ENDED
    assert ended, "the game did not finish"
    assert kills >= 2  # the game ended before the kills did, or after all KILLS of them
    STATS.add("kills survived (SIGKILL)", kills)


# ---------------------------------------------------------------- a database that fails


async def test_a_failing_database_refuses_clearly_and_keeps_memory_equal_to_the_log(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    room, hashes = await new_room("uz", 6, 5)
    real_append = store.append_action
    await room.act(room.seating[0].token_hash, NightAct(1, "pass"))

    failures: list[Callable[..., Any]] = []

    async def locked(*_args: Any, **_kwargs: Any) -> None:
        raise sqlite3.OperationalError("database is locked")

    async def disk_full(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    failures += [locked, disk_full]
    for failure in failures:
        monkeypatch.setattr(store, "append_action", failure)
        for seat in (2, 6):  # seat 6's pass would have ended the night had seats 2-5 passed
            with pytest.raises(Refusal) as refused:
                await room.act(room.seating[seat - 1].token_hash, NightAct(seat, "pass"))
            assert refused.value.msgid == NOT_SAVED
            assert refusal_text(refused.value, translator("ru").gettext) == (
                "Не удалось сохранить игру, поэтому ваше действие не засчитано. Попробуйте ещё раз.")
            await same_as_database(room)
            assert room.state is not None and len(room.state.log) == 1
            STATS.add("database failures refused", 1)

    async def lands_then_fails(*args: Any, **kwargs: Any) -> None:
        await real_append(*args, **kwargs)
        raise OSError("the connection dropped after the commit")

    monkeypatch.setattr(store, "append_action", lands_then_fails)
    await room.act(room.seating[1].token_hash, NightAct(2, "pass"))  # it counted: no refusal
    await same_as_database(room)
    assert room.state is not None and len(room.state.log) == 2

    async def chat_fails(*_args: Any, **_kwargs: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "append_action", real_append)
    monkeypatch.setattr(store, "append_chat", chat_fails)
    mafia = next(s for s in range(1, 7) if str(room.state.roles[s - 1]) in ("mafia", "don"))
    with pytest.raises(Refusal) as refused:
        await room.say(room.seating[mafia - 1].token_hash, "mafia", "psst")
    assert refused.value.msgid == "The message could not be saved. Please try again." and room.chat == []
    del hashes


async def test_a_database_locked_by_another_process(isolated_data: Path, fake_time: FakeTime,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(webdb.SQLITE_PRAGMAS, "busy_timeout", 150)
    async with server():
        room, _hashes = await new_room("uz", 5, 9)
        other = sqlite3.connect(isolated_data / webdb.SQLITE_FILE_NAME, timeout=0.1)
        other.execute("BEGIN EXCLUSIVE")  # e.g. a backup tool or a second server on the same file
        try:
            with pytest.raises(Refusal) as refused:
                await room.act(room.seating[0].token_hash, NightAct(1, "pass"))
            assert refused.value.msgid == NOT_SAVED
        finally:
            other.rollback()
            other.close()
        await same_as_database(room)
        await room.act(room.seating[0].token_hash, NightAct(1, "pass"))  # the lock gone, it works again
        await same_as_database(room)
        assert room.state is not None and len(room.state.log) == 1
    STATS.add("database failures refused", 1)


async def test_the_phone_says_why_in_its_language(create_user: Callable[[], User], fake_time: FakeTime,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    from .table import Table, drain

    table = await Table.seat(create_user, "uz", 5, 3, languages=("uk",), host_language="uk")

    async def full(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "append_action", full)
    phone = table.phones[1]
    tap(phone.user, "pass")
    await drain()
    await phone.user.should_see("Не вдалося зберегти гру, тому ваша дія не врахована. Спробуйте ще раз.")
    await same_as_database(table.room)
    assert "an action could not be saved" in caplog.text  # logged for the operator, as it should be
    caplog.clear()  # (the simulated-user fixture fails a test on any ERROR log)


# ---------------------------------------------------------------- votes at the deadline


@pytest.mark.parametrize("seed", range(8))
async def test_many_votes_and_the_deadline_at_once(db: Path, fake_time: FakeTime, seed: int) -> None:
    rng = random.Random(seed)
    room, _hashes = await new_room("uz", 12, 300 + seed)
    assert room.state is not None
    await room.skip(room.host_hash, room.state.step)  # night: nobody acts
    assert room.state.phase is Phase.DISCUSSION
    for seat in room.state.living():
        await room.act(room.seating[seat - 1].token_hash, Ready(seat))
    assert room.state.phase is Phase.VOTE
    step = room.state.step
    living = room.state.living()
    calls = []
    for voter in living:
        target = rng.choice([s for s in living if s != voter] + [None])
        calls.append(room.act(room.seating[voter - 1].token_hash, Vote(voter, target)))
        if rng.random() < 0.3:  # a double tap
            calls.append(room.act(room.seating[voter - 1].token_hash, Vote(voter, target)))
    fake_time.advance(room.remaining() or 0)
    calls.insert(rng.randrange(len(calls) + 1), room.expire(step, fake_time.value))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert all(o is None or o is True or o is False or isinstance(o, RuleError | Refusal) for o in outcomes), outcomes
    state = room.state
    assert state is not None
    votes = [a for a in state.log if isinstance(a, Vote)]
    assert len({v.seat for v in votes}) == len(votes), "a voter was counted twice"
    results = [e for e in state.events if e.type == "vote_result"]
    assert len(results) == 1, "the vote was closed more than once"
    tally = {int(voter): target for voter, target in results[0].params["votes"].items()}
    assert tally == {v.seat: v.target for v in votes}, "the tally and the log disagree"
    await same_as_database(room)
    STATS.add("concurrent votes fired", len(calls))

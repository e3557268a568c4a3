"""The persistence layer against a real SQLite file per test (migrated the way production migrates)."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from tortoise import timezone
from tortoise.context import TortoiseContext
from tortoise.migrations.autodetector import MigrationAutodetector

from tests.conftest import Environment
from webgame.framework import sqlite_thread
from webgame.store import queries as store, sqlite_log, tokens
from webgame.store.db import SQLITE_PRAGMAS, apply_migrations, open_database, register_database, tortoise_config
from webgame.store.models import ActionRecord, Room, RoomStatus, Seat

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "webgame" / "store" / "migrations"


def sqlite_config(path: Path) -> dict[str, Any]:
    return tortoise_config(f"sqlite://{path}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mafia.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Path]:
    async with open_database(sqlite_config(db_path)):
        yield db_path


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def new_game(room: store.RoomRecord, players: int = 3) -> store.GameRecord:
    seats = [await store.add_seat(room.id, token=store.new_seat_token(), name=f"P{i}") for i in range(players)]
    seating = [{"seat_id": seat.id, "name": seat.name} for seat in seats]
    return await store.start_game(room.id, rules=room.rules, seed=12345, seating=seating, options={"x": 1})


# ---------------------------------------------------------------- rooms and seats


async def test_create_room_then_find_it_by_code(db: Path) -> None:
    room = await store.create_room(rules="uz", language="uz", timers={"night": 20}, moderated=True)

    assert len(room.code) == tokens.CODE_LENGTH
    assert set(room.code) <= set(tokens.CODE_ALPHABET)
    assert room.status is RoomStatus.LOBBY
    assert (room.rules, room.language, room.timers, room.moderated, room.version) == (
        "uz",
        "uz",
        {"night": 20},
        True,
        0,
    )
    typed = f"  {room.code[:2].lower()} {room.code[2:]} "
    assert await store.get_room_by_code(typed) == room
    assert await store.get_room_by_code("ZZZZZZ") is None


async def test_room_codes_are_unique(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rooms = [await store.create_room(rules="uk") for _ in range(50)]
    assert len({room.code for room in rooms}) == 50

    with pytest.raises(store.RoomCodeTaken):
        await store.create_room(rules="uk", code=rooms[0].code)

    # A generated code that collides is drawn again.
    draws = iter([rooms[0].code, rooms[1].code, "NEW22"])
    monkeypatch.setattr(store, "new_room_code", lambda: next(draws))
    assert (await store.create_room(rules="uk")).code == "NEW22"


async def test_seats_keep_only_the_token_hash(db: Path) -> None:
    room = await store.create_room(rules="uz")
    host_token, guest_token = store.new_seat_token(), store.new_seat_token()
    host = await store.add_seat(room.id, token=host_token, name="Aziz", is_host=True)
    guest = await store.add_seat(room.id, token=guest_token, name="Olena")

    assert (host.position, guest.position) == (0, 1)
    assert len(host_token) >= 22  # at least 128 bits in URL-safe base64
    assert await store.get_seat_by_token(guest_token) == guest
    assert await store.get_seat_by_token("not a token") is None
    assert (await store.get_room(room.id)).host_token_hash == store.hash_token(host_token)
    assert (await store.get_room(room.id)).version == 2
    assert await Seat.filter(token_hash=host_token).count() == 0

    with pytest.raises(store.SeatTokenTaken):
        await store.add_seat(room.id, token=guest_token, name="Olena again")

    await store.leave_seat(guest.id)
    assert [seat.name for seat in await store.list_seats(room.id)] == ["Aziz"]
    assert [seat.left for seat in await store.list_seats(room.id, include_left=True)] == [False, True]


async def test_no_token_is_written_to_disk(tmp_path: Path) -> None:
    path = tmp_path / "mafia.sqlite3"
    token = store.new_seat_token()
    async with open_database(sqlite_config(path)):
        room = await store.create_room(rules="uz")
        await store.add_seat(room.id, token=token, name="Aziz", is_host=True)
    on_disk = b"".join(file.read_bytes() for file in tmp_path.iterdir() if file.is_file())
    assert store.hash_token(token).encode() in on_disk
    assert token.encode() not in on_disk


# ---------------------------------------------------------------- games and the action log


async def test_start_game_numbers_games_and_marks_the_room_playing(db: Path) -> None:
    room = await store.create_room(rules="uz")
    first = await new_game(room)
    assert (first.number, first.seed, first.step, first.options) == (1, 12345, 0, {"x": 1})
    assert [entry["name"] for entry in first.seating] == ["P0", "P1", "P2"]
    assert (await store.get_room(room.id)).status is RoomStatus.PLAYING

    await store.finish_game(first.id, winner="town", room_status=RoomStatus.LOBBY)
    second = await store.start_game(room.id, rules="uz", seed=7, seating=first.seating)
    assert second.number == 2
    assert await store.latest_game(room.id) == second


@pytest.fixture(params=["one trip", "orm"])
def log_writer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of writing the action log keep its contract: SQLite's one trip to the database thread
    (``webgame.store.sqlite_log``) and the ORM's transaction (PostgreSQL's way)."""
    if request.param == "orm":
        monkeypatch.setattr(sqlite_log, "client", lambda: None)
    return str(request.param)


async def test_the_sqlite_log_takes_one_trip_and_reads_back_through_the_orm(db: Path) -> None:
    assert sqlite_log.client() is not None  # the app's default database takes the short way
    game = await new_game(await store.create_room(rules="uz"))
    await store.append_action(game.id, 0, {"type": "vote", "seat": 1, "target": None, "text": "ш\"'"})
    record = await ActionRecord.get(game_id=game.id, index=0)
    assert record.payload == {"type": "vote", "seat": 1, "target": None, "text": "ш\"'"}
    assert record.created_at.tzinfo is not None and abs(record.created_at - timezone.now()).total_seconds() < 60


async def test_the_log_is_written_on_the_loops_thread_and_leaves_the_clients_settings(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No trip to the database thread for an append or a clock (issue 32), and the ORM's own statements find the
    busy timeout and the automatic checkpoint the app opened them with."""
    trips: list[Any] = []
    on_thread = sqlite_thread.run_on_thread

    async def counted(connection: Any, function: Any, *args: Any) -> Any:
        trips.append(function)
        return await on_thread(connection, function, *args)

    monkeypatch.setattr(sqlite_thread, "run_on_thread", counted)
    client = sqlite_log.client()
    assert client is not None
    autocheckpoint = (await client.execute_query("PRAGMA wal_autocheckpoint"))[1][0][0]
    game = await new_game(await store.create_room(rules="uz"))
    others: list[str] = []
    asyncio.get_running_loop().call_soon(others.append, "another room's tap")
    await store.append_action(game.id, 0, {"type": "vote", "seat": 1})
    assert others == ["another room's tap"]  # the write gives the loop a turn, as the trip did (docs/PERFORMANCE.md)
    await store.set_deadline(game.id, deadline_at=1234.5)

    assert trips == []
    assert await store.load_actions(game.id) == [{"type": "vote", "seat": 1}]
    assert (await store.get_game(game.id)).deadline_at == 1234.5
    assert (await client.execute_query("PRAGMA busy_timeout"))[1][0][0] == SQLITE_PRAGMAS["busy_timeout"]
    assert (await client.execute_query("PRAGMA wal_autocheckpoint"))[1][0][0] == autocheckpoint > 0


async def test_a_write_lock_held_elsewhere_sends_the_write_to_the_thread_and_the_loop_goes_on(db: Path) -> None:
    """Another process writing (here a second connection holding the write lock): the append waits on the database
    thread, not on the event loop, and is written once the lock is free."""
    game = await new_game(await store.create_room(rules="uz"))
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    append = asyncio.create_task(store.append_action(game.id, 0, {"type": "first"}))
    gaps: list[float] = []
    loop = asyncio.get_running_loop()
    for _ in range(6):
        before = loop.time()
        await asyncio.sleep(0.05)
        gaps.append(loop.time() - before)
    assert not append.done()  # waiting for the lock ...
    assert max(gaps) < 0.25  # ... without holding the loop
    other.execute("COMMIT")
    other.close()
    await asyncio.wait_for(append, 5)

    assert await store.load_actions(game.id) == [{"type": "first"}]
    assert (await store.get_game(game.id)).step == 1


async def test_the_loops_writes_are_checkpointed_on_the_database_thread(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_log, "CHECKPOINT_EVERY", 3)
    threads: list[int] = []
    checkpoint = sqlite_thread.checkpoint

    def noted(raw: sqlite3.Connection) -> None:
        threads.append(threading.get_ident())
        checkpoint(raw)

    monkeypatch.setattr(sqlite_thread, "checkpoint", noted)
    game = await new_game(await store.create_room(rules="uz"))
    for index in range(6):
        await store.append_action(game.id, index, {"n": index})
    await asyncio.gather(*list(sqlite_log._checkpoints))  # noqa: SLF001 (the one under way, if any)

    assert len(threads) == 2 and threading.get_ident() not in threads  # after the 3rd and the 6th, not on the loop
    assert await store.load_actions(game.id) == [{"n": index} for index in range(6)]


async def test_actions_load_in_the_order_they_were_appended(db: Path, log_writer: str) -> None:
    game = await new_game(await store.create_room(rules="uz"))
    payloads = [{"type": "vote", "seat": i % 3, "target": (i + 1) % 3, "n": i} for i in range(25)]
    for index, payload in enumerate(payloads):
        await store.append_action(game.id, index, payload)

    assert await store.load_actions(game.id) == payloads
    assert (await store.get_game(game.id)).step == 25


async def test_a_duplicate_or_skipped_index_is_refused_and_writes_nothing(db: Path, log_writer: str) -> None:
    game = await new_game(await store.create_room(rules="uk"))
    await store.append_action(game.id, 0, {"type": "first"})

    with pytest.raises(store.ActionIndexConflict) as duplicate:
        await store.append_action(game.id, 0, {"type": "again"})
    assert duplicate.value.expected == 1
    with pytest.raises(store.ActionIndexConflict):
        await store.append_action(game.id, 5, {"type": "gap"})
    with pytest.raises(store.GameNotFound):
        await store.append_action(game.id + 100, 0, {"type": "nowhere"})

    assert await store.load_actions(game.id) == [{"type": "first"}]
    assert (await store.get_game(game.id)).step == 1


async def test_a_row_written_behind_the_logs_back_is_a_conflict(db: Path, log_writer: str) -> None:
    game = await new_game(await store.create_room(rules="uz"))
    await ActionRecord.create(game_id=game.id, index=0, payload={"type": "sneaked"})  # the step still says 0
    with pytest.raises(store.ActionIndexConflict):
        await store.append_action(game.id, 0, {"type": "first"})
    assert await store.load_actions(game.id) == [{"type": "sneaked"}]
    assert (await store.get_game(game.id)).step == 0  # nothing of the refused write stayed


async def test_concurrent_appends_at_one_index_let_exactly_one_through(db: Path, log_writer: str) -> None:
    game = await new_game(await store.create_room(rules="uz"))
    results = await asyncio.gather(
        *(store.append_action(game.id, 0, {"writer": i}) for i in range(5)), return_exceptions=True
    )
    assert sum(result is None for result in results) == 1
    assert all(isinstance(result, store.ActionIndexConflict) for result in results if result is not None)
    assert len(await store.load_actions(game.id)) == 1


async def test_deadline_and_finish(db: Path) -> None:
    room = await store.create_room(rules="uz")
    game = await new_game(room)
    await store.set_deadline(game.id, deadline_at=1_900_000_000.5)
    assert (await store.get_game(game.id)).deadline_at == 1_900_000_000.5
    await store.set_deadline(game.id, deadline_at=None, paused_remaining=12.25)
    paused = await store.get_game(game.id)
    assert (paused.deadline_at, paused.paused_remaining) == (None, 12.25)
    await store.set_deadline(game.id, deadline_at=1_900_000_090.0, night_left=30.0)  # a night after a held result
    held = await store.get_game(game.id)
    assert (held.deadline_at, held.paused_remaining, held.night_left) == (1_900_000_090.0, None, 30.0)
    with pytest.raises(store.GameNotFound):  # no such game: nothing written anywhere
        await store.set_deadline(game.id + 1000, deadline_at=1.0)

    finished = await store.finish_game(game.id, winner="mafia")
    assert finished.winner == "mafia"
    assert finished.finished_at is not None
    assert (finished.deadline_at, finished.paused_remaining) == (None, None)
    assert (await store.get_room(room.id)).status is RoomStatus.FINISHED
    assert await store.list_active_rooms() == []


# ---------------------------------------------------------------- chat


async def test_chat_lists_the_latest_messages_oldest_first(db: Path) -> None:
    room = await store.create_room(rules="uz")
    game = await new_game(room)
    await store.append_chat(room.id, channel="lobby", seat_position=0, text="hi")
    for i in range(5):
        await store.append_chat(room.id, channel="mafia", seat_position=1, text=f"m{i}", game_id=game.id)

    assert [m.text for m in await store.list_chat(room.id, channel="mafia", limit=3)] == ["m2", "m3", "m4"]
    assert [m.text for m in await store.list_chat(room.id, channel="lobby")] == ["hi"]
    assert len(await store.list_chat(room.id, game_id=game.id)) == 5
    assert len(await store.list_chat(room.id)) == 6


# ---------------------------------------------------------------- durability and migrations


async def test_everything_survives_closing_and_reopening_the_database(db_path: Path) -> None:
    async with open_database(sqlite_config(db_path)):
        room = await store.create_room(rules="uk", options={"note": True})
        game = await new_game(room, players=4)
        for index in range(3):
            await store.append_action(game.id, index, {"n": index})
        await store.set_deadline(game.id, deadline_at=123.0)
        await store.append_chat(room.id, channel="day", seat_position=2, text="I am the doctor")
        finished_room = await store.create_room(rules="uz")
        await store.set_room_status(finished_room.id, RoomStatus.FINISHED)

    async with open_database(sqlite_config(db_path)):
        active = await store.list_active_rooms()
        assert [r.code for r in active] == [room.code]
        assert active[0].status is RoomStatus.PLAYING
        assert active[0].options == {"note": True}
        assert len(await store.list_seats(room.id)) == 4
        restored = await store.latest_game(room.id)
        assert restored is not None
        assert (restored.id, restored.step, restored.deadline_at) == (game.id, 3, 123.0)
        assert await store.load_actions(game.id) == [{"n": 0}, {"n": 1}, {"n": 2}]
        assert [m.text for m in await store.list_chat(room.id)] == ["I am the doctor"]
        await store.append_action(game.id, 3, {"n": 3})


async def test_migrations_apply_on_an_empty_file(db_path: Path) -> None:
    config = sqlite_config(db_path)
    await apply_migrations(config)
    assert {"room", "seat", "game", "action_record", "chat_message", "tortoise_migrations"} <= tables(db_path)
    with sqlite3.connect(db_path) as connection:
        applied = [row[0] for row in connection.execute("SELECT name FROM tortoise_migrations")]
        journal_mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    committed = sorted(path.stem for path in MIGRATIONS_DIR.glob("[0-9]*.py"))
    assert applied == committed
    assert applied[0] == "0001_initial"
    assert journal_mode == "wal"

    await apply_migrations(config)  # a second run has nothing to do
    with sqlite3.connect(db_path) as connection:
        assert connection.execute("SELECT count(*) FROM tortoise_migrations").fetchone()[0] == len(committed)


async def test_the_models_match_the_committed_migrations(tmp_path: Path) -> None:
    """Fails when a model changed without `tortoise makemigrations` (see docs/DATABASE.md)."""
    config = sqlite_config(tmp_path / "autodetect.sqlite3")
    async with TortoiseContext() as context:
        await context.init(config=config)
        assert context.apps is not None
        writers = await MigrationAutodetector(context.apps, config["apps"]).changes()
    assert [writer.name for writer in writers] == []


# ---------------------------------------------------------------- the app's lifespan


async def test_register_database_serves_queries_from_other_tasks(tmp_path: Path, environment: Environment) -> None:
    """Page handlers run outside the lifespan's task: they must still find the database."""
    environment.unset("DATABASE_URL")
    environment.set("MAFIA_DATA_DIR", str(tmp_path / "data"))
    app = FastAPI()
    register_database(app)
    register_database(app)  # NiceGUI's test fixtures re-run the main file: a second call must not nest

    async def count_rooms() -> int:
        return await Room.all().count()

    async with app.router.lifespan_context(app):
        await store.create_room(rules="uz")
        # A task started from an empty context, like a request handled by the server.
        task = asyncio.get_running_loop().create_task(count_rooms(), context=contextvars.Context())
        assert await task == 1
    assert (tmp_path / "data" / "mafia.sqlite3").exists()

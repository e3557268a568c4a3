"""The action log's write on SQLite in one step, on the event loop's thread or in one trip to the database thread.

Every accepted tap is one ``append_action``: a compare-and-set on ``game.step`` and an insert, in one
transaction. Through the ORM that is four statements (BEGIN, UPDATE, INSERT, COMMIT), each a round trip to
aiosqlite's thread and back through the event loop; with many rooms playing, every trip waits behind the
loop's other work, and the tap's answer waits for all four. Here the same statements run as one function,
under the ORM client's own lock (so they never land inside another request's transaction): on the loop's own
thread when the database's write lock is free (``sqlite_thread.run_here``: no trip at all), else on aiosqlite's
thread, which waits for it. The writes made on the loop's thread make no checkpoint; every ``CHECKPOINT_EVERY`` of
them one is made on aiosqlite's thread (``checkpoint_soon``), so the write-ahead log stays as short as SQLite keeps
it by itself. At 80 rooms of 12 that is 4 % less CPU an action than the trip (issue 32, docs/PERFORMANCE.md). The
write still ends with a turn of the event loop (``asyncio.sleep(0)``) taken with the client's lock held, as the trip's
answer was: one write a turn of the loop. Without the turn (a tap handled from its write to its last page's update in
one step of the loop, the next rooms' writes right behind it), or with the lock freed before it, the C heap was 3-9 MB
bigger at 960 phones (holes of large freed blocks: the same memory in use, twice the free), in every run.

Only the plain SQLite client takes this path; PostgreSQL, a client inside a transaction or an aiosqlite
without its function queue goes through the ORM (``webgame.store.queries``), with the same contract.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from tortoise.backends.sqlite.client import SqliteClient
from tortoise.fields.data import JSON_DUMPS

from webgame.framework import sqlite_thread
from webgame.store.models import ActionRecord, Game

_CLAIM = f'UPDATE "{Game._meta.db_table}" SET "step" = ? WHERE "id" = ? AND "step" = ?'
_STEP = f'SELECT "step" FROM "{Game._meta.db_table}" WHERE "id" = ?'
_INSERT = (f'INSERT INTO "{ActionRecord._meta.db_table}" ("game_id", "index", "payload", "created_at") '
           "VALUES (?, ?, ?, ?)")

_CLOCK = (f'UPDATE "{Game._meta.db_table}" SET "deadline_at" = ?, "paused_remaining" = ?, "night_left" = ? '
          'WHERE "id" = ?')

log = logging.getLogger(__name__)
ResultT = TypeVar("ResultT")

CHECKPOINT_EVERY = 64  # writes on the loop's thread between two checkpoints (a few pages each: SQLite's own is 1000)
_written_here = 0
_checkpoints: set[asyncio.Task[None]] = set()

WRITTEN = -2  # what ``append`` returns when the action is in the log
MISSING = -1  # ... when there is no such game


def client() -> SqliteClient | None:
    """The models' database client when it is a plain SQLite one with aiosqlite's function queue."""
    db = Game._meta.db
    if type(db) is not SqliteClient:  # a transaction's wrapper is a subclass: it keeps the ORM's way
        return None
    return db


async def append(db: SqliteClient, game_id: int, index: int, payload: Mapping[str, Any]) -> int | None:
    """Write action ``index`` of the game: ``WRITTEN``, ``MISSING``, or the game's step when it is not
    ``index`` (nothing written). None when this client cannot run a function on its thread (use the ORM).
    Raises ``sqlite3.IntegrityError`` when the row exists although the step said otherwise."""
    return await _run(db, _append, game_id, index, JSON_DUMPS(dict(payload)), datetime.now(UTC))


async def _run(db: SqliteClient, function: Callable[..., ResultT], *args: Any) -> ResultT | None:
    """``function(raw, *args)`` under the client's lock: on this thread when the write lock is free, else on the
    database thread; None when neither can run it (use the ORM)."""
    global _written_here
    async with db.acquire_connection() as connection:
        ran, result = sqlite_thread.run_here(connection, function, *args)
        if ran:
            _written_here += 1
            if _written_here % CHECKPOINT_EVERY == 0:
                checkpoint_soon(db)
            await asyncio.sleep(0)  # a turn of the loop, the lock still held, as the trip gave (the module's docstring)
            return result
        ran, result = await sqlite_thread.run_on_thread(connection, function, *args)
        return result if ran else None


def checkpoint_soon(db: SqliteClient) -> None:
    """Have a checkpoint made on the database thread, under the client's lock, unless one is already under way."""
    if not _checkpoints:
        task = asyncio.get_running_loop().create_task(_checkpoint(db))
        _checkpoints.add(task)
        task.add_done_callback(_checkpoints.discard)


async def _checkpoint(db: SqliteClient) -> None:
    try:
        async with db.acquire_connection() as connection:
            await sqlite_thread.run_on_thread(connection, sqlite_thread.checkpoint)
    except Exception:  # the next one copies what this one did not; the log itself is written
        log.exception("a checkpoint of the database failed")


def _append(raw: sqlite3.Connection, game_id: int, index: int, payload: str, now: datetime) -> int:
    """On the loop's or the database thread: the compare-and-set and the insert, committed together or not at
    all."""
    raw.execute("BEGIN")
    try:
        if raw.execute(_CLAIM, (index + 1, game_id, index)).rowcount != 1:
            row = raw.execute(_STEP, (game_id,)).fetchone()
            raw.execute("ROLLBACK")
            return MISSING if row is None else int(row[0])
        raw.execute(_INSERT, (game_id, index, payload, now))
        raw.execute("COMMIT")
        return WRITTEN
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise


async def set_clock(db: SqliteClient, game_id: int, deadline_at: float | None, paused_remaining: float | None,
                    night_left: float | None) -> bool | None:
    """Save a game's clock (``queries.set_deadline``) in one statement (``_run``): whether the game was
    there; None when this client cannot run a function on its thread (use the ORM). The ORM made the statement anew
    at every step of every room (issue 32: a few per cent of a step's end)."""
    return await _run(db, _set_clock, game_id, deadline_at, paused_remaining, night_left)


def _set_clock(raw: sqlite3.Connection, game_id: int, deadline_at: float | None, paused_remaining: float | None,
               night_left: float | None) -> bool:
    """On the loop's or the database thread: the one update, its own transaction (the connection commits each
    statement)."""
    if raw.in_transaction:  # never inside another request's transaction: the client's lock keeps them apart
        raise RuntimeError("the clock's write found a transaction open")
    return raw.execute(_CLOCK, (deadline_at, paused_remaining, night_left, game_id)).rowcount == 1

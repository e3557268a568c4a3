"""The action log's write on SQLite in one trip to the database thread.

Every accepted tap is one ``append_action``: a compare-and-set on ``game.step`` and an insert, in one
transaction. Through the ORM that is four statements (BEGIN, UPDATE, INSERT, COMMIT), each a round trip to
aiosqlite's thread and back through the event loop; with many rooms playing, every trip waits behind the
loop's other work, and the tap's answer waits for all four. Here the same statements run as one function
on that thread, under the ORM client's own lock (so they never land inside another request's transaction).

Only the plain SQLite client takes this path; PostgreSQL, a client inside a transaction or an aiosqlite
without its function queue goes through the ORM (``webgame.store.queries``), with the same contract.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

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
    async with db.acquire_connection() as connection:
        ran, result = await sqlite_thread.run_on_thread(connection, _append, game_id, index,
                                                        JSON_DUMPS(dict(payload)), datetime.now(UTC))
        return result if ran else None


def _append(raw: sqlite3.Connection, game_id: int, index: int, payload: str, now: datetime) -> int:
    """On the database thread: the compare-and-set and the insert, committed together or not at all."""
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
    """Save a game's clock (``queries.set_deadline``) in one statement on the database thread: whether the game was
    there; None when this client cannot run a function on its thread (use the ORM). The ORM made the statement anew
    at every step of every room (issue 32: a few per cent of a step's end)."""
    async with db.acquire_connection() as connection:
        ran, result = await sqlite_thread.run_on_thread(connection, _set_clock, game_id, deadline_at,
                                                        paused_remaining, night_left)
        return result if ran else None


def _set_clock(raw: sqlite3.Connection, game_id: int, deadline_at: float | None, paused_remaining: float | None,
               night_left: float | None) -> bool:
    """On the database thread: the one update, its own transaction (the connection commits each statement)."""
    if raw.in_transaction:  # never inside another request's transaction: the client's lock keeps them apart
        raise RuntimeError("the clock's write found a transaction open")
    return raw.execute(_CLOCK, (deadline_at, paused_remaining, night_left, game_id)).rowcount == 1

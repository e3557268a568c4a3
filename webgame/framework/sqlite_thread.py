"""A function of several statements run in one go on aiosqlite's connection: on the event loop's own thread when it can
take the database's write lock at once, else on aiosqlite's thread; one step instead of one a statement.

aiosqlite runs every statement on one thread per connection and comes back through the event loop each time; it
has no public call that runs a function of several statements there. The action log's append (a compare-and-set
and an insert in one transaction, ``webgame.store.sqlite_log``) was four such trips through the ORM (BEGIN,
UPDATE, INSERT, COMMIT), each waiting behind the busy loop's other work: one trip took it from 10.1 to 9.5 ms of
CPU an action at 80 rooms, together with two other cuts (docs/PERFORMANCE.md, ``80-trim.json``). ``run_on_thread``
uses aiosqlite's function queue (``Connection._execute``) and its ``sqlite3`` connection (``_connection``).

The trip itself cost more than the statements (issue 32: the hand-over of the call, its answer through the loop's
wake-up pipe and the interpreter's lock passed between the threads, some 5 % of an action's CPU at 80 rooms), so
``run_here`` runs the function on the caller's thread, on the same ``sqlite3`` connection (its page cache stays warm:
a second connection's is emptied by every write of the first). ``share_connections`` has aiosqlite open its
connections usable from another thread (``check_same_thread=False``); the caller holds the ORM client's lock, so no
statement of aiosqlite's thread runs meanwhile. The loop must never wait on the database, so there the function runs
with no busy timeout and no automatic checkpoint (its copy of the log to the database file, with its ``fsync``): a
write lock held by another process sends it to aiosqlite's thread, which waits for it (``run_here`` answers False),
and the caller has the checkpoints made on that thread (``checkpoint``).
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite

ResultT = TypeVar("ResultT")

# aiosqlite connections opened since ``share_connections``, usable from the loop's thread -> the statements that put
# back their own automatic checkpoint and busy timeout after ``run_here`` (read at its first run; None before)
SHARED: weakref.WeakKeyDictionary[Any, tuple[str, ...] | None] = weakref.WeakKeyDictionary()
_SETTINGS = ("wal_autocheckpoint", "busy_timeout")  # what ``run_here`` sets to 0 for the function's time
_OFF = tuple(f"PRAGMA {name} = 0" for name in _SETTINGS)


def share_connections() -> None:
    """Open every later aiosqlite connection usable from any thread, and note it in ``SHARED`` (idempotent)."""
    original = aiosqlite.connect
    if getattr(original, "shares_connections", False):
        return

    def connect(database: Any, **kwargs: Any) -> aiosqlite.Connection:
        kwargs.setdefault("check_same_thread", False)
        connection = original(database, **kwargs)
        if not kwargs["check_same_thread"]:
            SHARED[connection] = None
        return connection

    connect.shares_connections = True  # type: ignore[attr-defined]
    aiosqlite.connect = connect


async def run_on_thread(connection: Any, function: Callable[..., ResultT], *args: Any) -> tuple[bool, ResultT | None]:
    """Run ``function(raw, *args)`` on the thread of aiosqlite's ``connection`` (``raw``: its ``sqlite3``
    connection): ``(True, its result)``, or ``(False, None)`` when this aiosqlite has no such queue (use the ORM)."""
    run = getattr(connection, "_execute", None)
    raw = getattr(connection, "_connection", None)
    if run is None or not isinstance(raw, sqlite3.Connection):
        return False, None
    result: ResultT = await run(function, raw, *args)
    return True, result


def run_here(connection: Any, function: Callable[..., ResultT], *args: Any) -> tuple[bool, ResultT | None]:
    """Run ``function(raw, *args)`` on this thread, on aiosqlite's ``connection`` (the caller holds the ORM client's
    lock): ``(True, its result)``; ``(False, None)`` when the connection is not shared (``share_connections``) or
    the database's write lock is held by another connection (nothing written: ``function`` must roll back what it
    began when it raises). Waits for nothing: no busy timeout, no automatic checkpoint meanwhile."""
    raw = getattr(connection, "_connection", None)
    if connection not in SHARED or not isinstance(raw, sqlite3.Connection):
        return False, None
    restore = SHARED[connection]
    if restore is None:
        restore = SHARED[connection] = tuple(f"PRAGMA {name} = {int(raw.execute(f'PRAGMA {name}').fetchone()[0])}"
                                             for name in _SETTINGS)
    for statement in _OFF:
        raw.execute(statement)
    try:
        return True, function(raw, *args)
    except sqlite3.OperationalError as error:
        if (getattr(error, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return False, None
        raise
    finally:
        for statement in restore:
            raw.execute(statement)


def checkpoint(raw: sqlite3.Connection) -> None:
    """On aiosqlite's thread: copy what the write-ahead log holds into the database file, waiting for no reader."""
    raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

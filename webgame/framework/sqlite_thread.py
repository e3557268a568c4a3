"""A function run on aiosqlite's own thread, with its own ``sqlite3`` connection: one trip instead of one a statement.

aiosqlite runs every statement on one thread per connection and comes back through the event loop each time; it
has no public call that runs a function of several statements there. The action log's append (a compare-and-set
and an insert in one transaction, ``webgame.store.sqlite_log``) was four such trips through the ORM (BEGIN,
UPDATE, INSERT, COMMIT), each waiting behind the busy loop's other work: one trip took it from 10.1 to 9.5 ms of
CPU an action at 80 rooms, together with two other cuts (docs/PERFORMANCE.md, ``80-trim.json``). This uses
aiosqlite's function queue (``Connection._execute``) and its ``sqlite3`` connection (``_connection``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

ResultT = TypeVar("ResultT")


async def run_on_thread(connection: Any, function: Callable[..., ResultT], *args: Any) -> tuple[bool, ResultT | None]:
    """Run ``function(raw, *args)`` on the thread of aiosqlite's ``connection`` (``raw``: its ``sqlite3``
    connection): ``(True, its result)``, or ``(False, None)`` when this aiosqlite has no such queue (use the ORM)."""
    run = getattr(connection, "_execute", None)
    raw = getattr(connection, "_connection", None)
    if run is None or not isinstance(raw, sqlite3.Connection):
        return False, None
    result: ResultT = await run(function, raw, *args)
    return True, result

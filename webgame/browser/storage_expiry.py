"""Browsers' server-side storage expires: a storage without a seat after ``SEATLESS_DAYS``, one with a seat once
no cookie can name it any more (``SEATED_DAYS``).

A browser's storage (``app.storage.user``: its seat tokens) is a file per browser in the data folder, or a row
of ``browser_storage`` in a cluster on PostgreSQL (``webgame.framework.browser_storage``). Nothing removed them: every
visitor who touched the language picker left one for ever (issue 26). The picker now writes a cookie instead
(``webgame.browser.language_cookie``), so new storage holds seats; what is left to expire:

- a storage **without a seat** (an older version's language, a seat list emptied): ``SEATLESS_DAYS`` (7) after
  it was last written or used;
- a storage **with a seat**: ``SEATED_DAYS`` (15) after it was last written or used. The browser finds its
  storage by the id in its session cookie, which lives ``transport.SESSION_DAYS`` (14) after the browser's last
  request; past that no browser can name the storage again (the extra day covers the daily ``touch``).

"Used" is a page built for the browser (``touch``, from ``components.read_identity``): the file's time or the
row's ``updated_at`` is set to now, at most once a day per browser and process (a file's ``utime``, one
``UPDATE`` by primary key), so a weekly table that keeps its room ("Play again") keeps its seats.

``sweep`` runs at startup and every ``SWEEP_EVERY`` (each process of a cluster: the ``DELETE`` is the same for
all); a storage read in memory whose file or row went away is written anew by its next change, as a new one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from nicegui import background_tasks
from nicegui.persistence import FilePersistentDict

from webgame.browser import transport
from webgame.framework import browser_storage

log = logging.getLogger(__name__)

DAY = 86400.0
SEATLESS_DAYS = 7
SEATED_DAYS = transport.SESSION_DAYS + 1
TOUCH_EVERY = DAY  # a storage in use is marked as used at most this often (per process)
SWEEP_EVERY = 6 * 3600.0
FIRST_SWEEP_AFTER = 60.0  # seconds after the start: not in a restart's reconnect storm
_TOUCHED: dict[str, float] = {}  # storage id -> when this process last marked it used


def holds_a_seat(data: Any) -> bool:
    """Whether a browser's storage holds a seat list that is not empty (what ``sweep_rows`` asks of a row)."""
    seats = data.get("seats") if isinstance(data, dict) else None
    return isinstance(seats, dict) and bool(seats)


def touch(storage: MutableMapping[str, Any], now: float | None = None) -> None:
    """A page is being built for this browser: its storage's age starts again (if it is stored at all)."""
    now = time.time() if now is None else now
    if isinstance(storage, FilePersistentDict):
        key = str(storage.filepath)
    elif isinstance(storage, browser_storage.PostgresStorage):
        key = storage.storage_id
        if storage.version == 0:
            return  # no row yet
    else:
        return
    if now - _TOUCHED.get(key, 0.0) < TOUCH_EVERY:
        return
    _TOUCHED[key] = now
    if isinstance(storage, FilePersistentDict):
        try:
            os.utime(storage.filepath, (now, now))
        except OSError:  # no file (nothing was ever written for this browser)
            return
    else:
        background_tasks.create(_touch_row(key), name="mark a browser's storage used")


async def _touch_row(storage_id: str) -> None:
    from tortoise import connections

    try:
        await connections.get("default").execute_query(
            f"UPDATE {browser_storage.TABLE} SET updated_at = {browser_storage.NOW_SQL} WHERE id = $1", [storage_id])
    except Exception:  # noqa: BLE001 - the database down: the next day's page marks it again
        log.warning("browser storage %s: could not mark it used", storage_id)


def sweep_files(folder: Path, now: float | None = None) -> int:
    """Delete the expired storage files of ``folder``; how many."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not (entry.name.startswith("storage-user-") and entry.name.endswith(".json")):
            continue
        try:
            age = now - entry.stat().st_mtime
            if age < SEATLESS_DAYS * DAY:
                continue
            if age < SEATED_DAYS * DAY:
                try:
                    data = json.loads(Path(entry.path).read_text(encoding="utf-8"))
                except ValueError:
                    data = {}  # unreadable: NiceGUI reads it as empty storage
                if holds_a_seat(data):
                    continue
            os.unlink(entry.path)
            removed += 1
        except OSError:  # gone meanwhile
            continue
    return removed


async def sweep_rows() -> int:
    """Delete the expired rows of ``browser_storage`` (the database's own clock); how many."""
    from tortoise import connections

    rows = await connections.get("default").execute_query_dict(
        f"DELETE FROM {browser_storage.TABLE} WHERE updated_at < {browser_storage.NOW_SQL} - $1 "
        f"OR (updated_at < {browser_storage.NOW_SQL} - $2 "
        "AND NOT COALESCE(jsonb_typeof(data -> 'seats') = 'object' AND data -> 'seats' <> '{}'::jsonb, FALSE)) "
        "RETURNING id", [SEATED_DAYS * DAY, SEATLESS_DAYS * DAY])
    return len(rows)


async def sweep(folder: Path | None = None) -> int:
    """One sweep: the rows (in a cluster on PostgreSQL) or the files of this process's storage folder."""
    if browser_storage.in_postgres():
        removed = await sweep_rows()
    else:
        from nicegui.storage import Storage

        removed = await asyncio.to_thread(sweep_files, folder or Storage.path)
    cutoff = time.time() - TOUCH_EVERY
    for key in [key for key, at in _TOUCHED.items() if at < cutoff]:
        del _TOUCHED[key]
    if removed:
        log.info("removed %d expired browser storages", removed)
    return removed


async def sweep_forever() -> None:
    await asyncio.sleep(FIRST_SWEEP_AFTER)
    while True:
        try:
            await sweep()
        except Exception:
            log.exception("sweeping expired browser storage failed")
        await asyncio.sleep(SWEEP_EVERY)


def start() -> None:
    """From the app's startup: sweep now and then."""
    background_tasks.create(sweep_forever(), name="expire browser storage")

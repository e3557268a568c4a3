"""A browser's storage (``app.storage.user``: its seat tokens, its language) kept in PostgreSQL, for a cluster.

NiceGUI keeps each browser's storage in a JSON file (``NICEGUI_STORAGE_PATH``), which the processes of one
machine share but those of another do not: after a failover to another machine a phone would lose its seat. So
when the game runs as a cluster on PostgreSQL (``install``, from ``webgame.cluster.process``), NiceGUI's user storage is
a ``PostgresStorage`` instead: one row of ``browser_storage`` per browser, read when NiceGUI creates the storage
(a request of a browser it does not hold), read again before a page is built (``refresh``: another process may
have written since), written back after every change, like NiceGUI's own Redis-backed dict. On SQLite, or in a
single process, nothing changes: NiceGUI's files, as before (``refresh`` reads a file another process changed).

**Two writers.** Each write is ``UPDATE ... WHERE version = the version this process last read`` (one statement).
Another process that wrote meanwhile (a seat taken in two rooms living on two processes, at the same second)
makes it fail; the writer then reads the row, merges its own changes into it (a three-way merge per key path,
nested dicts included: both seats stay) and tries again. Chosen over a row lock (``SELECT ... FOR UPDATE``),
which costs a transaction of three round trips on every write for a conflict that almost never happens, and
over a merge of top-level keys, which would still lose a seat: all seats are one key, ``seats``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import Callable, MutableMapping
from typing import Any

from nicegui import background_tasks
from nicegui.persistence import FilePersistentDict, PersistentDict
from nicegui.persistence.serialization import dumps
from nicegui.storage import USER_PREFIX, Storage, request_contextvar
from starlette.types import Scope
from tortoise import connections
from tortoise.backends.base.config_generator import expand_db_url

from webgame import settings

log = logging.getLogger(__name__)

TABLE = "browser_storage"
MERGE_TRIES = 50  # writes lost in a row to other writers of the same browser before giving up for a while
WRITE_TRIES = 5  # failed writes (the database down) before the changes wait for the next one
RETRY_SECONDS = 1.0  # after the database failed a write
LOADED = "mafia_browser_storage_loaded"  # in a request's state: its storage was read from the database just now
# the database's clock (``webgame.browser.storage_expiry``)
_NOW = NOW_SQL = "EXTRACT(EPOCH FROM clock_timestamp())::float8"
_MISSING: Any = object()


def merge(base: Any, mine: Any, theirs: Any) -> Any:
    """Three-way merge: ``theirs`` with what changed from ``base`` to ``mine`` laid over it, key path by key path.

    A key this process did not change keeps the other writer's value (or its absence); a key it changed, added
    or removed takes its value, merged again inside when both sides hold a dict there."""
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return mine
    before = base if isinstance(base, dict) else {}
    merged = dict(theirs)
    for key in set(before) | set(mine):
        old, new = before.get(key, _MISSING), mine.get(key, _MISSING)
        if new == old:
            continue  # unchanged here
        if new is _MISSING:
            merged.pop(key, None)
        else:
            merged[key] = merge(old, new, theirs[key]) if key in theirs else new
    return merged


async def _select(storage_id: str) -> tuple[dict[str, Any], int] | None:
    rows = await connections.get("default").execute_query_dict(
        f"SELECT data::text AS data, version FROM {TABLE} WHERE id = $1", [storage_id])
    if not rows:
        return None
    data = json.loads(rows[0]["data"])
    return (data if isinstance(data, dict) else {}), int(rows[0]["version"])


async def _write(storage_id: str, text: str, version: int) -> int | None:
    """Write over ``version`` (0: no row yet); the new version, or None: another process wrote first."""
    client = connections.get("default")
    if version == 0:
        rows = await client.execute_query_dict(
            f"INSERT INTO {TABLE} (id, data, version, updated_at) VALUES ($1, $2::jsonb, 1, {_NOW}) "
            "ON CONFLICT (id) DO NOTHING RETURNING version", [storage_id, text])
    else:
        rows = await client.execute_query_dict(
            f"UPDATE {TABLE} SET data = $2::jsonb, version = version + 1, updated_at = {_NOW} "
            "WHERE id = $1 AND version = $3 RETURNING version", [storage_id, text, version])
    return int(rows[0]["version"]) if rows else None


class PostgresStorage(PersistentDict):
    """One browser's ``app.storage.user``, kept in ``browser_storage`` (see the module's docstring).

    ``version`` and ``_base`` are the row as this process last read or wrote it: what its own changes are
    measured against when another process wrote in between."""

    def __init__(self, storage_id: str) -> None:
        self.storage_id = storage_id
        self.version = 0
        self._base: dict[str, Any] = {}
        self._quiet = False  # replacing the contents with what was read: not a change to write back
        self._dirty = False
        self._writer: asyncio.Task[None] | None = None
        super().__init__(data={}, on_change=self._changed)

    async def initialize(self) -> None:
        """Read the row, unless the browser is new (its request had no session cookie: no row can exist)."""
        request = request_contextvar.get()
        if request is not None:
            request.scope.setdefault("state", {})[LOADED] = True  # the page's refresh need not read it again
            if "session" not in request.cookies:
                return
        try:
            await self.reload()
        except Exception:
            log.exception("browser storage %s: could not read it", self.storage_id)

    def initialize_sync(self) -> None:
        """Only NiceGUI's general storage is made before the event loop runs; a browser's never is."""
        raise NotImplementedError("a browser's storage is read from PostgreSQL in the event loop")

    async def reload(self) -> None:
        """Take what the other processes wrote since this one last read (one read by primary key)."""
        row = await _select(self.storage_id)
        if row is not None:
            self._take(*row)

    def _take(self, data: dict[str, Any], version: int) -> None:
        """The row as read, with this process's changes not yet written laid over it. Versions only go up: a
        read older than what this process knows (sent before its own write came back) is ignored."""
        if version <= self.version:
            return
        merged = merge(self._base, json.loads(dumps(self, self.storage_id)), data)
        self._quiet = True
        try:
            for key in [key for key in self if key not in merged]:
                del self[key]
            for key, value in merged.items():
                if self.get(key, _MISSING) != value:
                    self[key] = value
        finally:
            self._quiet = False
        self._base, self.version = data, version

    def _changed(self) -> None:
        if self._quiet:
            return
        self._dirty = True
        if self._writer is None or self._writer.done():
            self._writer = background_tasks.create(self._write_back(), name=f"browser storage {self.storage_id}")

    @background_tasks.await_on_shutdown  # a seat taken just before a restart is still written
    async def _write_back(self) -> None:
        """Write until nothing is left to write: changes made while a write was on its way go in the next one."""
        failures = 0
        while self._dirty:
            self._dirty = False
            try:
                await self._save()
                failures = 0
            except Exception:
                failures += 1
                log.exception("browser storage %s: the write failed (%d)", self.storage_id, failures)
                if failures >= WRITE_TRIES:
                    return
                self._dirty = True
                await asyncio.sleep(RETRY_SECONDS)

    async def _save(self) -> None:
        """One write, merged again and again as long as other processes write first (each of those lost
        rounds is another writer's progress); past ``MERGE_TRIES`` something is wrong: an error."""
        for _ in range(MERGE_TRIES):
            text = dumps(self, self.storage_id)
            mine = json.loads(text)
            if mine == self._base:
                return
            version = await _write(self.storage_id, text, self.version)
            if version is not None:
                if version > self.version:  # else a read taken meanwhile already knows a later one
                    self._base, self.version = mine, version
                return
            row = await _select(self.storage_id)  # another process wrote first: merge into what it wrote
            if row is not None:
                self._take(*row)
            else:
                self._forget()
        raise RuntimeError(f"browser storage {self.storage_id}: {MERGE_TRIES} writes in a row lost to others")

    def _forget(self) -> None:
        """The row went away (deleted by hand): write ours anew, as a first write."""
        self._base, self.version = {}, 0

    async def flushed(self) -> None:
        """Wait until every change made so far is written (or given up)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def close(self) -> None:
        await self.flushed()


def _create(original: Callable[[str], PersistentDict]) -> Callable[[str], PersistentDict]:
    def create_persistent_dict(id: str) -> PersistentDict:  # noqa: A002 - NiceGUI's own signature
        if id.startswith(USER_PREFIX):
            return PostgresStorage(id.removeprefix(USER_PREFIX))
        return original(id)  # NiceGUI's general storage stays a file
    create_persistent_dict.original = original  # type: ignore[attr-defined]
    return create_persistent_dict


def install(on_postgres: bool) -> None:
    """Browsers' storage in PostgreSQL (``on_postgres``) or NiceGUI's files (the default, and again after)."""
    current = Storage.__dict__["_create_persistent_dict"].__func__
    original = getattr(current, "original", current)
    setattr(Storage, "_create_persistent_dict", staticmethod(_create(original) if on_postgres else original))  # noqa: B010


def on_postgres() -> bool:
    """Whether the database (``DATABASE_URL``) is PostgreSQL: a cluster's browsers are kept there, then."""
    url = settings.current().database_url
    return url is not None and any(driver in str(expand_db_url(url)["engine"]) for driver in ("asyncpg", "psycopg"))


def in_postgres() -> bool:
    """Whether NiceGUI now makes browsers' storage in PostgreSQL (``install``)."""
    return hasattr(Storage.__dict__["_create_persistent_dict"].__func__, "original")


async def refresh(scope: Scope, headers: list[tuple[bytes, bytes]]) -> None:
    """Before a page is built: take what another process wrote to this browser's storage since this process
    read it (a seat taken in a room that lives there). In PostgreSQL one read by primary key, none when the
    storage was read in this very request; in files, a read of the file if its time changed."""
    from nicegui import app

    session = scope.get("session")
    session_id = session.get("id") if isinstance(session, dict) and session.get("id") else _session_id(headers)
    users: MutableMapping[str, Any] = app.storage._users  # noqa: SLF001
    cached = users.get(str(session_id)) if session_id else None
    if isinstance(cached, PostgresStorage):
        if scope.get("state", {}).get(LOADED):
            return
        try:
            await cached.reload()
        except Exception:
            log.exception("browser storage %s: could not read it again", cached.storage_id)
    elif isinstance(cached, FilePersistentDict):
        _refresh_file(cached)


READ_MTIME = "_mafia_read_mtime"  # on a cached file storage: its file's mtime when this process last read it


def _refresh_file(cached: FilePersistentDict) -> None:
    """Read the browser's file again if another process wrote it since this one read it. The time of the last read
    is kept on the cached storage itself, so it goes with it (it was a table of every browser ever seen, which only
    grew)."""
    try:
        mtime = cached.filepath.stat().st_mtime_ns
    except OSError:
        return
    if getattr(cached, READ_MTIME, None) == mtime:
        return
    setattr(cached, READ_MTIME, mtime)
    try:
        fresh = json.loads(cached.filepath.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(fresh, dict):
        dict.clear(cached)  # not the observable methods: no write back of what was just read
        dict.update(cached, fresh)


def _session_id(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The session id from the cookie, without checking its signature (when no session middleware ran before):
    it only picks which cached storage to read again."""
    for key, value in headers:
        if key != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            name, _, data = part.strip().partition("=")
            if name == "session" and data:
                try:
                    session = json.loads(base64.b64decode(data.split(".")[0] + "=="))
                except (ValueError, TypeError):
                    return None
                found = session.get("id") if isinstance(session, dict) else None
                return str(found) if found else None
    return None

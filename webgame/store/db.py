"""Where the database is, and how the app opens it.

Configuration comes from the environment:

- ``DATABASE_URL``: any Tortoise URL, e.g. ``postgres://user:pass@host:5432/mafia`` (asyncpg).
  Unset: SQLite in ``$MAFIA_DATA_DIR/mafia.sqlite3``.
- ``MAFIA_DATA_DIR``: folder for the SQLite file (default ``./data``, created when needed).

On startup pending migrations are applied (``webgame/store/migrations``, made by ``tortoise makemigrations``),
then Tortoise is initialised with its *global fallback* context. That fallback matters: the ASGI lifespan
runs in its own task, so a context only set there (plain ``Tortoise.init`` in ``app.on_startup``) is
invisible to page handlers ("No TortoiseContext is currently active").
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from tortoise.backends.base.config_generator import expand_db_url
from tortoise.context import TortoiseContext
from tortoise.contrib.fastapi import RegisterTortoise
from tortoise.migrations.api import migrate

from webgame import settings
from webgame.framework import sqlite_thread

log = logging.getLogger(__name__)

APP_LABEL = "models"
MODELS_MODULE = "webgame.store.models"
MIGRATIONS_MODULE = "webgame.store.migrations"
SQLITE_FILE_NAME = "mafia.sqlite3"
SQLITE_ENGINE = "tortoise.backends.sqlite"
POSTGRES_POOL = 10  # connections per process at most: 8 processes fit PostgreSQL's default max_connections (100)

# Applied by Tortoise's SQLite client on connect (as `PRAGMA key=value`). The app holds one connection
# behind a lock; busy_timeout covers a second process (e.g. `tortoise migrate`) touching the file.
SQLITE_PRAGMAS: dict[str, str | int] = {
    "journal_mode": "WAL",
    "busy_timeout": 5000,
    "synchronous": "NORMAL",
    "foreign_keys": "ON",
}


def data_dir() -> Path:
    """The folder for local data (``MAFIA_DATA_DIR``, default ``./data``), created if missing."""
    path = settings.current().data_dir
    path.mkdir(parents=True, exist_ok=True)
    return path


def db_url() -> str:
    """``DATABASE_URL`` if set, else the SQLite file in the data folder."""
    return settings.current().database_url or f"sqlite://{data_dir() / SQLITE_FILE_NAME}"


def tortoise_config(url: str | None = None) -> dict[str, Any]:
    """The Tortoise config dict for ``url`` (default: :func:`db_url`)."""
    connection = expand_db_url(url or db_url())
    if connection["engine"] == SQLITE_ENGINE:
        for pragma, value in SQLITE_PRAGMAS.items():
            connection["credentials"].setdefault(pragma, value)
    elif "asyncpg" in connection["engine"]:
        # Every action is a transaction of a few round trips; with Tortoise's default pool of 5 connections, 80
        # rooms on a busy machine queued for a connection (docs/PERFORMANCE.md, the cluster). ?maxsize= wins.
        connection["credentials"].setdefault("maxsize", POSTGRES_POOL)
    return {
        "connections": {"default": connection},
        "apps": {
            APP_LABEL: {
                "models": [MODELS_MODULE],
                "default_connection": "default",
                "migrations": MIGRATIONS_MODULE,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


def __getattr__(name: str) -> Any:
    # `TORTOISE_ORM` is what the `tortoise` CLI loads ([tool.tortoise] in pyproject.toml). It is built on
    # access, not at import, so that importing this module reads no environment and creates no folder.
    if name == "TORTOISE_ORM":
        return tortoise_config()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _ensure_sqlite_folder(config: dict[str, Any]) -> None:
    for connection in config["connections"].values():
        if isinstance(connection, dict) and connection.get("engine") == SQLITE_ENGINE:
            file_path = str(connection["credentials"]["file_path"])
            if file_path != ":memory:":
                Path(file_path).parent.mkdir(parents=True, exist_ok=True)


def _log_progress(event: str, app_label: str, name: str) -> None:
    if event == "apply_done":
        log.info("applied migration %s.%s", app_label, name)


async def apply_migrations(config: dict[str, Any] | None = None) -> None:
    """Apply every pending migration (what ``tortoise migrate`` does), then close those connections.

    Runs in a throwaway Tortoise context so that it leaves no connection or context behind.
    """
    config = config or tortoise_config()
    _ensure_sqlite_folder(config)
    async with _one_migrator(config), TortoiseContext():
        await migrate(config=config, progress=_log_progress)


MIGRATION_LOCK = 0x6D616669  # PostgreSQL advisory lock key ("mafi"): one process of a cluster migrates at a time


@asynccontextmanager
async def _one_migrator(config: dict[str, Any]) -> AsyncIterator[None]:
    """On PostgreSQL, hold an advisory lock while migrating: the processes of a cluster start together, and
    two running one migration at once fail (the second adds a column that is already there)."""
    connection = config["connections"]["default"]
    if not isinstance(connection, dict) or "asyncpg" not in str(connection.get("engine")):
        yield
        return
    import asyncpg

    credentials = connection["credentials"]
    lock = await asyncpg.connect(host=credentials.get("host"), port=credentials.get("port"),
                                 user=credentials.get("user"), password=credentials.get("password") or None,
                                 database=credentials.get("database"))
    try:
        await lock.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        yield
    finally:
        await lock.close()  # the lock goes with the session


@asynccontextmanager
async def open_database(config: dict[str, Any] | None = None, *, generate_schemas: bool = False) -> AsyncIterator[None]:
    """Open the database for this process for the duration of the ``async with``.

    ``generate_schemas=True`` creates missing tables straight from the models instead of migrating:
    for throwaway databases in tests only (it records no migration, so a later migrate would fail).
    """
    config = config or tortoise_config()
    _ensure_sqlite_folder(config)
    if not generate_schemas:
        await apply_migrations(config)
    sqlite_thread.share_connections()  # the action log's write on the loop's thread (webgame.store.sqlite_log)
    async with RegisterTortoise(config=config, generate_schemas=generate_schemas, _enable_global_fallback=True):
        yield


LifespanFactory = Callable[[Any], AbstractAsyncContextManager[Any]]


def register_database(app: Any, *, generate_schemas: bool = False, url: str | None = None) -> None:
    """Open the database around the app's lifespan (a NiceGUI ``app`` or any FastAPI/Starlette app).

    The database is open before NiceGUI's own startup (so ``app.on_startup`` handlers, e.g. resuming rooms,
    can query it) and closes after NiceGUI's shutdown handlers ran (so they can still write).
    The config is read from the environment when the app starts, not when this is called.
    Calling it again on the same app does nothing (NiceGUI's test fixtures re-run the main file).
    """
    original: LifespanFactory = app.router.lifespan_context
    if getattr(original, "_opens_mafia_database", False):
        return

    @asynccontextmanager
    async def lifespan_with_database(app_: Any) -> AsyncIterator[Any]:
        async with open_database(tortoise_config(url), generate_schemas=generate_schemas), original(app_) as state:
            yield state

    lifespan_with_database._opens_mafia_database = True  # type: ignore[attr-defined]
    app.router.lifespan_context = lifespan_with_database

"""Fixtures of the cluster tests: one PostgreSQL server for the session (loopback, a temp folder), a fresh
database per test (copied from a migrated template), nginx and game processes (``bench.services``).

Without PostgreSQL's programs these tests are skipped, unless ``MAFIA_REQUIRE_CLUSTER=1`` (CI sets it:
``scripts/test`` installs PostgreSQL and nginx), where a missing program is a failure.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tortoise.backends.base.executor import EXECUTOR_CACHE

import webgame.app  # noqa: F401 - every webgame module loaded once (see tests/web/conftest.py)
from bench.load import Server
from bench.services import Nginx, Postgres, nginx_available, postgres_available
from webgame.room import rooms
from webgame.store import leases
from webgame.store.db import apply_migrations, open_database, tortoise_config

_numbers = itertools.count(1)


def _missing(what: str) -> None:
    if os.environ.get("MAFIA_REQUIRE_CLUSTER") == "1":
        pytest.fail(f"{what} is needed for the cluster tests (MAFIA_REQUIRE_CLUSTER=1)")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if not postgres_available():
        _missing("PostgreSQL (initdb, postgres)")
    server = Postgres()
    try:
        server.start()
        template = server.create_database("mafia_template")
        asyncio.run(apply_migrations(tortoise_config(template)))  # migrated once: each test copies it
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def nginx_ok() -> None:
    if not nginx_available():
        _missing("nginx")


def fresh_database(server: Postgres) -> str:
    """A new database, migrated (a copy of the session's template); its ``DATABASE_URL``."""
    name = f"mafia_{os.getpid()}_{next(_numbers)}"
    server.sql("postgres", f'CREATE DATABASE "{name}" TEMPLATE mafia_template')
    return server.url(name)


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    return fresh_database(postgres)


@pytest.fixture(autouse=True)
def isolated_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Path]:
    """Each test its own data folder; a test that asks for PostgreSQL gets its own database as ``DATABASE_URL``."""
    modules = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "webgame"}
    data = tmp_path / "data"
    monkeypatch.setenv("MAFIA_DATA_DIR", str(data))
    monkeypatch.setenv("STORAGE_SECRET", "test secret")
    if "postgres" in request.fixturenames or "pg_url" in request.fixturenames:
        monkeypatch.setenv("DATABASE_URL", request.getfixturevalue("pg_url"))
    else:
        monkeypatch.setenv("DATABASE_URL", f"sqlite://{data / 'mafia.sqlite3'}")
    rooms.registry.clear()
    leases.HELD.clear()
    leases.DROPPED.clear()
    # Tortoise keeps each model's INSERT per connection name, not per database: one written for SQLite (``?``)
    # would be sent to PostgreSQL. Forgotten before and after each test here, where the two alternate.
    EXECUTOR_CACHE.clear()
    yield data
    EXECUTOR_CACHE.clear()
    rooms.registry.clear()
    leases.HELD.clear()
    leases.DROPPED.clear()
    leases.ACTIVE = False
    leases.VALID_UNTIL = 0.0
    # The registry's locks bind to the event loop of the first test that waits on them: fresh ones, so that the
    # same test run again later (tests/web after tests/cluster) does not meet a lock of a closed loop.
    rooms.registry._loading = {}  # noqa: SLF001
    rooms.registry.claims = None
    sys.modules.update(modules)


@pytest.fixture
async def pg(pg_url: str) -> AsyncIterator[str]:
    """The test's PostgreSQL database, open (no web app)."""
    async with open_database(tortoise_config(pg_url)):
        yield pg_url


@dataclass
class ClusterDatabase:
    """A running cluster of the tests (its processes, nginx) and what its database says of its rooms."""

    postgres: Postgres
    database: str
    processes: dict[str, Server]
    nginx: Nginx

    def sql(self, query: str) -> list[list[str]]:
        out = self.postgres.sql(self.database, query)
        return [line.split("\t") for line in out.splitlines() if line]

    def owners(self) -> dict[str, str]:
        """Room code -> the name of the process holding its lease now."""
        rows = self.sql("SELECT r.code, l.owner FROM room_lease l JOIN room r ON r.id = l.room_id "
                        "WHERE l.owner IS NOT NULL AND l.expires_at > EXTRACT(EPOCH FROM clock_timestamp())")
        return {code: owner.split(":")[0] for code, owner in rows}

    def logs(self) -> dict[str, list[str]]:
        """Room code -> its latest game's action log (payloads as text), from the database."""
        rows = self.sql("SELECT r.code, a.payload::text FROM action_record a JOIN game g ON g.id = a.game_id "
                        "JOIN room r ON r.id = g.room_id ORDER BY r.code, g.number, a.index")
        logs: dict[str, list[str]] = {}
        for code, payload in rows:
            logs.setdefault(code, []).append(payload)
        return logs

    def lease(self, code: str) -> tuple[str, int]:
        """(the name of the process holding the room's live lease, or "", its epoch)."""
        rows = self.sql("SELECT CASE WHEN l.expires_at > EXTRACT(EPOCH FROM clock_timestamp()) THEN l.owner "
                        "ELSE '' END, l.epoch FROM room_lease l JOIN room r ON r.id = l.room_id "
                        f"WHERE r.code = '{code}'")
        owner, epoch = rows[0] if rows else ("", "0")
        return owner.split(":")[0], int(epoch)

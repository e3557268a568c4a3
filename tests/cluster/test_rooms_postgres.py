"""The room tests of ``tests/web/test_rooms.py`` again, on PostgreSQL (``isolated_data`` gives each its own
database: see ``tests/cluster/conftest.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.web import test_rooms as on_sqlite
from tests.web.conftest import fake_time  # noqa: F401 - the fixture, for the shared tests
from webgame.store.db import open_database, tortoise_config

SHARED = [name for name in dir(on_sqlite) if name.startswith("test_")]
for _name in SHARED:
    globals()[_name] = getattr(on_sqlite, _name)


@pytest.fixture
async def db(pg_url: str, isolated_data: Path) -> AsyncIterator[Path]:
    async with open_database(tortoise_config()):
        yield isolated_data


@pytest.fixture(autouse=True)
def on_postgres(pg_url: str) -> str:
    """Every test here on PostgreSQL, also those that open the database themselves (a restart)."""
    return pg_url


def test_these_tests_run_on_postgres() -> None:
    assert tortoise_config()["connections"]["default"]["engine"] == "tortoise.backends.asyncpg"

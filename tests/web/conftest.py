"""Fixtures of the web tests: a temp SQLite file per test, a clean room registry, a fake clock."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import webgame.app  # noqa: F401 - every webgame module loaded once, so the snapshot below holds them all
from webgame import rooms
from webgame.db import open_database, tortoise_config


class FakeTime:
    """A clock the test moves by hand: ``registry.now`` and the game clock read it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> float:
        self.value += seconds
        return self.value


@pytest.fixture(autouse=True)
def isolated_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test gets its own data folder and SQLite file, and an empty room registry.

    NiceGUI's user fixture drops the modules of page functions (and their parents) from ``sys.modules``
    after a test; putting them back keeps one ``webgame`` (one registry, one ``Stage`` enum) for the run.
    """
    modules = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "webgame"}
    data = tmp_path / "data"
    monkeypatch.setenv("MAFIA_DATA_DIR", str(data))
    monkeypatch.setenv("DATABASE_URL", f"sqlite://{data / 'mafia.sqlite3'}")
    monkeypatch.setenv("STORAGE_SECRET", "test secret")
    rooms.registry.clear()
    yield data
    rooms.registry.clear()
    sys.modules.update(modules)


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(rooms.registry, "now", clock)
    return clock


@pytest.fixture
async def db(isolated_data: Path) -> AsyncIterator[Path]:
    """The database open without the web app (for room-level tests)."""
    async with open_database(tortoise_config()):
        yield isolated_data

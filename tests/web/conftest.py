"""Fixtures of the web tests: a temp SQLite file per test, a clean room registry, a fake clock."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from nicegui import context
from nicegui.testing import User
from nicegui.testing.user_navigate import UserNavigate

import webgame.app  # noqa: F401 - every webgame module loaded once, so the snapshot below holds them all
from webgame.room import rooms
from webgame.store.db import open_database, tortoise_config


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


@pytest.fixture(autouse=True)
def navigation_of_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ui.navigate.to`` moves the browser of the page it runs in, as a real browser does.

    NiceGUI's simulated ``User`` keeps one global ``ui.navigate``: the last user any code touched, and a page's
    own updates touch its user. A Join tapped on one phone while another phone's room page redrew moved that
    other phone (tests/security/test_availability.py failed one run in four on a busy machine)."""
    users: list[User] = []
    opened, navigated = User.open, UserNavigate.to

    async def open_and_remember(user: User, path: str, *, clear_forward_history: bool = True) -> object:
        if not any(known is user for known in users):
            users.append(user)
        return await opened(user, path, clear_forward_history=clear_forward_history)

    def to_the_page_own_user(navigate: UserNavigate, target: object, new_tab: bool = False) -> None:
        client = context.client
        owner = next((user for user in users if object.__getattribute__(user, "client") is client), None)
        navigated(object.__getattribute__(owner, "navigate") if owner is not None else navigate,
                  target, new_tab)  # type: ignore[arg-type]

    monkeypatch.setattr(User, "open", open_and_remember)
    monkeypatch.setattr(UserNavigate, "to", to_the_page_own_user)


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

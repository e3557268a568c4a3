"""Fixtures of every test under tests/: the server's settings read from each test's own environment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webgame import settings


@pytest.fixture(autouse=True)
def settings_of_the_test() -> Iterator[None]:
    """The settings an earlier test read are forgotten: this test's are read from its environment on first use
    (its fixtures set it first) or by ``app.setup`` (``webgame.settings``)."""
    settings.forget()
    yield
    settings.forget()


class Environment:
    """The server's environment variables, changed within a test as a restart would see them: set or unset (put
    back after the test, by ``monkeypatch``), and the settings in force forgotten, so that the next ask reads the
    environment again (``webgame.settings.current``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch

    def set(self, name: str, value: str) -> None:
        self._monkeypatch.setenv(name, value)
        settings.forget()

    def unset(self, name: str) -> None:
        self._monkeypatch.delenv(name, raising=False)
        settings.forget()


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Environment:
    return Environment(monkeypatch)

"""Fixtures of the browser tests: one server per test module (its own process, port and data folder), one
Chromium per test module with a context per phone, and a ``table`` factory that closes its phones."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from e2e.harness import CHROMIUM, Phone, Server, launch  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests of one module run on one xdist worker (``--dist loadgroup``, scripts/test), so that
    they share the module's server and browser; two modules may run at once on the two workers (the harness
    waits on what a screen shows, up to ``WAIT``, never on a fixed time)."""
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else "e2e"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("data")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    with playwright_api.sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


@pytest.fixture
def phones(browser) -> Iterator[Callable[..., Phone]]:  # noqa: ANN001
    """``phones(name, language, size, color_scheme)`` opens a new phone; all are closed after the test."""
    opened: list[Phone] = []

    def open_phone(name: str, language: str = "en", size: dict[str, int] | None = None,
                   color_scheme: str = "light") -> Phone:
        phone = Phone(browser, name, language, size, color_scheme)
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.close()

"""The security tests share the web tests' fixtures (a temp database per test, a clean registry, a fake
clock) and print the figures they counted at the end of the run (see stats.py)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import FakeTime, db, fake_time, isolated_data  # noqa: F401 - fixtures, re-exported

from .stats import STATS

__all__ = ["FakeTime"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if STATS.counts:
        terminalreporter.write_line(f"security figures: {STATS.report()}")
        STATS.save()

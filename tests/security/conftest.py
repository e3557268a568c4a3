"""The security tests share the web tests' fixtures (a temp database per test, a clean registry, a fake
clock) and print the figures they counted at the end of the run (see stats.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import (  # noqa: F401 - fixtures, re-exported
    FakeTime,
    db,
    fake_time,
    isolated_data,
    navigation_of_the_page,
)
from webgame.guard import page_limits, ratelimit

from .stats import STATS

__all__ = ["FakeTime", "limits_on_a_clock"]


def limits_on_a_clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """Empty rate-limit buckets and page counts, every limiter on a clock the test moves by hand."""
    ratelimit.reset_all()
    page_limits.reset()
    clock = FakeTime(1000.0)
    for limiter in ratelimit.LIMITERS:
        monkeypatch.setattr(limiter, "now", clock)
    return clock


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if STATS.counts:
        terminalreporter.write_line(f"security figures: {STATS.report()}")
        STATS.save()

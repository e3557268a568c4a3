"""A measure, not a test (its name keeps it out of the suite): the pages' work at each action, counted in calls.

The bench's CPU per action moves by a tenth from one minute of this machine to the next (docs/PERFORMANCE.md), more
than most single cuts of the pages' work. This counts instead the Python calls made while a room tells its pages of
a change (``Audience.notify``: every page's redraw and the padding), with ``cProfile``, through whole games of
simulated phones on the real pages (``tests.security.table``: 12 seats in three languages, a spectator, the TV):
the same count on any machine for the same code, so two versions of the pages compare in a minute. The seconds
beside it are the profiled ones, for the shares only.

    .venv/bin/python -m pytest -q -s tests/security/measure_page_calls.py (MEASURE_RULES=uk for the club game)

prints ``actions N, calls per action C (pages P, padding D), profiled ms per action M`` and writes the profile to
``$MEASURE_OUT`` when set (``python -m pstats`` reads it).
"""

from __future__ import annotations

import cProfile
import gc
import os
import pstats
from collections.abc import Callable

import pytest
from nicegui.testing import User

from webgame.room import subscribers

from .table import Table, drain

SEEDS = (11, 12, 13, 14, 15, 16)


def _calls(profile: cProfile.Profile) -> int:
    stats = pstats.Stats(profile)
    return sum(entry[1] for entry in stats.stats.values())  # type: ignore[attr-defined]


async def test_measure(create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch) -> None:
    rules = os.environ.get("MEASURE_RULES", "uz")
    telling, padding = cProfile.Profile(), cProfile.Profile()
    notify, after_notify = subscribers.Audience.notify, subscribers.Audience.after_notify

    def told(self: subscribers.Audience[object], what: subscribers.Change) -> None:
        telling.enable()
        try:
            notify(self, what)
        finally:
            telling.disable()

    def padded(self: subscribers.Audience[object], what: subscribers.Change) -> None:
        telling.disable()  # one profiler at a time: the padding's calls are counted apart
        padding.enable()
        try:
            after_notify(self, what)
        finally:
            padding.disable()
            telling.enable()

    monkeypatch.setattr(subscribers.Audience, "notify", told)
    monkeypatch.setattr(subscribers.Audience, "after_notify", padded)
    actions = 0
    gc.disable()  # the collector's walks are not the pages' calls
    try:
        for seed in SEEDS:
            table = await Table.seat(create_user, rules, 12, seed, languages=("en", "ru", "uz"))
            first = len(table.state.log)
            await table.play(lambda: None)
            actions += len(table.state.log) - first
            await drain()
    finally:
        gc.enable()
    assert actions > 0
    pages, pad = _calls(telling), _calls(padding)
    seconds = pstats.Stats(telling).total_tt + pstats.Stats(padding).total_tt  # type: ignore[attr-defined]
    print(f"\n{rules}: actions {actions}, calls per action {(pages + pad) / actions:.0f} (pages {pages / actions:.0f}, "
          f"padding {pad / actions:.0f}), profiled ms per action {1000 * seconds / actions:.2f}")
    if os.environ.get("MEASURE_OUT"):
        telling.dump_stats(os.environ["MEASURE_OUT"])

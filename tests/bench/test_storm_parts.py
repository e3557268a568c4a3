"""The storm's parts (bench/storm_parts.py) still measure against a real server: a gone page's socket is refused
(the server the product runs: the early refusal of webgame.stale_sockets), a page loads, a socket connects.
No timing is asserted; benchmarks are run by hand (docs/PERFORMANCE.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.storm_parts import STEPS, measure


def test_each_step_of_a_phones_recovery_is_measured(tmp_path: Path) -> None:
    results = asyncio.run(measure(players=4, rounds=1, steps=list(STEPS), data=tmp_path))
    assert set(results) == set(STEPS)
    assert all(cost > 0 for cost in results.values()), results

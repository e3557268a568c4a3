"""The storm's parts (bench/storm_parts.py) still measure against a real server: a gone page's socket is refused
(the server the product runs: the early refusal of webgame.framework.stale_sockets), a page loads, a socket connects.
No timing is asserted; benchmarks are run by hand (docs/PERFORMANCE.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.storm_parts import STEPS, measure


def test_each_step_of_a_phones_recovery_is_measured(tmp_path: Path) -> None:
    results = asyncio.run(measure(players=4, rounds=2, steps=list(STEPS), data=tmp_path))  # a refusal that was
    assert set(results) == set(STEPS)  # accepted would have failed it (bench.storm_parts.step)
    assert all(cost >= 0 for cost in results.values()) and sum(results.values()) > 0, results  # /proc: 10 ms ticks

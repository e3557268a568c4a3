"""Run the game with its garbage collections logged (``python -m bench.gc_log``): a diagnostic for latency tails,
used by ``bench.load`` with ``BENCH_GC_LOG=1``.

Every collection over ``BENCH_GC_SLOW_MS`` (default 20) is stamped with the wall clock, its generation, its time
and what it freed; every 5 s (at the end of a collection) a line gives the count and the time of each
generation's collections since the start, and Python's heap (``sys.getallocatedblocks()``): the difference of two
such lines is what the collector cost between them. The lines go to ``BENCH_GC_FILE`` when it is set (the
server's own log is in the bench's temporary folder), else to stderr.
"""

from __future__ import annotations

import gc
import os
import runpy
import sys
import time

SLOW = float(os.environ.get("BENCH_GC_SLOW_MS", "20")) / 1000
EVERY = 5.0
_started: dict[int, float] = {}
_totals = {generation: [0, 0.0] for generation in range(3)}
_last_line = [time.time()]


def _write(line: str) -> None:
    target = os.environ.get("BENCH_GC_FILE")
    if not target:
        print(line, file=sys.stderr, flush=True)
        return
    with open(target, "a") as handle:
        handle.write(line + "\n")


def _callback(phase: str, info: dict[str, int]) -> None:
    generation = info["generation"]
    if phase == "start":
        _started[generation] = time.perf_counter()
        return
    if generation not in _started:
        return
    took = time.perf_counter() - _started.pop(generation)
    _totals[generation][0] += 1
    _totals[generation][1] += took
    if took > SLOW:
        _write(f"GC at {time.time():.1f} gen{generation} {took * 1000:.0f} ms collected {info['collected']}")
    if time.time() - _last_line[0] > EVERY:
        _last_line[0] = time.time()
        counts = " ".join(f"gen{gen} {count} in {spent * 1000:.0f} ms" for gen, (count, spent) in _totals.items())
        _write(f"GC totals at {time.time():.1f}: {counts}; heap {sys.getallocatedblocks()} blocks")


if __name__ == "__main__":
    gc.callbacks.append(_callback)
    runpy.run_module("bench.serve", run_name="__main__")

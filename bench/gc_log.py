"""Run the game with every slow garbage collection logged (``python -m bench.gc_log``): a diagnostic for
latency tails, used by ``bench.load --gc-log``."""

from __future__ import annotations

import gc
import runpy
import sys
import time

_started: dict[int, float] = {}


def _callback(phase: str, info: dict[str, int]) -> None:
    generation = info["generation"]
    if phase == "start":
        _started[generation] = time.perf_counter()
    elif generation in _started:
        took = time.perf_counter() - _started.pop(generation)
        if took > 0.05:
            print(f"GC at {time.time():.1f} gen{generation} {took * 1000:.0f} ms collected {info['collected']} "
                  f"objects {len(gc.get_objects())}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    gc.callbacks.append(_callback)
    runpy.run_module("bench.serve", run_name="__main__")

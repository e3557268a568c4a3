"""The bench's sweep and shared-machine options (bench/load.py): the knee read off a sweep, and the competing
load that burns one core for as long as a run lasts. No timing is asserted: figures are in docs/PERFORMANCE.md."""

from __future__ import annotations

import os
from typing import Any

from bench.load import competing_load, knee, table


def _run(kind: str, rooms: int, p95: float | None, failed: int = 0) -> dict[str, Any]:
    return {"kind": kind, "rooms": rooms, "players": 12, "phones": rooms * 12, "p95_ms": p95,
            "setup_failed_rooms": failed}


def test_the_knee_is_the_most_phones_served_at_p95_within_200_ms() -> None:
    sweep = [_run("floor", 40, 9.0), _run("game", 40, 60.0), _run("floor", 80, 30.0), _run("game", 80, 250.0),
             _run("floor", 120, 190.0), _run("game", 120, 180.0, failed=3), _run("floor", 160, 600.0),
             _run("game", 160, None)]
    assert knee(sweep) == {"floor": 1440, "game": 480}  # a size whose setup failed, or unmeasured, does not count
    assert knee([_run("game", 40, 900.0)]) == {"game": None}
    assert "the knee: most phones at p95 <= 200 ms (one process, one core): floor 1440, game 480" in table(sweep)


def test_the_competing_load_burns_a_core_while_the_run_lasts_and_stops_after() -> None:
    def children() -> set[int]:
        found = set()
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == os.getpid() and fields[0] != "Z":
                    found.add(int(pid))
        return found

    before = children()
    with competing_load(True):
        burning = children() - before
        assert len(burning) == 1
    assert not children() - before
    with competing_load(False):
        assert not children() - before

"""Figures the security tests count (games played, messages inspected, inputs fuzzed, kills survived).

Each test adds to ``STATS``; the session prints them at the end (``-rA`` or ``-s`` shows the line) and
writes them to ``$SECURITY_STATS`` when that is set, so docs/SECURITY.md can quote a real run.
"""

from __future__ import annotations

import json
import os
from collections import Counter


class Stats:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, name: str, amount: int = 1) -> None:
        self.counts[name] += amount

    def report(self) -> str:
        return ", ".join(f"{name}: {count}" for name, count in sorted(self.counts.items()))

    def save(self) -> None:
        path = os.environ.get("SECURITY_STATS")
        if path and self.counts:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(dict(sorted(self.counts.items())), handle, indent=1)


STATS = Stats()

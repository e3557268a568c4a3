"""``python -m bench.serve``: the game as the load generator runs it (``bench/load.py``).

The product's app (``webgame.app.setup``) plus the bench's read-only routes (``bench.hook``, which adds them
only with ``MAFIA_BENCH=1``). The routes hand out every secret of a room, so they live here, out of the
product's import path: ``python -m webgame`` never imports ``bench.hook``.
"""

from __future__ import annotations

import logging
import os

import webgame  # noqa: F401  (first, as ``python -m webgame`` imports it: what NiceGUI imports is lighter then: its docstring)
from bench import hook
from webgame.app import app, run, setup

if os.environ.get("MAFIA_PROCESS"):  # one process of a cluster (tests/cluster): its hand-overs, timed, in its log
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.WARNING)
    logging.getLogger("webgame.cluster").setLevel(logging.INFO)
setup()
hook.register(app)

if __name__ in {"__main__", "__mp_main__"}:
    run()

"""``python -m bench.serve``: the game as the load generator runs it (``bench/load.py``).

The product's app (``webgame.app.setup``) plus the bench's read-only routes (``bench.hook``, which adds them
only with ``MAFIA_BENCH=1``). The routes hand out every secret of a room, so they live here, out of the
product's import path: ``python -m webgame`` never imports ``bench.hook``.
"""

from __future__ import annotations

import webgame  # noqa: F401  (first, as ``python -m webgame`` imports it: what NiceGUI imports is lighter then: its docstring)
from bench import hook
from webgame.app import app, run, setup

setup()
hook.register(app)

if __name__ in {"__main__", "__mp_main__"}:
    run()

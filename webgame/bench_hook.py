"""A read-only hook for the load generator (``bench/load.py``), off unless ``MAFIA_BENCH=1``.

The bench plays every seat of a room with the engine's bots, and bots need the whole game: this route
hands out what the database already holds for a game (seed, options, seating, the action log), from which
the bench replays the state. That is every secret of the room, so the route does not exist unless the
process was started with ``MAFIA_BENCH=1`` (the bench's own temp server); a production server answers 404.
Rooms, seats and taps still go through the real pages and the real socket.
"""

from __future__ import annotations

import gc
import os
import tracemalloc
from collections import Counter
from typing import Any

from fastapi.responses import JSONResponse

from engine import actions as engine_actions
from webgame.rooms import registry

ENV_FLAG = "MAFIA_BENCH"
PATH = "/_bench/game/{code}"
MEMORY_PATH = "/_bench/memory"
_SNAPSHOTS: dict[str, Any] = {}


def enabled() -> bool:
    return os.environ.get(ENV_FLAG) == "1"


def _game(code: str) -> JSONResponse:
    room = registry.get(code)
    if room is None:
        return JSONResponse({"error": "no such room"}, status_code=404)
    body: dict[str, Any] = {"code": room.code, "stage": room.stage.value, "game_id": room.game_id}
    state = room.state
    if state is not None:
        body.update(rules=state.rules, seed=state.seed, options=dict(state.options),
                    seating=[seat.name for seat in room.seating],
                    log=[engine_actions.to_dict(action) for action in state.log])
    return JSONResponse(body)


def _memory() -> JSONResponse:
    """What the process holds: clients, elements, and the most numerous object types (for docs/PERFORMANCE.md)."""
    from nicegui import Client

    gc.unfreeze()  # the server freezes what survives full collections (webgame.app), and get_objects
    gc.collect()  # sees only what is not frozen: count everything, then freeze it again
    gc.unfreeze()
    objects = gc.get_objects()
    counts = Counter(type(obj).__name__ for obj in objects)
    elements = Counter(type(element).__name__ for client in list(Client.instances.values())
                       for element in list(client.elements.values()))
    body: dict[str, Any] = {"clients": len(Client.instances), "elements": elements.most_common(25),
                            "objects": len(objects), "types": counts.most_common(40)}
    del objects
    gc.freeze()
    if tracemalloc.is_tracing():  # PYTHONTRACEMALLOC=1: where the live Python memory was allocated
        snapshot = tracemalloc.take_snapshot()
        body["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
        first = _SNAPSHOTS.setdefault("first", snapshot)  # the first call (an idle server) is the baseline
        body["by_line"] = [[str(stat.traceback), round(stat.size_diff / 1024)]
                           for stat in snapshot.compare_to(first, os.environ.get("BENCH_TRACE_BY", "traceback"))[:40]]
    return JSONResponse(body)


def register(app: Any) -> None:
    """Add the routes when ``MAFIA_BENCH=1``; otherwise do nothing."""
    if enabled():
        app.add_api_route(PATH, _game, methods=["GET"], include_in_schema=False)
        app.add_api_route(MEMORY_PATH, _memory, methods=["GET"], include_in_schema=False)

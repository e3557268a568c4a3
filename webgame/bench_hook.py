"""A read-only hook for the load generator (``bench/load.py``), off unless ``MAFIA_BENCH=1``.

The bench plays every seat of a room with the engine's bots, and bots need the whole game: this route
hands out what the database already holds for a game (seed, options, seating, the action log), from which
the bench replays the state. That is every secret of the room, so the route does not exist unless the
process was started with ``MAFIA_BENCH=1`` (the bench's own temp server); a production server answers 404.
Rooms, seats and taps still go through the real pages and the real socket.
"""

from __future__ import annotations

import os
from typing import Any

from fastapi.responses import JSONResponse

from engine import actions as engine_actions
from webgame.rooms import registry

ENV_FLAG = "MAFIA_BENCH"
PATH = "/_bench/game/{code}"


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


def register(app: Any) -> None:
    """Add the route when ``MAFIA_BENCH=1``; otherwise do nothing."""
    if enabled():
        app.add_api_route(PATH, _game, methods=["GET"], include_in_schema=False)

"""A read-only hook for the load generator (``bench/load.py``), off unless ``MAFIA_BENCH=1``.

It is the bench's, not the product's: ``python -m bench.serve`` (the game the bench starts) registers it after
``webgame.app.setup()``; ``python -m webgame`` never imports it (``tests/web/test_structure.py`` checks).

The bench plays every seat of a room with the engine's bots, and bots need the whole game: this route
hands out what the database already holds for a game (seed, options, seating, the action log), from which
the bench replays the state. That is every secret of the room, so the route does not exist unless the
process was started with ``MAFIA_BENCH=1`` (the bench's own temp server); a production server answers 404.
Rooms, seats and taps still go through the real pages and the real socket.
"""

from __future__ import annotations

import gc
import os
import sys
import tracemalloc
from collections import Counter
from typing import Any

from fastapi.responses import JSONResponse

from webgame import settings

ENV_FLAG = "MAFIA_BENCH"
PATH = "/_bench/game/{code}"
MEMORY_PATH = "/_bench/memory"
CLIENT_PATH = "/_bench/client/{client_id}"
STEPS_PATH = "/_bench/steps/{code}"
_SNAPSHOTS: dict[str, Any] = {}


def enabled() -> bool:
    """Whether this server was started with ``MAFIA_BENCH=1`` (``webgame.settings``: the bench's flag)."""
    return settings.current().bench


def _game(code: str) -> JSONResponse:
    from engine import actions as engine_actions  # here, so that the floor app can use census() alone
    from webgame.room.rooms import registry

    room = registry.get(code)
    if room is None:
        return JSONResponse({"error": "no such room"}, status_code=404)
    body: dict[str, Any] = {"code": room.code, "stage": room.stage.value, "game_id": room.game_id,
                            "lobby_options": dict(room.engine_options())}  # what a game started now would get
    state = room.state
    if state is not None:
        body.update(rules=state.rules, seed=state.seed, options=dict(state.options),
                    seating=[seat.name for seat in room.seating],
                    log=[engine_actions.to_dict(action) for action in state.log])
    return JSONResponse(body)


def _steps(code: str) -> JSONResponse:
    """How far a room's game is (its game and the length of its log): what the bench polls while the server's
    bots are choosing, cheaper than the whole game of ``PATH``."""
    from webgame.room.rooms import registry

    room = registry.get(code)
    if room is None:
        return JSONResponse({"error": "no such room"}, status_code=404)
    game_id, actions, _step, _chat = room.version()
    return JSONResponse({"game_id": game_id, "actions": actions})


def _client(client_id: str) -> JSONResponse:
    """What the server knows of one browser's client (the bench asks about a phone that missed an update)."""
    from nicegui import Client

    from webgame.pages import evenness

    client = Client.instances.get(client_id)
    if client is None:
        return JSONResponse({"exists": False})
    pages = [page for page in _room_pages() if getattr(page, "client", None) is client]
    outbox = client.outbox
    return JSONResponse({
        "exists": True, "socket": client.has_socket_connection, "sockets": len(client._socket_to_document_id),  # noqa: SLF001
        "next_message_id": outbox.next_message_id, "history": len(outbox.message_history),
        "pending": len(outbox.updates) + len(outbox.messages), "pages": len(pages),
        "groups": [evenness.group_of(page) for page in pages],
    })


def _room_pages() -> list[Any]:
    from webgame.room.rooms import registry

    return [page for room in list(registry.rooms.values()) for page in list(room.subscribers)]


def census() -> JSONResponse:
    """What the process holds: clients, elements, and the most numerous object types (for docs/PERFORMANCE.md)."""
    from nicegui import Client

    # The server freezes what survives full collections (webgame.app), and get_objects sees only what is not frozen:
    # collect everything, count it all, then freeze it again. The game's server collects by its own call, so that its
    # next collection of everything counts from this one (the floor has none).
    game_app = sys.modules.get("webgame.app")
    if game_app is not None:
        game_app.collect_everything()
    else:
        gc.unfreeze()
        gc.collect()
    gc.unfreeze()
    objects = gc.get_objects()
    counts = Counter(type(obj).__name__ for obj in objects)
    elements = Counter(type(element).__name__ for client in list(Client.instances.values())
                       for element in list(client.elements.values()))
    body: dict[str, Any] = {"clients": len(Client.instances), "elements": elements.most_common(25),
                            "objects": len(objects), "types": counts.most_common(40)}
    wanted = [name for name in os.environ.get("BENCH_REFERRERS", "").split(",") if name]
    if wanted:  # BENCH_REFERRERS=Props,dict: what holds the objects of these types (one level up)
        owners = _dict_owners(objects)
        holders: dict[str, Counter[str]] = {name: Counter() for name in wanted}
        for obj in objects:
            holder = None
            for referent in gc.get_referents(obj):
                name = type(referent).__name__
                if name in holders:
                    holder = holder or _holder(obj, owners)
                    holders[name][holder] += 1
        body["referrers"] = {name: counter.most_common(25) for name, counter in holders.items()}
    del objects
    gc.freeze()
    if tracemalloc.is_tracing():  # PYTHONTRACEMALLOC=1: where the live Python memory was allocated
        snapshot = tracemalloc.take_snapshot()
        body["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
        first = _SNAPSHOTS.setdefault("first", snapshot)  # the first call (an idle server) is the baseline
        by, top = os.environ.get("BENCH_TRACE_BY", "traceback"), int(os.environ.get("BENCH_TRACE_TOP", "40"))
        body["by_line"] = [[str(stat.traceback), round(stat.size_diff / 1024)]
                           for stat in snapshot.compare_to(first, by)[:top]]
    return JSONResponse(body)


def _holder(obj: Any, owners: dict[int, str]) -> str:
    """A referrer's type, and for an instance's ``__dict__`` or a frame its owner (who holds what)."""
    if type(obj).__name__ == "frame":
        return f"frame {obj.f_code.co_filename.rsplit('/', 2)[-1]}:{obj.f_code.co_name}"
    if isinstance(obj, dict) and id(obj) in owners:
        return owners[id(obj)]
    return type(obj).__name__


def _dict_owners(objects: list[Any]) -> dict[int, str]:
    """id(an instance's ``__dict__``) -> "Type.__dict__"."""
    owners: dict[int, str] = {}
    for obj in objects:
        try:
            namespace = object.__getattribute__(obj, "__dict__")
        except (AttributeError, TypeError):
            continue
        if isinstance(namespace, dict):
            owners[id(namespace)] = f"{type(obj).__name__}.__dict__"
    return owners


def register(app: Any) -> None:
    """Add the routes when ``MAFIA_BENCH=1``; otherwise do nothing."""
    if enabled():
        app.add_api_route(PATH, _game, methods=["GET"], include_in_schema=False)
        app.add_api_route(MEMORY_PATH, census, methods=["GET"], include_in_schema=False)
        app.add_api_route(CLIENT_PATH, _client, methods=["GET"], include_in_schema=False)
        app.add_api_route(STEPS_PATH, _steps, methods=["GET"], include_in_schema=False)

"""The NiceGUI app: pages, static files, ``/healthz``, the database, room restore and the game clock.

``setup()`` registers everything on NiceGUI's global app; it runs again for every simulated-user test
(NiceGUI resets its routes and handlers between tests), so it must be safe to call more than once.
"""

from __future__ import annotations

import gc
import logging
import os
from pathlib import Path

from fastapi.responses import PlainTextResponse
from nicegui import app, background_tasks, ui

from webgame import bench_hook, transport
from webgame.clock import Clock
from webgame.db import register_database
from webgame.identity import storage_secret
from webgame.pages import home, results_screen, room
from webgame.rooms import registry

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
RECONNECT_TIMEOUT = 30.0  # a phone that sleeps less than this comes back to the same page, not a rebuild


def tune_gc() -> None:
    """Freeze what is alive at start (code, modules) out of the garbage collector's scans.

    Full collections are the latency tail (docs/PERFORMANCE.md, ``bench.gc_log``): every rebuilt element
    becomes cyclic garbage that only a full collection frees, and a full collection of a few hundred thousand
    objects takes hundreds of ms. Larger thresholds were tried and made fewer but longer pauses."""
    gc.collect()
    gc.freeze()


async def _start_rooms() -> None:
    restored = await registry.restore_all()
    if restored:
        log.info("restored %d rooms from the database", restored)
    background_tasks.create(Clock(registry).run(), name="game clock")


def _healthz() -> PlainTextResponse:
    return PlainTextResponse("ok")


def setup() -> None:
    register_database(app)
    app.add_static_files("/static", STATIC_DIR)
    app.add_api_route("/healthz", _healthz, methods=["GET"], include_in_schema=False)
    bench_hook.register(app)  # only with MAFIA_BENCH=1 (the load generator's own server)
    home.register()
    room.register()
    results_screen.register()
    app.on_startup(_start_rooms)
    transport.uncompressed_socket()


def run() -> None:
    tune_gc()
    ui.run(
        host=os.environ.get("HOST", "0.0.0.0"),
        port=int(os.environ.get("PORT", "8080")),
        title="Mafia",
        favicon="🎭",
        storage_secret=storage_secret(),
        session_middleware_kwargs=transport.session_cookie_kwargs(),  # HttpOnly, SameSite=Lax, Secure on HTTPS
        reconnect_timeout=RECONNECT_TIMEOUT,
        tailwind=False,  # the few utility classes the pages use are in static/mafia.css (see docs/PERFORMANCE.md)
        reload=False,
        show=False,
        **transport.RUN_KWARGS,  # no compression of what carries game state (see webgame.transport)
    )

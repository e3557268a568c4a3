"""The NiceGUI app: pages, static files, ``/healthz``, the database, room restore and the game clock.

``setup()`` registers everything on NiceGUI's global app; it runs again for every simulated-user test
(NiceGUI resets its routes and handlers between tests), so it must be safe to call more than once.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.responses import PlainTextResponse
from nicegui import app, background_tasks, ui

from webgame import framework, settings
from webgame.browser import app_manifest, heartbeat, language_cookie, public_address, storage_expiry, transport
from webgame.browser.identity import storage_secret
from webgame.cluster import process as cluster
from webgame.framework import outbox, storage_files
from webgame.language import catalogs
from webgame.pages import home, protocol, results_screen, room
from webgame.room.clock import Clock
from webgame.room.rooms import registry
from webgame.store import leases
from webgame.store.db import data_dir, register_database

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
RECONNECT_TIMEOUT = 30.0  # a phone that sleeps less than this comes back to the same page, not a rebuild


def tune_gc() -> None:
    """Keep garbage collections short: what survives one is frozen out of the next ones' scans.

    Full collections were the latency tail (docs/PERFORMANCE.md, ``bench.gc_log``): with 500 phones one
    walked 800,000 objects for 0.7-2 s, every few seconds, though almost all of them (pages, rooms, code) live
    on. So everything alive at start, and everything that survives any collection, is moved to the permanent
    generation (``gc.freeze``): the next collections walk only what is newer, and a survivor is walked once. Cycles
    among frozen objects that die later (a closed page's elements) are freed by ``full_collections``, a background
    task: one long pause every few minutes instead of one every few seconds.

    The young generation is collected by the clock (``young_collections``), not only by Python's count: the count is
    new container objects *minus the ones freed*, old ones included, so in a server as busy freeing as making (a
    room's change replaces its parts' nodes and updates; a socket's next wait replaces its last) it stays near zero
    while the young generation fills with what replaced the freed: 65,000-130,000 objects at 960 phones, walked in
    40-160 ms young collections in the play, and again by the middle generation's (issue 32, docs/PERFORMANCE.md). The
    count's collection comes after ``YOUNG_COLLECTION_AFTER`` new objects (a burst of new pages, a reconnect storm)
    instead of Python's 700: a room's change builds thousands of objects that live for the change alone."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, *gc.get_threshold()[1:])
    if _freeze_after_collection not in gc.callbacks:
        gc.callbacks.append(_freeze_after_collection)


YOUNG_COLLECTION_AFTER = 10_000  # new container objects between two collections of the young (Python's: 700)
YOUNG_COLLECTION_EVERY = 0.5  # seconds: the young generation collected at least this often (``young_collections``)
QUIET_AFTER = 10  # young collections in a row that freed nothing: the rooms are playing (``young_collections``)
QUIET_SAMPLE = 10  # ... then only one tick in this many collects; the others freeze


def _freeze_after_collection(phase: str, info: dict[str, int]) -> None:
    """After any collection, what survived it is frozen: the next ones do not walk it again."""
    if phase == "stop":
        gc.freeze()


class YoungTicks:
    """What the clock does with the young generation at each tick: collect it (its survivors then frozen, ``tune_gc``)
    or, while collections keep freeing nothing, freeze it without walking it.

    Rooms at play leave no cycle to free young (at 960 phones every young collection of a 40 s play freed nothing,
    docs/PERFORMANCE.md), and each walked 10-15 ms of objects twice a second; lobbies do (a host's settings redrawn,
    pages closed: thousands of objects a second). So after ``QUIET_AFTER`` collections in a row that freed nothing,
    only one tick in ``QUIET_SAMPLE`` collects; the first that frees something brings back a collection at every
    tick. What a freeze keeps of a cycle that died unwalked is freed by the collection of everything
    (``full_collections``)."""

    def __init__(self) -> None:
        self.quiet = 0  # collections in a row that freed nothing
        self.ticks = 0

    def tick(self) -> bool:
        """One tick: True if it collected, False if it froze."""
        self.ticks += 1
        if self.quiet >= QUIET_AFTER and self.ticks % QUIET_SAMPLE:
            gc.freeze()
            return False
        self.quiet = self.quiet + 1 if gc.collect(0) == 0 else 0
        return True


async def young_collections(every: float = YOUNG_COLLECTION_EVERY) -> None:
    """The young generation collected (or, at play, frozen: ``YoungTicks``) every ``every`` seconds: each
    collection walks half a second of new objects (10-15 ms, 35 at most, at 960 phones) instead of the 100,000 that
    Python's count let pile up; for as long as the server runs."""
    ticks = YoungTicks()
    while True:
        await asyncio.sleep(every)
        ticks.tick()


FULL_COLLECTION_EVERY = 600.0  # seconds: at most this long between two collections of everything
HEAP_GROWTH = 1.25  # ... or sooner, once Python's heap is this many times what it was after the last one
HEAP_CHECK = 10.0  # seconds between two looks at the heap's size (the sooner, the less garbage piles up)
GROWTH_SETTLE = 60.0  # seconds after the start or the last collection before growth may trigger one: a restart's
# reconnect storm builds every page again (the heap doubles) and needs the CPU the collection would take


class _Last:
    """The last collection of everything (or the start): the heap's size right after it, and when."""

    heap = 0
    at = 0.0


def collect_everything() -> None:
    """Collect everything, frozen objects included (a long pause), freeze what survives; the next one, if
    ``full_collections`` makes it, counts the growth and the time from this one, whoever asked for it (the bench's
    census of the memory collects everything before every play: the server's own collection a minute later came in
    the play, 0.5-0.8 s with every room stopped, and freed next to nothing; docs/PERFORMANCE.md)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _Last.heap, _Last.at = heap_size(), time.monotonic()


def heap_size() -> int:
    """Python's allocated memory blocks, the measure of growth: ``sys.getallocatedblocks()`` takes under a
    millisecond where ``gc.get_freeze_count()`` walks every frozen object (30-75 ms at two million, every
    ``HEAP_CHECK`` seconds: a tenth of a second of the reconnect storm's CPU)."""
    return sys.getallocatedblocks()


def _malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None elsewhere (musl, macOS)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: trim(0)


def collection_due(since_last: float, heap_now: int, heap_after_last: int) -> bool:
    """Whether ``full_collections`` collects everything now: ``since_last`` seconds after the last collection
    (or the start), with a heap of ``heap_now`` blocks against ``heap_after_last`` right after it."""
    grown = heap_now > HEAP_GROWTH * max(heap_after_last, 1)
    return since_last >= FULL_COLLECTION_EVERY or (grown and since_last >= GROWTH_SETTLE)


async def full_collections() -> None:
    """Frees the cycles that died among frozen objects (pages closed, lobbies redrawn): a collection of
    everything every ``FULL_COLLECTION_EVERY`` seconds, or sooner when Python's heap grew by a quarter
    (a burst of lobbies filling up leaves much behind), but not within ``GROWTH_SETTLE`` of the last one or of the
    start: after a restart the phones' pages are all built again at once, which is growth, not garbage.

    At every look it also hands the C allocator's free pages back to the system (``malloc_trim``): the
    screen parts' models are strings of a few kilobytes, redrawn all the time, and the holes they leave in
    glibc's heap otherwise stay in the process's memory."""
    _Last.heap, _Last.at = heap_size(), time.monotonic()
    trim = _malloc_trim()
    while True:
        await asyncio.sleep(HEAP_CHECK)
        if collection_due(time.monotonic() - _Last.at, heap_size(), _Last.heap):
            collect_everything()
        if trim is not None:
            trim()


async def _start_rooms() -> None:
    restored = await registry.restore_all()
    if restored:
        log.info("restored %d rooms from the database", restored)
    background_tasks.create(Clock(registry).run(), name="game clock")
    background_tasks.create(heartbeat.beat_forever(), name="heartbeat")  # the phones' offline badge within 3 s
    cluster.start(registry)  # a process of a cluster renews its rooms' leases (webgame.cluster.process)
    start_collections()


def start_collections() -> None:
    """The server's collections (where ``run`` tuned the collector; not in the tests' in-process app): first one of
    everything, for what the start left among the frozen survivors (the database's setup and migrations, the
    restored rooms' replays: 33,000 objects, whose memory the first phones' pages then reuse instead of growing the
    process by 10 MB more at 960 phones), then the background ones."""
    if _freeze_after_collection not in gc.callbacks:
        return
    collect_everything()
    background_tasks.create(full_collections(), name="full garbage collections")
    background_tasks.create(young_collections(), name="young garbage collections")


def _healthz() -> PlainTextResponse:
    return PlainTextResponse("ok")


def setup() -> None:
    settings.load()  # the environment, read once (webgame.settings); every module asks the settings
    # a fresh checkout's catalogs, compiled before any page speaks (webgame.language.catalogs)
    catalogs.compile_missing()
    register_database(app)
    app.add_static_files("/static", STATIC_DIR)
    app.add_api_route("/healthz", _healthz, methods=["GET"], include_in_schema=False)
    app.add_api_route(app_manifest.PATH, app_manifest.web_manifest, methods=["GET"], include_in_schema=False)
    language_cookie.register(app)  # the language picker's cookie (webgame.browser.language_cookie)
    home.register()
    room.register()
    results_screen.register()
    protocol.register()  # the games' protocols, the exports (issue 30)
    cluster.install(app, registry)  # with MAFIA_PROCESS: one process of several behind a proxy (docs/SCALING.md)
    app.on_startup(_start_rooms)
    app.on_startup(storage_expiry.start)  # browsers' storage without a seat expires (webgame.browser.storage_expiry)
    transport.uncompressed_socket()
    # every change to NiceGUI and the libraries under it, after the cluster's routing (webgame/framework/__init__.py)
    framework.install(app, behind_proxy=lambda: leases.ACTIVE)
    outbox.after_handshake(heartbeat.caught_up)  # a page back from a loss knows when it is in step (static/phone.js)


BROWSER_STORAGE = "browsers"  # NiceGUI's per-browser storage (the seat tokens), in MAFIA_DATA_DIR


def place_browser_storage() -> Path:
    """NiceGUI keeps every browser's storage (its seat tokens) in ``./.nicegui`` of the working directory unless
    told otherwise: put it in the data folder, next to the database and the storage secret, unless
    ``NICEGUI_STORAGE_PATH`` says where."""
    chosen = settings.current().browser_storage
    path = chosen.resolve() if chosen else (data_dir() / BROWSER_STORAGE).resolve()
    storage_files.place(path)
    return path


def run() -> None:
    public_address.check_public_url()  # a malformed PUBLIC_URL would break every link: refused with what to write
    port = settings.current().port
    if settings.current().show_link:  # MAFIA_SHOW_LINK=1 (bash scripts/play): where phones join, once started
        app.on_startup(lambda: print(public_address.announce(port), flush=True))
    tune_gc()
    place_browser_storage()
    ui.run(
        host=settings.current().host,
        port=port,
        title="Mafia",
        favicon=STATIC_DIR / "app-icon.svg",  # one cached file, not a data URL in every page
        dark=None,  # the page's colours are the phone's (static/phone.js: mafiaDayDark), the night's are dark
        storage_secret=storage_secret(),
        session_middleware_kwargs=transport.session_cookie_kwargs(),  # HttpOnly, SameSite=Lax, Secure on HTTPS
        reconnect_timeout=RECONNECT_TIMEOUT,
        tailwind=False,  # the few utility classes the pages use are in static/mafia.css (see docs/PERFORMANCE.md)
        reload=False,
        show=False,
        **transport.RUN_KWARGS,  # no compression of what carries game state (see webgame.browser.transport)
    )

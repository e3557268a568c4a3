"""The framework: every change this game makes to NiceGUI and the libraries under it, and nothing else.

Each module is one change, written for NiceGUI 3.18.0 (``PINNED``; the version ``pyproject.toml`` pins) and the
python-socketio, python-engineio, Starlette, uvicorn and aiosqlite it brings; ``install(app)`` puts every one in
place, the same way for the server and for the simulated phones of the tests (``webgame.app.setup``), and refuses
to start on another NiceGUI. What each replaces, and the need measured for it (docs/PERFORMANCE.md; the table and
the proposals for NiceGUI itself: docs/FRAMEWORK.md):

- ``outbox``: ``Outbox.loop`` without its wake-up every second (5-9 % of the CPU with a thousand phones), a page's
  messages sent by one callback for every changed page without waking its loop (about 4 % of the main thread's
  profile samples at 80 rooms), hooks after every handshake, and ``expects_arguments`` remembered per function (4 %
  when lobbies become games).
- ``sent_updates``: a page's next update serialized once: its size for the padding, and the bytes then sent.
- ``deleted_elements``: a deleted element's props, classes and style freed with it (each is a cycle with its own
  change handler: 190,000 objects, 25 MB kept after 960 phones' lobbies became games).
- ``elements``: the outbox's loaded scripts and an element's dict, as the padding reads them (no reload of a
  script on one phone and not another: a size side channel).
- ``asgi_layers``: NiceGUI's three ``BaseHTTPMiddleware`` layers as plain ASGI layers (about 5 % of the storm).
- ``page_template``: a lighter page (no fonts, Quasar's CSS cut to what is drawn: 471 KB to 271 KB for ``/``), our
  icons and colours, NiceGUI's texts in the reader's language, a faster reconnect back-off.
- ``page_escape``: a page's HTML escaped by five ``str.replace`` calls instead of ``str.translate`` (7-10 %).
- ``page_adoption``: a page built again in place for its socket after a restart (8 ms of CPU a phone, no reload).
- ``stale_sockets``: a socket of a page this process does not have refused before the app (1.2 ms, was 1.5-2.2).
- ``page_sockets``: a page's sockets read and closed (NiceGUI has no call for it): page limits, a cluster's moved
  rooms, a page deleted under a live socket.
- ``engine_reader``: engine.io's websocket reader without a task and a timer per packet a phone sends (a few per
  cent of an action at 80 rooms).
- ``socket_hooks``: where the socket guard counts every packet before engine.io and socket.io read it (issue 26:
  10.4 MB of tracebacks in 10 s, none of it counted); a page's acknowledgements and taps read straight from their
  frame, counted and checked the same (``quick_events``: an acknowledgement 70 -> 50 µs).
- ``socket_transport``: text-only socket.io packets (15 % of the CPU at 40 rooms), one page's message sent without
  a task (a fifth at 80 rooms), the heartbeat's one packet queued on every socket, uvicorn on ``websockets``'
  protocol instead of ``wsproto`` (part of 10 % of the storm; the server only: the simulated phones have no
  uvicorn).
- ``storage_files``: a browser's storage file placed in the data folder and read without being written back (a
  tenth of the storm, and 5 % for the thread).
- ``browser_storage``: a browser's storage in PostgreSQL for a cluster (a phone keeps its seat on another machine).
- ``sqlite_thread``: the action log's write as one function on aiosqlite's connection: on the loop's own thread
  (aiosqlite's connections opened usable there; 4 % of an action at 80 rooms), else in one trip to its thread.
- ``engineio_client``: engine.io's websocket client imported without ``aiohttp`` (0.16-0.24 s of every start).

May import: the libraries, ``webgame.settings``, ``webgame.language``. Nothing of the store, the rooms or the pages.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any

PINNED = "3.18.0"  # the NiceGUI every change here was written and measured for (pyproject.toml pins it)


class WrongNiceGUI(RuntimeError):
    """The installed NiceGUI is not the one the framework's changes were written for."""


def check_version(found: str | None = None) -> None:
    """Refuse to start on another NiceGUI than ``PINNED``: each change here replaces a piece of its code."""
    found = metadata.version("nicegui") if found is None else found
    if found != PINNED:
        raise WrongNiceGUI(
            f"NiceGUI {found} is installed, but this game's changes to NiceGUI were written for NiceGUI {PINNED} "
            f"(pyproject.toml pins nicegui=={PINNED}). Install that one (pip install -e .), or, to move to "
            f"{found}, check every change listed in docs/FRAMEWORK.md (webgame/framework/) against it first.")


def install(app: Any, *, behind_proxy: Callable[[], bool] = lambda: False) -> None:
    """Put every change in place, before ``ui.run`` (idempotent: ``webgame.app.setup`` runs again for every
    simulated-phone test). ``behind_proxy``: whether this process is one of a cluster behind its proxy (asked at
    every socket of a gone page; ``webgame.store.leases.ACTIVE``). Call it after any middleware of the app's own
    (the cluster's ``Routing``): the stale sockets' layer must see a socket before it."""
    from nicegui import core

    from webgame.framework import (
        asgi_layers,
        deleted_elements,
        engine_reader,
        outbox,
        page_adoption,
        page_escape,
        page_template,
        socket_transport,
        stale_sockets,
        storage_files,
    )

    check_version()
    page_template.install()
    page_escape.install()
    outbox.install()
    engine_reader.install()
    deleted_elements.install()
    storage_files.quiet_reads()
    asgi_layers.install()
    socket_transport.sansio_websockets()
    socket_transport.websocket_protocols()
    if core.sio is not None:
        socket_transport.text_packets(core.sio)
        socket_transport.direct_emit(core.sio.manager)
    page_adoption.configure(behind_proxy)
    stale_sockets.install(app)

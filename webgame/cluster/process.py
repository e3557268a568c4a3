"""One game process of a cluster: several processes behind a reverse proxy, on one PostgreSQL (docs/SCALING.md).

Set ``MAFIA_PROCESS`` (a short name, e.g. ``p1``, the one the proxy's configuration gives this process) and a
PostgreSQL ``DATABASE_URL`` to run as one. Then:

- **Routing.** Every URL of a room carries its code: its pages (``/r/CODE``, ``/r/CODE/screen``, ``/qr/CODE``)
  and, through ``X-Forwarded-Prefix: /r/CODE`` which ``Routing`` sets on the room's pages, its socket and
  NiceGUI's assets (``/r/CODE/_nicegui_ws/...``, ``/r/CODE/_nicegui/...``). The proxy hashes the code to a
  process (nginx: ``hash $room consistent``), so every request of a room reaches the same process, and a dead
  process's rooms, only those, move to the others. Pages without a room (the start page) get the prefix
  ``/p/NAME``: their socket comes back to the process that built them. ``Routing`` strips either prefix.
- **Ownership.** A process runs a room only while it holds the room's lease (``webgame.store.leases``); the first
  request for a room takes it (``claim``) and rebuilds the room from its action log. A room another process
  holds is asked for (the proxy now sends it here: that process was thought dead, or was added): the holder
  hands it over at its next renewal, or its lease lapses. A process that loses a lease drops the room and
  closes its pages: their phones reconnect through the proxy and are seated again by their browser's token.
- **Rate limits** are shared through PostgreSQL (``webgame.cluster.shared_limits``).
- **Browser storage** (the seat tokens) is kept in PostgreSQL (``webgame.framework.browser_storage``), so that a phone
  finds its seat on a process of any machine; it is read again before a page is built.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import time
from typing import Any

from nicegui import Client, background_tasks
from starlette.types import ASGIApp, Receive, Scope, Send

from webgame import settings
from webgame.cluster import shared_limits
from webgame.framework import browser_storage, page_adoption, page_sockets
from webgame.guard import ratelimit
from webgame.room.rooms import Registry, Room
from webgame.store import leases, queries as store
from webgame.store.leases import Fence

log = logging.getLogger(__name__)

PROCESS_ENV = "MAFIA_PROCESS"
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_PREFIXED = re.compile(r"^/(?:r/[A-Za-z0-9]{1,12}|p/[A-Za-z0-9_-]{1,32})(/_nicegui(?:_ws)?/.*)$")
_ROOM_PAGE = re.compile(r"^/r/([A-Za-z0-9]{1,12})(/screen)?$")
_UNDER_PREFIX = re.compile(r"^/(?:r/[A-Za-z0-9]{1,12}|p/[A-Za-z0-9_-]{1,32})(/.*)$")
_CODE_PATH = re.compile(r"^/(r|qr)/([A-Za-z0-9]{1,12})(/.*)?$")
_ROOM_SLASH = re.compile(r"^(/r/[A-Za-z0-9]{1,12}(?:/screen)?)/$")  # a room page typed with a slash at the end


def process_name() -> str | None:
    """This process's name in the cluster (``MAFIA_PROCESS``), or None: a single process, no cluster."""
    name = settings.current().process
    if not name:
        return None
    if not _NAME.match(name):
        raise ValueError(f"{PROCESS_ENV} must be 1-32 letters, digits, '-' or '_': {name!r}")
    return name


class Cluster:
    """This process's leases: claimed on a room's first request, renewed, handed over, lost."""

    def __init__(self, registry: Registry, name: str, renew_every: float = leases.RENEW_SECONDS) -> None:
        self.registry, self.name, self.renew_every = registry, name, renew_every
        self.owner = f"{name}:{os.getpid()}:{secrets.token_hex(4)}"  # one incarnation: a restart is a new owner
        self.codes: dict[int, str] = {}  # room id -> code, of the rooms held
        self._claims: dict[str, asyncio.Future[bool]] = {}  # code -> the claim under way
        self.leaving = False  # stopping (``leave``): no room is taken any more

    async def claim(self, code: str) -> bool:
        """Take the room's lease, waiting (at most a lease's life and a little) for its holder to hand it over
        or its lease to lapse. False: no such room, or its holder keeps it.

        One claim per room at a time: after a failover every phone of a room reloads at once, and a dozen
        pollers per room would queue behind each other for the database's few connections."""
        running = self._claims.get(code)
        if running is None:
            running = asyncio.ensure_future(self._claim(code))
            self._claims[code] = running
            running.add_done_callback(lambda _: self._claims.pop(code, None))
        return await asyncio.shield(running)

    async def _claim(self, code: str) -> bool:
        record = await store.get_room_by_code(code)
        if record is None or self.leaving:
            return False
        if record.id in self.codes and record.id in leases.HELD:
            return True  # held already (its room is being rebuilt for another page)
        give_up, asked = time.monotonic() + leases.TTL_SECONDS + 3.0, False
        while True:
            sent = time.monotonic()
            lease = await leases.acquire(record.id, self.owner)
            if lease is not None:
                if not self.codes:  # the first room: the renewals' validity starts here
                    leases.extend_validity(sent)
                leases.HELD[record.id], self.codes[record.id] = lease, record.code
                leases.DROPPED.discard(record.id)
                return True
            if time.monotonic() > give_up:
                log.warning("room %s: its holder keeps it, not loaded here", record.code)
                return False
            if not asked:
                await leases.want(record.id, self.owner)
                asked = True
            await asyncio.sleep(0.2)

    async def run(self) -> None:
        """Renew the leases every ``renew_every`` seconds; drop the rooms lost, hand over the rooms asked for."""
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                await self.renew()
            except Exception:
                log.exception("cluster: renewing the leases failed")

    async def renew(self) -> None:
        held = {room_id: lease for room_id in self.codes if (lease := leases.HELD.get(room_id)) is not None}
        sent = time.monotonic()
        lost, wanted = await leases.renew(held)
        leases.extend_validity(sent)  # the rooms not lost are ours for a lease's life from when we asked
        lost = {room_id for room_id in lost if leases.HELD.get(room_id) == held[room_id]}  # not re-taken meanwhile
        for room_id in lost:
            log.warning("room %s: lease lost, another process runs it now", self.codes.get(room_id))
            await self.drop(room_id, None)
        for room_id in wanted:
            log.info("room %s: handed over to the process the proxy sends it to", self.codes.get(room_id))
            await self.drop(room_id, held[room_id])

    async def drop(self, room_id: int, release: Fence | None) -> None:
        """Stop running a room: out of the registry (under its lock: no action in flight), its lease released
        (``release``) or already lost, its pages closed so that their phones reconnect where it runs now."""
        code = self.codes.pop(room_id, None)
        leases.DROPPED.add(room_id)  # its other writes are refused from now on (leases.room_fence)
        room = self.registry.rooms.get(code) if code is not None else None
        if room is not None:
            async def forget() -> None:  # under the room's lock: after the action in flight, before any other
                self.registry.rooms.pop(room.code, None)
                leases.HELD.pop(room_id, None)

            await room.change(None, forget)
        leases.HELD.pop(room_id, None)
        if release is not None:
            await leases.release(room_id, release)
        if room is not None:
            close_pages(room)


    async def leave(self) -> None:
        """A graceful stop (SIGTERM: a rolling restart, docs/SCALING.md): every room handed over at once, its
        lease released, so the process its code goes to next takes it without waiting for the lease to lapse."""
        self.leaving = True
        for room_id in list(self.codes):
            lease = leases.HELD.get(room_id)
            try:
                await self.drop(room_id, lease)
            except Exception:
                log.exception("cluster: releasing room %s at the stop failed (its lease lapses)", room_id)


def close_pages(room: Room) -> None:
    """Delete the room's pages (phones and TVs) and close their sockets' transports: each browser's socket.io
    reconnects by itself through the proxy, to the process that runs the room now, which builds its page again
    in place (``webgame.framework.page_adoption``)."""
    for page in list(room.subscribers):
        client = getattr(page, "client", None)
        if isinstance(client, Client):
            page_sockets.close_page(client, reconnect=True)


class Routing:
    """ASGI middleware: the prefixes the proxy routes by (see the module's docstring), and one spelling of a code.

    A code in a URL is sent to its process by its spelling; ``/r/k7qxm`` would hash elsewhere than ``/r/K7QXM``,
    so a code that is not in capitals is redirected to them first. NiceGUI puts a page's prefix before every
    link and navigation of the page too (``ui.navigate.to("/r/CODE")`` on the start page is ``/p/NAME/r/CODE``):
    such a URL is redirected to the path after the prefix, which the proxy then sends where it belongs. But
    ``/r/CODE/`` (and ``/r/CODE/screen/``) is the room page typed with a slash: redirected to the room."""

    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app, self.prefix = app, f"/p/{name}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        inner = _PREFIXED.match(path)
        if inner is not None:  # the route it came by is kept: only a room's own may claim it (page_adoption)
            rest = inner.group(1)
            scope = {**scope, "path": rest, "raw_path": rest.encode(), page_adoption.ROUTE: path[:-len(rest)]}
        elif scope["type"] == "http":
            coded = _CODE_PATH.match(path)
            if coded is not None and coded.group(2) != coded.group(2).upper():
                await _redirect(send, f"/{coded.group(1)}/{coded.group(2).upper()}{coded.group(3) or ''}",
                                scope.get("query_string", b""))
                return
            slash = _ROOM_SLASH.match(path)
            if slash is not None:  # /r/CODE/ is the room, not the start page
                await _redirect(send, slash.group(1), scope.get("query_string", b""))
                return
            page = _ROOM_PAGE.match(path)
            linked = _UNDER_PREFIX.match(path) if page is None else None
            if linked is not None:
                await _redirect(send, linked.group(1), scope.get("query_string", b""))
                return
            prefix = f"/r/{page.group(1)}".encode() if page is not None else self.prefix
            headers = [(key, value) for key, value in scope.get("headers", []) if key != b"x-forwarded-prefix"]
            scope = {**scope, "headers": [*headers, (b"x-forwarded-prefix", prefix)]}
            if scope.get("method") == "GET" and (page is not None or path == "/"):
                await browser_storage.refresh(scope, headers)
        await self.app(scope, receive, send)


async def _redirect(send: Send, location: str, query: bytes) -> None:
    target = location + ("?" + query.decode("latin-1") if query else "")
    await send({"type": "http.response.start", "status": 307,
                "headers": [(b"location", target.encode()), (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def install(app: Any, registry: Registry) -> Cluster | None:
    """Make this process one of a cluster if ``MAFIA_PROCESS`` says so: leases and routing (``start`` runs
    the renewals once the server runs)."""
    name = process_name()
    if name is None:
        return None
    cluster = Cluster(registry, name)
    registry.claims = cluster
    leases.ACTIVE = True
    browser_storage.install(browser_storage.on_postgres())  # the seat tokens in PostgreSQL, not in files
    ratelimit.SHARED = True  # the rate limits hold across the processes (webgame.cluster.shared_limits)
    if not any(middleware.cls is Routing for middleware in app.user_middleware):
        app.add_middleware(Routing, name=name)
    app.on_shutdown(cluster.leave)  # (NiceGUI's shutdown handlers run while the database is still open)
    log.info("cluster: process %s (lease owner %s)", name, cluster.owner)
    return cluster


def start(registry: Registry) -> None:
    """At startup: renew this process's leases for as long as it runs (nothing without a cluster)."""
    if isinstance(registry.claims, Cluster):
        background_tasks.create(registry.claims.run(), name="cluster leases")
        background_tasks.create(shared_limits.run(), name="shared rate limits")

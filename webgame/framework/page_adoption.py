"""A phone's page built again in place after a restart, under the page id its browser still holds: no reload.

After a restart (or when a process of a cluster takes a room over) every phone's socket comes back with the id
of a page the process no longer has. NiceGUI refuses such a socket and its script reloads the page: the
refusal, a page load and a second socket, about 8 ms of the server's CPU per phone, most of the reconnect
storm (docs/PERFORMANCE.md). Here the socket's own request does the page's work instead:

- the browser's socket query names its page (``mafia_page``, the address bar's path, which the page's script
  keeps there: ``page_template.ADOPT_SCRIPT``); only a page registered here (a room's phone page,
  ``/r/CODE``) is built this way, anything else is refused as before and reloads;
- the page is built by the same builder as an HTTP request's, for the browser of the socket's own session
  cookie (the seat is the cookie's, exactly as on a reload), with the same limits (in a cluster only for a
  socket that came by its room's own prefix: only such a request may claim a room); the builder says whether
  it built the page (no such room or a limit: refused, and the reload answers it), or that the page cannot be
  built yet (a cluster's room moving to this process from a dead one: ``LATER``, the socket is closed right
  after it opened and socket.io comes back after its back-off, no reload);
- the page's client takes the browser's old id, its outbox the browser's next message number, and its
  elements are numbered from ``element_base()`` on, above every number the browser's old page used (those
  are never reused for another element: NiceGUI's script would keep the old element's event listeners);
- then the socket goes on to NiceGUI as a socket of an existing page, and the page's first update is the
  whole new tree, which replaces the old one under the page's root (``0``, the same layout on every page).
  Behind a cluster's proxy (``behind_proxy()``) the socket is closed right after it opened instead, like a
  ``LATER`` one, and finds its page when it comes back (0.25-0.75 s later): nginx takes a process that failed
  (a restart) for alive again only once a request to it has *ended*, and tries it once per ``fail_timeout``
  until then; a socket kept open as the first such request kept a restarted process half dead for a minute,
  its rooms' phones answered "no live upstreams" meanwhile (``bench.cluster_load --restart-all``).

The head of the page is the old page's (our head is the same on every room page, and the language's script
already ran); the browser's script state stays, and what the builder asks the browser to run is run again
(it is written to be run again: ``history.replaceState``, the wake lock).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable

from nicegui import Client, storage
from nicegui.page import page as Page
from starlette.requests import Request
from starlette.types import Scope

from webgame.framework import asgi_layers, browser_storage

log = logging.getLogger(__name__)

PAGE_PARAM = "mafia_page"  # the socket's query: the page's path, as the browser's address bar shows it
# a cluster's socket: the prefix it came by (``/r/CODE``, ``/p/NAME``; webgame.cluster.process.Routing)
ROUTE = "mafia_route"
# (the path's first group, request) -> the page was built (True), not (False: refuse), not yet (None: LATER)
Builder = Callable[[str, Request], Awaitable[bool | None]]
LATER = None  # what ``adopt`` says of a page that cannot be built yet: its socket is told to come back
_PAGES: list[tuple[re.Pattern[str], Page, Builder]] = []
_BEHIND_PROXY: list[Callable[[], bool]] = [lambda: False]


def configure(behind_proxy: Callable[[], bool]) -> None:
    """Tell the adoption how to know that this process is one of a cluster behind its proxy (asked at every socket:
    the cluster is set up after the framework is installed; ``webgame.store.leases.ACTIVE``)."""
    _BEHIND_PROXY[0] = behind_proxy


def behind_proxy() -> bool:
    """Whether this process is one of a cluster behind its proxy (``webgame.cluster.process``)."""
    return _BEHIND_PROXY[0]()


def register(path: re.Pattern[str], route: Page, builder: Builder) -> None:
    """A page that a socket of a gone page may have built again (its builder runs inside the new client)."""
    _PAGES[:] = [entry for entry in _PAGES if entry[0].pattern != path.pattern]
    _PAGES.append((path, route, builder))


def element_base() -> int:
    """The first element number of a page built again: the time in milliseconds. A page's elements are
    numbered from 0 when it is loaded, and a page built again at an earlier time would have had to make one
    element per millisecond since then to reach this number (well within JavaScript's exact integers)."""
    return int(time.time() * 1000)


def _http_scope(scope: Scope, path: str, code: str) -> Scope:
    """The request this page would have come with: the socket's own headers, cookies and session."""
    headers = [(key, value) for key, value in scope.get("headers", []) if key != b"x-forwarded-prefix"]
    if behind_proxy():  # a cluster's room page is built under its room's prefix (webgame.cluster.process.Routing)
        headers.append((b"x-forwarded-prefix", f"/r/{code}".encode()))
    return {**scope, "type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
            "headers": headers, "state": {}, "http_version": "1.1", "scheme": "https" if scope.get("scheme") == "wss"
            else "http"}


async def adopt(scope: Scope, query: dict[str, str]) -> bool | None:
    """Build the page of this socket (a websocket whose page this process lacks; ``query``: its query, one
    value per name) under its old id: True when built, False when not (then the socket is refused, and the
    browser reloads), ``LATER`` when not yet."""
    path, client_id = query.get(PAGE_PARAM, ""), query.get("client_id", "")
    session = scope.get("session")
    if not isinstance(session, dict) or not session.get("id") or not _is_uuid(client_id):
        return False
    try:
        next_message = int(query.get("next_message_id", ""))
    except ValueError:
        return False
    for pattern, route, builder in _PAGES:
        match = pattern.match(path)
        if match is not None and next_message >= 0 and _by_its_route(scope, match.group(1)):
            return await _build(scope, path, match.group(1), route, builder, client_id, next_message)
    return False


def _by_its_route(scope: Scope, code: str) -> bool:
    """In a cluster, whether the socket came by its room's own prefix (``/r/CODE/_nicegui_ws/...``), which the
    proxy sends to the process of that code: building the page may claim the room, and a socket sent elsewhere
    (``/p/NAME/...`` reaches any process its sender names, another code's prefix another process) must not
    move it. A page of no room, or a single process, has no such route to check."""
    route = scope.get(ROUTE) or str(scope.get("path", "")).partition("/_nicegui_ws/")[0]  # (before Routing)
    return not behind_proxy() or route == f"/r/{code}"


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


async def _build(scope: Scope, path: str, code: str, route: Page, builder: Builder, client_id: str,
                 next_message: int) -> bool | None:
    http = _http_scope(scope, path, code)
    if behind_proxy():
        await browser_storage.refresh(http, http["headers"])
    request = Request(http)
    client: Client | None = None
    try:
        async with asgi_layers.tracking(request):
            client = Client(route, request=request)
            client.next_element_id = element_base()
            with client:
                built = await builder(code, request)
        request.state.responded = True
        if built is not True or client.is_deleted or client_id in Client.instances:
            _drop(client)  # a page built meanwhile under the same id (a second try of the socket) takes it
            return LATER if built is LATER else client_id in Client.instances
        del Client.instances[client.id]
        client.id = client_id
        Client.instances[client_id] = client
        client._response_built = True  # noqa: SLF001 (the head is the browser's: later changes go by script)
        client.outbox.next_message_id = next_message
        for element in list(client.elements.values()):
            client.outbox.enqueue_update(element)
        return LATER if behind_proxy() else True
    except Exception:
        log.exception("page %s: could not build it again for a socket; the browser reloads it", path)
        _drop(client)
        return False
    finally:
        storage.request_contextvar.set(None)  # the socket's task goes on to NiceGUI without this request


def _drop(client: Client | None) -> None:
    """A page not built after all (or not needed: its id was taken meanwhile): the new client goes."""
    if client is not None and not client.is_deleted and Client.instances.get(client.id) is client:
        client.delete()

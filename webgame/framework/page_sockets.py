"""A page's sockets, read and closed from outside NiceGUI: the one place that reads ``Client``'s socket bookkeeping.

NiceGUI keeps which sockets show a page (``Client._socket_to_document_id``), the deletions it has planned for a
page whose socket dropped (``_delete_tasks``) and the request that built the page (``_request``, whose property
raises when it is missing) to itself, and has no call that closes a page's sockets. The page limits
(``webgame.guard.page_limits``), the cluster (``webgame.cluster.process``), the room page (``webgame.pages.room``)
and the socket guard each read them and closed sockets their own way; they ask here now.

Two ways to close a socket, for two purposes (``NICEGUI-NOTES``: "Found in a cluster"):

- ``reconnect=False``: socket.io's disconnect packet. The browser's socket.io then never reconnects, and
  ``nicegui.js`` shows its "Connection lost" notice: the end of a page that must not come back by itself.
- ``reconnect=True``: only the engine.io transport is closed. The browser takes it for a lost connection and
  reconnects after its back-off, to whatever process runs its room now, which builds its page again
  (``webgame.framework.page_adoption``) or lets NiceGUI's script reload it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from nicegui import Client, background_tasks, core
from starlette.requests import Request


def sockets_of(client: Client) -> list[str]:
    """The socket.io ids of the sockets that did the handshake for this page (none once it is closed)."""
    return list(client._socket_to_document_id)  # noqa: SLF001


def shows_page(client: Client, sid: str) -> bool:
    """Whether the socket ``sid`` is one of this page's own (it did the handshake for this very page)."""
    return sid in client._socket_to_document_id  # noqa: SLF001


def page_request(client: Client) -> Request | None:
    """The request the page was built for, or None (``Client.request`` raises instead)."""
    request: Request | None = client._request  # noqa: SLF001
    return request


def waiting_for_reconnect(client: Client) -> bool:
    """Whether NiceGUI is counting down the deletion of this page: its socket dropped a moment ago, and the
    page waits ``reconnect_timeout`` for it to come back."""
    return bool(client._delete_tasks)  # noqa: SLF001


def _take_sockets(client: Client) -> list[str]:
    """The page's sockets, forgotten by NiceGUI together with its planned deletions: NiceGUI would otherwise delete
    the page a second time when the sockets closed here say goodbye."""
    sockets = sockets_of(client)
    client._socket_to_document_id.clear()  # noqa: SLF001
    for task in client._delete_tasks.values():  # noqa: SLF001
        task.cancel()
    client._delete_tasks.clear()  # noqa: SLF001
    return sockets


def close_page(client: Client, *, reconnect: bool) -> None:
    """Delete a live page and close its sockets (see the module's docstring for ``reconnect``). A page already
    deleted, or no longer NiceGUI's, is left alone."""
    if client.is_deleted or Client.instances.get(client.id) is not client:
        return
    sockets = _take_sockets(client)
    client.delete()
    _close_all(sockets, reconnect)


def close_sockets(client: Client, *, reconnect: bool) -> int:
    """Close the sockets still open on a page being deleted (from its delete handler: a page deleted under a live
    socket would stay frozen in its browser); how many there were."""
    sockets = _take_sockets(client)
    _close_all(sockets, reconnect)
    return len(sockets)


LEFT_GRACE = 3.0  # seconds a page that sent its browser elsewhere waits for its socket to come back


def delete_once_left(client: Client) -> None:
    """A page that has just sent its browser to another address (the start page, its room made or found): deleted
    ``LEFT_GRACE`` seconds after its socket closes unless the socket came back, not after NiceGUI's reconnect wait (30 s
    of a page nobody will see again: 80 hosts making their rooms within a quarter of a minute held 80 start pages,
    30 MB; docs/PERFORMANCE.md). A socket that dropped before the browser got the address and comes back within
    that moment finds its page and the address; later, NiceGUI's script reloads the page and builds it anew."""

    def left() -> None:
        background_tasks.create(_delete_unless_back(client, LEFT_GRACE), name="a page its browser left")

    client.on_disconnect(left)


async def _delete_unless_back(client: Client, grace: float) -> None:
    await asyncio.sleep(grace)
    if not client.is_deleted and not sockets_of(client):
        close_page(client, reconnect=False)


def _close_all(sockets: list[str], reconnect: bool) -> None:
    for sid in sockets:
        background_tasks.create(close_socket(sid, reconnect=reconnect), name="close a closed page's socket")


async def close_socket(sid: str, *, reconnect: bool) -> None:
    """Close one socket.io socket (``sid``): its transport only (``reconnect``), or its socket.io session."""
    sio = core.sio
    if sio is None:
        return
    if not reconnect:
        await sio.disconnect(sid)
        return
    eio_sid = sio.manager.eio_sid_from_sid(sid, "/")
    socket = sio.eio.sockets.get(eio_sid) if eio_sid is not None else None
    if socket is None:
        return
    await sio.eio.disconnect(eio_sid)  # engine.io's close packet (a polling browser closes on it) ...
    await socket.queue.put(None)  # ... and the websocket itself: engine.io's writer stops and closes it (a
    # browser's engine.io ignores that packet on a websocket and would wait for its ping timeout, ~45 s)


async def end_engine_socket(sio: Any, eio_sid: str) -> None:
    """End an engine.io socket for good (a flooding one, ``webgame.guard.socket_guard``): socket.io's disconnect
    when it joined the namespace (its page's script then does not reconnect), else the bare engine.io socket."""
    sid = sio.manager.sid_from_eio_sid(eio_sid, "/")
    if sid is not None:
        await sio.disconnect(sid)
    else:
        await sio.eio.disconnect(eio_sid)

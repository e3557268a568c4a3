"""How many pages a room keeps alive, and whose pages go first when there are too many.

A room page is a whole element tree subscribed to its room and redrawn at every change: 110 KB and a share of
every honest tap's time each. So, per room:

- a seat has at most ``SEAT_PAGES`` pages: a player's new tab or reload beyond that closes one of his own
  (one that never connected first, else his oldest): his return is never refused;
- pages without a seat (a new player on the join form, a spectator, the TV) are at most ``WATCHERS`` all told;
  when a new one comes and the room is full, a page of the address holding the most of them is closed, if
  that address holds more than ``FAIR_SHARE`` (one that never connected first, else its newest: a long-open
  page, the TV, stays): a flooder's pages make room, not the table's; if no address holds more, the newcomer
  is told the room is full (and his page tries again by itself);
- a page that has not connected its socket within ``CONNECT_GRACE`` seconds is deleted: a plain GET (a
  script, not a browser) builds a page that never proves itself, and would otherwise stay for the framework's
  minute. A seat's page gets ``SEAT_CONNECT_GRACE``: after a restart every phone reloads at once, and on a
  server short of CPU a page's HTML and then its socket's connect can queue for longer than 15 s; deleting
  such a page made its phone reload and the server build it again, more work for a server already behind
  (the reconnect storm did not end). A seat holds at most ``SEAT_PAGES`` pages, so a script with a seat's
  cookie keeps at most that many unconnected pages, for a minute.

Closing a page deletes its NiceGUI client and ends its sockets with socket.io's disconnect
(``webgame.framework.page_sockets``): its browser shows "Connection lost" and does not come back by itself. Nothing here
reads a page's contents, only who it belongs to.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass, field

from nicegui import Client, background_tasks

from webgame.framework import page_sockets

log = logging.getLogger(__name__)

SEAT_PAGES = 4
WATCHERS = 30
FAIR_SHARE = 3
CONNECT_GRACE = 15.0
SEAT_CONNECT_GRACE = 60.0
SETTLING = 3.0  # seconds a new page has to connect before it may be closed for another one


@dataclass(eq=False, slots=True)
class LivePage:
    """One live page a room counts: its client, whose it is (a seat's token hash, or None) and from which address."""

    client: Client
    seat: str | None
    address: str


@dataclass(slots=True)
class RoomPages:
    """The pages one room holds for browsers without a seat there (spectators), oldest first."""

    pages: list[LivePage] = field(default_factory=list)  # oldest first

    def watchers(self) -> list[LivePage]:
        return [page for page in self.pages if page.seat is None]

    def of_seat(self, seat: str) -> list[LivePage]:
        return [page for page in self.pages if page.seat == seat]


_ROOMS: dict[str, RoomPages] = {}


def room_pages(code: str) -> RoomPages:
    return _ROOMS.setdefault(code, RoomPages())


def has_room_for_watcher(code: str, address: str) -> bool:
    """Whether a page without a seat may be built now (a flooder's page is closed to make room). Nothing is kept
    for a code without pages here (a wrong code, a room another process of a cluster runs)."""
    pages = _ROOMS.get(code)
    if pages is None:
        return True
    watchers = pages.watchers()
    if len(watchers) < WATCHERS:
        return True
    heaviest, count = Counter(page.address for page in watchers).most_common(1)[0]
    if count <= FAIR_SHARE:
        return False
    victim = _victim([page for page in watchers if page.address == heaviest])
    if victim is None:
        return False
    _close(pages, victim)
    return True


def hold(code: str, client: Client, seat: str | None, address: str) -> None:
    """Count a page that has just been built (call once, from its builder)."""
    pages = room_pages(code)
    if seat is not None:
        mine = pages.of_seat(seat)
        while len(mine) >= SEAT_PAGES:
            victim = _victim(mine, newest_connected=False) or mine[0]
            _close(pages, victim)
            mine.remove(victim)
    page = LivePage(client, seat, address)
    pages.pages.append(page)
    client.on_delete(lambda: _forget(code, page))
    grace = SEAT_CONNECT_GRACE if seat is not None else CONNECT_GRACE
    background_tasks.create(_expire_unconnected(client, grace), name="a page that never connects")


def _victim(candidates: list[LivePage], newest_connected: bool = True) -> LivePage | None:
    """Which of these pages to close: the oldest that never connected (and is old enough to have tried), else a
    connected one (the newest for watchers: a long-open page, the TV, stays; the oldest of a seat's tabs)."""
    now = time.time()
    unconnected = [page for page in candidates if not page.client.has_socket_connection
                   and now - page.client.created > SETTLING]
    if unconnected:
        return unconnected[0]
    connected = [page for page in candidates if page.client.has_socket_connection]
    if not connected:
        return None
    return connected[-1] if newest_connected else connected[0]


def seated(code: str, client: Client, seat: str) -> None:
    """A page has just taken a seat (the join form): it counts for that seat from now on."""
    pages = room_pages(code)
    for page in pages.pages:
        if page.client is client:
            page.seat = seat


async def _expire_unconnected(client: Client, grace: float | None = None) -> None:
    await asyncio.sleep(CONNECT_GRACE if grace is None else grace)
    # Not a page whose socket dropped a moment ago: NiceGUI deletes that one itself after its reconnect timeout.
    if not client.is_deleted and not client.has_socket_connection and not page_sockets.waiting_for_reconnect(client) \
            and client.id in Client.instances:
        client.delete()


def expire_unconnected(client: Client) -> None:
    """The same for a page that is not a room's (the no-room page)."""
    background_tasks.create(_expire_unconnected(client), name="a page that never connects")


def _close(pages: RoomPages, page: LivePage) -> None:
    if page in pages.pages:
        pages.pages.remove(page)
    page_sockets.close_page(page.client, reconnect=False)  # its browser shows "Connection lost"


def _forget(code: str, page: LivePage) -> None:
    pages = _ROOMS.get(code)
    if pages is None:
        return
    if page in pages.pages:
        pages.pages.remove(page)
    if not pages.pages:
        del _ROOMS[code]


def reset() -> None:
    _ROOMS.clear()

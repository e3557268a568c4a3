"""The route of a room's TV (``/r/CODE/screen``): its page built for an HTTP request, and built again in place
for its socket when the process that had it is gone (a restart, a failover, a room handed over in a cluster:
``webgame.framework.page_adoption``), like a phone's page. What the page shows is ``webgame.pages.results_screen``'s.

In a cluster a page build waits for its room's claim at most ``room_lookup.LOOKUP_SECONDS``, then answers the
light "this room is moving" page, which comes back by itself; the route's ``response_timeout`` is the phone
page's (30 s), far above that, so a TV never ends on the framework's "500" page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from nicegui import ui
from starlette.requests import Request
from starlette.responses import Response

from webgame.browser.identity import BrowserIdentity
from webgame.framework import page_adoption
from webgame.pages import components
from webgame.room.rooms import Room
from webgame.store import leases

PATH = "/r/{code}/screen"
SCREEN_PATH = re.compile(r"^/r/([A-Z0-9]{1,12})/screen$")  # a TV's page of a room, as its address bar shows it
PAGE_TIMEOUT = 30.0  # as the phone's room page (webgame.pages.room.PAGE_TIMEOUT)

Fill = Callable[[Room, BrowserIdentity, Request], None]  # draws the TV's page of a room for this browser


async def _open(code: str, request: Request, moving_page: bool) -> tuple[BrowserIdentity, Room | Response | None]:
    identity = components.read_identity(request)
    components.page_head(components.tr(identity.language), request)
    components.page_language(identity.language)
    room = await components.open_room(request, code, identity, moving_page)  # limits: page_limits, ratelimit
    return identity, room


def _held(fill: Fill, room: Room, identity: BrowserIdentity, request: Request) -> None:
    fill(room, identity, request)
    components.hold_page(room, identity, request, seat=False)  # a watcher's page, whoever opens it


def register(fill: Fill) -> None:
    """The TV's route, and its page for a socket whose page this process lacks."""
    route = ui.page(PATH, response_timeout=PAGE_TIMEOUT)

    @route
    async def screen(code: str, request: Request) -> Response | None:
        identity, room = await _open(code, request, moving_page=True)
        if isinstance(room, Response):
            return components.not_a_page(ui.context.client, room)
        if room is None:
            components.no_room(components.tr(identity.language), identity)
            return None
        _held(fill, room, identity, request)
        return None

    async def rebuild(code: str, request: Request) -> bool | None:
        """Built (True) only when the room is here; None while it is moving here (the socket comes back);
        anything else (no such room, a limit) is the reload's to answer (False)."""
        try:
            identity, room = await _open(code, request, moving_page=False)
        except leases.RoomMoving:
            return None
        if not isinstance(room, Room):
            return False
        _held(fill, room, identity, request)
        return True

    page_adoption.register(SCREEN_PATH, route, rebuild)

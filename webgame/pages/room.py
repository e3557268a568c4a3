"""``/r/CODE``: one phone's page of a room, from the lobby through the game to its results.

Each browser tab gets its own ``RoomPage``. Its identity (the seat token's hash) and language are read
once, when the page is built, and kept on the object; every redraw, whoever's tap or the clock caused it,
draws the page's parts from this object's own projection (``engine.view.view`` for its own viewer). The
parts are made once, with the page: the lobby, the game and the next lobby are drawn in the same elements.
Nothing here reads ``app.storage.user`` after the builder, and no redraw passes arguments.
"""

from __future__ import annotations

import logging
import re
import weakref

from nicegui import Client, app, ui
from starlette.requests import Request
from starlette.responses import Response

from webgame.browser import public_address
from webgame.browser.identity import BrowserIdentity
from webgame.framework import page_adoption, page_sockets
from webgame.guard import ratelimit
from webgame.pages import components, evenness, moving
from webgame.pages.game_view import GameView
from webgame.pages.lobby import LobbyView
from webgame.pages.page_protocols import PendingChoice
from webgame.pages.screen import Draft, ScreenSection
from webgame.room.rooms import Change, ChatLine, Room, Stage
from webgame.store import leases

log = logging.getLogger(__name__)

PAGE_TIMEOUT = 30.0
ROOM_PATH = re.compile(r"^/r/([A-Z0-9]{1,12})$")  # a phone's page of a room, as its address bar shows it


# Unconfirmed picks per room and seat: a reload (a phone that slept too long) or a second tab of the same
# seat shows the pick it left. Only this seat's own pages read its entry.
_PICKS: weakref.WeakKeyDictionary[Room, dict[str, PendingChoice]] = weakref.WeakKeyDictionary()


def kept_choice(room: Room, token_hash: str | None) -> PendingChoice:
    if token_hash is None:
        return PendingChoice()
    return _PICKS.setdefault(room, {}).setdefault(token_hash, PendingChoice())


class RoomPage:
    """One tab's view of one room. Not a dataclass: refreshables tell their copies apart by identity."""

    def __init__(self, room: Room, identity: BrowserIdentity, request: Request, client: Client) -> None:
        self.room = room
        self.identity = identity
        self.t = components.tr(identity.language)
        self.token_hash = identity.token_hash_for(room.code)
        self.client = client
        self.url = components.room_url(request, room.code)
        self.reach = public_address.reach(request)  # where phones join, told on a page opened on localhost
        self.address = ratelimit.client_address(request)  # for the join form's rate limit
        self.move_link: str | None = request.query_params.get("move")  # a seat moved here by a QR code's link
        self.choice = kept_choice(room, self.token_hash)
        self.role_shown = False
        self.wake_lock = False
        self.busy = False
        self.counted_hash: str | None = None
        self.night = False  # the night's dark colours (drawn by the header, in the ``heading`` part)
        self.lobby = LobbyView(self)
        self.game = GameView(self)
        self.showing_game = False  # what the parts draw: the game (its projection is read) or the lobby
        # The page's parts, made once and redrawn in place from the lobby through every game: an element costs
        # memory on every phone, and elements made and dropped at every join and every game's start left most
        # of the process's memory behind them (docs/PERFORMANCE.md).
        # Each part is named for what it holds in the lobby / in a game:
        self.heading = ScreenSection(self._heading)  # the header; the room's code and join form / the heading
        self.seats_or_panel = ScreenSection(self._seats_or_panel)  # the seats / the step's panel (``status`` inside)
        self.status = ScreenSection(self._status)  # - / the step's counts
        self.cover = ScreenSection(self._cover)  # - / the night's covered words and grid (the panel's ``cover`` slot)
        self.settings_or_record = ScreenSection(self._settings_or_record)  # the settings / the news and the players
        self.start_or_chat = ScreenSection(self._start_or_chat)  # the roles and the start / the chat
        self.host_inputs = False  # the host's settings inputs are in the ``settings_or_record`` part's slot
        self.pad: ui.element | None = None  # the element that carries the padding (webgame.pages.evenness)

    # ------------------------------------------------------------ building

    def build(self) -> None:
        self._prepare()
        # NiceGUI's content element holds the parts and carries the padding: a column of their own was one more
        # element on every phone (3.7 KB each, docs/PERFORMANCE.md); mafia.css gives the content its measures.
        frame = self.client.content.classes("mafia-page mafia-room")
        with frame:
            self.heading()
            with self.seats_or_panel() as panel:
                self.status()
                with panel.add_slot("cover"):  # drawn where the panel's model says (``Draft.slot("cover")``)
                    self.cover()
            self.settings_or_record()
            self.start_or_chat()
        if self.showing_game:
            self.game.chat_part.sync()  # the chat's lines, elements in the ``start_or_chat`` part's slot (chat_part)
        self._host_inputs()
        evenness.attach(self, frame)  # every seat's phone gets the same bytes at the same moments
        self.room.subscribe(self)  # changes of the room reach this page (room_changed, chat_added)
        self.client.on_connect(self._connected)
        if self.move_link is not None:
            self.client.on_connect(self._take_from_link)
        self.client.on_disconnect(self._disconnected)
        self.client.on_delete(self._deleted)

    def _prepare(self) -> None:
        """Decide what the parts show, and read the game's projection for them."""
        self.showing_game = self.room.stage is not Stage.LOBBY and self.game.prepare()
        if not self.showing_game:
            self._darken(False)
            self._wake(False)

    def redraw(self) -> None:
        """Everything again (a join, a game's start or end, a new host, another rule set): the same elements,
        each sent only if what it draws changed."""
        self._prepare()
        for part in (self.heading, self.seats_or_panel, self.status, self.cover, self.settings_or_record,
                     self.start_or_chat):
            part.refresh()
        self._host_inputs()
        if not self.showing_game:
            self.game.chat_part.drop()  # the last game's chat lines, elements in the ``start_or_chat`` part's slot

    def _host_inputs(self) -> None:
        """The host's settings in the lobby: NiceGUI inputs (typing is never interrupted by a redraw of the
        part), made again at every full redraw (another rule set has other options), dropped in the game."""
        screen = self.settings_or_record.screen
        if screen is None:
            return
        if self.host_inputs:
            screen.clear()
            self.host_inputs = False
        if not self.showing_game and self.lobby.is_host:
            with screen:
                self.lobby.host_settings()
            self.host_inputs = True

    def _heading(self, d: Draft) -> None:
        _ = self.t
        components.header_nodes(d, _, self.identity, _("Mafia · room {code}").format(code=self.room.code),
                                self.night)
        if self.showing_game:
            self.game.heading(d)
        else:
            self.lobby.welcome(d)

    def _seats_or_panel(self, d: Draft) -> None:
        (self.game.panel if self.showing_game else self.lobby.seats)(d)

    def _status(self, d: Draft) -> None:
        if self.showing_game:
            self.game.status(d)

    def _cover(self, d: Draft) -> None:
        if self.showing_game:
            self.game.cover(d)

    def _settings_or_record(self, d: Draft) -> None:
        (self.game.record if self.showing_game else self.lobby.settings)(d)

    def _start_or_chat(self, d: Draft) -> None:
        (self.game.chat if self.showing_game else self.lobby.start)(d)

    # ------------------------------------------------------------ room events

    def room_changed(self, what: Change) -> None:
        if what is Change.TICK:
            return  # the phone runs its countdown itself (webgame/pages/screen.js)
        in_lobby = self.room.stage is Stage.LOBBY
        game_change = what in (Change.CLOCK, Change.STATE, Change.PRESENCE)
        if game_change and self.showing_game and not in_lobby and self.game.update():
            return  # only the parts of this viewer's screen that changed were redrawn (none, often)
        if in_lobby and not self.showing_game and what in (Change.SEATS, Change.PRESENCE, Change.SETTINGS):
            self.lobby.changed(what)
            return
        self.redraw()

    def chat_added(self, line: ChatLine) -> None:
        if self.showing_game:
            self.game.chat_added(line)

    # ------------------------------------------------------------ identity and presence

    def seated(self, token_hash: str) -> None:
        """This tab has just taken a seat (the join form)."""
        if self.counted_hash is not None:
            self.room.client_disconnected(self.counted_hash)
        self.token_hash = token_hash
        self.choice = kept_choice(self.room, token_hash)
        self.counted_hash = token_hash
        self.room.client_connected(token_hash)
        self.redraw()

    def moved_here(self, old_hash: str, new_hash: str) -> None:
        """This tab has just taken a seat moved from another phone (``webgame.room.seat_moves``): the pick that phone
        left unconfirmed comes along."""
        picks = _PICKS.setdefault(self.room, {})
        if old_hash in picks:
            picks[new_hash] = picks.pop(old_hash)
        self.seated(new_hash)

    async def _take_from_link(self) -> None:
        """``/r/CODE?move=MOVE`` (the QR code behind the old phone's reveal): the seat is taken once the page's
        socket is connected (a plain GET, a link preview, uses up nothing), and the code leaves the address bar."""
        code, self.move_link = self.move_link, None
        if code is None:
            return
        self.client.run_javascript(f"history.replaceState(null, '', '/r/{self.room.code}')")  # our alphabet only
        with self.client:
            await moving.take(self, code)

    def _connected(self) -> None:
        if self.counted_hash is None and self.token_hash is not None:
            self.counted_hash = self.token_hash
            self.room.client_connected(self.token_hash)

    def _disconnected(self) -> None:
        if self.counted_hash is not None:
            counted, self.counted_hash = self.counted_hash, None
            self.room.client_disconnected(counted)

    def _deleted(self) -> None:
        self._disconnected()
        self.room.unsubscribe(self)
        closed = page_sockets.close_sockets(self.client, reconnect=False)  # deleted under a live socket
        if closed:
            log.warning("room %s: a page was deleted with %d socket(s) still open; closed them", self.room.code, closed)

    # ------------------------------------------------------------ phone helpers (static JS, no player text)

    def _wake(self, on: bool) -> None:
        if on != self.wake_lock:
            self.wake_lock = on
            self.client.run_javascript(f"window.mafiaWakeLock && window.mafiaWakeLock({'true' if on else 'false'})")

    def in_game(self, phase: str) -> bool:
        """The phone's colours and wake lock for this phase; True if the colours changed (the ``heading`` part, which
        draws them, must be drawn again: the caller does)."""
        self._wake(phase != "ended")
        return self._darken(phase == "night")

    def _darken(self, night: bool) -> bool:
        changed, self.night = night != self.night, night
        return changed


async def open_page(code: str, request: Request,
                    moving_page: bool = True) -> tuple[BrowserIdentity, Room | Response | None]:
    """The start of a room page's builder: who reads it, its head, and its room (or what answers instead)."""
    identity = components.read_identity(request)
    _ = components.tr(identity.language)
    components.page_head(_, request)
    components.page_language(identity.language)
    room = await components.open_room(request, code, identity, moving_page)  # limits: page_limits, ratelimit
    return identity, room


def fill_page(room: Room, identity: BrowserIdentity, request: Request) -> None:
    """The room's page for this browser, counted in the room's pages."""
    RoomPage(room, identity, request, ui.context.client).build()
    components.hold_page(room, identity, request)


async def rebuild(code: str, request: Request) -> bool | None:
    """The page of a browser whose page this process does not have (``webgame.framework.page_adoption``): built (True)
    only when the room is here for it; None while the room is moving here from another process of a cluster
    (the socket comes back on its next reconnect); anything else (no such room, a limit) is the reload's to
    answer (False)."""
    try:
        identity, room = await open_page(code, request, moving_page=False)
    except leases.RoomMoving:
        return None
    if not isinstance(room, Room):
        return False
    fill_page(room, identity, request)
    return True


def register() -> None:
    # A phone waits for its page as long as it takes (NiceGUI's default gives up after 3 s and the browser
    # retries: after a restart, 1,000 phones reloading at once made a retry storm of it).
    room_route = ui.page("/r/{code}", response_timeout=PAGE_TIMEOUT)

    @room_route
    async def room_page(code: str, request: Request) -> Response | None:
        identity, room = await open_page(code, request)
        if isinstance(room, Response):
            return components.not_a_page(ui.context.client, room)
        if room is None:
            components.no_room(components.tr(identity.language), identity)
            return None
        fill_page(room, identity, request)
        return None

    page_adoption.register(ROOM_PATH, room_route, rebuild)
    app.add_api_route(components.QR_PATH, components.qr_image, methods=["GET"], include_in_schema=False)
    app.add_api_route(components.TV_QR_PATH, components.tv_qr_image, methods=["GET"], include_in_schema=False)
    app.add_api_route(moving.MOVE_QR_PATH, moving.move_qr_image, methods=["GET"], include_in_schema=False)

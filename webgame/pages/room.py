"""``/r/CODE``: one phone's page of a room, from the lobby through the game to its results.

Each browser tab gets its own ``RoomPage``. Its identity (the seat token's hash) and language are read
once, when the page is built, and kept on the object; every re-render, whoever's tap or the clock caused
it, builds the tree from this object's own projection (``engine.view.view`` for its own viewer). Nothing
here reads ``app.storage.user`` after the builder, and no refresh passes arguments.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from nicegui import Client, ui
from starlette.requests import Request

from engine.state import Phase
from webgame import ratelimit
from webgame.identity import BrowserIdentity
from webgame.pages import components, evenness
from webgame.pages.game_view import GameView
from webgame.pages.lobby import LobbyView
from webgame.pages.screen import Screen
from webgame.pages.section import Section
from webgame.rooms import ChatLine, Room, Stage

PAGE_TIMEOUT = 30.0


@dataclass(slots=True)
class NightChoice:
    """What this phone has picked but not yet confirmed (kept across re-renders of one step)."""

    step: int = -1
    act: str = ""
    target: int | None = None
    note: bool = False


# Unconfirmed picks per room and seat: a reload (a phone that slept too long) or a second tab of the same
# seat shows the pick it left. Only this seat's own pages read its entry.
_PICKS: weakref.WeakKeyDictionary[Room, dict[str, NightChoice]] = weakref.WeakKeyDictionary()


def kept_choice(room: Room, token_hash: str | None) -> NightChoice:
    if token_hash is None:
        return NightChoice()
    return _PICKS.setdefault(room, {}).setdefault(token_hash, NightChoice())


class RoomPage:
    """One tab's view of one room. Not a dataclass: refreshables tell their copies apart by identity."""

    def __init__(self, room: Room, identity: BrowserIdentity, request: Request, client: Client) -> None:
        self.room = room
        self.identity = identity
        self.t = components.tr(identity.language)
        self.token_hash = identity.token_hash_for(room.code)
        self.client = client
        self.url = components.room_url(request, room.code)
        self.address = ratelimit.client_address(request)  # for the join form's rate limit
        self.choice = kept_choice(room, self.token_hash)
        self.role_shown = False
        self.buzzed_step = -1
        self.wake_lock = False
        self.busy = False
        self.counted_hash: str | None = None
        self.night = False  # the night's dark colours (drawn by the header part)
        self.head: Screen | None = None
        self.lobby = LobbyView(self)
        self.game = GameView(self)
        self.pad: ui.element | None = None  # the element that carries the padding (webgame.pages.evenness)
        self.body = Section(self._body)  # per page (see webgame.pages.section)

    # ------------------------------------------------------------ building

    def build(self) -> None:
        frame = ui.column().classes("mafia-page")
        # The page's column is the body's container and carries the padding (elements cost memory on every
        # phone, so there are few).
        self.body(frame)
        evenness.attach(self, frame)  # every seat's phone gets the same bytes at the same moments
        self.room.subscribe(self)  # changes of the room reach this page (room_changed, chat_added)
        self.client.on_connect(self._connected)
        self.client.on_disconnect(self._disconnected)
        self.client.on_delete(self._deleted)

    def _body(self) -> None:
        _ = self.t
        self.head = components.header(_, self.identity, _("Mafia · room {code}").format(code=self.room.code),
                                      dark=lambda: self.night)
        if self.room.stage is Stage.LOBBY:
            self._darken(False)
            self._wake(False)
            self.lobby.render()
        else:
            self.game.render()

    # ------------------------------------------------------------ room events

    def room_changed(self, what: str) -> None:
        if what == "tick":
            return  # the phone runs its countdown itself (webgame/pages/screen.js)
        if what == "clock" and self.room.stage is not Stage.LOBBY and self.game.update():
            return  # paused, resumed, extended: the countdown and the host's buttons
        if self.room.stage is Stage.LOBBY and what in ("seats", "presence", "settings"):
            self.lobby.changed(what)
            return
        if what in ("state", "presence") and self.room.stage is not Stage.LOBBY and self.game.update():
            return  # only the sections of this viewer's screen that changed were rebuilt
        self.body.refresh()

    def chat_added(self, line: ChatLine) -> None:
        if self.room.stage is not Stage.LOBBY:
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
        self.body.refresh()

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

    # ------------------------------------------------------------ phone helpers (static JS, no player text)

    def buzz(self, step: int) -> None:
        if step != self.buzzed_step:
            self.buzzed_step = step
            self.client.run_javascript("window.mafiaBuzz && window.mafiaBuzz()")

    def _wake(self, on: bool) -> None:
        if on != self.wake_lock:
            self.wake_lock = on
            self.client.run_javascript(f"window.mafiaWakeLock && window.mafiaWakeLock({'true' if on else 'false'})")

    def in_game(self, phase: str) -> None:
        self._darken(phase == Phase.NIGHT)
        self._wake(phase != Phase.ENDED)

    def _darken(self, night: bool) -> None:
        if night != self.night:
            self.night = night
            if self.head is not None:
                self.head.refresh()


def register() -> None:
    # A phone waits for its page as long as it takes (NiceGUI's default gives up after 3 s and the browser
    # retries: after a restart, 1,000 phones reloading at once made a retry storm of it).
    @ui.page("/r/{code}", response_timeout=PAGE_TIMEOUT)
    async def room_page(code: str, request: Request) -> None:
        identity = components.read_identity(request)
        _ = components.tr(identity.language)
        components.page_head()
        room = await components.find_room(request, code)
        if room is None:
            components.no_room(_, identity)
            return
        RoomPage(room, identity, request, ui.context.client).build()

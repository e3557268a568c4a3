"""The lobby part of a room page: the QR code, the join form, the seats, the host's settings, the start.

Only the host gets controls (and the room refuses them from anyone else anyway). The host's own inputs
are not rebuilt when he changes a value, so typing is never interrupted; everyone else's summary is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nicegui import ui

from webgame.guard import page_limits, ratelimit
from webgame.pages import components, lobby_settings, lobby_summary, moving, reach_note, wording
from webgame.pages.screen import Draft
from webgame.room.subscribers import Change
from webgame.store import queries as store

if TYPE_CHECKING:
    from webgame.pages.page_protocols import PhonePage as RoomPage


class LobbyView:
    """What the lobby draws in the page's parts (``RoomPage``: the same elements show the game later)."""

    def __init__(self, page: RoomPage) -> None:
        self.page = page
        self.folds = lobby_summary.Folds()  # what the lobby's folds hold is sent once opened

    @property
    def is_host(self) -> bool:
        return self.page.room.is_host(self.page.token_hash)

    def changed(self, what: Change) -> None:
        """A lobby change: redraw only the parts it touches (never the host's own inputs)."""
        page = self.page
        if what in (Change.SEATS, Change.SETTINGS) and self.waits:
            page.heading.refresh()  # "waiting for the host" (or for more players), at the top of a player's lobby
        if what in (Change.SEATS, Change.PRESENCE):
            page.seats_or_panel.refresh()
        if what is Change.SETTINGS and not self.is_host:
            page.settings_or_record.refresh()
        if what in (Change.SEATS, Change.SETTINGS):
            page.start_or_chat.refresh()

    # ------------------------------------------------------------ the parts

    def welcome(self, d: Draft) -> None:
        """The ``heading`` part: the join form for a phone without a seat (first, its step), then the room's code,
        its QR code, link and share buttons."""
        _, room = self.page.t, self.page.room
        if room.seat_by_hash(self.page.token_hash) is None:  # first: a new phone's step is to join
            with d.card("mafia-card"):
                d.label(_("Join this game"), "text-lg font-bold")
                d.form(_("Your name"), _("Join"), self.join, "join-name", "join")
            moving.take_form(d, self.page)  # a seat of this room on another phone comes here with a code
        if self.waits:  # a seated player: what he waits for first, then the seats; the invite comes after them
            with d.card("mafia-card"):
                d.label(self._waiting_text(), "text-lg", "waiting-host")
            moving.notices(d, self.page)
            return
        self.invite(d)
        moving.notices(d, self.page)  # a seat moved to another phone, a new host
        if self.is_host:
            tv_card(self.page, d)

    @property
    def waits(self) -> bool:
        """A seated player who is not the host: his lobby opens on the seats and "waiting for the host"."""
        return not self.is_host and self.page.room.seat_by_hash(self.page.token_hash) is not None

    def _waiting_text(self) -> str:
        _, room = self.page.t, self.page.room
        problem = room.start_problem()
        return _(problem[0]).format(**problem[1]) if problem else _("Waiting for the host to start the game.")

    def invite(self, d: Draft) -> None:
        """The room's code, its QR code, link and share buttons."""
        _, room = self.page.t, self.page.room
        with d.card("mafia-card items-center"):
            components.theme_switch(d, _, "mafia-theme-corner")  # the day's colours (the room's header is full)
            d.label(_("Room code"), "mafia-muted")
            d.label(room.code, "mafia-big tracking-widest")
            reach_note.draw(d, _, self.page.reach)  # a page opened on localhost: where the phones join
            d.image(components.qr_path(room.code), "mafia-qr")
            d.label(self.page.url, "text-sm break-all mafia-muted")
            message = _("Join our Mafia game: room {code}").format(code=room.code)
            d.share(_("Share the link"), _("Link copied"), self.page.url, message, "share")
            d.link(_("Share to Telegram"), components.telegram_link(self.page.url, message), "share-telegram",
                   icon="send")

    def settings(self, d: Draft) -> None:
        """The ``settings_or_record`` part: the host's inputs (NiceGUI elements in the part's slot:
        ``host_settings``), the settings as text for everyone else."""
        if self.is_host:
            d.slot()
            return
        if self.waits:
            self.invite(d)  # after the seats: he used it already; it stays at hand for friends
        lobby_summary.settings_summary(d, self.page.t, self.page.room, self.folds, self.page.settings_or_record.refresh)

    def start(self, d: Draft) -> None:
        """The ``start_or_chat`` part: the roles that would be dealt, and the start (the host's button, a line for
        others)."""
        lobby_summary.role_preview(d, self.page.t, self.page.room, self.folds, self.page.start_or_chat.refresh)
        self._start_bar(d)

    # ------------------------------------------------------------ joining

    async def join(self, value: Any) -> None:
        """The join form's ``{text}``: take a seat with this name (the room checks it)."""
        _, room, page = self.page.t, self.page.room, self.page
        text = value.get("text") if isinstance(value, dict) else None
        name = text if isinstance(text, str) else ""
        if page.busy or room.seat_by_hash(page.token_hash) is not None:
            return
        # A browser has one seat per room: a second tab opened before joining takes the seat the first one took.
        token = page.identity.token_for(room.code)
        if token is not None and room.seat_by_hash(store.hash_token(token)) is None:
            token = None  # that seat was removed by the host: a new one
        if token is None and not ratelimit.JOINS.spend(page.identity.browser, page.address):  # names in bulk
            ui.notify(_(ratelimit.TOO_MANY), type="warning", position="top")
            return
        page.busy = True
        try:
            token = token or store.new_seat_token()
            try:
                await room.join(token, name)
            except Exception as error:  # a refusal, or the database failing
                components.refuse(_, error)
                return
            page.identity.keep_token(room.code, token)
            page_limits.seated(room.code, page.client, store.hash_token(token))
            page.seated(store.hash_token(token))
        finally:
            page.busy = False

    # ------------------------------------------------------------ seats

    def seats(self, d: Draft) -> None:
        """The ``seats_or_panel`` part: who has joined, with the host's controls."""
        _, room = self.page.t, self.page.room
        players = room.players()
        with d.card("mafia-card"):
            d.label(_("Players: {count}").format(count=_.number(len(players))), "text-lg font-bold")
            number = 0
            for index, seat in enumerate(room.seats):
                moderator = room.moderated and seat.token_hash == room.host_hash
                with d.row("w-full items-center no-wrap gap-2"):
                    d.dot(seat.is_bot or room.is_connected(seat.token_hash))  # a bot is always there
                    if moderator:
                        d.label(seat.name, "grow mafia-name")
                    else:
                        number += 1
                        d.label(wording.seat_label(_, number, seat.name, seat.is_bot), "grow mafia-name")
                    if seat.token_hash == room.host_hash:
                        d.badge(_("moderator") if moderator else _("host"), "primary")
                    if seat.is_bot and seat.bot_level == "strong":
                        d.badge(_("strong"), "secondary")
                    if seat.token_hash == self.page.token_hash:
                        d.badge(_("you"), "positive")
                if self.is_host:  # a line of its own: the name keeps the width, "remove" far from the rest
                    with d.row("w-full items-center no-wrap gap-2 mafia-seat-controls"):
                        self._seat_controls(d, seat.id, index, len(room.seats), seat.token_hash == room.host_hash,
                                            seat.is_bot)
                    moving.host_code_line(d, self.page, seat.id, seat.name)
            if self.is_host:
                bot_controls(self.page, d, any(seat.is_bot for seat in room.seats))
        if not self.is_host:
            moving.owner_offer(d, self.page, self.page.seats_or_panel, behind_reveal=False)

    def _seat_controls(self, d: Draft, seat_id: int, index: int, count: int, is_host_seat: bool,
                       is_bot: bool) -> None:
        _, room, token_hash = self.page.t, self.page.room, self.page.token_hash

        async def move(delta: int) -> None:
            await components.guarded(_, lambda: room.move_seat(token_hash, seat_id, delta))

        async def remove() -> None:
            await components.guarded(_, lambda: room.remove_seat(token_hash, seat_id))

        async def make_host() -> None:
            await components.guarded(_, lambda: room.make_host(token_hash, seat_id))

        if not is_host_seat:  # at the left end, the other controls at the right end
            d.button("", remove, f"remove-{seat_id}", icon="close", flat=True, color="negative",
                     tip=_("Remove from the table"))
        d.div("grow")
        d.button("", lambda: move(-1), f"up-{seat_id}", icon="arrow_upward", flat=True, enabled=index > 0,
                 aria_label=_("Move up"))
        d.button("", lambda: move(1), f"down-{seat_id}", icon="arrow_downward", flat=True,
                 enabled=index < count - 1, aria_label=_("Move down"))
        if not is_bot:  # a code for this person's new phone (webgame.room.seat_moves)
            moving.host_move_button(d, self.page, seat_id)
        if not is_host_seat:
            d.button("", make_host, f"host-{seat_id}", icon="star_outline", flat=True, tip=_("Make host"))

    # ------------------------------------------------------------ settings

    def host_settings(self) -> None:
        """The host's inputs, in the ``settings_or_record`` part's slot (``webgame.pages.lobby_settings``)."""
        lobby_settings.host_settings(self.page)

    def _start_bar(self, d: Draft) -> None:
        _, room, token_hash = self.page.t, self.page.room, self.page.token_hash
        problem = room.start_problem()
        reason = _(problem[0]).format(**problem[1]) if problem else ""
        if self.is_host:
            async def start() -> None:
                if self.page.busy:
                    return
                self.page.busy = True
                try:
                    await components.guarded(_, lambda: room.start(token_hash))
                finally:
                    self.page.busy = False

            with d.bar():  # pinned to the bottom of the screen: the host need not scroll past the settings
                d.button(reason or _("Start the game"), start, "start", cls="mafia-target", enabled=problem is None)
        elif not self.waits:  # (a seated player reads it at the top of his lobby)
            d.label(reason or _("Waiting for the host to start the game."), "mafia-muted")


def bot_controls(page: RoomPage, d: Draft, has_bots: bool) -> None:
    """The host fills empty seats with bots (they play from their own seat's screen, webgame.room.bots)."""
    _, room, token_hash = page.t, page.room, page.token_hash

    async def add(level: str = "simple") -> None:
        await components.guarded(_, lambda: room.add_bot(token_hash, level))

    async def remove() -> None:
        await components.guarded(_, lambda: room.remove_bot(token_hash))

    with d.row("w-full items-center gap-2"):
        d.button(_("Add a bot"), add, "add-bot", icon="smart_toy", outline=True, no_caps=True)
        d.button(_("Add a strong bot"), lambda: add("strong"), "add-strong-bot", icon="smart_toy", outline=True,
                 no_caps=True, tip=_("A strong bot also reads the vote record and the roles shown on death."))
        if has_bots:
            d.button(_("Remove a bot"), remove, "remove-bot", icon="person_remove", flat=True, no_caps=True)


def tv_card(page: RoomPage, d: Draft) -> None:
    """The host's way to the room's TV screen: its link as text and as a QR code (a TV's browser, or a phone
    cast to it); the TV then shows the phones' QR code and the room's code all game long."""
    _, room = page.t, page.room
    with d.expansion(_("Open the room on a TV"), False, "w-full mafia-card"):
        d.label(_("Open this link in the TV's browser (or scan it with a device connected to the TV). The TV "
                  "shows the game without secrets, reads it out, and shows the QR code for latecomers."),
                "text-sm mafia-muted")
        d.image(components.TV_QR_PATH.format(code=room.code), "mafia-qr", _("QR code"))
        d.label(f"{page.url}/screen", "text-sm break-all", "tv-link")

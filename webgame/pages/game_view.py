"""The game part of a room page: built only from this viewer's projection (``Room.projection``).

Everything placed in the element tree reaches the browser, hidden or not, so what a viewer may not know
never enters it: other players' roles come only from the projection's ``roles`` and events only from
what the engine lets this viewer read.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.actions import Action
from engine.view_types import Me, Offer
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.pages import components, day, moving, night, outcome, shared_parts, wording
from webgame.pages.chat_part import ChatPart
from webgame.pages.moderator import moderator_night
from webgame.pages.page_protocols import PendingChoice
from webgame.pages.record_part import RecordPart
from webgame.pages.screen import Draft
from webgame.room import moderator_presence
from webgame.room.chat import ChatLine
from webgame.room.projection import Projection, ShownView
from webgame.room.rooms import Room
from webgame.room.seating import SeatInfo

if TYPE_CHECKING:
    from webgame.language.i18n import Translator
    from webgame.pages.page_protocols import PhonePage as RoomPage
    from webgame.pages.screen import ScreenSection

CHANNEL_LABELS = {"room": "", "mafia": "mafia", "dead": "dead"}
# Counts and tallies that change with everybody's taps: shown by ``GameView.status`` inside the panel, so
# that a vote or a finished night choice updates them without rebuilding anyone's buttons.
STATUS_KEYS = ("waiting", "votes", "yes_votes", "ready")
ONLY_COUNTS = frozenset(STATUS_KEYS)
NOT_PANEL_KEYS = frozenset(("events", "chat", "moderator_actions", *STATUS_KEYS))  # what the panel is not drawn from
# Which of the page's parts (``RoomPage``) draws each section of ``GameView.section_keys``.
PART_OF_SECTION = {"title": "heading", "panel": "seats_or_panel", "status": "status", "cover": "cover",
                   "record": "settings_or_record", "chat": "start_or_chat"}
# A page's view before its first projection and without a game: no key at all, so only ``.get`` finds anything in it
# (the parts are drawn only from a projection's view: ``GameView.prepare``).
NO_VIEW = cast(ShownView, {})
PICK_FIRST = N_("Tap a player, then confirm.")  # a grid's button tapped with no player picked (a hostile tab)
# Each room's seat labels ("3. Aziz", "5. Bot (bot)") per language, for the seating of its present game: a table's
# names and bot marks are fixed for a game (a new game brings a new ``seating`` list; no ``SeatInfo`` is changed), and
# every page of the room wrote the same dozen labels again at every redraw of a grid, the players or the news (issue 32:
# a tenth of the pages' work per change).
_LABELS: weakref.WeakKeyDictionary[Room, tuple[list[SeatInfo], dict[str, dict[int, str]]]] = (
    weakref.WeakKeyDictionary())


class PanelKey:
    """The panel's key: the view without ``NOT_PANEL_KEYS``, compared in place. It was a copy of the view (a dict of
    some thirty keys) made on every page at every change and kept by every page (memory on every phone)."""

    __slots__ = ("view",)

    def __init__(self, view: ShownView) -> None:
        self.view = view

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PanelKey):
            return NotImplemented
        mine, theirs = self.view, other.view
        if mine is theirs:
            return True
        count = 0
        for key, value in mine.items():
            if key in NOT_PANEL_KEYS:
                continue
            count += 1
            if key not in theirs:
                return False
            other_value = theirs[key]  # type: ignore[literal-required]
            if other_value is not value and other_value != value:
                return False
        return count == sum(1 for key in theirs if key not in NOT_PANEL_KEYS)

    __hash__ = None  # type: ignore[assignment]


class GameView:
    """One page's game screen: its projection, and what each of the page's parts draws of it."""

    def __init__(self, page: RoomPage) -> None:
        self.page = page
        self.p: ShownView = NO_VIEW
        self.proj: Projection | None = None  # this viewer's projection, as last read from the room
        self.keys: dict[str, Any] | None = None  # what each part was last drawn from (see ``update``)
        self.made_after = -1  # the actions its game had applied when ``proj`` was read (``counts_only``)
        self.room_seen: RoomKeys | None = None  # the room's keys (``room_keys``) when ``keys`` were made
        # The game draws in the page's parts (``RoomPage``), each redrawn on its own (``update``; a pick redraws
        # the panel): the heading (phase, countdown, the host's clock buttons, a seat's role card) in ``heading``,
        # the panel in ``seats_or_panel`` (the step's counts are the ``status`` part in its slot, the night's covered
        # words and grid the ``cover`` part in its ``cover`` slot), the news and the players in
        # ``settings_or_record``, the chat in ``start_or_chat`` (``PART_OF_SECTION``).
        self.game_id: int | None = None
        self._record_part: RecordPart | None = None  # made when first drawn (``record_part``)
        self._chat_part: ChatPart | None = None
        self._labels: tuple[list[SeatInfo], dict[int, str]] | None = None  # this page's language's (``name_of``)

    @property
    def record_part(self) -> RecordPart:
        """The ``settings_or_record`` part: news, the role's help, the players. Made when a page first draws it: the
        view a shared part is built from (``_public``, at every change) never does, and each part and its view hold
        each other (a cycle for the collector at every change, before)."""
        if self._record_part is None:
            self._record_part = RecordPart(self)
        return self._record_part

    @property
    def chat_part(self) -> ChatPart:
        """The ``start_or_chat`` part: the chat (made when first drawn, as ``record_part``)."""
        if self._chat_part is None:
            self._chat_part = ChatPart(self)
        return self._chat_part

    # ------------------------------------------------------------ helpers for the phase modules

    @property
    def _(self) -> Translator:
        return self.page.t

    def name_of(self, seat: int) -> str:
        """The seat's number and name in this page's language, made once per game and language for every page of the
        room (``_LABELS``)."""
        page = self.page
        room = page.room
        labels = self._labels
        if labels is None or labels[0] is not room.seating:  # the page's look-up of the room's labels, once a game
            seating = room.seating
            held = _LABELS.get(room)
            if held is None or held[0] is not seating:
                held = _LABELS[room] = (seating, {})
            labels = self._labels = (seating, held[1].setdefault(page.identity.language, {}))
        label = labels[1].get(seat)
        if label is None:
            label = labels[1][seat] = wording.seat_label(page.t, seat, room.name_of(seat), room.seat_is_bot(seat))
        return label

    @property
    def me(self) -> Me | None:
        return self.p.get("me")

    def action(self, kind: str) -> Offer | None:
        actions = [*self.p.get("actions", []), *self.p.get("moderator_actions", [])]  # webgame.room.host_watch
        return next((a for a in actions if a["type"] == kind), None)

    def pending(self) -> PendingChoice:
        """This phone's unconfirmed pick, reset when the step changes."""
        return self.page.choice.at(int(self.p.get("step", -1)))

    async def send(self, action: Action) -> bool:
        """One tap, once: a second tap while the first is on its way does nothing. True if it was taken."""
        page = self.page
        if page.busy:
            return False
        page.busy = True
        try:
            if await components.guarded(page.t, lambda: page.room.act(page.token_hash, action)):
                page.choice.target = None
                return True
            return False
        finally:
            page.busy = False

    async def send_pick(self, value: object, make: Callable[[int], Action]) -> bool:
        """The tap of a grid's button (``Draft.button(group=...)``): its value is the player the browser picked
        (``pick_grid``); anything but a seat number is refused with what to do, and nothing is sent."""
        if not isinstance(value, int) or isinstance(value, bool):
            components.refuse(self.page.t, Refusal(PICK_FIRST))
            return False
        return await self.send(make(value))

    def pick_grid(self, d: Draft, group: str, seats: list[int], enabled: list[int], mark: str = "target") -> None:
        """Living players as big buttons, picked in the browser (``Draft.pick``): the same grid for every role,
        only the enabled ones differ; the group's button sends the pick. A name is one line, cut with an ellipsis."""
        with d.div(self.grid_class()):
            for seat in seats:
                d.pick(self.name_of(seat), group, seat, f"{mark}-{seat}", "mafia-target", enabled=seat in enabled)

    def pick_group(self, mark: str, index: int = 0) -> str:
        """The group of a grid at this step of this game (``Draft.pick``; a pick kept by a reloaded tab is never one
        of another step or game): ``index``, the act among a seat's acts at night."""
        return f"{mark}-{self.game_id}-{self.p.get('step', -1)}-{index}"

    def grid_class(self) -> str:
        """Two names a row; three on a big table, so that thirty fit a small phone's first screen."""
        seats = self.proj.seats if self.proj is not None else 0
        return "mafia-grid" + (" mafia-grid-3" if seats > 12 else "")

    def small_grid_class(self) -> str:
        """Three names a row from nine players (the moderator's foul grid, under his other lines)."""
        seats = self.proj.seats if self.proj is not None else 0
        return "mafia-grid" + (" mafia-grid-3" if seats > 8 else "")

    def target_grid(self, d: Draft, seats: list[int], enabled: list[int], selected: int | None,
                    on_pick: Callable[[int], Any], mark: str = "target",
                    notes: dict[int, str] | None = None) -> None:
        """Living players as big buttons; the same grid for every role, only the enabled ones differ. A name is
        one line, cut with an ellipsis; ``notes``: a second line under every name (the moderator's foul counts)."""
        with d.div(self.small_grid_class() if mark == "foul" else self.grid_class()):
            for seat in seats:
                label, cls = self.name_of(seat), "mafia-target"
                if notes is not None:
                    label, cls = f"{label}\n{notes.get(seat, '')}", "mafia-target mafia-two-lines"
                d.button(label, lambda s=seat: on_pick(s), f"{mark}-{seat}", cls=cls,
                         outline=seat != selected, enabled=seat in enabled, no_caps=True)

    def name_tiles(self, d: Draft, seats: list[int]) -> None:
        """The covered grid: the same names in the same places on every phone, all alike in the model; the browser
        marks this phone's own (``Draft.own_seat``), so the grid is one model for every phone (``cover``)."""
        with d.div(self.grid_class()):
            for seat in seats:
                d.tile(self.name_of(seat), tid=f"tile-{seat}")

    def reveal_button(self, d: Draft) -> None:
        """The one way to what only this phone's owner may see (his role, his move, his private news)."""
        _ = self.page.t
        d.reveal(_("Show"), _("Hide"))

    # ------------------------------------------------------------ rendering

    def prepare(self) -> bool:
        """Read this viewer's projection before the parts are drawn (a new game, a reload, a new seat); False
        when there is no game to show."""
        page = self.page
        proj = page.room.projection(page.token_hash)
        if proj is None:
            self.p, self.keys, self.proj = NO_VIEW, None, None
            return False
        self.proj, self.p, self.made_after = proj, proj.view, page.room.game.applied
        self.keys, self.game_id, self.room_seen = self.section_keys(self.p), proj.game_id, room_keys(page.room)
        page.in_game(self.p["phase"])
        return True

    @property
    def viewer_kind(self) -> str:
        return self.proj.viewer_kind if self.proj is not None else "spectator"

    @property
    def viewer_seat(self) -> int:
        return self.proj.viewer_seat if self.proj is not None else 0

    def part(self, name: str) -> ScreenSection:
        """The page's part that draws the section ``name`` of ``section_keys``."""
        part: ScreenSection = getattr(self.page, PART_OF_SECTION[name])
        return part

    # ------------------------------------------------------------ updating what changed

    def section_keys(self, p: ShownView) -> dict[str, Any]:
        """What each section of the screen is built from, all of it from this viewer's projection (or the
        room's public presence dots): a section is rebuilt only when its key changes."""
        room = self.page.room
        host = room.is_host(self.page.token_hash)
        clock, presence = room_keys(room)
        return {
            "title": (p["phase"], p["day"], clock, p.get("result_hold"), (room.paused, p["step"]) if host else None),
            "panel": PanelKey(p),
            "status": (p["phase"], p.get("result_hold"), len(p.get("alive", [])), *(p.get(key) for key in STATUS_KEYS)),
            "cover": (night.cover_kind(p), p.get("alive")),
            "record": (RecordPart.news_key(p), p.get("alive"), p.get("roles"), p.get("fouls"), p.get("speaker"),
                       presence, p.get("moderator_actions"), host,  # news, players, the host's controls
                       p["step"] if p.get("moderator_actions") else None),  # a held moderator's pick is the step's

            "chat": ((p.get("chat") or {}).get("read"), (p.get("chat") or {}).get("write")),
        }

    def update(self) -> bool:
        """After a change of the room: rebuild only the sections whose key changed (none, when this viewer's
        projection did not change). False when the whole game view must be built again instead."""
        page = self.page
        if self.counts_only():  # the one part that shows them, built once for the room (``status``)
            screen = self.part("status").screen
            if screen is not None:
                screen.show(self.status_model())
            return True
        proj = page.room.projection(page.token_hash)
        if proj is None or self.keys is None or self.proj is None or self.game_id != proj.game_id:
            return False
        if (proj.viewer_kind, proj.viewer_seat) != (self.proj.viewer_kind, self.proj.viewer_seat):
            return False
        p = proj.view
        keys = self.section_keys(p)
        changed = [name for name, key in keys.items() if self.keys.get(name) != key]
        self.proj, self.p, self.keys, self.made_after = proj, p, keys, page.room.game.applied
        self.room_seen = room_keys(page.room)
        if not changed:
            return True
        if page.in_game(p["phase"]) and "title" not in changed:
            changed.append("title")  # the header's colours are drawn by the ``heading`` part
        for name in changed:
            self.part(name).refresh()
        return True

    def counts_only(self) -> bool:
        """Whether all that changed for this viewer since his projection was read is the step's public counts (a vote,
        a townsman's night choice, a Ready of someone else: most taps, for all but the tapper): then only the ``status``
        part can change, and it is built once for the room from the spectator's projection, so the page draws it
        without reading its own projection again (issue 32: a dozen projections, keys and comparisons at every tap).
        It keeps the projection it has: it differs from the present one in those counts alone, which no other part
        draws (``NOT_PANEL_KEYS``; the next full ``update`` reads it again). Anything else (his own part reachable
        since, another public value, the clock, the presence, the result's hold, a moderator's controls) is the full
        ``update``'s."""
        proj, page = self.proj, self.page
        if proj is None or self.keys is None or self.made_after < 0:
            return False
        room = page.room
        if room.lobby.is_moderator(page.token_hash):  # a player holding the moderator's controls: his fouls' grid
            return False
        moved = room.moved_since(proj, self.made_after)  # None for another game or the moderator's view
        if moved is None or not moved or not moved <= ONLY_COUNTS:
            return False
        return bool(self.p.get("result_hold")) == room.holding_now() and self.room_seen == room_keys(room)

    def _title(self, d: Draft) -> None:
        page, room = self.page, self.page.room
        d.veil_key(f"{self.game_id}-{self.p['phase']}-{self.p['day']}")  # a new phase covers a revealed screen
        with d.card("mafia-card"):
            with d.div("mafia-title"):
                d.label(wording.phase_title(page.t, self.p["phase"], int(self.p["day"])), "mafia-big", "phase")
                remaining = room.remaining()
                if remaining is not None and self.p["phase"] != "ended":
                    d.clock(components.countdown_text(page.t, room), None if room.paused else remaining,
                            "mafia-countdown", "countdown")
            clock_bar(self, d)  # the host's clock buttons

    def role_card(self, d: Draft) -> None:
        """The role, its team and the roles this seat knows, in a few short lines at the top of the revealed
        panel (the move stays in the first screenful); what the role does is in ``role_help``."""
        me = self.me
        if me is None or self.p["phase"] == "ended" or d.for_handlers:  # lines only, no button (``Screen.handlers``)
            return
        _, rules = self.page.t, self.p["rules"]
        with d.revealed():
            role = str(me["role"])
            with d.row("w-full items-baseline no-wrap gap-2"):
                d.label(wording.role_name(_, rules, role), "text-xl font-bold", "my-role")
                team = self.p.get("teams", {}).get(str(me["seat"]))
                if team:
                    d.label(_("Team: {team}").format(team=wording.team_name(_, team)), "mafia-muted")
            others = {int(seat): str(r) for seat, r in self.p.get("roles", {}).items() if int(seat) != me["seat"]}
            if others:
                with d.div("mafia-known"):
                    d.label(_("You know:"), "font-bold")
                    for seat, other in sorted(others.items()):
                        d.label(_("{name}: {role}").format(name=self.name_of(seat),
                                                           role=wording.role_name(_, rules, other)), tid="known")

    def panel(self, d: Draft) -> None:
        """The ``seats_or_panel`` part: what this viewer does at this step (its counts in the ``status`` part, in
        the slot)."""
        phase = self.p["phase"]
        if self.p.get("actions"):  # the phone vibrates when this viewer has something to do at a new step
            d.buzz(f"{self.game_id}-{self.p['step']}")
        if self.p.get("result_hold"):  # the day's result alone, on every screen, before the night begins
            night.held_result(self, d)
            return
        if phase == "night":
            night.result(self, d)  # first: the day's result, on every phone (issue 27)
            moderator_night(self, d)  # the moderator's overview of the night before his foul grid
        if self.viewer_kind == "moderator" and self.action("foul"):
            day.moderator_panel(self, d)  # first by day: the foul grid in the moderator's first screenful
        if phase == "ended":
            outcome.render(self, d)
        elif phase == "night":
            night.render(self, d)
        else:
            day.render(self, d)

    def status(self, d: Draft) -> None:
        """The counts of the current step (who is still choosing, ready, the tally): their own part. They are
        public, so the part is built once for every page of the room, from the spectator's projection
        (``shared_parts``); the key names what it reads beyond it: the language. (It reads the names and the bot
        marks too, the same on every page of the room and fixed for a game: a ``SeatInfo``'s name never changes,
        and ``shared_parts`` forgets its builds at every new state of the room, a new game included.)"""
        room = self.page.room
        shared_parts.draw(d, room, self._status_key(), self._public_status)

    def status_model(self) -> str:
        """The ``status`` part's model as ``status`` draws it (a page redrawing that part alone: ``update``)."""
        return shared_parts.model(self.page.room, self._status_key(), self._public_status)

    def _status_key(self) -> tuple[Any, ...]:
        return ("status", self.page.identity.language, self.p.get("phase"), self.p.get("result_hold"))

    def _public_status(self, d: Draft) -> None:
        public = self.public()
        if public is not None:
            public._status(d)

    def public(self) -> GameView | None:
        """A view of this page's language and names on the spectator's projection (what any viewer may see, and
        nothing more): what a part shared by every page is built from."""
        proj = self.page.room.projection(None)
        if proj is None:
            return None
        public = GameView(self.page)
        public.proj, public.p = proj, proj.view
        return public

    def cover(self, d: Draft) -> None:
        """The ``cover`` part, in the panel's ``cover`` slot: the night's public lines (``night.cover_kind``: the
        covered words and the grid of the living, a dead seat's or a watcher's words and grid, the grid under the
        held result). The same on every page of a kind, so built once per change of the room for all of them from
        the spectator's projection (``shared_parts``); the key names what it reads beyond it: the language and the
        kind (the names and the bot marks too, fixed for a game, as ``status`` says). This page's own seat goes
        beside the model (``Draft.own_seat``): the browser marks its tile."""
        kind = night.cover_kind(self.p)
        if kind is None:
            return
        me = self.me
        d.own_seat(int(me["seat"]) if me is not None else 0)
        key = ("cover", self.page.identity.language, kind)  # the phase and the hold are in the kind
        shared_parts.draw(d, self.page.room, key, lambda draft: self._public_cover(draft, kind))

    def _public_cover(self, d: Draft, kind: str) -> None:
        public = self.public()
        if public is not None:
            night.cover(public, d, kind)

    def _status(self, d: Draft) -> None:
        phase = self.p.get("phase")
        if phase == "night" and not self.p.get("result_hold"):
            night.waiting(self, d)
        elif phase == "vote":
            day.tally(self, d)
        elif phase == "discussion":
            day.ready_count(self, d)
        elif phase == "eliminate_all":
            day.yes_count(self, d)

    def heading(self, d: Draft) -> None:
        """The ``heading`` part (after the header): the phase and countdown, a seat's role card, what a moderator or
        a spectator is."""
        _ = self.page.t
        self._title(d)
        heading_notes(self, d)

    def record(self, d: Draft) -> None:
        """The ``settings_or_record`` part: the news, the role's help, the players (``record_part``), and more
        (``record_with_controls``)."""
        record_with_controls(self, d)

    def chat(self, d: Draft) -> None:
        """The ``start_or_chat`` part: the chat (``chat_part``)."""
        self.chat_part.draw(d)

    def chat_added(self, line: ChatLine) -> None:
        self.chat_part.added(line)


RoomKeys = tuple[tuple[Any, ...], tuple[Any, ...]]
_ROOM_KEYS: weakref.WeakKeyDictionary[Room, tuple[int, RoomKeys]] = weakref.WeakKeyDictionary()


def room_keys(room: Room) -> RoomKeys:
    """What the section keys read of the room beyond the viewer's projection, the same for every page: the clock
    (the stage, the deadline, the pause, the notices, the moderator gone) and who is online (the notices too). Read
    once per telling of the pages (``Audience.telling``: nothing changes while they draw), fresh outside one (a
    page's first draw)."""
    telling = room.audience.telling
    held = _ROOM_KEYS.get(room)
    if telling is not None and held is not None and held[0] == telling:
        return held[1]
    notices = room.notices.count
    keys = ((room.stage, room.deadline, room.paused_remaining, notices, moderator_presence.moderator_gone(room)),
            (tuple(room.seats_connected()), notices))
    if telling is not None:
        _ROOM_KEYS[room] = (telling, keys)
    return keys


def heading_notes(view: GameView, d: Draft) -> None:
    """Under the phase: the room's notices (the same lines for everyone), then what this viewer is; a phone that
    only watches gets the form that moves a seat to it with a code."""
    _, page = view.page.t, view.page
    moving.notices(d, page)  # a seat moved to another phone, a new host
    if view.viewer_kind == "spectator":
        d.label(_("You are watching this game."), "mafia-muted")
        moving.take_form(d, page)
    elif view.viewer_kind == "moderator":
        d.label(_("You are the moderator: you see every role."), "mafia-muted")
    elif page.room.is_moderator(page.token_hash):
        d.label(_("You hold the moderator's controls: the clock and the fouls. You see only your own role."),
                "mafia-muted")


_FOUL_CHOICES: weakref.WeakKeyDictionary[GameView, PendingChoice] = weakref.WeakKeyDictionary()


def record_with_controls(view: GameView, d: Draft) -> None:
    """A player's moderator controls (``webgame.room.host_watch``: his own foul choice, apart from his seat's pick),
    the news, the role's help, the players (``record_part``), moving a seat to another phone (``moving``)."""
    seat, page = view.viewer_kind == "seat", view.page
    if seat and view.p.get("moderator_actions"):
        choice = _FOUL_CHOICES.setdefault(view, PendingChoice()).at(int(view.p.get("step", -1)))
        day.moderator_panel(view, d, choice)
    view.record_part.draw(d)
    if seat:  # his own seat to another phone: the code behind the reveal only
        moving.owner_offer(d, page, page.settings_or_record, behind_reveal=True)
    moving.host_codes(d, page, page.settings_or_record, behind_reveal=seat)


def clock_bar(view: GameView, d: Draft) -> None:
    """The host's clock: small buttons on one line under the countdown (the grid stays in the first screen)."""
    page, room = view.page, view.page.room
    if not room.is_host(page.token_hash) or room.stage.value != "playing":
        return
    _ = page.t
    token_hash, step = page.token_hash, int(view.p.get("step", -1))
    with d.row("w-full justify-end gap-1 mafia-clock-row"):  # wraps rather than pass the screen's edge
        if room.paused:
            d.button(_("Resume"), lambda: components.guarded(_, lambda: room.resume(token_hash)), "resume",
                     outline=True, no_caps=True)
        else:
            d.button(_("Pause"), lambda: components.guarded(_, lambda: room.pause(token_hash)), "pause",
                     outline=True, no_caps=True)
        d.button(_("+30 s"), lambda: components.guarded(_, lambda: room.extend(token_hash)), "extend",
                 outline=True, no_caps=True)
        d.button(_("End now"), lambda: components.guarded(_, lambda: room.skip(token_hash, step)), "skip",
                 outline=True, no_caps=True)

"""``/r/CODE/screen``: the room's TV, read from across the room, and its narrator; from the spectator's projection.

Lobby: the QR code and who has joined (up to 30). Game: the phase and the countdown in big type; the step's
progress without names (at night "7 of 9 have chosen", the day's ready count, the vote as a bar per candidate); when
a vote ends, its result alone for a few seconds; the latest deaths as big cards; every seat (dead ones with the role
the table was shown, uk: each seat's fouls); the room's QR code and code in a corner all game long. After the game:
the winner, every role and the timeline, each line once, large, in pages that turn by themselves.

A TV has nobody to scroll it: the page is exactly the screen's height (1920x1080, 1280x720 alike), its top row holds
the title, the language and the narrator's switch, the caption has its own row at the bottom (never over the game),
and ``static/tv.js`` shrinks the type of the body between them until it fits (``static/tv.css``).

The narrator (``webgame.pages.narration``): after each change of the room the page compares the spectator's projection
with the one it last narrated and appends what the narrator says as lines of its own (a caption on screen);
``static/narrator.js`` speaks each new line once. Nothing but the spectator's projection goes into a line.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import cast

from nicegui import Client, background_tasks, ui
from starlette.requests import Request

from engine.view_types import EventRecord, View
from webgame.browser.identity import BrowserIdentity
from webgame.framework.page_template import static_url
from webgame.language.i18n import N_, Translator, translator
from webgame.pages import components, narration, narrator_controls, standings, tv_parts, tv_route, tv_table, wording
from webgame.pages.components import testid
from webgame.pages.news import day_result, news_lines
from webgame.room import moderator_presence
from webgame.room.projection import Projection, ShownView
from webgame.room.rooms import Change, ChatLine, Room, Stage

HEAD = (f'<link rel="stylesheet" href="{static_url("tv.css")}">'  # static: no player text
        '<script src="/static/narrator.js" defer></script>'
        f'<script src="{static_url("tv.js")}" defer></script>')
MODERATOR_GONE = N_("The moderator's phone is gone: the game goes on with the clock alone.")
KEPT_LINES = 4  # the narrator's lines kept in the page (the last one is the caption)
DAY_CAUSES = {"vote": N_("Voted out"), "fouls": N_("Removed for fouls"),
              "kamikaze": N_("Taken along by the kamikaze")}  # a day's death card: how he left


class ScreenPage:
    """One TV's page of a room: the spectator's projection in big type, and the narrator."""

    def __init__(self, room: Room, identity: BrowserIdentity, request: Request, client: Client) -> None:
        self.room = room
        self.identity = identity
        self.t: Translator = components.tr(identity.language)
        self.url = components.room_url(request, room.code)
        self.client = client
        self.countdown: ui.label | None = None
        self.narrator = narration.settings(room)
        self.narration: ui.element | None = None
        self.line_number = 0
        self.told_game: int | None = None  # the game the narrator follows, and what he has told of it
        self.told_view: ShownView | None = None
        self.told_events = 0
        self.results_seen = 0  # the votes ended so far in the game followed: a new one is the vote's moment
        self.result_until = 0.0  # until when (time.monotonic) the vote's result is shown alone
        self.moderator_gone = False  # as last drawn: the uk moderator's phone gone for the hand-over delay
        self.parts: list[TvPart] = []  # the playing screen's parts, drawn again each when its key changes (``redraw``)
        self.frame: tuple[object, ...] | None = None  # what their layout is made of, as last drawn whole
        self.meter: tv_parts.Meter | None = None  # the progress line and bar, as drawn (``_set_progress``)

    def build(self) -> None:
        _ = self.t
        with ui.column().classes("mafia-page mafia-tv"):
            with ui.element("div").classes("mafia-tv-top"):  # the title, the language, the narrator: always shown
                components.header(_, self.identity, _("Mafia · room {code}").format(code=self.room.code),
                                  dark=lambda: True)  # the TV: white on black, readable across the room
                with ui.element("div").classes("mafia-tv-controls"):
                    unlock = testid(ui.button(_("Tap to turn the narrator on"), icon="volume_up").classes(
                        "mafia-unlock"), "narrator-unlock")
                    unlock.props["data-narrator-unlock"] = "1"
                    unlock.style("display: none")  # narrator.js shows it while the browser blocks sound
                    narrator_controls.controls(_, self.narrator)
            body = ui.element("div").classes("mafia-tv-body")
            body.props["data-tv-fit"] = "1"  # static/tv.js: its type shrinks until its content fits
            with body:
                self.body()
            self.narration = ui.element("div").classes("mafia-narration")  # a row of its own: never over the game
            self._narration_settings()
        self._follow(narrate=False)  # a TV opened mid-game says nothing of the past
        self.room.subscribe(self)  # the room's clock ticks the countdown (Room.tick)
        self.narrator.listeners.append(self._narration_settings)
        self.client.on_delete(self._closed)

    def _closed(self) -> None:
        self.room.unsubscribe(self)
        if self._narration_settings in self.narrator.listeners:
            self.narrator.listeners.remove(self._narration_settings)

    def room_changed(self, what: Change) -> None:
        if what in (Change.CLOCK, Change.TICK):
            self.tick()
            if moderator_presence.moderator_gone(self.room) == self.moderator_gone:
                return  # the clock's tick: the screen changes only when the moderator's absence does
        else:
            self._follow(narrate=True)
        self.redraw()

    def chat_added(self, line: ChatLine) -> None:
        """The TV shows no chat."""

    def tick(self) -> None:
        if self.countdown is None or self.countdown.is_deleted:
            return
        self.countdown.set_text(components.countdown_text(self.t, self.room))

    def name_of(self, seat: int) -> str:
        return wording.seat_label(self.t, seat, self.room.name_of(seat), self.room.seat_is_bot(seat))

    # ------------------------------------------------------------ the narrator

    def _narration_settings(self) -> None:
        """The narrator's language and switch, as attributes narrator.js reads before each line."""
        if self.narration is None or self.narration.is_deleted:
            return
        self.narration.props["data-lang"] = self.narrator.language
        self.narration.props["data-on"] = "1" if self.narrator.on else "0"
        self.narration.update()

    def _follow(self, narrate: bool) -> None:
        """What the narrator says since the projection he last told (only public events and phase changes)."""
        room = self.room
        proj = room.projection(None)  # the spectator's
        if proj is None or room.stage is Stage.LOBBY:
            self.told_game, self.told_view, self.told_events, self.results_seen = None, None, 0, 0
            return
        p = proj.view
        events = narration.public_events(p)
        if room.game_id != self.told_game:  # a new game: from its first phase
            self.told_game, self.told_view, self.told_events, self.results_seen = room.game_id, None, 0, 0
            if not narrate:
                self.told_view, self.told_events = p, len(events)
                self.results_seen = tv_table.result_count(p)
        results = tv_table.result_count(p)
        if results > self.results_seen and room.stage is Stage.PLAYING and not p.get("result_hold"):  # (the room's)
            self.result_until = time.monotonic() + tv_table.RESULT_SECONDS
            background_tasks.create(self._result_over(self.result_until), name="tv-result")
        self.results_seen = results
        held = bool(p.get("result_hold"))  # the room holds the day's result on the screens before the night
        if narrate:
            said = narration.phrases(self.told_view, p, events[self.told_events:])
            if held:  # the night falls when the hold ends: "the city falls asleep" waits for it
                said = [phrase for phrase in said if phrase.id != "night"]
            if said:
                self._say(said, str(p["rules"]))
        if not held or self.told_view is None:
            self.told_view = p  # during the hold, the day's view stays the one the night is told against
        self.told_events = len(events)

    def _say(self, said: list[narration.Phrase], rules: str) -> None:
        if self.narration is None or self.narration.is_deleted:
            return
        _ = translator(self.narrator.language)

        def name_of(seat: int) -> str:
            return wording.seat_label(_, seat, self.room.name_of(seat), self.room.seat_is_bot(seat))

        with self.narration:
            for phrase in said:
                line = narration.render(phrase, _, rules, name_of)
                self.line_number += 1
                label = ui.label(line.text)  # escaped: a player's name is text, never markup
                label.props["data-line"] = str(self.line_number)
                label.props["data-clips"] = " ".join(line.clips)
                if line.cue:
                    label.props["data-cue"] = line.cue
                if line.silent:
                    label.props["data-silent"] = "1"
        for old in list(self.narration.default_slot.children)[:-KEPT_LINES]:
            self.narration.remove(old)

    async def _result_over(self, until: float) -> None:
        """The vote's moment has lasted long enough: the whole screen again (paused clock or not; a later vote's
        moment ends by its own)."""
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        if self.result_until == until and not self.client.is_deleted:
            self.result_until = 0.0
            self.redraw()

    # ------------------------------------------------------------ the screen

    def redraw(self) -> None:
        """After a change: the parts of the game's screen whose key changed (``TvPart``), or the whole body when what
        it is made of changed (the lobby, a new game, the vote's moment, the end, the moderator gone, a notice). The TV
        was built again whole at every tap: some fifty elements and its QR code, more work than the room's twelve
        phones together (issue 32)."""
        proj = self.room.projection(None)
        if self.parts and proj is not None and self.frame == self._frame(proj):
            for part in self.parts:
                part.renew(proj)
            return
        self.body.refresh()

    def _frame(self, proj: Projection) -> tuple[object, ...] | None:
        """What the playing screen's layout is made of (None: drawn whole every time: the lobby, the end, the vote's
        moment: the TV's own few seconds, or the room's hold of the day's result before the night)."""
        room = self.room
        if room.stage is not Stage.PLAYING:
            return None
        held = self.result_until or (proj.view.get("result_hold")  # (webgame.room.result_hold; today's vote, if any)
                                     and day_result(self.t, proj.view, proj.events, self.name_of))
        if held and tv_table.result_count(proj.view):
            return None
        return room.game_id, moderator_presence.moderator_gone(room), tuple(room.notices.texts(self.t))

    @ui.refreshable_method
    def body(self) -> None:
        self.countdown = None
        self.parts, self.frame = [], None
        room, _ = self.room, self.t
        proj = room.projection(None)  # the spectator's
        if room.stage is Stage.LOBBY or proj is None:
            self._lobby()
            return
        p = proj.view
        self._corner()
        self._notices()
        self.moderator_gone = moderator_presence.moderator_gone(room)
        if self.moderator_gone:
            testid(ui.label(_(MODERATOR_GONE)).classes("mafia-tv-alert"), "moderator-gone")
        if room.stage is Stage.FINISHED:
            tv_parts.ended(self.t, p, self.name_of)
            standings.tv_part(self.t, room)  # the evening's standings, in big type (issue 30)
            return
        self.frame = self._frame(proj)
        if self.frame is None:  # the vote's moment: under the phase, its result alone, for a few seconds
            self._head(proj)
            tv_table.result(_, p, self.name_of, lambda e: self._death_line(e, str(p["rules"])))
            return
        self.parts = [TvPart(self._head, _head_key), TvPart(self._progress, _progress_key, self._set_progress),
                      TvPart(self._tally, _tally_key), TvPart(self._deaths, _deaths_key),
                      TvPart(self._table, _table_key), TvPart(self._news, self._news_key)]
        for part in self.parts:
            part.place(proj)

    def _head(self, proj: Projection) -> None:
        """The phase and the countdown (the room's clock sets the countdown's text: ``tick``)."""
        p, _ = proj.view, self.t
        with ui.element("div").classes("mafia-tv-head"):
            testid(ui.label(wording.phase_title(_, p["phase"], int(p["day"]))).classes("mafia-big"), "phase")
            self.countdown = testid(ui.label("").classes("mafia-countdown"), "countdown")
            self.tick()

    def _progress(self, proj: Projection) -> None:
        self.meter = tv_parts.progress(self.t, proj.view, self.name_of)

    def _set_progress(self, proj: Projection) -> bool:
        """A count that moved (a night's choice, a vote): its line and bar set in place, nothing made again (any count
        is the same line and bar); False when there is no count drawn or to draw (``progress`` then draws the part)."""
        drawn, shown = self.meter, tv_parts.meter(self.t, proj.view)
        if drawn is None or shown is None or drawn[0].is_deleted:
            return False
        tv_parts.set_meter(drawn, shown)
        return True

    def _tally(self, proj: Projection) -> None:
        tv_parts.tally(self.t, proj.view, self.name_of)  # above the players: on a TV it must not fall below the fold

    def _table(self, proj: Projection) -> None:
        tv_table.table(self.t, proj.view, proj.seats, self.name_of)

    def _corner(self) -> None:
        """The room's QR code and code, in a corner all game long (a latecomer joins as a spectator)."""
        with ui.element("div").classes("mafia-corner"):
            components.room_qr(self.url)
            testid(ui.label(self.room.code).classes("mafia-corner-code"), "corner-code")

    def _notices(self) -> None:
        """What the room told everyone: a seat moved to another phone, a new host (a theft cannot go unseen)."""
        for text in self.room.notices.texts(self.t):
            testid(ui.label(text).classes("mafia-tv-progress"), "notice")

    def _deaths(self, proj: Projection) -> None:
        """The latest deaths as big cards: today's, and at night the previous day's."""
        p = proj.view
        latest = _latest_deaths(p)
        if not latest:
            return
        with ui.element("div").classes("mafia-deaths"):
            for event in latest:
                with ui.element("div").classes("mafia-death"):
                    testid(ui.label(self.name_of(int(event["seat"]))).classes("mafia-death-name"), "death")
                    ui.label(self._death_line(event, str(p["rules"]))).classes("mafia-death-cause")

    def _death_line(self, event: EventRecord, rules: str) -> str:
        """How he left, as the table may know it: at night only that he died; by day the vote, fouls, the kamikaze."""
        _ = self.t
        cause = str(event.get("cause", ""))
        if event.get("phase") == "night":
            parts = [_("Died tonight")]
        elif cause in DAY_CAUSES:
            parts = [_(DAY_CAUSES[cause])]
        else:
            parts = [_("Died")]
        if event.get("role"):
            parts.append(wording.role_name(_, rules, str(event["role"])))
        return " · ".join(parts)

    def _news_key(self, proj: Projection) -> object:
        return news_lines(self.t, proj.view, proj.events, self.name_of, 0)[0][-4:]  # the lines it shows

    def _news(self, proj: Projection) -> None:
        """The latest public announcements (the phones' news, the spectator's part of it)."""
        _ = self.t
        lines, _older = news_lines(_, proj.view, proj.events, self.name_of, 0)
        if lines:
            with ui.card().classes("mafia-card mafia-news"):
                ui.label(_("News")).classes("font-bold")
                for line, _private in lines[-4:]:
                    testid(ui.label(line), "news")

    # ------------------------------------------------------------ the lobby

    def _lobby(self) -> None:
        room, _ = self.room, self.t
        with ui.element("div").classes("mafia-tv-lobby"):
            with ui.element("div").classes("mafia-tv-join"):
                components.room_qr(self.url)
                ui.label(_("Scan to join, or open:")).classes("mafia-tv-join-title")
                ui.label(self.url).classes("break-all")
                testid(ui.label(room.code).classes("mafia-big tracking-widest"), "code")
            with ui.element("div").classes("mafia-tv-lobby-side"):
                self._notices()
                tv_table.lobby_seats(_, room.players(), lambda seat: room.is_connected(seat.token_hash))
                standings.tv_part(_, room)  # between games: the evening so far


class TvPart:
    """A part of the TV's playing screen in a box of its own (``display: contents``: laid out as if it were not
    there), drawn again only when its key changed: what it reads of the spectator's projection (the language and the
    names are the page's and the game's, fixed while the part lives: a new game draws the whole body). ``adjust``:
    what changes the part in place instead, when it can (True)."""

    __slots__ = ("adjust", "box", "build", "key", "key_of")

    def __init__(self, build: Callable[[Projection], None], key_of: Callable[[Projection], object],
                 adjust: Callable[[Projection], bool] | None = None) -> None:
        self.build, self.key_of, self.adjust = build, key_of, adjust
        self.box: ui.element | None = None
        self.key: object = None

    def place(self, proj: Projection) -> None:
        self.key = self.key_of(proj)
        self.box = ui.element("div").classes("mafia-tv-part")
        with self.box:
            self.build(proj)

    def renew(self, proj: Projection) -> None:
        key = self.key_of(proj)
        if self.box is None or self.box.is_deleted or key == self.key:
            return
        self.key = key
        if self.adjust is not None and self.adjust(proj):
            return
        self.box.clear()
        with self.box:
            self.build(proj)


def _latest_deaths(p: View) -> list[EventRecord]:
    day, night = int(p["day"]), p.get("phase") == "night"
    return [e for e in narration.public_events(p) if e.get("type") == "death"
            and (int(e["day"]) == day or (night and int(e["day"]) == day - 1 and e.get("phase") != "night"))]


def _head_key(proj: Projection) -> object:
    return proj.view["phase"], proj.view["day"], proj.view["step"]  # a new step: its countdown at once


_PROGRESS_READS = ("phase", "day", "rules", "alive", "waiting", "ready", "votes", "yes_votes", "speaker",
                   "best_moves")  # what tv_parts.progress reads of the view
_TALLY_READS = ("votes", "candidates", "alive", "penalties")  # ... and tv_parts.tally, in a vote


def _progress_key(proj: Projection) -> object:
    p = cast(dict[str, object], proj.view)
    return tuple(p.get(key) for key in _PROGRESS_READS)


def _tally_key(proj: Projection) -> object:
    p = cast(dict[str, object], proj.view)
    return tuple(p.get(key) for key in _TALLY_READS) if p.get("phase") == "vote" else None


def _deaths_key(proj: Projection) -> object:
    return proj.view["rules"], _latest_deaths(proj.view)


def _table_key(proj: Projection) -> object:
    p = proj.view
    return proj.seats, p["rules"], p.get("alive"), p.get("roles"), p.get("fouls"), p.get("speaker")


def register() -> None:
    def fill(room: Room, identity: BrowserIdentity, request: Request) -> None:
        ui.add_head_html(HEAD)
        ScreenPage(room, identity, request, ui.context.client).build()

    tv_route.register(fill)  # /r/CODE/screen; built in place for its socket after a failover too (tv_route)

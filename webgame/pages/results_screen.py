"""``/r/CODE/screen``: the room's screen for a TV, in big type, from the spectator's projection only.

Lobby: the QR code and who has joined. Game: the phase, the countdown, the living and the dead, the public
announcements, the vote tally. After the game: the winner, every role and the timeline.
"""

from __future__ import annotations

from nicegui import Client, ui
from starlette.requests import Request
from starlette.responses import Response

from webgame.i18n import Translator
from webgame.identity import BrowserIdentity
from webgame.pages import components, outcome, wording
from webgame.pages.components import testid
from webgame.pages.news import news_lines
from webgame.pages.screen import Screen
from webgame.rooms import ChatLine, Room, Stage


class ScreenPage:
    """One TV's page of a room: the spectator's projection in big type."""

    def __init__(self, room: Room, identity: BrowserIdentity, request: Request, client: Client) -> None:
        self.room = room
        self.identity = identity
        self.t: Translator = components.tr(identity.language)
        self.url = components.room_url(request, room.code)
        self.client = client
        self.countdown: ui.label | None = None

    def build(self) -> None:
        _ = self.t
        with ui.column().classes("mafia-page mafia-tv"):
            components.header(_, self.identity, _("Mafia · room {code}").format(code=self.room.code),
                              dark=lambda: True)  # the TV: white on black, readable across the room
            self.body()
        self.room.subscribe(self)  # the room's clock ticks the countdown (Room.tick)
        self.client.on_delete(lambda: self.room.unsubscribe(self))

    def room_changed(self, what: str) -> None:
        if what in ("clock", "tick"):
            self.tick()
            return
        self.body.refresh()

    def chat_added(self, line: ChatLine) -> None:
        """The TV shows no chat."""

    def tick(self) -> None:
        if self.countdown is None or self.countdown.is_deleted:
            return
        self.countdown.set_text(components.countdown_text(self.t, self.room))

    def name_of(self, seat: int) -> str:
        return wording.seat_label(self.t, seat, self.room.name_of(seat))

    @ui.refreshable_method
    def body(self) -> None:
        self.countdown = None
        room, _ = self.room, self.t
        proj = room.projection(None)  # the spectator's
        if room.stage is Stage.LOBBY or proj is None:
            self._lobby()
            return
        p = proj.view
        if room.stage is Stage.FINISHED:
            Screen(lambda d: outcome.show(d, _, p, self.name_of))
            with ui.row().classes("w-full justify-center"):
                components.room_qr(self.url)
            return
        with ui.card().classes("mafia-card items-center"):
            testid(ui.label(wording.phase_title(_, p["phase"], int(p["day"]))).classes("mafia-big"), "phase")
            self.countdown = testid(ui.label("").classes("mafia-countdown"), "countdown")
            self.tick()
            if p.get("speaker"):
                ui.label(_("Now speaking: {name}").format(name=self.name_of(int(p["speaker"])))).classes("mafia-big")
        alive = [int(s) for s in p.get("alive", [])]
        dead = [s for s in range(1, proj.seats + 1) if s not in alive]
        roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
        self._tally(p)  # above the players: on a TV the tally must not fall below the fold
        with ui.row().classes("w-full gap-4 items-start mafia-columns"):
            with ui.card().classes("grow"):
                ui.label(_("Alive")).classes("font-bold")
                with ui.element("div").classes("mafia-names"):
                    for seat in alive:
                        ui.label(self.name_of(seat))
            with ui.card().classes("grow"):
                ui.label(_("Dead")).classes("font-bold")
                with ui.element("div").classes("mafia-names"):
                    for seat in dead:
                        text = self.name_of(seat)
                        if seat in roles:
                            text = _("{name}: {role}").format(name=text,
                                                              role=wording.role_name(_, p["rules"], roles[seat]))
                        ui.label(text).classes("mafia-dead")
        lines, _older = news_lines(_, p, proj.events, self.name_of, 0)
        if lines:
            with ui.card().classes("mafia-card"):
                ui.label(_("News")).classes("font-bold")
                for line, _private in lines:
                    testid(ui.label(line), "news")

    def _tally(self, p: dict[str, object]) -> None:
        _ = self.t
        votes = p.get("votes") or {}
        if p.get("phase") != "vote" or not isinstance(votes, dict):
            return
        counts: dict[int, int] = {}
        for target in votes.values():
            if target is not None:
                counts[int(target)] = counts.get(int(target), 0) + 1
        with ui.card().classes("mafia-card"):
            ui.label(_("Votes")).classes("font-bold")
            for target, count in sorted(counts.items(), key=lambda item: -item[1]):
                line = _("{name}: {count}").format(name=self.name_of(target), count=_.number(count))
                testid(ui.label(line), "tally")
            penalties = p.get("penalties") or []
            for seat in penalties if isinstance(penalties, list) else []:  # the 3-foul penalty vote, this round
                testid(ui.label(wording.penalty_text(_, self.name_of(int(seat)))).classes("font-bold"), "penalty")

    def _lobby(self) -> None:
        room, _ = self.room, self.t
        with ui.row().classes("w-full gap-8 items-center justify-center"):
            components.room_qr(self.url)
            with ui.column():
                ui.label(_("Scan to join, or open:")).classes("mafia-big")
                ui.label(self.url).classes("break-all")
                testid(ui.label(room.code).classes("mafia-big tracking-widest"), "code")
        with ui.card().classes("mafia-card"):
            players = room.players()
            ui.label(_("Players: {count}").format(count=_.number(len(players)))).classes("font-bold")
            for number, seat in enumerate(players, 1):
                with ui.row().classes("items-center gap-2"):
                    components.presence_dot(room.is_connected(seat.token_hash))
                    ui.label(wording.seat_label(_, number, seat.name))


def register() -> None:
    @ui.page("/r/{code}/screen")
    async def screen(code: str, request: Request) -> Response | None:
        identity = components.read_identity(request)
        _ = components.tr(identity.language)
        components.page_head()
        room = await components.open_room(request, code, identity)  # limits: webgame/page_limits.py, ratelimit
        if isinstance(room, Response):
            return components.not_a_page(ui.context.client, room)
        if room is None:
            components.no_room(_, identity)
            return None
        ScreenPage(room, identity, request, ui.context.client).build()
        components.hold_page(room, identity, request, seat=False)
        return None

"""The game part of a room page: built only from this viewer's projection (``engine.view.view``).

Everything placed in the element tree reaches the browser, hidden or not, so what a viewer may not know
never enters it: other players' roles come only from the projection's ``roles`` and events only from
what the engine lets this viewer read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.knowledge import Viewer, visible_events
from engine.state import GameState, Phase
from engine.view import view
from webgame import chat_limits
from webgame.i18n import Translator
from webgame.pages import components, day, evenness, night, outcome, wording
from webgame.pages.screen import Draft
from webgame.rooms import ChatLine

if TYPE_CHECKING:
    from webgame.pages.room import RoomPage

CHANNEL_LABELS = {"room": "", "mafia": "mafia", "dead": "dead"}
# Counts and tallies that change with everybody's taps: shown by ``GameView.status`` inside the panel, so
# that a vote or a finished night choice updates them without rebuilding anyone's buttons.
STATUS_KEYS = ("waiting", "votes", "yes_votes", "ready")
NOT_PANEL_KEYS = frozenset(("events", "chat", *STATUS_KEYS))  # what the panel is not drawn from
# Which of the page's parts (``RoomPage``) draws each section of ``GameView.section_keys``.
CHAT_PAGE_BYTES = 16384  # a tap for older (or the latest) chat lines is answered with this many bytes (or more)
PART_OF_SECTION = {"title": "first", "panel": "second", "status": "status", "record": "third", "chat": "fourth"}


def dated_events(state: Any, viewer: Viewer) -> list[tuple[int, str, dict[str, Any]]]:
    """(day, phase, event) for every event this viewer may read, in order, as the engine gives them to him
    (``visible_events``: a night death without its cause, a check unsigned for a sergeant, ...)."""
    return [(int(event["day"]), str(event["phase"]), event) for event in visible_events(state, viewer)]


def half_of(rules: str, day_number: int, phase: str) -> int:
    """Orders nights and days: uz plays night N then day N, uk day N then night N."""
    is_night = phase == "night"
    if rules == "uz":
        return 2 * day_number + (0 if is_night else 1)
    return 2 * day_number + (1 if is_night else 0)


def news_lines(_: Translator, state: GameState, viewer: Viewer, name_of: Callable[[int], str],
               me: int) -> tuple[list[str], list[str]]:
    """What this viewer may read, as sentences: (the last night and day, everything before)."""
    now = half_of(state.rules, state.day, str(state.phase))
    recent: list[str] = []
    older: list[str] = []
    night_deaths = False
    for event_day, phase, event in dated_events(state, viewer):
        text = wording.event_text(_, state.rules, event, name_of, me, phase)
        if text is None:
            continue
        is_recent = half_of(state.rules, event_day, phase) >= now - 1
        night_deaths = night_deaths or (is_recent and phase == "night" and event.get("type") == "death")
        (recent if is_recent else older).append(text)
    after_a_night = state.rules == "uz" or state.day > 1
    if state.phase not in (Phase.NIGHT, Phase.ENDED) and after_a_night and not night_deaths:
        recent.insert(0, _("Nobody died last night."))
    return recent, older


class GameView:
    def __init__(self, page: RoomPage) -> None:
        self.page = page
        self.p: dict[str, Any] = {}
        self.viewer = Viewer("spectator")
        self.keys: dict[str, Any] | None = None  # what each part was last drawn from (see ``update``)
        # The game draws in the page's parts (``RoomPage``), each redrawn on its own (``update``; a pick redraws
        # the panel): the heading (phase, countdown, the host's clock buttons, a seat's role card) in the first,
        # the panel in the second (the step's counts are the ``status`` part in its slot), the news and the
        # players in the third, the chat in the fourth.
        self._news_made: tuple[Any, tuple[list[str], list[str]]] | None = None  # sentences, made once per key
        self.game_id: int | None = None
        self.chat_sent = 0  # messages this page wrote that the room took (the browser then empties its box)
        self.saying = False  # a message of this page is on its way to the room
        self.chat_last: ChatLine | None = None  # the last chat line shown (None: the latest ones)

    # ------------------------------------------------------------ helpers for the phase modules

    @property
    def _(self) -> Any:
        return self.page.t

    def name_of(self, seat: int) -> str:
        return wording.seat_label(self.page.t, seat, self.page.room.name_of(seat))

    @property
    def me(self) -> dict[str, Any] | None:
        me = self.p.get("me")
        return me if isinstance(me, dict) else None

    def action(self, kind: str) -> dict[str, Any] | None:
        return next((a for a in self.p.get("actions", []) if a.get("type") == kind), None)

    def pending(self) -> Any:
        """This phone's unconfirmed pick, reset when the step changes."""
        choice = self.page.choice
        if choice.step != self.p.get("step"):
            choice.step, choice.act, choice.target, choice.note = int(self.p.get("step", -1)), "", None, False
        return choice

    async def send(self, action: Action) -> None:
        """One tap, once: a second tap while the first is on its way does nothing."""
        page = self.page
        if page.busy:
            return
        page.busy = True
        try:
            if await components.guarded(page.t, lambda: page.room.act(page.token_hash, action)):
                page.choice.target = None
        finally:
            page.busy = False

    def target_grid(self, d: Draft, seats: list[int], enabled: list[int], selected: int | None,
                    on_pick: Callable[[int], Any], mark: str = "target") -> None:
        """Living players as big buttons; the same grid for every role, only the enabled ones differ."""
        with d.div("mafia-grid"):
            for seat in seats:
                d.button(self.name_of(seat), lambda s=seat: on_pick(s), f"{mark}-{seat}", cls="mafia-target",
                         outline=seat != selected, enabled=seat in enabled, no_caps=True)

    # ------------------------------------------------------------ rendering

    def prepare(self) -> bool:
        """Read this viewer's projection before the parts are drawn (a new game, a reload, a new seat); False
        when there is no game to show."""
        page, room = self.page, self.page.room
        state = room.state
        if state is None:
            self.p, self.keys = {}, None
            return False
        self.viewer = room.viewer(page.token_hash)
        self.p = view(state, self.viewer, room.public())
        self.keys, self.game_id = self.section_keys(self.p), room.game_id
        page.in_game(self.p["phase"])
        return True

    def buzz(self) -> None:
        """The phone vibrates when this viewer has something to do at a new step."""
        if self.p.get("actions"):
            self.page.buzz(int(self.p["step"]))

    def part(self, name: str) -> Any:
        """The page's part that draws the section ``name`` of ``section_keys``."""
        return getattr(self.page, PART_OF_SECTION[name])

    # ------------------------------------------------------------ updating what changed

    def section_keys(self, p: dict[str, Any]) -> dict[str, Any]:
        """What each section of the screen is built from, all of it from this viewer's projection (or the
        room's public presence dots): a section is rebuilt only when its key changes."""
        room, me = self.page.room, p.get("me")
        return {
            "title": (p["phase"], p["day"], room.stage, room.deadline, room.paused_remaining,
                      (room.paused, p["step"]) if room.is_host(self.page.token_hash) else None,
                      me and me["seat"], me and me["role"], p.get("roles"), p.get("teams")),  # the role card
            "panel": {key: value for key, value in p.items() if key not in NOT_PANEL_KEYS},
            "status": (p["phase"], len(p.get("alive", [])), *(p.get(key) for key in STATUS_KEYS)),
            "record": (self.news_key(p), p.get("alive"), p.get("roles"), p.get("fouls"), p.get("speaker"),
                       tuple(room.is_connected(seat.token_hash) for seat in room.seating)),  # news, players
            "chat": ((p.get("chat") or {}).get("read"), (p.get("chat") or {}).get("write")),
        }

    def update(self) -> bool:
        """After a change of the room: rebuild only the sections whose key changed (none, when this viewer's
        projection did not change). False when the whole game view must be built again instead."""
        page, room = self.page, self.page.room
        state = room.state
        if state is None or self.keys is None or self.game_id != room.game_id:
            return False
        viewer = room.viewer(page.token_hash)
        if viewer != self.viewer:
            return False
        p = view(state, viewer, room.public())
        keys = self.section_keys(p)
        changed = [name for name, key in keys.items() if self.keys.get(name) != key]
        self.p, self.keys = p, keys
        if not changed:
            return True
        if page.in_game(p["phase"]) and "title" not in changed:
            changed.append("title")  # the header's colours are drawn by the first part
        for name in changed:
            self.part(name).refresh()
        self.buzz()
        return True

    def _title(self, d: Draft) -> None:
        page, room = self.page, self.page.room
        with d.card("mafia-card items-center"):
            d.label(wording.phase_title(page.t, self.p["phase"], int(self.p["day"])), "mafia-big", "phase")
            remaining = room.remaining()
            if remaining is not None and self.p["phase"] != "ended":
                d.clock(components.countdown_text(page.t, room), None if room.paused else remaining,
                        "mafia-countdown", "countdown")
            self._clock_bar(d)  # the host's clock buttons

    def _clock_bar(self, d: Draft) -> None:
        page, room = self.page, self.page.room
        if not room.is_host(page.token_hash) or room.stage.value != "playing":
            return
        _ = page.t
        token_hash, step = page.token_hash, int(self.p.get("step", -1))
        with d.row("w-full justify-center gap-2"):
            if room.paused:
                d.button(_("Resume"), lambda: components.guarded(_, lambda: room.resume(token_hash)), "resume",
                         icon="play_arrow")
            else:
                d.button(_("Pause"), lambda: components.guarded(_, lambda: room.pause(token_hash)), "pause",
                         icon="pause")
            d.button(_("+30 s"), lambda: components.guarded(_, lambda: room.extend(token_hash)), "extend")
            d.button(_("End now"), lambda: components.guarded(_, lambda: room.skip(token_hash, step)), "skip",
                     icon="skip_next")

    def _role_card(self, d: Draft) -> None:
        me = self.me
        if me is None:
            return
        _, rules = self.page.t, self.p["rules"]

        def toggle() -> None:
            self.page.role_shown = not self.page.role_shown
            self.page.first.refresh()
            evenness.pad_alone(self.page, evenness.ROLE_CARD_BYTES)  # its size does not tell the role

        with d.card("mafia-card"):
            if not self.page.role_shown:
                d.button(_("Tap to see your role"), toggle, "show-role", cls="w-full mafia-target", icon="visibility")
                return
            role = str(me["role"])
            d.label(wording.role_name(_, rules, role), "mafia-big", "my-role")
            team = self.p.get("teams", {}).get(str(me["seat"]))
            if team:
                d.label(_("Team: {team}").format(team=wording.team_name(_, team)))
            d.label(wording.role_description(_, rules, role))
            others = {int(seat): str(r) for seat, r in self.p.get("roles", {}).items() if int(seat) != me["seat"]}
            if others:
                d.label(_("You know:"), "font-bold")
                for seat, other in sorted(others.items()):
                    d.label(_("{name}: {role}").format(name=self.name_of(seat),
                                                       role=wording.role_name(_, rules, other)), tid="known")
            d.button(_("Hide my role"), toggle, "hide-role", cls="w-full mafia-target", icon="visibility_off")

    def panel(self, d: Draft) -> None:
        """The second part: what this viewer does at this step (its counts in the ``status`` part, in the slot)."""
        phase = self.p["phase"]
        if phase == "ended":
            outcome.render(self, d)
        elif phase == "night":
            night.render(self, d)
        else:
            day.render(self, d)
        if self.viewer.kind == "moderator" and self.action("foul"):
            day.moderator_panel(self, d)

    def status(self, d: Draft) -> None:
        """The counts of the current step (who is still choosing, ready, the tally): their own part."""
        phase = self.p.get("phase")
        if phase == "night":
            night.waiting(self, d)
        elif phase == "vote":
            day.tally(self, d)
        elif phase == "discussion":
            day.ready_count(self, d)
        elif phase == "eliminate_all":
            day.yes_count(self, d)

    @staticmethod
    def news_key(p: dict[str, Any]) -> Any:
        return p["phase"], p["day"], p.get("events")  # the news sentences are made again only when these change

    def news_text(self) -> tuple[list[str], list[str]]:
        room = self.page.room
        if room.state is None:
            return [], []
        key = (self.viewer, room.game_id, self.news_key(self.p))
        if self._news_made is None or self._news_made[0] != key:
            me = self.me["seat"] if self.me else 0
            self._news_made = key, news_lines(self.page.t, room.state, self.viewer, self.name_of, me)
        return self._news_made[1]

    def heading(self, d: Draft) -> None:
        """The first part (after the header): the phase and countdown, a seat's role card, what a moderator or
        a spectator is."""
        _ = self.page.t
        self._title(d)
        self._role_card(d)
        if self.viewer.kind == "spectator":
            d.label(_("You are watching this game."), "mafia-muted")
        elif self.viewer.kind == "moderator":
            d.label(_("You are the moderator: you see every role."), "mafia-muted")

    def record(self, d: Draft) -> None:
        """The third part: the news, then the players."""
        self._news(d)
        self._players(d)

    def _news(self, d: Draft) -> None:
        """Announcements and private results of the last night and day, then everything before."""
        _ = self.page.t
        recent, older = self.news_text()
        if recent:
            with d.card("mafia-card"):
                d.label(_("News"), "font-bold")
                for text in recent:
                    d.label(text, tid="news")
        if older:
            with d.expansion(_("Earlier"), False, "w-full"):
                for text in older:
                    d.label(text)

    def _players(self, d: Draft) -> None:
        room, _ = self.page.room, self.page.t
        p = self.p
        alive = set(p.get("alive", []))
        roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
        everything = self.viewer.kind == "moderator" or p["phase"] == "ended"
        fouls = {int(seat): float(value) for seat, value in p.get("fouls", {}).items()}
        with d.expansion(_("Players"), p["phase"] != "night", "w-full"):
            for seat in range(1, len(room.seating) + 1):
                with d.row("w-full items-center no-wrap gap-2"):
                    d.dot(room.is_connected(room.seating[seat - 1].token_hash))
                    d.label(self.name_of(seat), "grow break-all" + ("" if seat in alive else " mafia-dead"))
                    if seat in roles and (everything or seat not in alive):
                        d.label(wording.role_name(_, p["rules"], roles[seat]), "mafia-muted")
                    if fouls.get(seat):
                        d.badge(_("fouls: {count}").format(count=_.number(fouls[seat])), "warning")
                    if seat == p.get("speaker"):
                        d.icon("record_voice_over")

    def chat(self, d: Draft) -> None:
        """The fourth part: the chat this viewer may read, and the box where he writes to the channels he may
        write to."""
        room, _ = self.page.room, self.page.t
        chat = self.p.get("chat", {"read": [], "write": []})
        readable, writable = chat["read"], list(chat.get("write", []))
        if not readable:
            return
        lines = [line for line in room.chat if line.channel in readable]
        end = len(lines)
        if self.chat_last is not None:  # a page of older lines, ending at the line it ended at when asked for
            end = next((index + 1 for index, line in enumerate(lines) if line is self.chat_last), end)
        start = max(0, end - chat_limits.SHOWN)
        with d.card("mafia-card"):
            d.label(_("Chat"), "font-bold")
            if start > 0:
                d.button(_("Earlier messages"), lambda: self._chat_page(lines[start - 1]), "chat-earlier",
                         flat=True, no_caps=True)
            with d.column("mafia-chat gap-1", "chat"):
                for line in lines[start:end]:
                    with d.row("gap-1 no-wrap items-baseline"):
                        if line.channel == "mafia":
                            d.badge(_("mafia"), "negative")
                        elif line.channel == "dead":
                            d.badge(_("dead"), "grey")
                        author = self.name_of(line.seat) if line.seat else _("Moderator")
                        d.label(author + ":", "font-bold whitespace-nowrap")
                        d.label(line.text, "mafia-wrap")
            if end < len(lines):
                d.button(_("Latest messages"), lambda: self._chat_page(None), "chat-latest", flat=True,
                         no_caps=True)
            if writable:
                d.chat_box(self.channel_names(writable), self.say, "chat-input", "chat-send", _("Message"), _("Send"),
                           self.chat_sent)

    def _chat_page(self, last: ChatLine | None) -> None:
        """Show the lines up to ``last`` (None: the latest). The chat part draws ``chat_limits.SHOWN`` lines at
        most, so a new line costs every reader (and, padded, every phone) a few kilobytes, not the whole chat; the
        answer to this tap has a fixed size, whatever the chat holds (``evenness.pad_alone``)."""
        self.chat_last = last
        self.page.fourth.refresh()
        evenness.pad_alone(self.page, CHAT_PAGE_BYTES)

    async def say(self, value: Any) -> None:
        """The chat box's message: ``{channel, text}`` as the browser sends it (anything else does nothing)."""
        if not isinstance(value, dict):
            return
        page, writable = self.page, list(self.p.get("chat", {"write": []}).get("write", []))
        channel, text = value.get("channel"), value.get("text")
        if not isinstance(text, str) or not writable:
            return
        text = text[: chat_limits.INPUT_CUT + 1]  # a megabyte is refused for its length, not walked through
        if not isinstance(channel, str):
            channel = writable[0]
        self.saying = True
        try:
            await components.guarded(page.t, lambda: page.room.say(page.token_hash, channel, text))
        finally:
            self.saying = False

    def channel_names(self, channels: list[str]) -> dict[str, str]:
        _ = self.page.t
        names = {"room": _("Everyone"), "mafia": _("Mafia team"), "dead": _("The dead")}
        return {channel: names.get(channel, channel) for channel in channels}

    def chat_added(self, line: ChatLine) -> None:
        """A new line: the chat is drawn again if this viewer reads its channel. The line this page has just
        written empties its box in the same redraw (a refused message stays in the box)."""
        if self.saying and line.seat == (self.viewer.seat if self.viewer.kind == "seat" else 0):
            self.saying = False
            self.chat_sent += 1
            self.page.fourth.refresh()
        elif line.channel in self.p.get("chat", {"read": []})["read"]:
            self.page.fourth.refresh()

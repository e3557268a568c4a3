"""The ``settings_or_record`` part of a phone's game screen: the news, what the seat's role does, and the players.

Drawn from the page's projection only. The private lines of the news (a check, a visit) and the role's help are
behind the reveal (``Draft.revealed``), so the covered part is the same on every phone; the players list shows
only the roles the whole table was told (uz deaths) until the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.view_types import EventRecord
from webgame.pages import shared_parts, wording
from webgame.pages.news import NewsLine, news_lines
from webgame.room.projection import ShownView

NewsKey = tuple[str, int, list[EventRecord]]  # what the news sentences are made from
_PHASES_READ = ("night", "ended")  # the phases the part tells apart from the day's steps (``news_key``)

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen
    from webgame.pages.screen import Draft


class RecordPart:
    """The news and the players of one page's game view (its sentences made once per change of the news)."""

    def __init__(self, view: GameScreen) -> None:
        self.view = view
        # (viewer kind, seat, game, news key) -> (the recent sentences, the older ones)
        self._news_made: tuple[tuple[str, int, int, NewsKey], tuple[list[NewsLine], list[NewsLine]]] | None = None

    @staticmethod
    def news_key(p: ShownView) -> NewsKey:
        """What the part reads of the game's time: the day, and whether it is night or the end (``news_lines``:
        the last night and day apart from before, "nobody died" by day; the players list folded at night), not
        which step of the day it is. From the discussion to the vote, no event between, the news is not made or
        drawn again on every phone (issue 32: a sixth of the pages' work at that step's end)."""
        phase = p["phase"]
        return phase if phase in _PHASES_READ else "day", p["day"], p["events"]

    def news_text(self) -> tuple[list[NewsLine], list[NewsLine]]:
        proj = self.view.proj
        if proj is None:
            return [], []
        key = (proj.viewer_kind, proj.viewer_seat, proj.game_id, self.news_key(self.view.p))
        if self._news_made is None or self._news_made[0] != key:
            me = self.view.me["seat"] if self.view.me else 0
            self._news_made = key, news_lines(self.view.page.t, proj.view, proj.events, self.view.name_of, me)
        return self._news_made[1]

    def role_help(self, d: Draft) -> None:
        """What this seat's role does, behind the reveal (below the news)."""
        me = self.view.me
        if me is None or self.view.p["phase"] == "ended":
            return
        _, rules = self.view.page.t, self.view.p["rules"]
        with d.revealed(), d.card("mafia-card"):
            d.label(_("Your role"), "font-bold")
            d.label(wording.role_description(_, rules, str(me["role"])), "text-sm", "role-help")

    def draw(self, d: Draft) -> None:
        """The ``settings_or_record`` part: the news, what this seat's role does (revealed only), then the players."""
        self._news(d)
        self.role_help(d)
        self._players(d)

    def _news(self, d: Draft) -> None:
        """Announcements of the last night and day, then everything before; the private results (a check, a
        visit) of a seat only behind its reveal, so the covered news is the same on every phone."""
        _ = self.view.page.t
        recent, older = self.news_text()
        secret = self.view.viewer_kind == "seat" and self.view.p["phase"] != "ended"

        def news(d: Draft) -> None:
            with d.card("mafia-card"):
                d.label(_("News"), "font-bold")
                self._lines(d, recent, secret, "news")

        def earlier(d: Draft) -> None:
            with d.expansion(_("Earlier"), False, "w-full"):
                self._lines(d, older, secret)

        for lines, draw in ((recent, news), (older, earlier)):
            if not lines:
                continue
            if secret and all(private for _text, private in lines):
                with d.revealed():  # only private lines: the card itself would tell
                    draw(d)
            else:
                draw(d)

    @staticmethod
    def _lines(d: Draft, lines: list[NewsLine], secret: bool, tid: str | None = None) -> None:
        for text, private in lines:
            if secret and private:
                with d.revealed():
                    d.label(text, "mafia-private", tid)
            else:
                d.label(text, tid=tid)

    def _players(self, d: Draft) -> None:
        """The players: every role for the moderator and at the end; else only what the whole table was told, the
        same list on every phone of a language, built once per change of the room from the spectator's projection
        (``shared_parts.graft``); the key names what it reads beyond it: the language and who is online."""
        view = self.view
        if view.viewer_kind == "moderator" or view.p["phase"] == "ended":
            player_rows(view, d, everything=True)
            return
        room = view.page.room
        key = ("players", view.page.identity.language, tuple(room.seats_connected()))
        shared_parts.graft(d, room, key, self._public_players)

    def _public_players(self, d: Draft) -> None:
        public = self.view.public()
        if public is not None:
            player_rows(public, d, everything=False)


def player_rows(view: GameScreen, d: Draft, everything: bool) -> None:
    """The players list as ``view`` sees it: every role when ``everything``, else those the whole table was told."""
    room, _ = view.page.room, view.page.t
    p = view.p
    alive = set(p.get("alive", []))
    if everything:
        roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
    else:  # only the roles announced to the whole table (uz deaths): the covered list is the same for all
        roles = {int(e["seat"]): str(e["role"]) for e in p.get("events", [])
                 if e.get("type") == "death" and "role" in e and not e.get("private")}
    fouls = {int(seat): float(value) for seat, value in p.get("fouls", {}).items()}
    with d.expansion(_("Players"), p["phase"] != "night", "w-full"):
        for seat, connected in enumerate(room.seats_connected(), 1):
            with d.row("w-full items-center no-wrap gap-2"):
                d.dot(connected)
                d.label(view.name_of(seat), "grow mafia-name" + ("" if seat in alive else " mafia-dead"))
                if seat in roles and (everything or seat not in alive):
                    d.label(wording.role_name(_, p["rules"], roles[seat]), "mafia-muted")
                if fouls.get(seat):
                    d.badge(_("fouls: {count}").format(count=_.number(fouls[seat])), "warning")
                if seat == p.get("speaker"):
                    d.icon("record_voice_over")

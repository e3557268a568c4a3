"""After the game: the winner, every role, and the night-by-night timeline (phones and the TV)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import TYPE_CHECKING

from engine.view_types import View
from webgame.language.i18n import Translator
from webgame.pages import components, standings, wording

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen as GameView
    from webgame.pages.screen import Draft


def render(view: GameView, d: Draft) -> None:
    page, room, _ = view.page, view.page.room, view.page.t
    if room.is_host(page.token_hash):  # in the bar: never under the whole timeline
        token_hash = page.token_hash
        show(d, _, view.p, view.name_of)
        with d.bar():
            d.button(_("Play again"), lambda: components.guarded(_, lambda: room.play_again(token_hash)),
                     "play-again", cls="mafia-target", icon="replay")
    else:
        show(d, _, view.p, view.name_of)
        d.label(_("The host can start a new game with the same players."), "mafia-muted")
    extra = view.action("extra_points")  # the moderator's, after the game (issue 30)
    if extra is not None:
        standings.extra_points_part(d, _, page, room, extra, view.name_of)
    standings.phone_part(d, _, page, room)


def show(d: Draft, _: Translator, p: View, name_of: Callable[[int], str]) -> None:
    rules = p["rules"]
    winner = str(p.get("winner") or "draw")
    with d.card("mafia-card items-center"):
        d.label(_(wording.WINNERS.get(winner, wording.WINNERS["draw"])), "mafia-big", "winner")
    alive = set(p.get("alive", []))
    roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
    with d.card("mafia-card"):
        d.label(_("Roles"), "font-bold")
        for seat in sorted(roles):
            with d.row("w-full no-wrap gap-2"):
                d.label(name_of(seat), "grow mafia-name" + ("" if seat in alive else " mafia-dead"))
                d.label(wording.role_name(_, rules, roles[seat]), "font-bold")
                scored = (p.get("points") or {}).get(str(seat))  # this game's points (issue 30)
                if scored is not None:
                    d.label(_.number(float(scored["total"])), "mafia-muted", "game-points")
    timeline = p.get("timeline") or []
    if not timeline:
        return
    with d.card("mafia-card"):
        d.label(_("What happened"), "font-bold")
        for (day, phase), items in groupby(timeline, key=lambda item: (int(item["day"]), item["phase"] == "night")):
            title = _("Night {day}") if phase else _("Day {day}")
            d.label(title.format(day=_.number(day)), "font-bold mt-2")
            for item in items:
                text = wording.timeline_text(_, rules, item, name_of)
                if text:
                    d.label(text, "text-sm", "timeline")

"""After the game: the winner, every role, and the night-by-night timeline (phones and the TV)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import TYPE_CHECKING, Any

from nicegui import ui

from webgame.i18n import Translator
from webgame.pages import components, wording
from webgame.pages.components import testid

if TYPE_CHECKING:
    from webgame.pages.game_view import GameView


def render(view: GameView) -> None:
    page, room, _ = view.page, view.page.room, view.page.t
    show(_, view.p, view.name_of)
    if room.is_host(page.token_hash):
        token_hash = page.token_hash
        testid(ui.button(_("Play again with the same players"), icon="replay",
                         on_click=lambda: components.guarded(_, lambda: room.play_again(token_hash))).classes(
            "w-full mafia-target"), "play-again")
    else:
        ui.label(_("The host can start a new game with the same players.")).classes("mafia-muted")


def show(_: Translator, p: dict[str, Any], name_of: Callable[[int], str]) -> None:
    rules = p["rules"]
    winner = str(p.get("winner") or "draw")
    with ui.card().classes("mafia-card items-center"):
        testid(ui.label(_(wording.WINNERS.get(winner, wording.WINNERS["draw"]))).classes("mafia-big"), "winner")
    alive = set(p.get("alive", []))
    roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
    with ui.card().classes("mafia-card"):
        ui.label(_("Roles")).classes("font-bold")
        for seat in sorted(roles):
            with ui.row().classes("w-full no-wrap gap-2"):
                label = ui.label(name_of(seat)).classes("grow break-all")
                if seat not in alive:
                    label.classes("mafia-dead")
                ui.label(wording.role_name(_, rules, roles[seat])).classes("font-bold")
    timeline = p.get("timeline") or []
    if not timeline:
        return
    with ui.card().classes("mafia-card"):
        ui.label(_("What happened")).classes("font-bold")
        for (day, phase), items in groupby(timeline, key=lambda item: (int(item["day"]), item["phase"] == "night")):
            title = _("Night {day}") if phase else _("Day {day}")
            ui.label(title.format(day=_.number(day))).classes("font-bold mt-2")
            for item in items:
                text = wording.timeline_text(_, rules, item, name_of)
                if text:
                    testid(ui.label(text).classes("text-sm"), "timeline")

"""The evening's standings (issue 30, ``webgame.evening.standings``) as the end screen shows them on a phone (a card:
per player
games, wins, wins by team, points; sortable; the links to each game's protocol and the CSV; the host's "new evening",
asked first; the moderator's extra points) and as the TV shows them between games, in big type.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from nicegui import ui

from engine.view_types import Offer
from webgame.evening import standings as evening
from webgame.language.i18n import Translator
from webgame.pages import components, wording
from webgame.pages.components import testid

if TYPE_CHECKING:
    from webgame.pages.screen import Draft
    from webgame.room.rooms import Room

SORTS = ("points", "wins", "name")
EXTRA_STEP = 0.25  # the moderator's choices: -limit .. +limit in quarters (the engine takes any 0.05 step)
_sort: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()  # page -> its reader's sort
_asking: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()  # page -> "new evening?" asked


def sorted_rows(rows: list[evening.Standing], by: str) -> list[evening.Standing]:
    if by == "wins":
        return sorted(rows, key=lambda r: (-r.wins, -r.points, r.name.casefold()))
    if by == "name":
        return sorted(rows, key=lambda r: r.name.casefold())
    return list(rows)  # by points: the evening's own order


def row_text(_: Translator, row: evening.Standing) -> tuple[str, str]:
    """A player's name (a bot says so) and his evening in one line."""
    name = _("{name} (bot)").format(name=row.name) if row.is_bot else row.name
    teams = _.join(_("{team}: {count}").format(team=wording.team_name(_, team), count=_.number(count))
                   for team, count in sorted(row.by_team.items()))
    line = _("Games: {games}, wins: {wins}").format(games=_.number(row.games), wins=_.number(row.wins))
    return name, line + (f" ({teams})" if teams else "")


def phone_part(d: Draft, _: Translator, page: Any, room: Room) -> None:
    """The standings card of the end screen (and the moderator's extra points above it)."""
    token_hash = page.token_hash
    state = evening.evening_of(room)
    by = _sort.get(page, "points")
    rows = sorted_rows(state.standings(), by)
    with d.card("mafia-card"):
        d.heading(_("The evening's standings"), 2, tid="standings-title")
        if not state.loaded:
            d.label(_("Adding up the evening…"), "mafia-muted")
        elif rows:
            d.toggle({key: text for key, text in zip(SORTS, (_("Points"), _("Wins"), _("Name")), strict=True)}, by,
                     lambda value: _resort(page, value), "standings-sort")
            for place, row in enumerate(rows, 1):
                name, line = row_text(_, row)
                with d.row("w-full no-wrap gap-2 items-baseline"):
                    d.label(_.number(place), "mafia-muted")
                    with d.column("grow gap-0"):
                        d.label(name, "mafia-name font-bold", "standing-name")
                        d.label(line, "text-sm mafia-muted", "standing-line")
                    d.label(_.number(float(row.points)), "font-bold", "standing-points")
            for game in state.games:
                d.link(_("Protocol of game {number}").format(number=_.number(game.number)),
                       f"/r/{room.code}/games/{game.number}", f"protocol-{game.number}", icon="description")
            d.link(_("Standings as CSV"), f"/r/{room.code}/standings.csv", "standings-csv", icon="download")
        if room.is_host(token_hash):
            if _asking.get(page):
                d.label(_("Start a new evening? The standings start again from zero."), "font-bold")
                with d.row("gap-2"):
                    d.button(_("Yes, a new evening"), lambda: _new(page, room, _), "new-evening-yes", color="negative")
                    d.button(_("No"), lambda: _ask(page, False), "new-evening-no", outline=True)
            else:
                d.button(_("New evening"), lambda: _ask(page, True), "new-evening", outline=True, icon="restart_alt")


def extra_points_part(d: Draft, _: Translator, page: Any, room: Room, action: Offer,
                      name_of: Callable[[int], str]) -> None:
    """The moderator's extra points after the game: for each player, -limit .. +limit."""
    limit, given = action["limit"], action.get("given", {})
    steps = int(round(limit / EXTRA_STEP))
    values = [round(i * EXTRA_STEP, 2) for i in range(-steps, steps + 1)]
    options = {str(v): (("+" if v > 0 else "") + _.number(v)) for v in values}
    with d.card("mafia-card"):
        d.heading(_("Extra points"), 2)
        d.label(_("Up to {limit} points per player, added or taken; everyone sees them.").format(
            limit=_.number(limit)), "text-sm mafia-muted")
        token_hash = page.token_hash

        def give(seat: int) -> Callable[[str], Awaitable[bool]]:
            async def chosen(value: str) -> bool:
                return await components.guarded(
                    _, lambda: evening.give_extra_points(room, token_hash, seat, float(value)))
            return chosen

        for seat in action.get("targets", []):
            current = str(round(float(given.get(str(seat), 0.0)), 2))
            with d.row("w-full no-wrap gap-2 items-center"):
                d.label(name_of(int(seat)), "grow mafia-name")
                d.select(options if current in options else {**options, current: _.number(float(current))}, current,
                         give(int(seat)), f"extra-{seat}", aria_label=_("Extra points"))


def _resort(page: Any, value: str) -> None:
    _sort[page] = value if value in SORTS else "points"
    page.redraw()


def _ask(page: Any, on: bool) -> None:
    _asking[page] = on
    page.redraw()


async def _new(page: Any, room: Room, _: Translator) -> None:
    _asking[page] = False
    await components.guarded(_, lambda: evening.new_evening(room, page.token_hash))


def tv_part(_: Translator, room: Room) -> None:
    """The TV between games: the standings in big type (the best ten; the phones have them all)."""
    state = evening.evening_of(room)
    rows = state.standings()
    if not rows:
        return
    with ui.element("div").classes("mafia-tv-standings"):
        testid(ui.label(_("The evening's standings")).classes("mafia-tv-progress font-bold"), "tv-standings-title")
        for place, row in enumerate(rows[:10], 1):
            name, line = row_text(_, row)
            with ui.element("div").classes("mafia-tv-standing"):
                ui.label(_.number(place)).classes("mafia-tv-place")
                testid(ui.label(name).classes("mafia-death-name"), "tv-standing-name")
                ui.label(line).classes("mafia-death-cause")
                testid(ui.label(_.number(float(row.points))).classes("mafia-big"), "tv-standing-points")

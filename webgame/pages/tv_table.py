"""The TV's seats and the vote's moment, drawn from the spectator's projection (``results_screen``).

- The lobby: who has joined, up to 30 seats, in one to three columns (ten a column), each name on one line.
- The game: every seat in seat order as a tile: its name (struck out when dead, with the role the table was
  shown), the speaker marked, and in a uk game the fouls each seat has (the moderator's fouls are public).
- The vote's moment: when a vote (or "eliminate them all") has just ended, its result in big type, with who is out
  and his role as the rules say, held for a few seconds before the rest of the screen comes back.

The TV page's ``static/tv.js`` fits all of it on the screen: the box of the screen's body shrinks its type until
its content fits (``data-tv-fit``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import ceil

from nicegui import ui

from engine.view_types import EventRecord, View
from webgame.language.i18n import Translator
from webgame.pages import components, narration, wording
from webgame.pages.components import testid
from webgame.room.seating import SeatInfo

RESULT_SECONDS = 6.0  # how long the TV holds the vote's result before the rest of the screen comes back
RESULT_EVENTS = ("vote_result", "eliminate_all_result")
PER_COLUMN = 10  # the lobby's seats: ten a column, up to three columns (the largest table: 30)

NameOf = Callable[[int], str]


def lobby_seats(_: Translator, players: Sequence[SeatInfo], connected: Callable[[SeatInfo], bool]) -> None:
    """Who has joined, in seat order down the columns; every name on one line (cut with an ellipsis)."""
    columns = max(1, min(3, ceil(len(players) / PER_COLUMN)))
    rows = max(1, ceil(len(players) / columns))
    with ui.element("div").classes("mafia-tv-seats-card"):
        ui.label(_("Players: {count}").format(count=_.number(len(players)))).classes("mafia-tv-seats-title")
        grid = ui.element("div").classes("mafia-tv-seats").style(
            f"grid-template-columns: repeat({columns}, minmax(0, 1fr)); grid-template-rows: repeat({rows}, auto)")
        with grid:
            for number, seat in enumerate(players, 1):
                with testid(ui.element("div").classes("mafia-tv-seat"), "lobby-seat"):
                    components.presence_dot(seat.is_bot or connected(seat))
                    ui.label(wording.seat_label(_, number, seat.name, seat.is_bot)).classes("mafia-tv-seat-name")


def fouls_text(_: Translator, fouls: float) -> str:
    return _("Fouls: {count}").format(count=_.number(fouls))


def table(_: Translator, p: View, seats: int, name_of: NameOf) -> None:
    """Every seat as a tile, in seat order: the living, the dead (with the role the table was shown), fouls."""
    alive = {int(s) for s in p.get("alive", [])}
    roles = {int(seat): str(role) for seat, role in (p.get("roles") or {}).items()}
    fouls = {int(seat): float(count) for seat, count in (p.get("fouls") or {}).items() if float(count) > 0}
    speaker = int(p.get("speaker") or 0)
    with ui.element("div").classes("mafia-tv-table"):
        for seat in range(1, seats + 1):
            classes = "mafia-tv-tile" + ("" if seat in alive else " mafia-tv-tile-dead")
            if seat == speaker and seat in alive:
                classes += " mafia-tv-tile-speaker"
            with testid(ui.element("div").classes(classes), f"seat-{seat}"):
                ui.label(name_of(seat)).classes("mafia-tv-tile-name" + ("" if seat in alive else " mafia-dead"))
                if seat not in alive and seat in roles:
                    ui.label(wording.role_name(_, str(p["rules"]), roles[seat])).classes("mafia-tv-tile-role")
                if seat in fouls:
                    testid(ui.label(fouls_text(_, fouls[seat])).classes("mafia-tv-fouls"), "fouls")


def result_count(p: View) -> int:
    """How many votes have ended so far in this game (a new one starts the vote's moment)."""
    return sum(1 for event in narration.public_events(p) if event.get("type") in RESULT_EVENTS)


def result(_: Translator, p: View, name_of: NameOf, death_line: Callable[[EventRecord], str]) -> bool:
    """The latest vote's result in big type and who it sent out, with his role as the rules say; False if none."""
    events = narration.public_events(p)
    last = max((index for index, event in enumerate(events) if event.get("type") in RESULT_EVENTS), default=None)
    if last is None:
        return False
    event = events[last]
    text = wording.event_text(_, str(p["rules"]), event, name_of, 0, str(event.get("phase", "")))
    out = [e for e in events[last + 1:] if e.get("type") == "death" and int(e.get("day", 0)) == int(event["day"])]
    with testid(ui.element("div").classes("mafia-tv-result"), "result"):
        ui.label(_("Day {day}").format(day=_.number(int(event["day"])))).classes("mafia-tv-result-day")
        if text:
            testid(ui.label(text).classes("mafia-tv-result-text"), "result-text")
        for death in out:
            with ui.element("div").classes("mafia-death mafia-tv-result-out"):
                testid(ui.label(name_of(int(death["seat"]))).classes("mafia-death-name"), "result-out")
                ui.label(death_line(death)).classes("mafia-death-cause")
    return True

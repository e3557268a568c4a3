"""The TV draws again only the parts of its screen that changed (``results_screen.TvPart``), and what it shows is
always what a whole new drawing of its body would show.

The TV was built again whole at every change of the room (some fifty elements and its QR code: more work than the
room's twelve phones together, issue 32); now the phase, the progress and tally, the deaths, the seats and the news
are each drawn again only when what they read of the spectator's projection changed. Through whole games of both
rule sets (uk with the moderator's fouls), after every action the screen is compared with the body drawn anew.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui
from nicegui.testing import User

from engine.state import Phase
from webgame.pages.results_screen import ScreenPage

from .table import Table, drain


def shown(element: ui.element) -> list[Any]:
    """What an element shows, as a tree of (kind, classes, test id, text, style), the boxes of the parts and the
    refreshable's container left out (they lay out as if they were not there)."""
    nodes: list[Any] = []
    for child in element.default_slot.children:
        inner = shown(child)
        if type(child).__name__ == "RefreshableContainer" or child.classes == ["mafia-tv-part"]:
            nodes.extend(inner)
            continue
        text = getattr(child, "text", None) or child.props.get("content")
        nodes.append((type(child).__name__, tuple(child.classes), child.props.get("data-testid"), text,
                      tuple(sorted(child.style.items())), inner))
    return nodes


def tv_of(table: Table) -> ScreenPage:
    return next(page for page in table.room.subscribers if isinstance(page, ScreenPage))


def body_of(tv: ScreenPage) -> ui.element:
    return next(element for element in tv.client.elements.values() if element.props.get("data-tv-fit"))


async def test_the_tvs_parts_are_what_a_whole_drawing_shows(create_user: Callable[[], User]) -> None:
    for rules, players, seed in (("uz", 10, 301), ("uk", 12, 303)):
        table = await Table.seat(create_user, rules, players, seed, moderated=rules == "uk", languages=("en", "uz"))
        tv = tv_of(table)
        compared = kept = 0

        async def check(table: Table = table, tv: ScreenPage = tv) -> None:
            nonlocal compared, kept
            body = body_of(tv)
            if tv.parts:  # the playing screen in parts (the vote's moment and the end are drawn whole every time)
                ids = {element.id for element in tv.client.elements.values()}
                tv.redraw()  # nothing changed since the room's last change: nothing is drawn again
                await drain()
                assert {element.id for element in tv.client.elements.values()} == ids, "a part drawn again unchanged"
                kept += 1
            now = shown(body)
            await tv.body.refresh()  # the whole body drawn anew, at once
            assert shown(body) == now, f"step {table.state.step} ({table.state.phase}): the parts are stale"
            compared += 1

        await table.play(check, fouls=rules == "uk")
        await drain()
        assert table.state.phase is Phase.ENDED
        assert rules == "uz" or table.state.fouls, "the uk game had no foul to show"
        assert compared > 20 and kept > 0, (compared, kept)


async def test_a_vote_draws_the_tally_again_and_not_the_seats(create_user: Callable[[], User]) -> None:
    """A vote changes the tally on the TV and nothing else: from a vote's first ballot to its last, the seats' tiles,
    the QR code and the progress line stay the elements they were (the line's words and its bar set in place; nothing
    of the rest is sent to the TV again)."""
    table = await Table.seat(create_user, "uz", 8, 303, languages=("en",))
    tv = tv_of(table)
    by_step: dict[int, list[tuple[tuple[int, ...], tuple[str, ...]]]] = {}

    def check(table: Table = table) -> None:
        state = table.state
        if state.phase is not Phase.VOTE or not state.votes or tv.frame is None:
            return
        elements = list(tv.client.elements.values())
        kept = tuple(element.id for element in elements if "mafia-qr" in element.classes
                     or str(element.props.get("data-testid", "")).startswith(("seat-", "progress")))
        tally = tuple(str(getattr(element, "text", "")) for element in elements
                      if element.props.get("data-testid") in ("tally", "progress"))
        by_step.setdefault(state.step, []).append((kept, tally))

    await table.play(check)
    votes = [seen for seen in by_step.values() if len(seen) >= 3]
    assert votes, by_step
    for seen in votes:
        assert len({kept for kept, _ in seen}) == 1, "a ballot drew the seats, the QR code or the progress again"
        assert len({tally for _, tally in seen}) == len(seen), "a ballot left the tally as it was"

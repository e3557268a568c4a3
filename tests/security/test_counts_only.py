"""A page told of a change that moved only the step's public counts draws them without reading its projection again.

Most taps (a vote, a Ready, a townsman's night choice) change, for every page but the tapper's, only the counts of the
step, which the ``status`` part shows (built once for the room, ``shared_parts``). Such a page now redraws that part
alone and keeps the projection it has (``GameView.counts_only``), instead of reading its own projection, making its
keys and comparing them (issue 32). Through whole uz and uk games, with fouls and a moderator, after every action every
page's parts are exactly what they would be if drawn anew from the page's present projection (a tapper or a team
given the shortcut would keep an old panel), and the shortcut is taken often, by the spectator's page and most seats'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from nicegui.testing import User

from engine.state import Phase
from webgame.pages import game_view
from webgame.pages.game_view import GameView
from webgame.pages.record_part import RecordPart
from webgame.pages.room import RoomPage
from webgame.pages.screen import Draft

from .table import Table

PARTS = ("heading", "seats_or_panel", "status", "cover", "settings_or_record")  # the chat's lines are elements
_MS = re.compile(r',"ms":-?\d+')  # a countdown's milliseconds left: the moment it was drawn


def drawn_anew(page: RoomPage) -> dict[str, str]:
    """Each part as the page would draw it now from its present projection (its own state, picks, news kept)."""
    view = page.game
    kept = view.proj, view.p
    proj = page.room.projection(page.token_hash)
    assert proj is not None
    view.proj, view.p = proj, proj.view
    try:
        drawn = {}
        for name in PARTS:
            draft = Draft()
            getattr(page, name).build(draft)
            drawn[name] = _MS.sub("", draft.model())
        return drawn
    finally:
        view.proj, view.p = kept


def drawn(page: RoomPage) -> dict[str, str]:
    found = {}
    for name in PARTS:
        screen = getattr(page, name).screen
        assert screen is not None
        found[name] = _MS.sub("", screen.drawn_model)
    return found


async def test_a_page_whose_counts_alone_moved_draws_what_it_would_draw_anew(
        create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[Any] = []
    original = GameView.counts_only

    def counts_only(self: GameView) -> bool:
        answer = original(self)
        if answer:
            taken.append(self.viewer_seat)
        return answer

    monkeypatch.setattr(GameView, "counts_only", counts_only)
    for rules, players, seed in (("uz", 10, 411), ("uk", 12, 412)):
        taken.clear()
        checked = await Table.play_checking_pages(create_user, rules, players, seed, check)
        assert checked > 20 * players
        assert len(taken) > 5 * players, len(taken)  # taken often
        assert 0 in taken and len(set(taken)) > players // 2  # by the spectator's page and most seats' pages


def check(table: Table, page: RoomPage) -> None:
    """The page's parts are what it would draw anew from its present projection."""
    assert drawn(page) == drawn_anew(page), (page.game.viewer_kind, page.game.viewer_seat, table.state.phase,
                                             table.state.step)


def test_only_the_counts_are_taken_for_a_shortcut() -> None:
    """The counts are the keys the panel is not drawn from and the ``status`` part is (``NOT_PANEL_KEYS``)."""
    assert frozenset(game_view.STATUS_KEYS) == game_view.ONLY_COUNTS
    assert game_view.ONLY_COUNTS <= game_view.NOT_PANEL_KEYS


async def test_the_news_is_not_drawn_again_between_two_steps_of_a_day(
        create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch) -> None:
    """From the discussion to the vote, no event between, no page makes or draws its news part again (its key reads
    night, day or end, not the step: issue 32); every page's parts are still what it would draw anew, and at a night
    or a dawn the news is drawn again on every phone."""
    draws: list[int] = []
    original = RecordPart.draw

    def draw(self: RecordPart, d: Draft) -> None:
        draws.append(self.view.viewer_seat)
        original(self, d)

    monkeypatch.setattr(RecordPart, "draw", draw)
    table = await Table.seat(create_user, "uz", 8, 413, languages=("en", "ru"))
    before = [table.state.phase, len(table.state.events), 0]
    quiet_steps = new_halves = 0

    def each() -> None:
        nonlocal quiet_steps, new_halves
        state, pages = table.state, table.game_pages()
        phase, drawn_now = state.phase, len(draws) - before[2]
        if before[0] is Phase.DISCUSSION and phase is Phase.VOTE and len(state.events) == before[1]:
            assert drawn_now == 0, draws[before[2]:]
            quiet_steps += 1
        elif (before[0] is Phase.NIGHT) != (phase is Phase.NIGHT) and not table.room.holding():
            assert drawn_now >= len(pages), (before[0], phase, drawn_now)  # a night or a dawn: every page anew
            new_halves += 1
        for page in pages:
            check(table, page)
        before[:] = [phase, len(state.events), len(draws)]

    await table.play(each)
    assert quiet_steps >= 1 and new_halves >= 2, (quiet_steps, new_halves)

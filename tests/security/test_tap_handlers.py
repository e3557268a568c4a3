"""A tap finds its node's handler by building its part again without the lines that hold no button
(``Draft.for_handlers``: the role card): through whole uz and uk games, every part of every page finds the very
handlers its full drawing holds, and the role card never holds one."""

from __future__ import annotations

from collections.abc import Callable

from nicegui.testing import User

from webgame.pages.room import RoomPage
from webgame.pages.screen import Draft

from .table import Table

PARTS = ("heading", "seats_or_panel", "status", "cover", "settings_or_record", "start_or_chat")


async def test_a_tap_finds_the_handlers_of_the_full_drawing(create_user: Callable[[], User]) -> None:
    cards: list[bool] = []

    def check(_table: Table, page: RoomPage) -> None:
        for name in PARTS:
            section = getattr(page, name)
            if section.screen is None:
                continue
            full = Draft()
            section.build(full)
            assert set(section.screen.handlers) == set(full.handlers), (name, page.game.viewer_kind)
        card = Draft()
        page.game.role_card(card)
        assert card.handlers == {}
        cards.append(bool(card.nodes))

    for rules, players, seed in (("uz", 10, 511), ("uk", 12, 512)):
        cards.clear()
        await Table.play_checking_pages(create_user, rules, players, seed, check, languages=("en", "uz"))
        assert sum(cards) > 10 * players  # role cards were drawn (and held no button)

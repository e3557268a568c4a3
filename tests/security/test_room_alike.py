"""What every page of a room reads alike is made once, and never stale (issue 32).

The seat labels ("3. Px03") of a game are made once per language for every page of the room, and a new game's
seating brings new ones; the room's clock and presence, read by every page's section keys, are read once while
the pages are told of a change and fresh at any other moment, so a page never misses a redraw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from nicegui.testing import User

from webgame.pages import game_view
from webgame.pages.room import RoomPage
from webgame.room.subscribers import Change

from .table import Table, drain


def game_pages(table: Table) -> list[RoomPage]:
    return [page for page in table.room.subscribers if isinstance(page, RoomPage) and page.showing_game]


async def test_seat_labels_are_made_once_per_language_and_follow_a_new_seating(
        create_user: Callable[[], User]) -> None:
    table = await Table.seat(create_user, "uz", 8, 41, languages=("en", "ru"))
    pages = game_pages(table)
    by_language: dict[str, list[RoomPage]] = {}
    for page in pages:
        by_language.setdefault(page.identity.language, []).append(page)
    assert {"en", "ru"} <= set(by_language)
    english = by_language["en"]
    first, second = english[0].game.name_of(3), english[1].game.name_of(3)
    assert first == "3. " + table.names[2] and first is second  # one label for every English page
    russian = by_language["ru"][0].game.name_of(3)
    assert table.names[2] in russian
    renamed = [dataclasses.replace(info, name=f"New{index}") for index, info in enumerate(table.room.seating, 1)]
    table.room.game.seating = renamed  # what a new game does: a new list of seats
    assert english[0].game.name_of(3) == "3. New3"  # not the old game's label
    assert by_language["ru"][0].game.name_of(3).endswith("New3")


async def test_the_room_is_read_once_while_telling_and_fresh_between(create_user: Callable[[], User]) -> None:
    table = await Table.seat(create_user, "uz", 8, 43, languages=("en",))
    room = table.room
    reads = 0
    real = type(room).seats_connected

    def counted(self):  # type: ignore[no-untyped-def]
        nonlocal reads
        reads += 1
        return real(self)

    type(room).seats_connected = counted  # type: ignore[method-assign]
    try:
        room.notify(Change.PRESENCE)
        assert reads == 1  # every page's keys, one read
        assert room.audience.telling is None
        before = game_view.room_keys(room)
        room.notices.add("A new host")  # no telling yet: a page drawn now must see it
        after = game_view.room_keys(room)
        assert after != before and reads == 3
    finally:
        type(room).seats_connected = real  # type: ignore[method-assign]
    await drain()
    pages = game_pages(table)
    room.notify(Change.CLOCK)
    keys = [page.game.keys for page in pages]
    assert all(k is not None and k["title"][2] == after[0] for k in keys)  # every page saw the notice

"""Who is online: a burst of phones coming back (a restart) redraws the room's pages once, shortly after, not once
per phone; whether a seat's phone is connected is known at once (the host's watch reads it)."""

from __future__ import annotations

import asyncio

import pytest

from webgame.room import subscribers
from webgame.room.chat import ChatLine
from webgame.room.subscribers import Audience, Change


class Page:
    def __init__(self) -> None:
        self.told: list[Change] = []

    def room_changed(self, what: Change) -> None:
        self.told.append(what)

    def chat_added(self, line: ChatLine) -> None: ...


async def test_a_burst_of_phones_redraws_the_dots_once_and_soon() -> None:
    audience: Audience[object] = Audience(object(), "K7QXM")
    pages = [Page() for _ in range(12)]
    for page in pages:
        audience.subscribe(page)
    for seat in range(12):  # every phone of the table back within a moment
        audience.client_connected(f"seat-{seat}")
        assert audience.is_connected(f"seat-{seat}")
    assert all(page.told == [] for page in pages)
    await asyncio.sleep(subscribers.PRESENCE_DELAY + 0.2)
    assert all(page.told == [Change.PRESENCE] for page in pages)  # one redraw each instead of one per phone
    audience.client_disconnected("seat-3")
    assert not audience.is_connected("seat-3")  # known at once
    await asyncio.sleep(subscribers.PRESENCE_DELAY + 0.2)
    assert all(page.told == [Change.PRESENCE] for page in pages)  # phones still coming and going: gathered longer
    await asyncio.sleep(subscribers.PRESENCE_BUSY_DELAY - subscribers.PRESENCE_DELAY)
    assert all(page.told == [Change.PRESENCE, Change.PRESENCE] for page in pages)  # a phone gone is shown too


async def test_a_phone_coming_back_to_a_quiet_room_is_shown_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subscribers, "PRESENCE_BUSY", 0.5)
    audience: Audience[object] = Audience(object(), "K7QXM")
    page = Page()
    audience.subscribe(page)
    audience.client_connected("seat-1")
    await asyncio.sleep(subscribers.PRESENCE_DELAY + 0.2)
    assert page.told == [Change.PRESENCE]
    await asyncio.sleep(subscribers.PRESENCE_BUSY)  # the room quiet again
    audience.client_connected("seat-2")
    await asyncio.sleep(subscribers.PRESENCE_DELAY + 0.2)
    assert page.told == [Change.PRESENCE, Change.PRESENCE]

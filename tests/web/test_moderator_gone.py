"""Every phone told when the uk moderator's phone is gone (issue 27 point 6): after the room's hand-over delay
without a page of his, a line under the phase on every phone (and the TV: ``test_tv_screen``), gone again when he
is back; with the take-over allowed, the player who takes his controls is told on every phone instead."""

from __future__ import annotations

from collections.abc import Callable

from nicegui.testing import User

from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.moderator_presence import MODERATOR_GONE

from .conftest import FakeTime
from .helpers import node, settle, texts, wait_for
from .test_pages_game import moderated_uk_game


async def test_every_phone_says_the_moderator_is_gone_until_he_is_back(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, moderator, first, _hashes = await moderated_uk_game(create_user)
    spectator = create_user()
    await spectator.open(f"/r/{room.code}")
    await wait_for(lambda: "You are watching this game." in texts(spectator))
    host = room.host_hash
    assert host is not None and not room.moderator_takeover
    while room.is_connected(host):  # the moderator's phone is gone (its pages' sockets closed)
        room.client_disconnected(host)
    await wait_for(lambda: room.audience.presence_due is None)  # the pages were told who is online: that is all
    await settle(first, spectator)
    clock = Clock(rooms.registry)
    await clock.tick()
    fake_time.advance(room.handover_seconds - 1)
    await clock.tick()
    await settle(first, spectator)
    assert MODERATOR_GONE not in texts(first)  # a phone asleep for a moment is not gone
    fake_time.advance(1)
    await clock.tick()
    for phone in (first, spectator):
        await wait_for(lambda phone=phone: node(phone, "moderator-gone") is not None)
        assert MODERATOR_GONE in texts(phone)
    assert room.is_moderator(host)  # take-over off: his controls stay his, the game goes on with the clock

    room.client_connected(host)  # he is back
    await clock.tick()
    for phone in (first, spectator, moderator):
        await wait_for(lambda phone=phone: node(phone, "moderator-gone") is None)
        assert MODERATOR_GONE not in texts(phone)

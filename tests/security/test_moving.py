"""A right room code while its room is between two processes of a cluster (a failover, a hand-over): the room
exists, but another process holds it and this one could not take it yet (``leases.RoomMoving``).

That is no wrong code: the phone gets a light page saying the room is moving, which tries again by itself in two
seconds, and nothing is counted against the browser's or the address's wrong-code attempts. A code that leads
nowhere is still "no room" and still counted."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from nicegui.testing import User

from tests.web.helpers import create_room, wait_for
from webgame.guard import ratelimit
from webgame.pages import components
from webgame.room import rooms
from webgame.store import leases

from .conftest import FakeTime, limits_on_a_clock

MOVING = "This room is moving to another server."


class Claims:
    """A cluster's claims as the registry sees them: refused (another process keeps the room) until ``open``."""

    def __init__(self) -> None:
        self.open = False
        self.asked: list[str] = []
        self.callers: list[set[str]] = []  # the functions each claim was made under

    async def claim(self, code: str) -> bool:
        self.asked.append(code)
        self.callers.append({frame.function for frame in inspect.stack()})
        return self.open


@pytest.fixture(autouse=True)
def fresh_limits(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return limits_on_a_clock(monkeypatch)


@pytest.fixture
def cluster(monkeypatch: pytest.MonkeyPatch) -> Callable[[], Claims]:
    """Makes the registry a cluster's that another process beat to a room (after the test created it)."""

    def install() -> Claims:
        refusing = Claims()
        monkeypatch.setattr(rooms.registry, "claims", refusing)
        return refusing

    return install


def _wrong_codes_spent() -> int:
    return len(ratelimit.WRONG_CODE.buckets) + len(ratelimit.WRONG_CODE_BROWSER.buckets)


async def test_a_room_held_elsewhere_is_moving_not_missing(create_user: Callable[[], User],
                                                           cluster: Callable[[], Claims]) -> None:
    host = create_user()
    room = await create_room(host)
    rooms.registry.rooms.pop(room.code)  # in the database, not run here: another process holds it
    claims = cluster()
    stranger = create_user()
    for _ in range(ratelimit.WRONG_CODE_BROWSER.burst + 3):  # more than a guesser's attempts: never "too many"
        for path in (f"/r/{room.code}", f"/r/{room.code}/screen"):
            answer = await stranger.http_client.get(path)
            assert answer.status_code == 429, path
            assert MOVING in answer.text and 'http-equiv="refresh" content="2"' in answer.text, answer.text
            assert "There is no room" not in answer.text
    assert _wrong_codes_spent() == 0, "a right code counted as a wrong guess"
    assert claims.asked and set(claims.asked) == {room.code}
    with pytest.raises(leases.RoomMoving):
        await rooms.registry.find(room.code.lower())

    stranger.http_client.headers["Accept-Language"] = "ru"
    answer = await stranger.http_client.get(f"/r/{room.code}")
    assert "Эта комната переезжает на другой сервер" in answer.text and MOVING not in answer.text
    del stranger.http_client.headers["Accept-Language"]

    await stranger.open("/r/QQQQQ")  # a code of no room: "no room", and counted
    await stranger.should_see("There is no room with this code.")
    assert _wrong_codes_spent() > 0

    claims.open = True  # the hand-over is done: the same link opens the room
    await host.open(f"/r/{room.code}")
    await host.should_see(marker="start")


async def test_a_seated_player_s_return_while_the_room_moves_gets_the_moving_page(
        create_user: Callable[[], User], cluster: Callable[[], Claims]) -> None:
    host = create_user()
    room = await create_room(host)
    rooms.registry.rooms.pop(room.code)
    claims = cluster()
    answer = await host.http_client.get(f"/r/{room.code}")
    assert answer.status_code == 429 and MOVING in answer.text
    claims.open = True
    await host.open(f"/r/{room.code}")
    await host.should_see(marker="start")  # still the host: his seat was never in question


def test_the_moving_page_retries_quickly() -> None:
    assert 2 <= components.MOVING_RETRY <= 3


async def test_the_start_page_s_join_goes_to_the_room_without_taking_it(create_user: Callable[[], User],
                                                                        cluster: Callable[[], Claims]) -> None:
    """In a cluster the start page is served by any process: its Join looks the code up and sends the browser to
    the room's page (the proxy sends that to the room's own process); it does not take the room itself, which
    would move the room away from its phones and back."""
    host = create_user()
    room = await create_room(host)
    rooms.registry.rooms.pop(room.code)
    claims = cluster()
    claims.open = True
    guest = create_user()
    await guest.open("/")
    guest.find(marker="join-code").type(room.code.lower())
    guest.find(marker="join-room").click()
    await wait_for(lambda: guest.back_history[-1] == f"/r/{room.code}")
    await guest.should_see(marker="join-name")
    assert claims.asked == [room.code], "the room was claimed more than once"
    assert "room_page" in claims.callers[0] and "join" not in claims.callers[0], "claimed by the start page"
    assert _wrong_codes_spent() == 0

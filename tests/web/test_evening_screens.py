"""The evening's standings as the phones and the TV show them (issue 30): a room whose seats bots fill plays three
games; after each, the host's end screen and the TV show every player's games, wins and points in the evening's
order (worked out here from each game's own score), the TV again in the lobby between games, in its language."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from nicegui.testing import User

from engine.points import as_float, score
from webgame.evening import standings as evening
from webgame.language.i18n import translator
from webgame.pages.screen import Screen
from webgame.room.rooms import Room, Stage

from .conftest import FakeTime
from .helpers import click_when_enabled, create_room, screen_with, settle, wait_for
from .test_room_bots import play_out


def screen_texts(user: User, marker: str) -> list[str]:
    """The texts of every node ``marker`` of the page's game screen parts, in page order."""
    assert user.client is not None
    found: list[str] = []

    def walk(nodes: list[dict[str, Any]]) -> None:
        for item in nodes:
            if item.get("id") == marker:
                found.append(str(item.get("x", "")))
            walk(item.get("k", []))

    for element in list(user.client.elements.values()):
        if isinstance(element, Screen) and not element.is_deleted:
            walk(json.loads(element.props["model"]))
    return found


def element_texts(user: User, marker: str) -> list[str]:
    """The texts of the page's elements marked ``marker`` (the TV draws plain elements), in page order."""
    assert user.client is not None
    return [str(element.text) for element in list(user.client.elements.values())
            if marker in element._markers and not element.is_deleted]  # noqa: SLF001


def by_hand(games: list[dict[str, tuple[float, bool]]]) -> list[tuple[str, int, int, float]]:
    """Each name's games, wins and points over the games played, best first by points, then wins, then fewer
    games, then the name (RULES.md "Points and the evening")."""
    rows: dict[str, list[Any]] = {}
    for game in games:
        for name, (points, won) in game.items():
            row = rows.setdefault(name, [name, 0, 0, 0.0])
            row[1] += 1
            row[2] += int(won)
            row[3] += points
    ordered = sorted(rows.values(), key=lambda r: (-round(r[3], 4), -r[2], r[1], r[0].casefold()))
    return [(name, games, wins, round(points, 4)) for name, games, wins, points in ordered]


def this_game(room: Room) -> dict[str, tuple[float, bool]]:
    state = room.state
    assert state is not None and room.stage is Stage.FINISHED
    scored = score(state)
    return {info.name: (as_float(scored[seat].total), scored[seat].won) for seat, info in enumerate(room.seating, 1)}


async def test_three_games_show_the_right_standings_on_the_phone_and_the_tv_after_each(
        create_user: Callable[[], User], fake_time: FakeTime) -> None:
    phone, tv = create_user(), create_user()
    room = await create_room(phone, "Host", "uz")
    host = room.host_hash
    assert host is not None
    for _ in range(4):
        await room.add_bot(host)
    bots = {seat.name for seat in room.seats if seat.is_bot}
    await tv.open(f"/r/{room.code}/screen")
    en = translator("en")
    played: list[dict[str, tuple[float, bool]]] = []
    for number in (1, 2, 3):
        await click_when_enabled(phone, "start")
        await wait_for(lambda: room.stage is Stage.PLAYING)
        await play_out(room, host, fake_time)
        played.append(this_game(room))
        want = by_hand(played)
        await wait_for(lambda n=number: len(evening.evening_of(room).games) == n, timeout=10)
        names = [f"{name} (bot)" if name in bots else name for name, *_rest in want]
        points = [en.number(p) for *_rest, p in want]
        lines = [f"Games: {games}, wins: {wins}" for _name, games, wins, _p in want]
        await wait_for(lambda want=names: screen_texts(phone, "standing-name") == want, timeout=5)
        assert screen_texts(phone, "standing-points") == points
        assert [line.split(" (")[0] for line in screen_texts(phone, "standing-line")] == lines
        assert all(screen_with(phone, f"protocol-{game}", enabled_only=False) for game in range(1, number + 1))
        await settle(tv)
        await wait_for(lambda want=names: element_texts(tv, "tv-standing-name") == want, timeout=5)  # the end screen's
        assert element_texts(tv, "tv-standing-points") == points
        await click_when_enabled(phone, "play-again")
        await wait_for(lambda: room.stage is Stage.LOBBY)
        await settle(tv)
        await wait_for(lambda want=names: element_texts(tv, "tv-standing-name") == want, timeout=5)  # and between games

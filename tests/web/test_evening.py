"""The evening, kept (issue 30): a room's finished games add up to standings (per player by name), kept in the
database through a restart; each game's protocol exists only once it is over; the CSVs and the scenario file
round-trip; the host's new evening starts from zero."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest

from engine.points import as_float, score
from engine.roles import team_of
from engine.scenario import run
from webgame.errors import Refusal
from webgame.evening import standings as evening
from webgame.evening.protocol import load_protocol, load_scenario
from webgame.language.i18n import translator
from webgame.pages import protocol as protocol_page
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.rooms import Room, Stage
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

from .conftest import FakeTime
from .test_room_bots import play_out, room_with_bots


def expected(room: Room, games: list[tuple[list[str], dict[int, float], dict[int, str]]]) -> dict[str, tuple]:
    """The standings worked out by hand from each game's seating, points and winning team."""
    rows: dict[str, list] = {}
    for names, points, won in games:
        for seat, name in enumerate(names, 1):
            row = rows.setdefault(name, [0, 0, 0.0, {}])
            row[0] += 1
            row[2] += points[seat]
            if seat in won:
                row[1] += 1
                row[3][won[seat]] = row[3].get(won[seat], 0) + 1
    return {name: (g, w, round(p, 4), t) for name, (g, w, p, t) in rows.items()}


def finished(room: Room) -> tuple[list[str], dict[int, float], dict[int, str]]:
    state = room.state
    assert state is not None and room.stage is Stage.FINISHED
    scored = score(state)
    won = {seat: str(team_of(state.rules, state.role(seat))) for seat, line in scored.items() if line.won}
    return [seat.name for seat in room.seating], {s: as_float(line.total) for s, line in scored.items()}, won


def shown(room: Room) -> dict[str, tuple]:
    return {row.name: (row.games, row.wins, as_float(row.points), row.by_team)
            for row in evening.evening_of(room).standings()}


async def loaded(room: Room, games: int) -> None:
    for _ in range(300):
        state = evening.evening_of(room)
        if state.loaded and len(state.games) == games:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the evening was not read")


async def test_three_games_add_up_and_a_restart_in_the_second_loses_nothing(isolated_data: Path) -> None:
    time, config = FakeTime(), tortoise_config()
    played: list[tuple[list[str], dict[int, float], dict[int, str]]] = []
    async with open_database(config):
        rooms.registry.now = time
        try:
            room, host = await room_with_bots("uz", 5)
            bot_names = {seat.name for seat in room.seats if seat.is_bot}
            await room.start(host)
            game_one = room.game_id
            assert await load_protocol(room.id, 1) is None  # never while it runs: its roles are the worst leak
            assert await load_scenario(room.id, 1, "x") is None
            await play_out(room, host, time)
            played.append(finished(room))
            await loaded(room, 1)
            assert shown(room) == expected(room, played)
            assert {row.name for row in evening.evening_of(room).standings() if row.is_bot} == bot_names
            await room.play_again(host)
            await room.start(host)
            clock = Clock(rooms.registry)
            for _ in range(20):
                time.advance(0.5)
                await clock.tick()
            assert room.stage is Stage.PLAYING and room.game_id != game_one
            code = room.code
        finally:
            rooms.registry.clear()
    async with open_database(config):  # a restart in the middle of the second game
        try:
            room = await rooms.registry.find(code)
            assert room is not None and room.stage is Stage.PLAYING
            await loaded(room, 1)  # the first game is all there
            assert shown(room) == expected(room, played)
            await play_out(room, host, time)
            played.append(finished(room))
            await loaded(room, 2)
            assert shown(room) == expected(room, played)
            await room.play_again(host)
            await room.start(host)
            await play_out(room, host, time)
            played.append(finished(room))
            await loaded(room, 3)
            assert shown(room) == expected(room, played)
            order = [row.points for row in evening.evening_of(room).standings()]
            assert order == sorted(order, reverse=True)  # by points

            # the exports: the standings' CSV in the reader's language, and each game's protocol and scenario
            _ = translator("ru")
            rows = list(csv.reader(io.StringIO(protocol_page.standings_csv(_, evening.evening_of(room).standings()))))
            assert rows[0] == ["Место", "Имя", "Игры", "Победы", "Победы по командам", "Баллы"]
            assert {row[1].removesuffix(" (бот)"): int(row[2]) for row in rows[1:]} == {
                name: games for name, (games, *_rest) in expected(room, played).items()}
            for number in (1, 2, 3):
                protocol = await load_protocol(room.id, number)
                assert protocol is not None and protocol.number == number
                data = await load_scenario(room.id, number, f"{code}-{number}")
                assert data is not None
                replayed = run(data)
                assert replayed.error is None and replayed.winner == protocol.winner
                table = list(csv.reader(io.StringIO(protocol_page.protocol_csv(_, protocol))))
                assert [row[1].removesuffix(" (бот)") for row in table[1:len(protocol.seats) + 1]] == [
                    seat.name for seat in protocol.seats]
            page = protocol_page.protocol_html(translator("en"), code, protocol)
            assert "Room" in page and "What happened" in page and "@media print" in page

            # a new evening: the host's, between games, from zero
            with pytest.raises(Refusal):
                await evening.new_evening(room, None)
            await evening.new_evening(room, host)
            assert evening.evening_of(room).standings() == []
            assert await load_protocol(room.id, 1) is not None  # the games are kept
        finally:
            rooms.registry.clear()
            rooms.registry.now = __import__("time").time


async def test_a_name_is_escaped_in_the_protocol_page(db: Path, fake_time: FakeTime) -> None:
    room, host = await room_with_bots("uz", 3)
    token = store.new_seat_token()
    await room.join(token, "<b>Eve</b>")
    await room.start(host)
    await play_out(room, host, fake_time)
    protocol = await load_protocol(room.id, 1)
    assert protocol is not None
    page = protocol_page.protocol_html(translator("en"), room.code, protocol)
    assert "<b>Eve</b>" not in page and "&lt;b&gt;Eve&lt;/b&gt;" in page

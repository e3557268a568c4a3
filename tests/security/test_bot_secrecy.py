"""Secrecy with bots at the table: a bot must not cheat.

Rooms of one human and bots play to the end on the fake clock, every move through ``Room.act``. Each time a
bot's brain (``engine.seat_bots.decide``) is asked, what it is given is checked against the independent oracle
(oracle.py) like any phone's projection: no role, private result, mafia night or chat its seat may not know.
Then the roles of the seats it may not know are shuffled: its view must stay the same, and so must its choice
for the same random draws. So a bot's decisions depend on its own seat's knowledge and nothing else.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import game as engine_game
from engine.knowledge import Viewer
from engine.seat_bots import decide
from engine.view import view
from webgame.room import bots as room_bots, rooms, table_game
from webgame.room.clock import Clock
from webgame.room.rooms import Stage
from webgame.store import queries as store

from .conftest import FakeTime
from .oracle import Oracle
from .projection_checks import problems, swapped
from .stats import STATS

ROOMS = [("uz", 6, "en"), ("uz", 11, "uz"), ("uk", 12, "uk"), ("uk", 10, "ru")]


@pytest.mark.parametrize(("rules", "players", "language"), ROOMS)
async def test_a_bot_decides_from_what_its_seat_may_know(db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch,
                                                          rules: str, players: int, language: str) -> None:
    token = store.new_seat_token()
    room = await rooms.registry.create(token=token, name="Human", rules=rules, language=language)
    human = store.hash_token(token)
    if rules == "uk":
        await room.set_player_limits(human, 8, 14)
    for _ in range(players - 1):
        await room.add_bot(human)
    room.bots.rng = random.Random(players)
    await room.start(human)
    assert room.state is not None
    oracle = Oracle.start(room.state)
    real_apply = engine_game.apply

    def apply_and_learn(state: Any, action: Any) -> None:
        real_apply(state, action)
        oracle.update(state)

    monkeypatch.setattr(table_game, "apply", apply_and_learn)
    rng, decisions = random.Random(5), [0]
    found: list[str] = []

    def checked(shown: dict[str, Any], draw: random.Random, level: str = "simple") -> Any:
        state = room.state
        assert state is not None
        seat = int(shown["me"]["seat"])
        found.extend(f"seat {seat}: {p}" for p in problems(state, oracle, seat, shown))
        other = swapped(state, oracle.unknown_seats(seat), rng)
        if other is not None:
            theirs = view(other, Viewer.of_seat(seat))
            state.cache = {}
            if json.dumps(theirs, sort_keys=True, default=str) != json.dumps(shown, sort_keys=True, default=str):
                found.append(f"seat {seat}: its view changes with roles it may not know")
            for n in range(3):
                if decide(theirs, random.Random(n), level) != decide(shown, random.Random(n), level):
                    found.append(f"seat {seat}: its choice changes with roles it may not know")
        decisions[0] += 1
        return decide(shown, draw, level)

    monkeypatch.setattr(room_bots, "decide", checked)
    clock, human_rng = Clock(rooms.registry), random.Random(9)
    for _ in range(20_000):
        if room.stage is not Stage.PLAYING:
            break
        projection = room.projection(human)
        action = decide(projection.view, human_rng) if projection is not None else None
        if action is not None:
            await room.act(human, action)
        fake_time.advance(0.5)
        await clock.tick()
        assert not found, found[:5]
    assert room.stage is Stage.FINISHED and decisions[0] > 5
    STATS.add("bot decisions checked", decisions[0])

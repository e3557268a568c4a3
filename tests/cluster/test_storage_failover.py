"""Failover to another machine: the phones' seat tokens (``app.storage.user``) are in PostgreSQL, not in the
processes' folders (``webgame.framework.browser_storage``).

Two game processes behind nginx, each with its OWN data folder and ``NICEGUI_STORAGE_PATH``, as on two machines
that share nothing but PostgreSQL. A room is set up through the proxy (its host creates it on whichever process
serves the start page, then plays it where its code hashes to), its game starts, the process running it is
SIGKILLed: every phone, reconnecting, must find its seat again on the other process, from what that process
reads in PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import drivers
from bench.drivers import GameRoom, in_game
from bench.load import Server
from bench.services import Nginx, Postgres, game_process, start_all
from tests.cluster.conftest import fresh_database

pytestmark = pytest.mark.slow

PROCESSES = ("p1", "p2")
PLAYERS = 5
FAILOVER_SECONDS = 15.0


@pytest.fixture(autouse=True)
def clock_timers_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The room keeps the default timers (typing the bench's long ones costs seconds; no step here lasts long)."""
    monkeypatch.setattr(drivers, "TIMERS", ())


@pytest.fixture
def machines(postgres: Postgres, nginx_ok: None, tmp_path: Path) -> Iterator[tuple[str, dict[str, Server], Nginx]]:
    database = fresh_database(postgres)
    processes: dict[str, Server] = {}
    for name in PROCESSES:
        folder = tmp_path / name  # its own MAFIA_DATA_DIR and NICEGUI_STORAGE_PATH: nothing shared on disk
        folder.mkdir()
        processes[name] = game_process(name, folder, database)
    nginx = Nginx(tmp_path / "nginx", {name: f"127.0.0.1:{server.port}" for name, server in processes.items()},
                  fail_timeout=5)
    try:
        start_all(list(processes.values()))
        nginx.start()
        yield database.rsplit("/", 1)[-1], processes, nginx
    finally:
        for server in processes.values():
            server.kill()
        nginx.stop()


def _rows(postgres: Postgres, database: str, query: str) -> list[list[str]]:
    return [line.split("\t") for line in postgres.sql(database, query).splitlines() if line]


def test_a_phone_finds_its_seat_on_another_machine_after_its_process_is_killed(
        postgres: Postgres, machines: tuple[str, dict[str, Server], Nginx]) -> None:
    database, processes, nginx = machines

    async def scenario() -> None:
        room = GameRoom(nginx.base, 0, PLAYERS, think=0.0, seed=7)
        try:
            await room.setup()  # the host creates the room on any process, then plays it where its code hashes
            assert all(in_game(phone) for phone in room.phones)
            owners = _rows(postgres, database, "SELECT l.owner FROM room_lease l JOIN room r ON r.id = l.room_id "
                                               f"WHERE r.code = '{room.code}' AND l.owner IS NOT NULL")
            victim = owners[0][0].split(":")[0]
            survivor = next(name for name in PROCESSES if name != victim)

            killed = time.time()
            processes[victim].kill()
            await room.recover_all(killed + 30)
            for phone in room.phones:
                while not in_game(phone):
                    assert time.time() < killed + 30, f"{phone.label}: not seated again"
                    await phone.wait(0.2)
            took = time.time() - killed
            print(f"{PLAYERS} phones seated again on the other machine {took:.1f} s after the kill")
            assert took < FAILOVER_SECONDS
            now = _rows(postgres, database, "SELECT l.owner FROM room_lease l JOIN room r ON r.id = l.room_id "
                                            f"WHERE r.code = '{room.code}'")
            assert now[0][0].split(":")[0] == survivor
        finally:
            await room.close()
        kept = [json.loads(data) for (data,) in _rows(postgres, database, "SELECT data::text FROM browser_storage")]
        assert sum(1 for data in kept if room.code in data.get("seats", {})) == PLAYERS
        for name, server in processes.items():  # and nothing in the processes' own folders
            assert not list((server.data / "browsers").glob("storage-user-*.json")), name

    asyncio.run(scenario())


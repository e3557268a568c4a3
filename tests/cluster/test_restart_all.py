"""A deploy: every process of the cluster killed and started again at once, with phones in games through nginx
(a cluster of its own: the other module's leaves one process killed and nginx's view of it behind)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.drivers import GameRoom
from bench.services import start_all
from tests.cluster.test_cluster import PLAYERS, ROOMS, Cluster, _reseated, clock_timers_kept, cluster  # noqa: F401

pytestmark = pytest.mark.slow


RESTART_ALL_SECONDS = 25.0  # nginx's fail_timeout here (5 s), the starts, the pages built in place: 8-12 s


def test_every_process_restarted_at_once_has_its_phones_back(cluster: Cluster) -> None:  # noqa: F811 (imported)
    """A deploy: every process killed and started again at once. nginx takes each for dead at its first failed
    request, for its ``fail_timeout``; then every phone's page is built again in place, without a reload, and
    the games go on. (What made the 80-room restart take a minute, a socket kept open as the first request to
    a restarted process, is measured by ``bench.cluster_load --restart-all``: at this test's size nginx finds
    the processes alive again through other requests, and the test passes either way.)"""
    async def scenario() -> None:
        rooms = [GameRoom(cluster.nginx.base, 300 + index, PLAYERS, think=0.0, seed=300 + index)
                 for index in range(ROOMS)]
        try:
            await asyncio.gather(*(room.setup() for room in rooms))
            for server in cluster.processes.values():
                server.kill()
            killed = time.time()
            start_all(list(cluster.processes.values()))
            reseated = await asyncio.gather(*(_reseated(room, killed + 90) for room in rooms))
            took = max(reseated) - killed
            print(f"every process restarted: {ROOMS * PLAYERS} phones re-seated in {took:.1f} s")
            for room in rooms:
                for phone in room.phones:
                    steps = [name for name, _ in phone.trace]
                    assert "rebuilt" in steps and "loaded" not in steps, (phone.label, steps)
            assert took < RESTART_ALL_SECONDS
            for room in rooms:
                assert await room.check() is True  # the game goes on: one more action reaches every phone
        finally:
            await asyncio.gather(*(room.close() for room in rooms), return_exceptions=True)

    asyncio.run(scenario())


def test_a_socket_whose_page_was_built_in_place_comes_back_to_it(cluster: Cluster) -> None:  # noqa: F811
    """In a cluster, the socket that had its page built in place after a restart is closed right after it
    opened, and finds its page on its next try: nginx takes a restarted process for alive again only once a
    request to it has ended, and a socket kept open as that first request kept the processes of a full restart
    half dead for a minute (``bench.cluster_load --restart-all``). Straight to one process, without nginx."""
    process = cluster.processes["p1"]

    async def scenario() -> None:
        room = GameRoom(process.base, 400, PLAYERS, think=0.0, seed=400)
        try:
            await room.setup()
            process.kill()
            process.start()
            give_up = time.time() + 60
            await asyncio.gather(*(room.recover(phone, give_up) for phone in room.phones))
            for phone in room.phones:
                steps = [name for name, _ in phone.trace]
                answered = [name for name in steps if name in ("connected", "failed ConnectionError", "refused")]
                assert answered[-2:] == ["failed ConnectionError", "connected"], (phone.label, steps)
                assert steps[-1] == "rebuilt" and "loaded" not in steps, (phone.label, steps)
        finally:
            await room.close()

    asyncio.run(scenario())

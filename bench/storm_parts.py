"""``python -m bench.storm_parts``: what each step of a phone's recovery after a restart costs the server.

A phone re-seated after a restart did three things (docs/PERFORMANCE.md, the reconnect storm): its socket
came back with the id of a page the server no longer has and was refused (``refused``), it loaded its page
again (``page``), and it connected that page's socket (``accepted``). Now its socket names its page and the
server builds it in place (``adopted``, ``webgame.framework.page_adoption``); the three steps are what a page that
cannot
be built that way still costs. This plays one room of ``--players``
simulated phones into a game on an idle server, then repeats each step ``--rounds`` times for every phone and
prints the server's CPU per step (from ``/proc``, the pauses between the steps included, so an idle server's
own ticks count a little). ``BENCH_PYSPY=/path/to/py-spy`` also samples each step into ``storm-part-STEP.txt``
in the data folder (``py-spy record --format raw``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from bench.drivers import GameRoom
from bench.load import Server, cpu_seconds, free_port
from bench.phone import Phone, Refused
from webgame.guard import ratelimit

STEPS = ("refused", "page", "accepted", "adopted")
BUILDING = ("page", "adopted")  # the steps that build a page, which a seat may do only so often


async def step(phone: Phone, name: str, path: str) -> None:
    if name == "refused":
        real = phone.client_id
        phone.client_id = real + "0"  # a page id this server never made, as after its restart
        try:
            await phone.connect()
        except Refused:
            pass
        else:
            raise AssertionError("a socket for a page the server lacks was accepted")
        finally:
            phone.client_id = real
    elif name == "page":
        await phone.drop()
        await phone.load(path)
    elif name == "accepted":
        await phone.drop()
        await phone.connect()
    else:
        await phone.drop()
        phone.client_id = str(uuid.uuid4())  # a page this server never made: it builds the page in place
        phone.rebuilt, phone.reconnecting = 0.0, True
        try:
            await phone.connect()
        finally:
            phone.reconnecting = False
        if not await phone.rebuilt_page(10.0):
            raise AssertionError("the page was not built again in place")


async def measure(players: int, rounds: int, steps: list[str], data: Path) -> dict[str, float]:
    server = Server("game", data, free_port())
    server.start()
    results: dict[str, float] = {}
    try:
        assert server.process is not None
        pid = server.process.pid
        room = GameRoom(server.base, 0, players, think=0.0, seed=1)
        await room.setup()  # the room's phones seated, its game started
        built = 0  # pages built per seat so far: a seat may build 12 at once, then 30 a minute (SEAT_PAGE)
        for name in steps:
            if name in BUILDING:
                if built + rounds > ratelimit.SEAT_PAGE.burst:
                    await asyncio.sleep(60 * built / ratelimit.SEAT_PAGE.per_minute + 1)  # the seats' pages refill
                    built = 0
                built += rounds
            spy = os.environ.get("BENCH_PYSPY")
            sampler = subprocess.Popen([spy, "record", "--pid", str(pid), "--rate", "1000", "--format", "raw",
                                        "--output", str(data / f"storm-part-{name}.txt"), "--nonblocking"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) if spy else None
            await asyncio.sleep(1.0)
            before, started = cpu_seconds(pid), time.time()
            for _ in range(rounds):
                for phone in room.phones:
                    await step(phone, name, room.path)
            await asyncio.sleep(1.0)
            if sampler is not None:
                sampler.send_signal(2)
                sampler.wait()
            results[name] = round(1000 * (cpu_seconds(pid) - before) / (rounds * len(room.phones)), 2)
            print(f"{name}: {results[name]} ms of server CPU each "
                  f"({rounds * len(room.phones)} in {time.time() - started:.1f} s)")
        for phone in room.phones:  # every page connected again before the room closes
            if not phone.connected:
                await phone.connect()
        await room.close()
    finally:
        server.stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=10, help="each step this many times per phone (a page "
                        "is built at most 12 times at once per seat: keep it at 12 or under; the steps that "
                        "build one wait for the seats' budget between them)")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, of {', '.join(STEPS)}")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="mafia-storm-parts-"))
    asyncio.run(measure(args.players, args.rounds, args.steps.split(","), data))
    print(f"data and server log in {data}")


if __name__ == "__main__":
    main()

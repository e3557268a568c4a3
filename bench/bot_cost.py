"""What bots cost the server: ``python -m bench.bot_cost`` plays 10 uk rooms of one person and 11 bots to the end.

In one process, on a fake clock (the bots' delays cost no waiting), with a temp SQLite database: the person
answers his own projection through ``Room.act``, the game clock ticks every 0.25 s and lets the bots act
(``webgame.room.bots``). Prints the CPU spent in the bots' ticks per bot action, all included: the projection,
the decision, the engine, the log write and the notify. Bots have no page, so they add no render per phone.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time


class FakeTime:
    """The rooms' clock, moved by hand."""

    value = 1_800_000_000.0

    def __call__(self) -> float:
        return self.value


async def run(rooms_count: int = 10) -> str:
    from engine.seat_bots import decide
    from webgame.room import bots as room_bots, rooms
    from webgame.room.clock import Clock
    from webgame.room.rooms import Stage
    from webgame.store import queries as store
    from webgame.store.db import open_database, tortoise_config

    clock_time = FakeTime()
    rooms.registry.now = clock_time
    async with open_database(tortoise_config()):
        tables = []
        for _ in range(rooms_count):
            token = store.new_seat_token()
            room = await rooms.registry.create(token=token, name="Host", rules="uk", language="en")
            human = store.hash_token(token)
            for _bot in range(11):
                await room.add_bot(human)
            await room.start(human)
            tables.append((room, human))
        spent, acted = [0.0], [0]
        real_tick = room_bots.Bots.tick

        async def timed(self: room_bots.Bots, now: float) -> int:
            started = time.process_time()
            count = await real_tick(self, now)
            spent[0] += time.process_time() - started
            acted[0] += count
            return count

        room_bots.Bots.tick = timed  # type: ignore[method-assign]
        clock, ticks, started = Clock(rooms.registry), 0, time.process_time()
        while any(room.stage is Stage.PLAYING for room, _ in tables) and ticks < 20_000:
            for room, human in tables:
                projection = room.projection(human) if room.stage is Stage.PLAYING else None
                action = decide(projection.view, random.Random(ticks)) if projection is not None else None
                if action is not None:
                    await room.act(human, action)
            clock_time.value += 0.25
            await clock.tick()
            ticks += 1
        total = time.process_time() - started
    return (f"{rooms_count} uk rooms (1 person + 11 bots) to the end: {ticks} clock ticks, {acted[0]} bot actions; "
            f"CPU in the bots' ticks {spent[0]:.2f} s = {1000 * spent[0] / max(1, acted[0]):.2f} ms per bot action; "
            f"all CPU {total:.2f} s")


def main() -> None:
    data = tempfile.mkdtemp(prefix="mafia-bot-cost-")
    os.environ["MAFIA_DATA_DIR"] = data
    os.environ["DATABASE_URL"] = f"sqlite://{data}/mafia.sqlite3"
    print(asyncio.run(run()))


if __name__ == "__main__":
    main()

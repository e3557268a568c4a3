"""A game server without the web: the child process test_faults.py kills with SIGKILL.

``python -m tests.security.crash_child SEED`` opens the database of ``$MAFIA_DATA_DIR``, brings back the rooms
(as ``python -m webgame`` does on startup), creates and starts a room if there is none, then plays it with
the engine's bots through ``Room.act`` (the same room, store and database code as the web app) and prints
``accepted <index> <action json>`` after every action the room accepted, then ``ended`` at the end. After each
line it waits for a line on its standard input (the parent's "go on"; none at all when that is closed): a
child on a busy machine ran a whole game ahead of its parent's reading, and was killed once instead of often.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from engine import actions as engine_actions
from engine.bots import Heuristic, Memory, next_actions
from engine.errors import RuleError
from engine.state import Phase
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.store import queries as store
from webgame.store.db import open_database, tortoise_config

PLAYERS = 9


async def main(seed: int) -> None:
    rng = random.Random(seed)
    async with open_database(tortoise_config()):
        await rooms.registry.restore_all()
        room = next(iter(rooms.registry.rooms.values()), None)
        if room is None:
            tokens = [f"seat-token-{seed}-{index}" for index in range(PLAYERS)]
            room = await rooms.registry.create(token=tokens[0], name="P1", rules="uz", language="en")
            for index, token in enumerate(tokens[1:], 2):
                await room.join(token, f"P{index}")
            await room.start(store.hash_token(tokens[0]))
        memory = Memory()
        bot = Heuristic(rng, memory)
        while room.state is not None and room.state.phase is not Phase.ENDED:
            state = room.state
            memory.update(state)
            step = state.step
            for action in next_actions(state, bot):
                seat = room.seating[action.seat - 1]
                try:
                    await room.act(seat.token_hash, action)
                except (RuleError, Refusal):
                    continue
                index = len(room.state.log) - 1
                print("accepted", index, json.dumps(engine_actions.to_dict(action)), flush=True)
                sys.stdin.readline()
                if room.state.step != step:
                    break
            if room.state.step == step and room.state.phase is not Phase.ENDED:
                await room.expire(step, room.deadline or room.now())
                print("accepted", len(room.state.log) - 1, json.dumps(engine_actions.to_dict(room.state.log[-1])),
                      flush=True)
                sys.stdin.readline()
    print("ended", flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))

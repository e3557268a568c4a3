"""The one game clock of the process: ends every room's step whose absolute deadline has passed.

Deadlines are absolute epoch seconds kept on the room (and in the database), so every phone shows the
same countdown, and a restart resumes with the same deadline. The clock is a single server task, not a
per-page ``ui.timer`` (those die with their page). ``tick`` takes the time as an argument so that tests
can drive it without waiting.
"""

from __future__ import annotations

import asyncio
import logging

from webgame.room.rooms import Registry, Stage

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25


class Clock:
    """The process's one game clock: a few times a second, ends every room's step whose deadline passed."""

    def __init__(self, registry: Registry, interval: float = TICK_SECONDS) -> None:
        self.registry = registry
        self.interval = interval

    def now(self) -> float:
        return self.registry.now()

    async def tick(self, now: float | None = None) -> int:
        """Apply ``Deadline(step)`` to every room whose deadline is at or before ``now``; how many ended."""
        moment = self.now() if now is None else now
        ended = 0
        for room in list(self.registry.rooms.values()):
            state = room.state
            if room.stage is Stage.PLAYING and room.deadline is not None:
                room.tick()  # the countdown labels, once a second
            try:
                await room.bots.tick(moment)  # the bot seats act through the room's door (webgame.room.bots)
            except Exception:
                log.exception("clock: the bots of room %s failed", room.code)
            try:
                await room.host_watch.tick(moment)  # the host's phone gone too long: his role passes on
            except Exception:
                log.exception("clock: the host watch of room %s failed", room.code)
            try:
                if room.game.hold.night_left is not None and not room.holding():
                    await room.end_hold()  # the day's result was on the screens long enough: the night
            except Exception:
                log.exception("clock: room %s could not end the day's result's hold", room.code)
            state = room.state
            if room.stage is not Stage.PLAYING or state is None or room.deadline is None or moment < room.deadline:
                continue
            try:
                if await room.expire(state.step, moment):
                    ended += 1
            except Exception:  # one room's trouble must not stop the others' clocks
                log.exception("clock: room %s could not end step %s", room.code, state.step)
        return ended

    async def run(self) -> None:
        """Tick forever; an exception is logged and the loop goes on."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("clock: tick failed")
            await asyncio.sleep(self.interval)

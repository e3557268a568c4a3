"""The one game clock of the process: ends every room's step whose absolute deadline has passed.

Deadlines are absolute epoch seconds kept on the room (and in the database), so every phone shows the
same countdown, and a restart resumes with the same deadline. The clock is a single server task, not a
per-page ``ui.timer`` (those die with their page). ``tick`` takes the time as an argument so that tests
can drive it without waiting.

A room whose deadline or day's result's hold ends before the next tick is ended at that moment, not at the tick after
it (``run``: a timer of the event loop for that room, set by the tick that sees it coming; the tick still ends any it
finds due). Ended at the ticks, the rooms whose moments fell within one quarter of a second were told their new step
one right after the other, each telling twelve pages: the first moves of a night, tapped as soon as the night showed,
waited behind the next rooms' nights (issue 32, docs/PERFORMANCE.md: a third of the game's slowest taps).
"""

from __future__ import annotations

import asyncio
import logging

from webgame.room.rooms import Registry, Room, Stage

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
MOMENT_LATE = 0.002  # seconds after a room's moment its timer runs (the loop's and the wall's clocks differ)


def next_moment(room: Room) -> float | None:
    """When the room's clock next ends something: its day's result's hold, else its step (None: nothing counts down,
    or the countdown is paused)."""
    if room.stage is not Stage.PLAYING or room.deadline is None or room.paused:
        return None
    night = room.game.hold.night_left
    return room.deadline - night if night is not None else room.deadline


class Clock:
    """The process's one game clock: a few times a second, ends every room's step whose deadline passed."""

    def __init__(self, registry: Registry, interval: float = TICK_SECONDS) -> None:
        self.registry = registry
        self.interval = interval
        # room code -> the moment a timer ends it at, and the timer (``run``), until it has run
        self._timed: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[bool]] = set()  # the timers' endings under way

    def _schedule(self, room: Room, now: float) -> None:
        """A timer for the room's next moment (its hold's end, else its deadline) when it comes before the next tick
        (and has none for that moment yet)."""
        moment = next_moment(room)
        held = self._timed.get(room.code)
        if moment is None or moment >= now + self.interval or (held is not None and held[0] == moment):
            return
        delay = max(0.0, moment - now) + MOMENT_LATE
        self._timed[room.code] = (moment, asyncio.get_running_loop().call_later(delay, self._at_moment, room, moment))
        if held is not None:
            held[1].cancel()  # a moment moved (the host's clock buttons): the one before is not due

    def _at_moment(self, room: Room, moment: float) -> None:
        held = self._timed.get(room.code)
        if held is not None and held[0] == moment:
            del self._timed[room.code]
        task = asyncio.get_running_loop().create_task(self._due(room, self.now()), name="a room's moment")
        self._running.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self._running.discard)

    def now(self) -> float:
        return self.registry.now()

    async def tick(self, now: float | None = None, schedule: bool = False) -> int:
        """Apply ``Deadline(step)`` to every room whose deadline is at or before ``now``; how many ended.
        ``schedule``: a timer for each room whose moment comes before the next tick (``run``)."""
        moment = self.now() if now is None else now
        ended = 0
        for room in list(self.registry.rooms.values()):
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
            if await self._due(room, moment):
                ended += 1
            if schedule:
                self._schedule(room, moment)
        return ended

    async def _due(self, room: Room, moment: float) -> bool:
        """End the room's day's result's hold, or its step, if its time is up at ``moment``; True if a step ended."""
        try:
            if room.game.hold.night_left is not None and not room.holding():
                await room.end_hold()  # the day's result was on the screens long enough: the night
        except Exception:
            log.exception("clock: room %s could not end the day's result's hold", room.code)
        state = room.state
        if room.stage is not Stage.PLAYING or state is None or room.deadline is None or moment < room.deadline:
            return False
        try:
            return await room.expire(state.step, moment)
        except Exception:  # one room's trouble must not stop the others' clocks
            log.exception("clock: room %s could not end step %s", room.code, state.step)
            return False

    async def run(self) -> None:
        """Tick forever; an exception is logged and the loop goes on. Cancelled, it leaves no timer behind."""
        try:
            while True:
                try:
                    await self.tick(schedule=True)
                except Exception:
                    log.exception("clock: tick failed")
                await asyncio.sleep(self.interval)
        finally:
            for _moment, timer in self._timed.values():
                timer.cancel()
            self._timed.clear()
            for task in list(self._running):
                task.cancel()

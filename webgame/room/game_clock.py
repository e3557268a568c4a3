"""The clock of a room's game: the step's absolute deadline (or the seconds left while paused), the host's clock
buttons, and the day's result held on the screens before the night (``webgame.room.result_hold``).

``webgame.room.table_game.TableGame`` is a ``GameClock``: the game's step changes set the clock, the clock's writes go
to the database beside the deadline (so a restart resumes the same countdown and the same hold).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from engine.state import GameState
from webgame.room.result_hold import ResultHold
from webgame.store import queries as store


class Stage(StrEnum):
    """Where a room is: its lobby, a game being played, or a game's results."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"  # the game is over; its results stay until the host plays again


class GameClock:
    """The countdown of a game's current step, kept in the database; the game (``TableGame``) sets the rest."""

    stage: Stage
    state: GameState | None
    game_id: int | None
    now: Callable[[], float]
    deadline: float | None  # absolute epoch seconds
    paused_remaining: float | None
    hold: ResultHold  # the day's result on the screens before the night

    def left(self) -> float | None:
        """Seconds left of the step's whole clock, a hold of the day's result included (None: no game running)."""
        if self.stage is not Stage.PLAYING:
            return None
        if self.paused_remaining is not None:
            return self.paused_remaining
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.now())

    def remaining(self) -> float | None:
        """Seconds the screens count down: the day's result's hold while it is on, then the step's."""
        return self.hold.shown(self.left())

    def holding(self) -> bool:
        """Whether the day's result is held on the screens now (the night's actions wait)."""
        return self.hold.holding(self.left())

    @property
    def paused(self) -> bool:
        return self.stage is Stage.PLAYING and self.paused_remaining is not None

    def due(self, step: int, now: float) -> bool:
        """Whether step ``step`` is the one running and its deadline has passed at ``now``."""
        state = self.state
        return (self.stage is Stage.PLAYING and state is not None and state.step == step
                and self.deadline is not None and now >= self.deadline)

    async def pause(self) -> bool:
        """Stop the countdown, keeping what is left; False when it was stopped already."""
        if self.paused_remaining is not None or self.deadline is None:
            return False
        await self._set_clock(None, max(0.0, self.deadline - self.now()))
        return True

    async def resume(self) -> bool:
        """Run the countdown again from what was left; False when it was running."""
        if self.paused_remaining is None:
            return False
        await self._set_clock(self.now() + self.paused_remaining, None)
        return True

    async def extend(self, seconds: int) -> bool:
        """More time for what is counting down (paused or not): the step, or the day's result's hold."""
        if self.paused_remaining is not None:
            await self._set_clock(None, self.paused_remaining + seconds)
        else:
            await self._set_clock(None if self.deadline is None else self.deadline + seconds, None)
        return True

    async def release(self, early: bool = False) -> bool:
        """The day's result's hold ends: its time is up (the clock), or ``early``, the host's "End now" (the night's
        full seconds from now). False when no hold was on."""
        night, left = self.hold.night_left, self.left()
        if night is None or (self.hold.holding(left) and not early):
            return False
        deadline, paused = self.deadline, self.paused_remaining
        if left is not None and left > night:  # ended early: the night's own seconds from now
            deadline, paused = (None, night) if paused is not None else (self.now() + night, None)
        await self._set_clock(deadline, paused, ends_hold=True)
        return True

    async def _set_clock(self, deadline: float | None, paused_remaining: float | None, *,
                         ends_hold: bool = False) -> None:
        """The host's clock buttons: saved, then kept (a refused write, e.g. a lost lease, changes nothing).
        ``ends_hold``: the day's result's hold is over."""
        hold = None if ends_hold else self.hold.night_left
        if self.game_id is not None:
            await store.set_deadline(self.game_id, deadline_at=deadline, paused_remaining=paused_remaining,
                                     night_left=hold)
        self.deadline, self.paused_remaining, self.hold.night_left = deadline, paused_remaining, hold

    async def _save_clock(self) -> None:
        if self.game_id is not None:
            await store.set_deadline(self.game_id, deadline_at=self.deadline, paused_remaining=self.paused_remaining,
                                     night_left=self.hold.night_left)

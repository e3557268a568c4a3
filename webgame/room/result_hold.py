"""The day's result held on every screen for a few seconds before the night (issue 27 point 5).

At a real table the host says who is out (or that nobody is) and lets it sink in before "the town falls asleep".
Here the engine goes from the day's last step to the night at once (its replays, scenario files included, know
nothing of a hold), and the web layer holds the night back: when a day gives way to the night, the night's clock
gets the room's ``result_hold`` seconds (an option of the timers, 5 by default, 0: off) in front of it. While they
run, every projection says ``result_hold`` and lists no action for a seat, so every phone and the TV show the same
result screen, the bots wait, and a night action is refused; then the night runs its full seconds.

The hold is kept as the part of the step's clock that comes after it (``night_left``): the result is held while
more than that is left. So a pause holds both, "+30 s" during the hold makes the hold longer, the host's "End now"
ends the hold (the night begins), and the database keeps it beside the deadline: a restart during the hold
resumes it where it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import MODERATOR_ACTIONS, Action, Deadline
from engine.game import step_seconds
from engine.state import GameState, Phase
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room.projection import ShownView

NOT_YET = N_("The night has not begun yet: the day's result is still on the screens.")


@dataclass(slots=True)
class ResultHold:
    """One game's hold of the day's result: how much of the step's clock follows it (None: no hold now)."""

    night_left: float | None = None

    def begin(self, before: Phase, state: GameState) -> float:
        """A step changed from ``before`` to ``state``: the seconds to hold the day's result first (0: none; the
        night's own seconds are then kept as what follows the hold)."""
        seconds = int(state.options.get("result_hold", 0))
        if state.phase is not Phase.NIGHT or before in (Phase.NIGHT, Phase.ENDED) or seconds <= 0:
            self.night_left = None
            return 0.0
        self.night_left = float(step_seconds(state))
        return float(seconds)

    def holding(self, left: float | None) -> bool:
        """Whether the day's result is on the screens now (``left``: what is left of the step's whole clock)."""
        return self.night_left is not None and left is not None and left > self.night_left

    def shown(self, left: float | None) -> float | None:
        """The countdown the screens show: the hold's seconds during the hold, then the night's."""
        if left is not None and self.holding(left):
            assert self.night_left is not None
            return left - self.night_left
        return left

    def check(self, action: Action, left: float | None) -> None:
        """A player's action during the hold is refused (the moderator's fouls and the clock are not)."""
        if self.holding(left) and not isinstance(action, (Deadline, *MODERATOR_ACTIONS)):
            raise Refusal(NOT_YET)

    def view(self, shown: ShownView, left: float | None) -> ShownView:
        """A viewer's view during the hold: marked, and no action of a seat's (the moderator keeps his fouls)."""
        if not self.holding(left):
            return shown
        actions = [a for a in shown["actions"] if a["type"] in {kind.kind for kind in MODERATOR_ACTIONS}]
        return {**shown, "actions": actions, "result_hold": True}

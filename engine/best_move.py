"""The best move (uk, option ``best_move``, off by default): a player killed on the first night names up to three
players he takes for black, once, before the day's speeches (during the last words of day 2). The names are public
(an event for everyone); ``engine.points`` scores them at the end: two or three black named earn points.
"""

from __future__ import annotations

from engine.actions import BestMove
from engine.common import MAFIA_ROLES
from engine.errors import IllegalTarget, NotYourTurn, RuleError
from engine.i18n import N_
from engine.state import PUBLIC, GameState, Phase
from engine.view_types import Offer

MOST_NAMED = 3


def first_night_dead(state: GameState) -> list[int]:
    """The seats killed on the first night (uk plays day 1, then night 1), in the order they died."""
    return [int(e.params["seat"]) for e in state.events
            if e.type == "death" and e.day == 1 and e.phase == str(Phase.NIGHT)]


def _on(state: GameState) -> bool:
    """The best move is played in this game: an option of the uk table only (a uz game cannot be given it)."""
    return bool(state.options.get("best_move"))


def named(state: GameState) -> dict[int, tuple[int, ...]]:
    """Each best move made so far: the seat that made it -> the seats it named."""
    return {action.seat: action.targets for action in state.log if isinstance(action, BestMove)}


def may_name(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may make his best move now: the option is on, he died on the first night, it is still the
    last words of day 2 (before the speeches) and he has not made it."""
    return (_on(state) and state.phase is Phase.LAST_WORDS
            and state.day == 2 and seat in first_night_dead(state) and seat not in named(state))


def actions(state: GameState, seat: int) -> list[Offer]:
    """The legal action for this seat's view, if any."""
    if not may_name(state, seat):
        return []
    return [{"type": "best_move", "targets": [s for s in range(1, state.n + 1) if s != seat], "most": MOST_NAMED}]


def validate(state: GameState, action: BestMove) -> None:
    if not _on(state):
        raise RuleError(N_("There is no best move in this game."))
    seat = action.seat
    if seat not in first_night_dead(state):
        raise NotYourTurn(N_("Only a player killed on the first night makes the best move."))
    if seat in named(state):
        raise NotYourTurn(N_("The best move is made once."))
    if state.phase is not Phase.LAST_WORDS or state.day != 2:
        raise NotYourTurn(N_("The best move is made before the day's speeches."))
    targets = action.targets
    if not 1 <= len(targets) <= MOST_NAMED or len(set(targets)) != len(targets):
        raise IllegalTarget(N_("Name one to three different players."))
    if any(not 1 <= t <= state.n or t == seat for t in targets):
        raise IllegalTarget(N_("Name players at the table other than yourself."))


def apply(state: GameState, action: BestMove) -> None:
    """Validate, then record it for everyone to see."""
    validate(state, action)
    state.emit("best_move", PUBLIC, seat=action.seat, targets=list(action.targets))


def black_named(state: GameState, targets: tuple[int, ...]) -> int:
    """How many of ``targets`` were dealt a black role."""
    return sum(1 for t in targets if state.dealt[t - 1] in MAFIA_ROLES)

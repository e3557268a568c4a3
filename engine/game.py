"""Creating a game and applying actions: the one state machine both rule sets run on.

``apply`` validates first and mutates only when the action is legal, so a rejected action
raises a ``RuleError`` and leaves the state exactly as it was.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine import best_move, night, points
from engine.actions import MODERATOR_ACTIONS, Action, BestMove, Deadline, ExtraPoints, KamikazePick, NightAct
from engine.common import end_game, set_phase
from engine.dealing import deal
from engine.errors import RuleError, StaleAction
from engine.i18n import N_
from engine.options import OptionValue, resolve
from engine.rng import packed_state
from engine.roles import Role
from engine.rulesets import RuleSet, ruleset
from engine.state import Event, GameState, Phase


def new_game(rules: str, players: int, seed: int, options: Mapping[str, object] | None = None,
             roles: Sequence[str] | None = None) -> GameState:
    """A dealt game at its first phase. ``roles`` (one per seat) replaces the deal, for scenarios."""
    rs = ruleset(rules)
    opts: dict[str, OptionValue] = resolve(rules, options or {})
    low, high = rs.players
    count = len(roles) if roles is not None else players
    if not low <= count <= high:
        raise RuleError(N_("This rule set plays with {low} to {high} players."), low=low, high=high)
    rng = random.Random(seed)
    # Dealt even when ``roles`` replaces the deal: the game's later draws (a uz random tie) are then those of the
    # game dealt from this seed, so an exported game replays them.
    dealt = deal(rules, count, opts, rng)
    if roles is not None:
        try:
            dealt = [Role(r) for r in roles]
        except ValueError:
            raise RuleError(N_("Unknown role in the seating.")) from None
        if any(r not in rs.roles for r in dealt):
            raise RuleError(N_("A role in the seating does not belong to this rule set."))
    state = GameState(rules=rules, options=opts, seed=seed, roles=list(dealt), dealt=list(dealt),
                      alive=[True] * count, rng_state=packed_state(rng))
    state.phase = rs.first_phase
    rs.begin(state)
    state.step = state.opening_step = 1
    return state


def apply(state: GameState, action: Action) -> list[Event]:
    """Apply one action in place; return the events it caused. Illegal: RuleError, no change."""
    first_event = len(state.events)
    if state.phase is Phase.ENDED:
        points.apply_after_end(state, action)  # the moderator's extra points, or GameOver
        return state.events[first_event:]
    rs = ruleset(state)
    if isinstance(action, Deadline):
        if action.step != state.step:
            raise StaleAction()
        day_over = _deadline(state, rs)
    elif isinstance(action, NightAct):
        rs.validate_night(state, action)
        night.record(state, action, rs.night_slots(state, action.seat), lambda s: _end_night(s, rs))
        day_over = False
    elif isinstance(action, BestMove | ExtraPoints):
        if isinstance(action, ExtraPoints):
            raise RuleError(N_("Extra points are given when the game is over."))
        best_move.apply(state, action)
        day_over = False
    elif not rs.fouls and isinstance(action, MODERATOR_ACTIONS):
        raise RuleError(N_("There are no fouls in this rule set."))
    elif state.phase is Phase.NIGHT and not isinstance(action, MODERATOR_ACTIONS):
        raise RuleError(N_("It is night: only night actions now."))
    else:
        day_over = rs.apply_day(state, action)
    state.log.append(action)
    _settle(state, rs, day_over, first_event)
    if state.phase is Phase.NIGHT and isinstance(action, MODERATOR_ACTIONS) and state.night_done >= set(
            state.living()):
        _end_night(state, rs)  # the one who left was the last still choosing
    return state.events[first_event:]


def _deadline(state: GameState, rs: RuleSet) -> bool:
    if state.phase is Phase.NIGHT:
        _end_night(state, rs)
        return False
    return rs.day_deadline(state)


def _end_night(state: GameState, rs: RuleSet) -> None:
    before = set(state.living())
    rs.resolve_night(state)
    night.clear_night(state)
    if _won(state, rs):
        return
    night_dead = sorted(before - set(state.living()))
    if not rs.night_first:  # uk: day N, then night N; its dawn is day N + 1
        state.day += 1
    rs.start_day(state, night_dead)


def _won(state: GameState, rs: RuleSet) -> bool:
    if state.phase is Phase.ENDED:
        return True
    winner = rs.winner(state)
    if winner is None:
        return False
    end_game(state, winner)
    return True


def _settle(state: GameState, rs: RuleSet, day_over: bool, first_event: int) -> None:
    """After an action: the win check if anyone died, then (when the day is over) the next night."""
    if state.phase is Phase.ENDED:
        return
    died = any(e.type == "death" for e in state.events[first_event:])
    at_pick = state.phase is Phase.KAMIKAZE
    waiting_for_pick = at_pick and not day_over and bool(state.options.get("kamikaze_pick_before_win_check"))
    if (died or (day_over and at_pick)) and not waiting_for_pick and _won(state, rs):
        return
    if day_over:
        # Stalemate guard (RULES.md): no winner when day N's vote, and what follows from it, is over: a draw.
        # Both rule sets count the same day: uz moves its counter here, uk at the end of the night.
        if state.day >= int(state.options["day_limit"]):
            end_game(state, "draw")
            return
        if rs.night_first:  # uz: night N, then day N; the next night is N + 1
            state.day += 1
        night.clear_night(state)
        set_phase(state, Phase.NIGHT)


def replay(rules: str, players: int, seed: int, options: Mapping[str, object] | None,
           actions: Iterable[Action], roles: Sequence[str] | None = None) -> GameState:
    """The state a log leads to: the definition of a game."""
    state = new_game(rules, players, seed, options, roles)
    for action in actions:
        apply(state, action)
    return state


def applied(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The pure form of ``apply``: a new state, the old one untouched."""
    new = copy.deepcopy(state)
    return new, apply(new, action)


def validate(state: GameState, action: Action) -> None:
    """Raise what ``apply`` would (``RuleError``, ``StaleAction``, ``GameOver``) if ``action`` is illegal now; the
    state untouched either way. For a caller that must do something between the check and the change: the room
    writes an action to its log before it applies it (``webgame.room.table_game``)."""
    apply(_scratch(state), action)


def _scratch(state: GameState) -> GameState:
    """A copy of ``state`` to try an action on, sharing nothing ``apply`` changes in place: each field copied as deep as
    what it holds (``SCRATCH_COPIES``). What ``apply`` only appends to or replaces is shared: the actions and events
    in the lists (frozen; an event's parameters are its own copy), the random state (a tuple); the derived cache
    starts empty. ``copy.deepcopy`` of the state was most of a tap's engine time (issue 32: five times the action
    itself, walking every value through its memo); a field this table does not know is deep-copied."""
    new = object.__new__(GameState)
    for name, how in _SCRATCH_PLAN:
        value = getattr(state, name)
        setattr(new, name, value if how is None else how(value))
    return new


# How ``_scratch`` copies each field of the state: "shared" (immutable: a number, a string, an enum, a tuple), "list",
# "set" or "dict" (of immutable items), "dict_of_lists" (lists of immutable items), "list_of_dicts" (of immutable
# values), "empty" (a cache). tests/engine/test_validate.py holds the table to the fields and to what they hold.
SCRATCH_COPIES: dict[str, str] = {
    "rules": "shared", "seed": "shared", "rng_state": "shared", "phase": "shared", "day": "shared",
    "step": "shared", "winner": "shared", "vote_round": "shared", "eliminated_by_vote": "shared",
    "speaker": "shared", "after_last_words": "shared", "opening_step": "shared", "speech_offset": "shared",
    "options": "dict", "roles": "list", "dealt": "list", "alive": "list", "log": "list", "events": "list",
    "candidates": "list", "voters_against": "list", "queue": "list", "nominations": "list",
    "night_done": "set", "notes_used": "set", "ready": "set", "silenced": "set", "loses_speech": "set",
    "penalty_vote": "set", "night_blocked": "dict", "self_heals": "dict", "votes": "dict", "yes_votes": "dict",
    "fouls": "dict", "night_acts": "dict_of_lists", "picks": "dict_of_lists", "foul_amounts": "dict_of_lists",
    "choices": "list_of_dicts", "cache": "empty",
}
_COPIERS: dict[str, Callable[[Any], Any] | None] = {
    "shared": None, "list": list, "set": set, "dict": dict,
    "dict_of_lists": lambda value: {key: list(items) for key, items in value.items()},
    "list_of_dicts": lambda value: [dict(item) for item in value],
    "empty": lambda _: {},
}
_SCRATCH_PLAN: tuple[tuple[str, Callable[[Any], Any] | None], ...] = tuple(
    (field.name, _COPIERS[SCRATCH_COPIES[field.name]] if field.name in SCRATCH_COPIES else copy.deepcopy)
    for field in dataclasses.fields(GameState))


def step_seconds(state: GameState) -> int:
    """How long the current step lasts, from the room's timer options."""
    opts = state.options
    phase = state.phase
    if phase is Phase.ENDED:
        return 0
    if phase is Phase.NIGHT:
        return int(opts["night_seconds"])
    if phase is Phase.DISCUSSION:
        return int(opts["discussion_seconds"])
    if phase in (Phase.VOTE, Phase.ELIMINATE_ALL):
        return int(opts["vote_seconds"])
    if phase is Phase.KAMIKAZE:
        return int(opts["kamikaze_seconds"])
    if phase is Phase.LAST_WORDS:
        return int(opts["last_words_seconds"])
    base = int(opts["speech_seconds"] if phase is Phase.SPEECHES else opts["defence_seconds"])
    if state.fouls.get(state.speaker, 0.0) >= 2:
        base = max(5, base - 10)
    return base


__all__ = ["apply", "applied", "new_game", "replay", "step_seconds", "validate", "KamikazePick"]

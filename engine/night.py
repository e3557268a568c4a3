"""The night both rule sets share: who may act, collecting choices, and when the night closes.

A night is one joint action: choices are collected (validated one by one) and resolved once,
by the rule set's ``resolve_night``, when every living player is done or the timer runs out.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Act, NightAct
from engine.common import check_seat, check_target
from engine.errors import IllegalTarget, NotYourTurn
from engine.i18n import N_
from engine.state import GameState, Phase

Slots = list[frozenset[Act]]


def free_slots(state: GameState, seat: int, slots: Slots) -> Slots:
    done = {a.act for a in state.night_acts.get(seat, ())}
    return [slot for slot in slots if not slot & done]


def validate_common(state: GameState, action: NightAct, slots: Slots) -> None:
    if state.phase is not Phase.NIGHT:
        raise NotYourTurn(N_("Night actions are only made at night."))
    check_seat(state, action.seat)
    if action.seat in state.night_done:
        raise NotYourTurn(N_("You have already made your choice tonight."))
    if action.note and action.act != Act.CHECK:  # also a pass: nothing but a check carries a note
        raise IllegalTarget(N_("Only the commissar's check can carry a note."))
    if action.act == Act.PASS:
        return
    if not any(action.act in slot for slot in slots):
        raise IllegalTarget(N_("Your role has no such action tonight."))
    if not any(action.act in slot for slot in free_slots(state, action.seat, slots)):
        raise NotYourTurn(N_("You have already made your choice tonight."))
    if action.note and action.act != Act.CHECK:
        raise IllegalTarget(N_("Only the commissar's check can carry a note."))


def validate_harmless(state: GameState, action: NightAct) -> None:
    """Suggest and suspect: any living player (suspecting oneself makes no sense)."""
    check_target(state, action.seat, action.target, allow_self=action.act == Act.SUGGEST)


def record(state: GameState, action: NightAct, slots: Slots, resolve: Callable[[GameState], None]) -> None:
    """Store a validated choice; close the night when every living player is done."""
    state.night_acts.setdefault(action.seat, []).append(action)
    if action.act == Act.PASS or not free_slots(state, action.seat, slots):
        state.night_done.add(action.seat)
    if len(state.night_done) >= state.alive.count(True):
        resolve(state)


def chosen(state: GameState, seat: int | None, act: Act) -> NightAct | None:
    if seat is None:
        return None
    for action in state.night_acts.get(seat, ()):
        if action.act == act:
            return action
    return None


def remember_picks(state: GameState, acts: tuple[Act, ...], ineffective: frozenset[int] = frozenset()) -> None:
    """Record this night's target of each listed act per seat (0 = no choice, or a choice that
    had no effect where ``ineffective`` names its seat) for the repeat limits."""
    for seat in range(1, state.n + 1):
        for act in acts:
            action = chosen(state, seat, act)
            history = state.picks.get((seat, act))
            if action is not None and action.target is not None and seat not in ineffective:
                state.picks.setdefault((seat, act), []).append(action.target)
            elif history is not None:
                history.append(0)


HARMLESS = frozenset({Act.SUGGEST, Act.SUSPECT, Act.PASS})


def clear_night(state: GameState) -> None:
    """Keep the night's real choices for the timeline (a choice blocked by the lover or frozen by the courtesan
    says by whom: ``blocked``), and start the next night empty."""
    for seat in sorted(state.night_acts):
        for action in state.night_acts[seat]:
            if action.act not in HARMLESS:
                choice = {"day": state.day, "phase": "night", "type": "choice", "seat": seat,
                          "role": str(state.role(seat)), "act": str(action.act), "target": action.target,
                          "note": action.note}
                if seat in state.night_blocked:
                    choice["blocked"] = state.night_blocked[seat]
                state.choices.append(choice)
    state.night_blocked = {}
    state.night_acts = {}
    state.night_done = set()


def living_targets(state: GameState, seat: int, allow_self: bool) -> list[int]:
    return [s for s in range(1, state.n + 1) if state.alive[s - 1] and (allow_self or s != seat)]

"""uk night: the heal (unless the doctor is frozen), the courtesan's freeze, the commissar's
check and note, then all kills at once (mafia, maniac, a lone courtesan) against the heal."""

from __future__ import annotations

from engine.actions import Act, NightAct
from engine.common import acting_don, check_seat, check_target, in_mafia_team, kill
from engine.errors import IllegalTarget
from engine.i18n import N_
from engine.night import Slots, chosen, living_targets, remember_picks, validate_common, validate_harmless
from engine.roles import Role
from engine.state import PUBLIC, GameState

_FIXED_SLOTS: dict[Role, Slots] = {
    Role.COMMISSAR: [frozenset({Act.CHECK})],
    Role.DOCTOR: [frozenset({Act.HEAL})],
    Role.MANIAC: [frozenset({Act.KILL})],
}
_SUSPECT: Slots = [frozenset({Act.SUSPECT})]


def lone_courtesan(state: GameState) -> bool:
    return bool(state.options["lone_courtesan_kills"]) and not (
        state.living_with(Role.DON) or state.living_with(Role.MAFIA))


def slots(state: GameState, seat: int) -> Slots:
    role = state.role(seat)
    if role in (Role.DON, Role.MAFIA):
        return [frozenset({Act.KILL})] if seat == acting_don(state) else [frozenset({Act.SUGGEST})]
    if role is Role.COURTESAN:
        freeze = [frozenset({Act.FREEZE})]
        return freeze + [frozenset({Act.KILL})] if lone_courtesan(state) else freeze
    return _FIXED_SLOTS.get(role, _SUSPECT)


def _check_repeat(state: GameState, action: NightAct) -> None:
    limit = int(state.options["repeat_target_nights"])
    history = state.picks.get((action.seat, action.act), [])
    recent = history[-limit:]
    if len(recent) == limit and all(t == action.target for t in recent):
        raise IllegalTarget(
            N_("You cannot choose player {seat} more than {count} nights in a row."),
            seat=action.target, count=limit)


def refusal(state: GameState, seat: int, act: Act) -> str | None:
    """Every act offered tonight may be chosen (nothing is shown greyed)."""
    return None


def targets(state: GameState, seat: int, act: Act) -> list[int]:
    """Every player this seat may pick for ``act`` tonight (the same rules as ``validate``)."""
    if act in (Act.HEAL, Act.FREEZE):
        limit = int(state.options["repeat_target_nights"])
        recent = state.picks.get((seat, act), [])[-limit:]
        banned = recent[0] if len(recent) == limit and len(set(recent)) == 1 else 0
        return [t for t in living_targets(state, seat, True) if t != banned]
    return living_targets(state, seat, act == Act.SUGGEST)


def validate(state: GameState, action: NightAct) -> None:
    check_seat(state, action.seat)
    validate_common(state, action, slots(state, action.seat))
    act, seat = action.act, action.seat
    if act == Act.PASS:
        return
    if act in (Act.SUGGEST, Act.SUSPECT):
        validate_harmless(state, action)
    elif act in (Act.KILL, Act.CHECK):
        check_target(state, seat, action.target, allow_self=False)
        if action.note and seat in state.notes_used:
            raise IllegalTarget(N_("You have already left your one note."))
    else:  # heal, freeze: anyone living, oneself included
        check_target(state, seat, action.target, allow_self=True)
        _check_repeat(state, action)


def _in_seat_order(state: GameState, role: Role, act: Act) -> list[NightAct]:
    """Every living ``role``'s choice of ``act`` tonight, lowest seat first (a scenario may seat two)."""
    found = (chosen(state, seat, act) for seat in state.living_with(role))
    return [action for action in found if action is not None and action.target is not None]


def resolve(state: GameState) -> None:
    freezes = _in_seat_order(state, Role.COURTESAN, Act.FREEZE)
    chosen_frozen = {f.target for f in freezes}
    heals = _in_seat_order(state, Role.DOCTOR, Act.HEAL)
    healed: set[int] = set()
    failed_heals: set[int] = set()
    for heal in heals:  # in seat order: a doctor healed by a lower seat is no longer frozen
        assert heal.target is not None
        if heal.seat in chosen_frozen and heal.seat not in healed:
            failed_heals.add(heal.seat)
        else:
            healed.add(heal.target)
    frozen = {t for t in chosen_frozen if t is not None and t not in healed}
    state.night_blocked = {seat: str(Role.COURTESAN) for seat in frozen}  # the timeline says so (night.clear_night)
    for seat in sorted(frozen):
        if state.role(seat) in (Role.COMMISSAR, Role.DOCTOR, Role.MANIAC):
            state.emit("frozen", frozenset({seat}), seat=seat)

    notes: list[tuple[int, int, str]] = []
    for check in _in_seat_order(state, Role.COMMISSAR, Act.CHECK):
        if check.seat in frozen or check.target is None:
            continue
        result = "black" if in_mafia_team(state, check.target) else "red"
        state.emit("check", frozenset({check.seat}), seat=check.seat, target=check.target, result=result)
        if check.note:
            state.notes_used.add(check.seat)
            notes.append((check.seat, check.target, result))

    attacks: list[tuple[int, str]] = []
    mafia_kill = chosen(state, acting_don(state), Act.KILL)
    if mafia_kill is not None and mafia_kill.target is not None:
        attacks.append((mafia_kill.target, "mafia"))
    attacks += [(k.target, "maniac") for k in _in_seat_order(state, Role.MANIAC, Act.KILL)
                if k.target is not None and k.seat not in frozen]
    attacks += [(k.target, "courtesan") for k in _in_seat_order(state, Role.COURTESAN, Act.KILL)
                if k.target is not None]
    for target in sorted({t for t, _ in attacks}):
        if target not in healed:
            kill(state, target, next(c for t, c in attacks if t == target))

    for seat, target, result in notes:
        if not state.is_alive(seat):
            state.emit("note", PUBLIC, seat=seat, target=target, result=result)

    ineffective: set[int] = set()
    if not state.options["repeat_counts_without_effect"]:
        ineffective |= failed_heals
        ineffective |= {f.seat for f in freezes if f.target not in frozen}
    remember_picks(state, (Act.HEAL, Act.FREEZE), frozenset(ineffective))

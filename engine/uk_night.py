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
        if action.note and state.note_used:
            raise IllegalTarget(N_("You have already left your one note."))
    else:  # heal, freeze: anyone living, oneself included
        check_target(state, seat, action.target, allow_self=True)
        _check_repeat(state, action)


def resolve(state: GameState) -> None:
    courtesans = state.living_with(Role.COURTESAN)
    freeze = chosen(state, courtesans[0], Act.FREEZE) if courtesans else None
    frozen = freeze.target if freeze else None
    doctors = state.living_with(Role.DOCTOR)
    heal = chosen(state, doctors[0], Act.HEAL) if doctors else None
    healed = None
    if heal is not None and heal.seat != frozen:
        healed = heal.target
    if frozen is not None and frozen == healed:
        frozen = None
    if frozen is not None and state.role(frozen) in (Role.COMMISSAR, Role.DOCTOR, Role.MANIAC):
        state.emit("frozen", frozenset({frozen}), seat=frozen)

    commissars = state.living_with(Role.COMMISSAR)
    check = chosen(state, commissars[0], Act.CHECK) if commissars else None
    note: tuple[int, int, str] | None = None
    if check is not None and check.target is not None and check.seat != frozen:
        result = "black" if in_mafia_team(state, check.target) else "red"
        state.emit("check", frozenset({check.seat}), seat=check.seat, target=check.target, result=result)
        if check.note:
            state.note_used = True
            note = (check.seat, check.target, result)

    attacks: list[tuple[int, str]] = []
    mafia_kill = chosen(state, acting_don(state), Act.KILL)
    if mafia_kill is not None and mafia_kill.target is not None:
        attacks.append((mafia_kill.target, "mafia"))
    maniacs = state.living_with(Role.MANIAC)
    maniac_kill = chosen(state, maniacs[0], Act.KILL) if maniacs else None
    if maniac_kill is not None and maniac_kill.target is not None and maniac_kill.seat != frozen:
        attacks.append((maniac_kill.target, "maniac"))
    lone_kill = chosen(state, courtesans[0], Act.KILL) if courtesans else None
    if lone_kill is not None and lone_kill.target is not None:
        attacks.append((lone_kill.target, "courtesan"))
    for target in sorted({t for t, _ in attacks}):
        if target != healed:
            kill(state, target, next(c for t, c in attacks if t == target))

    if note is not None and not state.is_alive(note[0]):
        state.emit("note", PUBLIC, seat=note[0], target=note[1], result=note[2])

    ineffective: set[int] = set()
    if not state.options["repeat_counts_without_effect"]:
        if heal is not None and healed is None:
            ineffective.add(heal.seat)
        if freeze is not None and frozen is None:
            ineffective.add(freeze.seat)
    remember_picks(state, (Act.HEAL, Act.FREEZE), frozenset(ineffective))

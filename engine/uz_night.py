"""uz night: the lover's block, the lawyer's cover, the commissar's check or shot, the heal,
all kills at once, werewolf turns, the kamikaze's revenge, the hobo's report, succession."""

from __future__ import annotations

from engine.actions import Act, NightAct
from engine.common import acting_don, check_seat, check_target, commissar_team, in_mafia_team, kill, mafia_team
from engine.errors import IllegalTarget
from engine.i18n import N_
from engine.night import Slots, chosen, living_targets, validate_common, validate_harmless
from engine.roles import Role
from engine.state import GameState

_FIXED_SLOTS: dict[Role, Slots] = {
    Role.LAWYER: [frozenset({Act.COVER})],
    Role.DOCTOR: [frozenset({Act.HEAL})],
    Role.COMMISSAR: [frozenset({Act.CHECK, Act.SHOOT})],
    Role.LOVER: [frozenset({Act.BLOCK})],
    Role.HOBO: [frozenset({Act.VISIT})],
    Role.KILLER: [frozenset({Act.KILL})],
}
_KILL: Slots = [frozenset({Act.KILL})]
_SUGGEST: Slots = [frozenset({Act.SUGGEST})]
_SUSPECT: Slots = [frozenset({Act.SUSPECT})]


def slots(state: GameState, seat: int) -> Slots:
    role = state.role(seat)
    if role in (Role.DON, Role.MAFIA):
        return _KILL if seat == acting_don(state) else _SUGGEST
    return _FIXED_SLOTS.get(role, _SUSPECT)


SHOOT_NIGHT_ONE = N_("The commissar cannot shoot on the first night.")


def refusal(state: GameState, seat: int, act: Act) -> str | None:
    """Why ``act`` is offered but not allowed tonight: the commissar's shot on the first night."""
    return SHOOT_NIGHT_ONE if act == Act.SHOOT and state.day == 1 else None


def targets(state: GameState, seat: int, act: Act) -> list[int]:
    """Every player this seat may pick for ``act`` tonight (the same rules as ``validate``)."""
    if act == Act.SHOOT and state.day == 1:
        return []
    if act == Act.HEAL:
        allow_self = state.self_heals.get(seat, 0) < int(state.options["doctor_self_heals"])
        return living_targets(state, seat, allow_self)
    return living_targets(state, seat, act in (Act.BLOCK, Act.COVER, Act.VISIT, Act.SUGGEST))


def validate(state: GameState, action: NightAct) -> None:
    check_seat(state, action.seat)
    validate_common(state, action, slots(state, action.seat))
    act, seat = action.act, action.seat
    if act in (Act.PASS,):
        return
    if act in (Act.SUGGEST, Act.SUSPECT):
        validate_harmless(state, action)
    elif act in (Act.KILL, Act.CHECK):
        check_target(state, seat, action.target, allow_self=False)
    elif act == Act.SHOOT:
        if state.day == 1:
            raise IllegalTarget(SHOOT_NIGHT_ONE)
        check_target(state, seat, action.target, allow_self=False)
    elif act == Act.HEAL:
        check_target(state, seat, action.target, allow_self=True)
        if action.target == seat and state.self_heals.get(seat, 0) >= int(state.options["doctor_self_heals"]):
            raise IllegalTarget(N_("You have already healed yourself as often as the rules allow."))
    else:  # block, cover, visit: anyone living, oneself included
        check_target(state, seat, action.target, allow_self=True)
    if action.note:
        raise IllegalTarget(N_("Only the commissar's check can carry a note."))


def _check_result(state: GameState, target: int, covered: set[int | None]) -> str:
    role = state.role(target)
    if target in covered:
        return "peaceful"
    if role is Role.DON:
        return str(state.options["don_check_result"])
    if role is Role.KILLER:
        return str(state.options["killer_check_result"])
    return "mafia" if in_mafia_team(state, target) else "peaceful"


def _in_seat_order(state: GameState, role: Role, act: Act) -> list[NightAct]:
    """Every living ``role``'s choice of ``act`` tonight, lowest seat first (a scenario may seat two)."""
    found = (chosen(state, seat, act) for seat in state.living_with(role))
    return [action for action in found if action is not None and action.target is not None]


def resolve(state: GameState) -> None:
    opts = state.options
    don = acting_don(state)
    blocked: set[int] = set()
    for block in _in_seat_order(state, Role.LOVER, Act.BLOCK):  # a lover blocked by a lower seat blocks nobody
        assert block.target is not None
        immune = state.role(block.target) is Role.COMMISSAR and not opts["lover_blocks_commissar"]
        if block.seat not in blocked and not immune and block.target != block.seat:
            blocked.add(block.target)
    state.night_blocked = {seat: str(Role.LOVER) for seat in blocked}  # the timeline says so (night.clear_night)

    def acts_of(role: Role, act: Act) -> list[NightAct]:
        return [a for a in _in_seat_order(state, role, act) if a.seat not in blocked]

    covered = {cover.target for cover in acts_of(Role.LAWYER, Act.COVER)}

    for check in acts_of(Role.COMMISSAR, Act.CHECK):
        assert check.target is not None
        result = _check_result(state, check.target, covered)
        state.emit("check", commissar_team(state), seat=check.seat, target=check.target, result=result)
    shots = acts_of(Role.COMMISSAR, Act.SHOOT)

    healed: set[int] = set()
    for heal in _in_seat_order(state, Role.DOCTOR, Act.HEAL):
        if heal.target == heal.seat:  # the choice counts, blocked or not
            state.self_heals[heal.seat] = state.self_heals.get(heal.seat, 0) + 1
        if heal.seat not in blocked:
            assert heal.target is not None
            healed.add(heal.target)

    attacks: list[tuple[int, int, str]] = []  # (attacker, target, cause)
    mafia_kill = chosen(state, don, Act.KILL)
    kill_blocked = don in blocked or (opts["block_cancels_kill"] == "any_member" and bool(blocked & mafia_team(state)))
    if mafia_kill is not None and mafia_kill.target is not None and not kill_blocked:
        attacks.append((mafia_kill.seat, mafia_kill.target, "mafia"))
    attacks += [(shot.seat, shot.target, "commissar") for shot in shots if shot.target is not None]
    attacks += [(k.seat, k.target, "killer") for k in acts_of(Role.KILLER, Act.KILL) if k.target is not None]
    visits = acts_of(Role.HOBO, Act.VISIT)  # chosen before the kills: a hobo killed tonight still sees

    turns: list[tuple[int, Role]] = []  # (seat, new role)
    revenge: list[int] = []
    for target in sorted({t for _, t, _ in attacks}):
        causes = [c for _, t, c in attacks if t == target]
        role = state.role(target)
        if role is Role.WEREWOLF:
            fate = _werewolf_fate(causes, target in healed, str(opts["werewolf_order"]))
            if fate == "dies":
                kill(state, target, "killer")
            elif isinstance(fate, Role):
                turns.append((target, fate))
            continue
        if target in healed:
            continue
        kill(state, target, causes[0])
        if role is Role.KAMIKAZE:
            revenge += [a for a, t, _ in attacks if t == target]

    for seat, new_role in turns:
        state.roles[seat - 1] = new_role
        team = mafia_team(state) if new_role is Role.MAFIA else commissar_team(state)
        state.emit("role_change", team | {seat}, seat=seat, role=str(new_role))

    for attacker in sorted(set(revenge)):
        kill(state, attacker, "kamikaze")

    for visit in visits:
        seen = sorted({a for a, t, _ in attacks if t == visit.target})
        if seen:
            state.emit("witness", frozenset({visit.seat}), seat=visit.seat, target=visit.target, attackers=seen)
        else:  # the hobo learns that nobody came: his screen says so
            state.emit("quiet_visit", frozenset({visit.seat}), seat=visit.seat, target=visit.target)

    promote_sergeant(state)


def _werewolf_fate(causes: list[str], healed: bool, order: str) -> Role | str | None:
    dies = "killer" in causes and not healed
    turn_mafia = "mafia" in causes
    turn_sergeant = "commissar" in causes
    if order == "killer_mafia_commissar" and dies:
        return "dies"
    if turn_mafia:
        return Role.MAFIA
    if turn_sergeant:
        return Role.SERGEANT
    return "dies" if dies else None


def promote_sergeant(state: GameState) -> None:
    """When the commissar is dead, the lowest-numbered living sergeant takes over."""
    if not state.options["sergeant_succession"] or state.living_with(Role.COMMISSAR):
        return
    if Role.COMMISSAR not in state.roles:
        return
    sergeants = state.living_with(Role.SERGEANT)
    if sergeants:
        state.roles[sergeants[0] - 1] = Role.COMMISSAR
        state.emit("role_change", commissar_team(state), seat=sergeants[0], role=str(Role.COMMISSAR))

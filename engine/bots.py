"""Players for simulations and tests: a random-legal-move bot and a simple heuristic bot per role.

Bots choose only among legal actions (the same targets the engine offers a phone) and keep a
small memory of what their seat has legitimately learned (its own checks, public deaths).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.actions import (
    Act,
    Action,
    Deadline,
    EliminateAll,
    EndSpeech,
    KamikazePick,
    NightAct,
    Nominate,
    Vote,
)
from engine.common import in_mafia_team
from engine.game import apply
from engine.night import HARMLESS, free_slots
from engine.roles import Role
from engine.rulesets import ruleset
from engine.state import GameState, Phase

_NO_NIGHT_POWER = frozenset({Role.CIVILIAN, Role.SERGEANT, Role.KAMIKAZE, Role.WEREWOLF})


@dataclass(slots=True)
class Memory:
    """What each seat's bot knows: check results by checker, updated from events it may read."""

    checks: dict[int, dict[int, str]] = field(default_factory=dict)
    seen_events: int = 0

    def update(self, state: GameState) -> None:
        for event in state.events[self.seen_events:]:
            if event.type in ("check", "note"):
                for seat in (event.audience or frozenset(range(1, state.n + 1))):
                    self.checks.setdefault(seat, {})[int(event.params["target"])] = str(event.params["result"])
        self.seen_events = len(state.events)

    def suspects(self, seat: int) -> list[int]:
        return sorted(t for t, r in self.checks.get(seat, {}).items() if r in ("mafia", "black"))


class Policy:
    """Random legal play. Subclasses override the choices they make smarter."""

    def __init__(self, rng: random.Random, memory: Memory) -> None:
        self.rng = rng
        self.memory = memory

    def night(self, state: GameState, seat: int) -> list[NightAct]:
        if state.roles[seat - 1] in _NO_NIGHT_POWER:
            return []
        rs = ruleset(state)
        acts: list[NightAct] = []
        for slot in free_slots(state, seat, rs.night_slots(state, seat)):
            options = sorted(a for a in slot if a not in HARMLESS)
            if not options:
                continue
            act = self.rng.choice(options)
            targets = rs.night_targets(state, seat, act)
            if not targets:
                continue
            target = self.pick_night_target(state, seat, act, targets)
            if target is not None:
                acts.append(NightAct(seat, act, target, note=act == Act.CHECK and self.rng.random() < 0.2
                                     and rs.commissar_note and seat not in state.notes_used))
        return acts

    def pick_night_target(self, state: GameState, seat: int, act: Act, targets: list[int]) -> int | None:
        if self.rng.random() < 0.1:
            return None
        return self.rng.choice(targets)

    def vote(self, state: GameState, seat: int, targets: list[int], may_abstain: bool) -> int | None:
        if may_abstain and self.rng.random() < 0.15:
            return None
        return self.rng.choice(targets) if targets else None

    def nominate(self, state: GameState, seat: int, targets: list[int]) -> int | None:
        return self.rng.choice(targets) if targets and self.rng.random() < 0.5 else None

    def eliminate_all(self, state: GameState, seat: int) -> bool:
        return self.rng.random() < 0.5

    def kamikaze(self, state: GameState, seat: int, voters: list[int]) -> int | None:
        return self.rng.choice(voters) if voters else None


INSIGHT = 0.35
"""How often a town bot, voting or nominating, reads a mafia player right: the stand-in for table talk."""


class Heuristic(Policy):
    """A plain strategy per role: the mafia hunts the town and votes together; the commissar
    acts on his checks; the rest of the town reads the table with a modest ``INSIGHT``."""

    def pick_night_target(self, state: GameState, seat: int, act: Act, targets: list[int]) -> int | None:
        mafia = in_mafia_team(state, seat)
        known_bad = [t for t in self.memory.suspects(seat) if t in targets]
        if act in (Act.KILL, Act.FREEZE) and mafia:
            pool = [t for t in targets if not in_mafia_team(state, t)] or targets
            return self.rng.choice(pool)
        if act == Act.COVER:
            team = [t for t in targets if in_mafia_team(state, t)]
            return self.rng.choice(team or targets)
        if act == Act.KILL and state.role(seat) is Role.MANIAC:
            if known_bad:
                return known_bad[0]
            return self.rng.choice(targets) if self.rng.random() < 0.7 else None
        if act == Act.CHECK:
            unchecked = [t for t in targets if t not in self.memory.checks.get(seat, {})]
            return self.rng.choice(unchecked or targets)
        return self.rng.choice(targets)

    def night(self, state: GameState, seat: int) -> list[NightAct]:
        if state.role(seat) is Role.COMMISSAR and _may_shoot(state, seat):
            suspects = [t for t in self.memory.suspects(seat) if state.is_alive(t)]
            if suspects:
                return [NightAct(seat, Act.SHOOT, suspects[0])]
        return super().night(state, seat)

    def vote(self, state: GameState, seat: int, targets: list[int], may_abstain: bool) -> int | None:
        if not targets:
            return None
        if in_mafia_team(state, seat):
            town = [t for t in targets if not in_mafia_team(state, t)]
            if town:
                if self.rng.random() < 0.5:  # half the time the mafia hides instead of voting as a bloc
                    return self.rng.choice(town)
                return min(town, key=lambda t: (-_tally(state).get(t, 0), t))
        suspects = [t for t in self.memory.suspects(seat) if t in targets]
        if suspects:
            return suspects[0]
        return self._table_read(state, targets)

    def _table_read(self, state: GameState, targets: list[int]) -> int:
        """Table talk, modelled: with probability INSIGHT a town player reads one of the mafia right."""
        mafia = [t for t in targets if in_mafia_team(state, t)]
        if mafia and self.rng.random() < INSIGHT:
            return self.rng.choice(mafia)
        return self.rng.choice(targets)

    def nominate(self, state: GameState, seat: int, targets: list[int]) -> int | None:
        suspects = [t for t in self.memory.suspects(seat) if t in targets]
        if suspects:
            return suspects[0]
        if in_mafia_team(state, seat):
            town = [t for t in targets if not in_mafia_team(state, t)]
            return self.rng.choice(town) if town and self.rng.random() < 0.6 else None
        return self._table_read(state, targets) if targets and self.rng.random() < 0.6 else None

    def eliminate_all(self, state: GameState, seat: int) -> bool:
        if in_mafia_team(state, seat):
            return not any(in_mafia_team(state, c) for c in state.candidates)
        return self.rng.random() < 0.6


def _may_shoot(state: GameState, seat: int) -> bool:
    """Whether this seat's night offers the shot and allows it tonight (uz: the commissar, from night 2)."""
    rs = ruleset(state)
    return any(Act.SHOOT in slot for slot in rs.night_slots(state, seat)) and rs.night_refusal(
        state, seat, Act.SHOOT) is None


def _tally(state: GameState) -> dict[int, int]:
    tally: dict[int, int] = {}
    for target in state.votes.values():
        if target is not None:
            tally[target] = tally.get(target, 0) + 1
    return tally


POLICIES: dict[str, type[Policy]] = {"random": Policy, "heuristic": Heuristic}


def next_actions(state: GameState, policy: Policy) -> list[Action]:
    """The bots' actions for the current step (possibly none: then the clock runs out)."""
    phase = state.phase
    if phase is Phase.NIGHT:
        actions: list[Action] = []
        for seat in state.living():
            actions.extend(policy.night(state, seat))
        return actions
    if phase is Phase.VOTE:
        result: list[Action] = []
        living, open_vote = state.living(), ruleset(state).open_vote
        for seat in living:
            targets = [s for s in living if s != seat] if open_vote else [c for c in state.candidates if c != seat]
            target = policy.vote(state, seat, targets, open_vote)
            if target is not None or open_vote:
                result.append(Vote(seat, target))
        return result
    if phase is Phase.KAMIKAZE:
        voters = [v for v in state.voters_against if state.is_alive(v)]
        return [KamikazePick(state.eliminated_by_vote, policy.kamikaze(state, state.eliminated_by_vote, voters))]
    if phase is Phase.ELIMINATE_ALL:
        return [EliminateAll(seat, policy.eliminate_all(state, seat)) for seat in state.living()]
    if phase is Phase.SPEECHES and state.speaker:
        seat = state.speaker
        taken = {n for _, n in state.nominations}
        targets = [s for s in state.living() if s != seat and s not in taken]
        if any(by == seat for by, _ in state.nominations) or (state.day == 1 and not state.options["day_one_votes"]):
            return [EndSpeech(seat)]
        target = policy.nominate(state, seat, targets)
        speech: list[Action] = [Nominate(seat, target)] if target is not None else []
        return [*speech, EndSpeech(seat)]
    return []


def play(state: GameState, policy: Policy, memory: Memory | None = None, max_actions: int = 100_000) -> GameState:
    """Play ``state`` to its end with ``policy`` driving every seat; the clock fills every gap."""
    count = 0
    while state.phase is not Phase.ENDED and count < max_actions:
        if memory is not None:
            memory.update(state)
        step = state.step
        for action in next_actions(state, policy):
            apply(state, action)
            count += 1
            if state.step != step:
                break
        if state.step == step and not _ended(state):
            apply(state, Deadline(step))
            count += 1
    return state


def _ended(state: GameState) -> bool:
    """A call, so that type narrowing does not outlive the actions applied in between."""
    return state.phase is Phase.ENDED

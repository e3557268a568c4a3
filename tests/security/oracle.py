"""Who may know what, written from docs/RULES.md without engine.knowledge: the secrecy tests' yardstick.

``Oracle`` follows one game action by action (``update`` after every applied action) and keeps, for
every seat, which roles of which seats it may know and which private events it may read. The rules it
encodes:

- everyone knows his own role; the mafia team (uz don, mafia, lawyer; uk don, mafia, courtesan) knows
  its members; in uz the commissar and the sergeants know each other (option commissar_knows_sergeant);
- a role announced at a death is known to all;
- a private result (check, witness, quiet visit, frozen, role change) goes to those the rules name, if
  they are alive when it is told (at dawn): a player killed tonight does not read tonight's results;
- a role change is told to the changed player and to the team he now belongs to (living members);
- the dead keep what they knew alive (option dead_see_roles off) and learn only what is public;
- the moderator knows everything; a spectator knows what is public; after the end, everyone knows all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.state import Event, GameState, Phase

MAFIA_ROLES = frozenset({"don", "mafia", "lawyer", "courtesan"})
LAW_ROLES = frozenset({"commissar", "sergeant"})
PRIVATE_TYPES = frozenset({"check", "witness", "quiet_visit", "frozen", "role_change"})
NIGHT_CAUSES = frozenset({"mafia", "commissar", "killer", "maniac", "courtesan"})


@dataclass
class Oracle:
    rules: str
    n: int
    law_shared: bool
    roles: list[str]  # current role per seat (index seat - 1)
    alive: list[bool]
    held: dict[int, set[str]] = field(default_factory=dict)  # every role a seat has had
    known: dict[int, dict[int, set[str]]] = field(default_factory=dict)  # viewer -> seat -> roles he may know
    readable: dict[int, set[int]] = field(default_factory=dict)  # viewer -> private event indices
    revealed: dict[int, set[str]] = field(default_factory=dict)  # announced to all
    seen: int = 0
    ended: bool = False

    @classmethod
    def start(cls, state: GameState) -> Oracle:
        roles = [str(role) for role in state.roles]
        oracle = cls(rules=state.rules, n=state.n, law_shared=state.rules == "uz"
                     and bool(state.options.get("commissar_knows_sergeant")), roles=roles, alive=[True] * state.n)
        seats = range(1, state.n + 1)
        oracle.held = {s: {roles[s - 1]} for s in seats}
        oracle.known = {v: {v: {roles[v - 1]}} for v in seats}
        oracle.readable = {v: set() for v in seats}
        for group in (oracle._group(MAFIA_ROLES), oracle._group(LAW_ROLES) if oracle.law_shared else []):
            for viewer in group:
                for seat in group:
                    oracle._learn(viewer, seat, roles[seat - 1])
        oracle.seen = len(state.events)
        return oracle

    def _group(self, roles: frozenset[str], living: bool = False) -> list[int]:
        return [s for s in range(1, self.n + 1) if self.roles[s - 1] in roles and (self.alive[s - 1] or not living)]

    def _learn(self, viewer: int, seat: int, role: str) -> None:
        self.known[viewer].setdefault(seat, set()).add(role)

    def update(self, state: GameState) -> None:
        """Take in the events of the actions applied since the last call (the state after them)."""
        alive_after = list(state.alive)
        for index in range(self.seen, len(state.events)):
            self._event(index, state.events[index], alive_after)
        self.alive = alive_after
        self.seen = len(state.events)
        self.ended = state.phase is Phase.ENDED

    def _event(self, index: int, event: Event, alive_after: list[bool]) -> None:
        params = event.params
        if event.type == "death" and "role" in params:
            self.revealed.setdefault(int(params["seat"]), set()).add(str(params["role"]))
        if event.type not in PRIVATE_TYPES:
            return
        seat = int(params["seat"])
        if event.type == "check":
            told = {seat}
            if self.rules == "uz":
                told |= set(self._group(frozenset({"sergeant"})))
        elif event.type == "role_change":
            new_role = str(params["role"])
            self.roles[seat - 1] = new_role
            self.held[seat].add(new_role)
            team = MAFIA_ROLES if new_role in MAFIA_ROLES else LAW_ROLES
            told = {seat} | {s for s in self._group(team) if alive_after[s - 1]}
            if alive_after[seat - 1] and (team is MAFIA_ROLES or self.law_shared):
                for member in self._group(team):  # the changed player now knows his team as its members do
                    self._learn(seat, member, self.roles[member - 1])
        else:
            told = {seat}
        for viewer in told:
            if 1 <= viewer <= self.n and alive_after[viewer - 1]:
                self.readable[viewer].add(index)
                if event.type == "role_change":
                    self._learn(viewer, seat, str(params["role"]))

    # ------------------------------------------------------------ questions

    def may_know(self, viewer: int, seat: int, role: str) -> bool:
        """May seat ``viewer`` (0: a spectator, -1: the moderator) know that ``seat`` is (or was) ``role``?"""
        if self.ended or viewer == -1:
            return True
        if role in self.revealed.get(seat, set()):
            return True
        return viewer > 0 and role in self.known[viewer].get(seat, set())

    def may_read(self, viewer: int, index: int, event: Event) -> bool:
        if self.ended or viewer == -1 or event.type not in PRIVATE_TYPES:
            return True
        return viewer > 0 and index in self.readable[viewer]

    def reads_mafia_chat(self, viewer: int) -> bool:
        if self.ended or viewer == -1:
            return True
        return viewer > 0 and self.alive[viewer - 1] and self.roles[viewer - 1] in MAFIA_ROLES

    def reads_dead_chat(self, viewer: int) -> bool:
        if self.ended or viewer == -1:
            return True
        return viewer > 0 and not self.alive[viewer - 1]

    def unknown_seats(self, viewer: int) -> list[int]:
        """Seats whose role (ever held) this viewer may not know, and which never changed role."""
        if self.ended or viewer == -1:
            return []
        return [s for s in range(1, self.n + 1) if len(self.held[s]) == 1
                and not self.may_know(viewer, s, self.roles[s - 1])]


def event_key(event: dict[str, Any]) -> tuple[Any, ...]:
    """An event dict as projections give it, comparable with the state's events."""
    return tuple(sorted((k, repr(v)) for k, v in event.items() if k not in ("day", "phase", "private")))

"""The game state: everything replay() rebuilds from (rules, options, seed, seating, log).

The state is mutated in place by ``engine.game.apply`` only after the action has been fully
validated, so a rejected action leaves it exactly as it was.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.actions import Action, NightAct
from engine.options import OptionValue
from engine.rng import PackedRng
from engine.roles import Role


class Phase(StrEnum):
    NIGHT = "night"
    DISCUSSION = "discussion"  # uz
    VOTE = "vote"
    KAMIKAZE = "kamikaze"  # uz: the voted-out kamikaze picks a voter
    LAST_WORDS = "last_words"  # uk
    SPEECHES = "speeches"  # uk
    DEFENCE = "defence"  # uk, and the tied nominees' speeches before a re-vote
    ELIMINATE_ALL = "eliminate_all"  # uk, after a second tie
    ENDED = "ended"


PUBLIC: frozenset[int] | None = None
"""Audience of an event everyone may see. Otherwise an audience is a set of seats; the
moderator sees everything, and after the game ends everyone does."""


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    params: dict[str, Any]
    audience: frozenset[int] | None
    day: int
    phase: str

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **copy.deepcopy(self.params)}  # a reader's changes never reach the event


# Derived values kept from one version of a state to the next, each holding what it was made from so its reader can
# tell what is still good (``engine.knowledge.visible_events``: each event's dicts, made once per event, not once per
# event at every action).
CARRIED = ("event_dicts_of",)


@dataclass(slots=True)
class GameState:
    rules: str
    options: dict[str, OptionValue]
    seed: int
    roles: list[Role]  # index seat-1; current roles (turns and promotions applied)
    dealt: list[Role]
    alive: list[bool]
    rng_state: PackedRng  # the game's random.Random state, packed (engine.rng): 2.5 KB, not 24 KB
    phase: Phase = Phase.NIGHT
    day: int = 1  # the night or day number
    step: int = 0  # bumps on every change of phase or speaker; a Deadline names the step it ends
    winner: str | None = None
    log: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    # night
    night_acts: dict[int, list[NightAct]] = field(default_factory=dict)
    night_done: set[int] = field(default_factory=set)
    night_blocked: dict[int, str] = field(default_factory=dict)  # seat -> the role that blocked his acts tonight
    self_heals: dict[int, int] = field(default_factory=dict)  # doctor's seat -> times he picked himself
    notes_used: set[int] = field(default_factory=set)  # uk: commissars who have left their one note
    choices: list[dict[str, Any]] = field(default_factory=list)  # every night's real choices, for the timeline
    picks: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # (seat, act) -> target per night (0 = none)
    # day
    ready: set[int] = field(default_factory=set)
    votes: dict[int, int | None] = field(default_factory=dict)
    candidates: list[int] = field(default_factory=list)
    vote_round: int = 0
    eliminated_by_vote: int = 0  # uz kamikaze pick: the eliminated kamikaze
    voters_against: list[int] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)  # uk: speakers still to speak in this phase
    speaker: int = 0  # uk: the seat speaking now (0 = nobody)
    nominations: list[tuple[int, int]] = field(default_factory=list)
    after_last_words: Phase = Phase.SPEECHES
    yes_votes: dict[int, bool] = field(default_factory=dict)
    # fouls (uk)
    fouls: dict[int, float] = field(default_factory=dict)
    foul_amounts: dict[int, list[float]] = field(default_factory=dict)  # each seat's fouls in order (withdrawals)
    silenced: set[int] = field(default_factory=set)  # uk: who lost today's speech to fouls
    opening_step: int = -1  # uk: the step at which the day's first speech began (see uk_day.speech_opening)
    loses_speech: set[int] = field(default_factory=set)
    penalty_vote: set[int] = field(default_factory=set)
    speech_offset: int = 0  # uk: where today's speeches start
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # derived, per version

    def derived(self) -> dict[str, Any]:
        """Values computed once per state version and shared by every viewer's projection."""
        version = (len(self.log), len(self.events), self.step)
        if self.cache.get("version") != version:
            carried = {key: self.cache[key] for key in CARRIED if key in self.cache}
            self.cache = {"version": version, **carried}
        return self.cache

    @property
    def n(self) -> int:
        return len(self.roles)

    def is_alive(self, seat: int) -> bool:
        return 1 <= seat <= len(self.alive) and self.alive[seat - 1]

    def role(self, seat: int) -> Role:
        return self.roles[seat - 1]

    def living(self) -> list[int]:
        return [i + 1 for i, a in enumerate(self.alive) if a]

    def living_with(self, role: Role) -> list[int]:
        alive = self.alive
        return [i + 1 for i, r in enumerate(self.roles) if r is role and alive[i]]

    def emit(self, type_: str, audience: frozenset[int] | None, **params: Any) -> Event:
        """Record an event. Its parameters are copied: a list passed in (the tied players, the candidates)
        is often the live state's own, and a past announcement must never change with it."""
        event = Event(type_, copy.deepcopy(params), audience, self.day, str(self.phase))
        self.events.append(event)
        return event

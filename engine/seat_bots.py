"""The brain of a bot that sits at a room's table: ``decide(view, rng) -> Action | None``.

Unlike ``engine.bots`` (which reads the whole ``GameState`` for the balance tables), this policy reads ONLY
the dict ``engine.view.view(state, Viewer.of_seat(seat))`` gives that seat: its own card, the roles it may
know (its mafia team), the events it may read (its own checks), the public tally and its legal actions. So a
bot cannot cheat: two games that look the same from its seat get the same decision for the same ``rng``
(``tests/engine/test_seat_bots.py`` checks it). It is pure and keeps no memory: everything it needs is
recomputed from the view, so a restart changes nothing.

One call gives at most one action (the room acts, then asks again): a night with two choices is two calls.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.actions import Action, BestMove, EliminateAll, EndSpeech, KamikazePick, NightAct, Nominate, Ready, Vote
from engine.roles import Role, team_of

LEVELS = ("simple", "strong")
"""``simple``: acts on its own checks and its team. ``strong`` also reads the public record: who voted out a
player whose card was then shown to be the town's is suspect (and the mafia kills first whoever voted against
its own); a uk commissar leaves his notes more often."""

_BLACK = frozenset({"mafia", "black"})
_HUNTERS = frozenset({"mafia", "black", "killer"})
_NIGHT_ORDER = ("kill", "shoot", "check", "heal", "block", "cover", "visit", "freeze", "suggest", "suspect")


def decide(view: Mapping[str, Any], rng: random.Random, level: str = "simple") -> Action | None:
    """The seat's next action from its own view, or None when it has nothing to do now."""
    me = view.get("me")
    actions = view.get("actions") or []
    if not me or not actions:
        return None
    seat = int(me["seat"])
    read = _Reading(view, seat, level)
    kinds = {entry["type"]: entry for entry in actions}
    if "night_act" in kinds:
        return _night(read, [e for e in actions if e["type"] == "night_act"], rng)
    if "ready" in kinds:
        return Ready(seat)
    if "vote" in kinds:
        entry = kinds["vote"]
        targets = list(entry["targets"])
        if not targets:
            return Vote(seat, None) if entry.get("none") else None
        return Vote(seat, read.vote(targets, rng, may_abstain=bool(entry.get("none"))))
    if "eliminate_all" in kinds:
        return EliminateAll(seat, read.eliminate_all(list(kinds["eliminate_all"]["candidates"]), rng))
    if "kamikaze_pick" in kinds:
        voters = list(kinds["kamikaze_pick"]["targets"])
        return KamikazePick(seat, read.pick(voters, rng) if voters else None)
    if "nominate" in kinds:
        target = read.nominate(list(kinds["nominate"]["targets"]), rng)
        if target is not None:
            return Nominate(seat, target)
    if "best_move" in kinds:  # before his last words end (uk, option: engine.best_move)
        entry = kinds["best_move"]
        return BestMove(seat, tuple(read.best_move(list(entry["targets"]), int(entry.get("most", 3)), rng)))
    if "end_speech" in kinds:
        return EndSpeech(seat)
    return None


class _Reading:
    """What one seat makes of its view: its team, its suspects (its checks), the ones it trusts."""

    def __init__(self, view: Mapping[str, Any], seat: int, level: str) -> None:
        self.seat = seat
        self.view = view
        teams = {int(s): str(t) for s, t in (view.get("teams") or {}).items()}
        mine = teams.get(seat, "town")
        self.mafia = mine in _HUNTERS  # it hunts the town (the mafia, uk's black team, a lone killer)
        self.team = {s for s, t in teams.items() if t == mine} if self.mafia else set()
        self.alive = set(view.get("alive") or [])
        self.checks: dict[int, str] = {}
        for event in view.get("events") or []:
            if event.get("type") in ("check", "note") and event.get("target") is not None:
                self.checks[int(event["target"])] = str(event.get("result"))
        self.suspects = sorted(t for t, r in self.checks.items() if r in _BLACK and t in self.alive)
        self.cleared = {t for t, r in self.checks.items() if r not in _BLACK}
        self.strong = level == "strong"
        self.suspicion = self._read_record(view) if self.strong else {}

    def _read_record(self, view: Mapping[str, Any]) -> dict[int, float]:
        """Strong level: a score per seat from the public record (the votes of each vote, the roles shown on
        death): voting out a town card is suspect, voting out a mafia card is trusted."""
        rules = str(view.get("rules", "uz"))
        revealed: dict[int, str] = {}
        for event in view.get("events") or []:
            if event.get("type") == "death" and event.get("role"):
                try:
                    revealed[int(event["seat"])] = str(team_of(rules, Role(str(event["role"]))))
                except (KeyError, ValueError):
                    continue
        score: dict[int, float] = {}
        for event in view.get("events") or []:
            if event.get("type") != "vote_result":
                continue
            for voter, target in (event.get("votes") or {}).items():
                team = revealed.get(int(target)) if target is not None else None
                if team is not None:
                    bad = team not in _HUNTERS and team != "killer"
                    score[int(voter)] = score.get(int(voter), 0.0) + (1.0 if bad else -1.0)
        return score

    def town(self, targets: list[int]) -> list[int]:
        """Targets outside the seat's known team (for the mafia: the town it hunts)."""
        return [t for t in targets if t not in self.team]

    def pick(self, targets: list[int], rng: random.Random) -> int:
        """A target for the town: a checked mafia first, never a checked-clean one when there is a choice."""
        suspects = [t for t in self.suspects if t in targets]
        if suspects:
            return suspects[0]
        if self.mafia:
            return rng.choice(self.town(targets) or targets)
        open_ = [t for t in targets if t not in self.cleared] or targets
        if self.strong:
            return self._least_trusted(open_, rng)
        return rng.choice(open_)

    def threats(self, targets: list[int]) -> list[int]:
        """Strong mafia: the town players who voted against its team in the record (killed first)."""
        if not self.strong:
            return []
        worst = min((self.suspicion.get(t, 0.0) for t in targets), default=0.0)
        return [t for t in targets if worst < 0 and self.suspicion.get(t, 0.0) == worst]

    def _leader(self, targets: list[int], rng: random.Random) -> int:
        """The target with the most votes so far (the lowest seat on a tie); a random one before any vote."""
        tally: dict[int, int] = {}
        for target in (self.view.get("votes") or {}).values():
            if target is not None:
                tally[int(target)] = tally.get(int(target), 0) + 1
        best = max((tally.get(t, 0) for t in targets), default=0)
        return min(t for t in targets if tally.get(t, 0) == best) if best else rng.choice(targets)

    def _least_trusted(self, targets: list[int], rng: random.Random) -> int:
        """Strong level: the most suspect by the record; else the town leans on the current tally."""
        worst = max((self.suspicion.get(t, 0.0) for t in targets), default=0.0)
        if worst > 0:
            return rng.choice([t for t in targets if self.suspicion.get(t, 0.0) == worst])
        tally: dict[int, int] = {}
        for target in (self.view.get("votes") or {}).values():
            if target is not None:
                tally[int(target)] = tally.get(int(target), 0) + 1
        best = max((tally.get(t, 0) for t in targets), default=0)
        leading = [t for t in targets if tally.get(t, 0) == best]
        return rng.choice(leading if best and rng.random() < 0.7 else targets)

    def vote(self, targets: list[int], rng: random.Random, may_abstain: bool) -> int | None:
        if self.mafia:
            town = self.town(targets) or targets
            if self.strong:  # the team votes as one: for the town player the table already leans on
                return self._leader(town, rng)
            return rng.choice(town)
        lead = any(self.suspicion.get(t, 0.0) > 0 for t in targets)  # strong: the record points at someone
        if not self.suspects and not lead and may_abstain and rng.random() < 0.15:
            return None
        return self.pick(targets, rng)

    def nominate(self, targets: list[int], rng: random.Random) -> int | None:
        suspects = [t for t in self.suspects if t in targets]
        if suspects:
            return suspects[0]
        if not targets or rng.random() >= 0.5:
            return None
        return self.pick(targets, rng)

    def best_move(self, targets: list[int], most: int, rng: random.Random) -> list[int]:
        """A first night's dead names whom he takes for black: his checked black first, never a checked red;
        the strong level then the most suspect by the record; the rest at random among the living. A black
        victim (the maniac's) names town players, as a club's black would, to mislead."""
        living = [t for t in targets if t in self.alive] or targets
        if self.mafia:
            town = self.town(living) or living
            return sorted(rng.sample(town, min(most, len(town))))
        named = [t for t in self.suspects if t in targets][:most]
        rest = [t for t in living if t not in named and t not in self.cleared] or [
            t for t in living if t not in named]
        rng.shuffle(rest)
        if self.strong:
            rest.sort(key=lambda t: -self.suspicion.get(t, 0.0))  # (stable: ties stay shuffled)
        return sorted(named + rest[:most - len(named)])

    def eliminate_all(self, candidates: list[int], rng: random.Random) -> bool:
        if self.mafia:
            return not any(c in self.team for c in candidates)
        if any(c in self.suspects for c in candidates):
            return True
        if candidates and all(c in self.cleared for c in candidates):
            return False
        return rng.random() < 0.5

    def night_target(self, act: str, targets: list[int], rng: random.Random) -> int | None:
        if not targets:
            return None
        if act in ("kill", "suggest"):
            suggested = self._team_choice(targets)
            if suggested is not None:
                return suggested
            town = self.town(targets) or targets
            return rng.choice(self.threats(town) or town)
        if act == "shoot":
            suspects = [t for t in self.suspects if t in targets]
            return suspects[0] if suspects else None
        if act == "check":
            unknown = [t for t in targets if t not in self.checks and t not in self.team]
            return rng.choice(unknown or targets)
        if act in ("heal", "cover"):
            trusted = [t for t in targets if t in self.cleared]
            return rng.choice(trusted) if trusted and rng.random() < 0.5 else rng.choice(targets)
        if self.mafia:
            return rng.choice(self.town(targets) or targets)
        return self.pick(targets, rng)

    def _team_choice(self, targets: list[int]) -> int | None:
        """The mafia agree: the don's kill or a teammate's suggestion, if one was made and is still legal."""
        night = self.view.get("team_night") or {}
        if night.get("kill") in targets:
            return int(night["kill"])
        for target in (night.get("suggestions") or {}).values():
            if target in targets:
                return int(target)
        return None


def _night(read: _Reading, entries: list[dict[str, Any]], rng: random.Random) -> Action:
    """One choice of the night, by importance (a kill before a suggestion); a pass when none is useful."""
    seat = read.seat
    by_act = {str(e["act"]): e for e in entries if e.get("allowed", True)}
    for act in _NIGHT_ORDER:
        entry = by_act.get(act)
        if entry is None:
            continue
        if act == "suspect" and rng.random() < 0.5:
            continue
        target = read.night_target(act, list(entry["targets"]), rng)
        if target is None:
            continue
        often = 0.5 if read.strong else 0.2
        note = act == "check" and bool(entry.get("note")) and target not in read.team and rng.random() < often
        return NightAct(seat, act, target, note=note)
    return NightAct(seat, "pass")

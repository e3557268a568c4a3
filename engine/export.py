"""A game's log as a scenario file that replays to exactly the game played (RULES.md: exports are faithful).

The log is replayed alongside, so every action is written where it fell: a night's choices in order, with the
moderator's fouls, withdrawals and send-offs among them (``{"foul": ...}`` items of the night); a day's
nominations and votes, and each moderator's action at its exact moment of the day (the ``fouls`` places of
``engine.scenario_day``: ``last_words``, ``during``/``after`` a speech, ``defence``, ``tied``, ``round`` with
``votes``, ``answers``).

A player removed in the middle of a vote takes his vote with him, and the votes for him are cleared (their
voters vote again): those votes left no trace in the game, so the export leaves them out, and counts a foul's
place in a round by the votes that stayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    MODERATOR_ACTIONS,
    Action,
    BestMove,
    EliminateAll,
    ExtraPoints,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    SendOff,
    Vote,
    WithdrawFoul,
)
from engine.game import apply, new_game
from engine.night import HARMLESS
from engine.rulesets import ruleset
from engine.state import GameState, Phase


@dataclass(slots=True)
class _Ballot:
    """One vote (or answer) of a round as it was cast, or one moderator's action among them."""

    voter: int
    choice: int | bool | None
    foul: dict[str, Any] | None = None
    live: bool = True


@dataclass(slots=True)
class _Day:
    """The day being written: what goes into its step, and its rounds' ballots in the order they came."""

    step: dict[str, Any] = field(default_factory=dict)
    ballots: dict[int, list[_Ballot]] = field(default_factory=dict)  # voting round (0: eliminate all) -> ballots

    def finish(self) -> dict[str, Any]:
        day = self.step
        rounds = [r for r in sorted(self.ballots) if r > 0]
        if rounds:
            day["votes"] = [self._listed(r, "votes") for r in range(1, rounds[-1] + 1)]
        if 0 in self.ballots:
            day["eliminate_all"] = self._listed(0, "answers")
        return {"day": day}

    def _listed(self, round_: int, key: str) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        for ballot in self.ballots.get(round_, []):
            if ballot.foul is not None:
                ballot.foul[key] = len(listed)
            elif ballot.live:
                listed[str(ballot.voter)] = ballot.choice
        return listed


def export(state: GameState, name: str = "") -> dict[str, Any]:
    """A finished (or running) game's log as a scenario file that replays to the same game."""
    writer = _Writer(state)
    for action in state.log:
        writer.add(action)
    writer.flush()
    return {"name": name or f"{state.rules}-game-{state.seed}", "rules": state.rules, "options": dict(state.options),
            "seed": state.seed, "roles": [str(r) for r in state.dealt], "steps": writer.steps}


def _entry(action: Action) -> dict[str, Any]:
    if isinstance(action, WithdrawFoul):
        return {"seat": action.seat, "withdraw": True}
    if isinstance(action, SendOff):
        return {"seat": action.seat, "send_off": True}
    assert isinstance(action, Foul)
    return {"seat": action.seat, "amount": action.amount}


class _Writer:
    """Replays the log and writes each action into the step it fell in."""

    def __init__(self, state: GameState) -> None:
        self.replayed = new_game(state.rules, state.n, state.seed, state.options, [str(r) for r in state.dealt])
        self.steps: list[dict[str, Any]] = []
        self.night: list[dict[str, Any]] | None = None
        self.day: _Day | None = None

    def flush(self) -> None:
        if self.night is not None:
            self.steps.append({"night": self.night})
        if self.day is not None:
            self.steps.append(self.day.finish())
        self.night, self.day = None, None

    def add(self, action: Action) -> None:
        replayed = self.replayed
        if isinstance(action, ExtraPoints):  # after the end: one step of the moderator's extra points
            self.flush()
            if not self.steps or "extra_points" not in self.steps[-1]:
                self.steps.append({"extra_points": {}})
            self.steps[-1]["extra_points"][str(action.seat)] = action.amount
            apply(replayed, action)
            return
        at_night = replayed.phase is Phase.NIGHT
        if at_night:
            self._night(action)
        else:
            self._day(action)
        voting, round_ = replayed.phase, replayed.vote_round
        apply(replayed, action)
        if isinstance(action, Foul | SendOff) and not replayed.is_alive(action.seat) and self.day is not None:
            self._forget(voting, round_, action.seat)  # (a vote his removal closed is over: its deaths stay)
        if replayed.phase is Phase.ENDED or at_night != (replayed.phase is Phase.NIGHT):
            self.flush()

    def _night(self, action: Action) -> None:
        if self.night is None:
            self.flush()
            self.night = []
        if isinstance(action, MODERATOR_ACTIONS):
            self.night.append({"foul": _entry(action)})
        elif isinstance(action, NightAct) and action.act not in HARMLESS:
            act: dict[str, Any] = {"seat": action.seat, "act": action.act, "target": action.target}
            if action.note:
                act["note"] = True
            self.night.append(act)

    def _day(self, action: Action) -> None:
        if self.day is None:
            self.flush()
            self.day = _Day()
        day, replayed = self.day, self.replayed
        if isinstance(action, MODERATOR_ACTIONS):
            entry = _entry(action)
            day.step.setdefault("fouls", []).append(entry)
            self._place(entry)
        elif isinstance(action, Nominate):
            day.step.setdefault("nominations", []).append([action.seat, action.target])
        elif isinstance(action, Vote) and ruleset(replayed).open_vote:  # one open tally a day, not ballots
            day.step.setdefault("votes", {})[str(action.seat)] = action.target
        elif isinstance(action, Vote):
            day.ballots.setdefault(replayed.vote_round, []).append(_Ballot(action.seat, action.target))
        elif isinstance(action, EliminateAll):
            day.ballots.setdefault(0, []).append(_Ballot(action.seat, action.yes))
        elif isinstance(action, KamikazePick):
            day.step["kamikaze"] = action.target
        elif isinstance(action, BestMove):  # made before the speeches: the scenario makes it at the day's start
            day.step["best_move"] = {"seat": action.seat, "targets": list(action.targets)}
        # EndSpeech, Ready and the clock's Deadline: the replay's clock ends whatever nobody ended

    def _place(self, entry: dict[str, Any]) -> None:
        """Where in the day a moderator's action given now falls (see ``engine.scenario_day``)."""
        replayed, day = self.replayed, self.day
        assert day is not None
        phase, speaker = replayed.phase, replayed.speaker
        if phase is Phase.LAST_WORDS:
            entry["last_words"] = speaker
        elif phase is Phase.SPEECHES:
            made = any(by == speaker for by, _ in replayed.nominations)
            entry["after" if made else "during"] = speaker
        elif phase is Phase.DEFENCE:
            entry["defence" if replayed.vote_round == 0 else "tied"] = speaker
        elif phase is Phase.VOTE:
            entry["round"] = replayed.vote_round
            day.ballots.setdefault(replayed.vote_round, []).append(_Ballot(0, None, foul=entry))
        else:
            assert phase is Phase.ELIMINATE_ALL, phase
            day.ballots.setdefault(0, []).append(_Ballot(0, None, foul=entry))

    def _forget(self, phase: Phase, round_: int, gone: int) -> None:
        """A player removed during a vote: his vote, and the votes for him, were cleared by the game."""
        assert self.day is not None
        if phase is Phase.VOTE:
            for ballot in self.day.ballots.get(round_, []):
                if ballot.foul is None and gone in (ballot.voter, ballot.choice):
                    ballot.live = False
        elif phase is Phase.ELIMINATE_ALL:
            for ballot in self.day.ballots.get(0, []):
                if ballot.foul is None and ballot.voter == gone:
                    ballot.live = False

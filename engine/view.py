"""``view(state, viewer)``: the only way out of the engine to a screen.

Everything a phone, the moderator's panel or the results screen shows comes from here, and
nothing else: a role or a private result that the viewer may not know never enters the dict. Its shape, key
by key: ``engine.view_types``.
"""

from __future__ import annotations

import copy
from typing import cast

from engine import best_move, points
from engine.actions import Act
from engine.common import acting_don, in_mafia_team
from engine.game import step_seconds
from engine.knowledge import Viewer, known_roles, visible_events
from engine.night import chosen, free_slots
from engine.roles import team_of
from engine.rulesets import ruleset
from engine.state import GameState, Phase
from engine.uz_night import SHOOT_NIGHT_ONE
from engine.view_types import (
    ChatChannels,
    EventRecord,
    Kamikaze,
    Me,
    ModeratorNight,
    ModeratorPick,
    NightChoice,
    Offer,
    PublicView,
    SeatPointsRecord,
    TeamNight,
    View,
)

__all__ = ["OWN_KEYS", "SHOOT_NIGHT_ONE", "chat_channels", "legal_actions", "moderator_night", "own_part",
           "public_view", "timeline", "view", "with_public"]

_DAY_CHAT_PHASES = frozenset(set(Phase) - {Phase.NIGHT, Phase.ENDED})


def public_view(state: GameState) -> PublicView:
    """What every viewer sees alike (no roles, no private results)."""
    return {
        "rules": state.rules,
        "phase": str(state.phase),
        "day": state.day,
        "step": state.step,
        "seconds": step_seconds(state),
        "winner": state.winner,
        "alive": state.living(),
        "fouls": {str(s): f for s, f in sorted(state.fouls.items())},
        "speaker": state.speaker,
        "queue": list(state.queue),
        "nominations": [list(n) for n in state.nominations],
        "candidates": list(state.candidates) if state.phase in (Phase.VOTE, Phase.ELIMINATE_ALL) else [],
        "vote_round": state.vote_round,
        "votes": {str(v): t for v, t in sorted(state.votes.items())} if state.phase is Phase.VOTE else {},
        "yes_votes": {str(v): y for v, y in sorted(state.yes_votes.items())}
        if state.phase is Phase.ELIMINATE_ALL else {},
        "ready": sorted(state.ready) if state.phase is Phase.DISCUSSION else [],
        "kamikaze": Kamikaze(seat=state.eliminated_by_vote, voters=list(state.voters_against))
        if state.phase is Phase.KAMIKAZE else None,
        "waiting": state.alive.count(True) - len(state.night_done) if state.phase is Phase.NIGHT else 0,
        "penalties": _penalties(state),
        "best_moves": {str(seat): list(named) for seat, named in best_move.named(state).items()},  # public
        "points": {str(s): _points(p) for s, p in points.score(state).items()},  # at the end only
    }


def _points(seat: points.SeatPoints) -> SeatPointsRecord:
    return SeatPointsRecord(seat=seat.seat, team=seat.team, won=seat.won, win=points.as_float(seat.win),
                            fouls=points.as_float(seat.fouls), best_move=points.as_float(seat.best_move),
                            extra=points.as_float(seat.extra), total=points.as_float(seat.total))


def _penalties(state: GameState) -> list[int]:
    """The nominees of this first voting round who get a penalty vote for 3 fouls (shown in the tally)."""
    if state.phase is not Phase.VOTE or state.vote_round != 1:
        return []
    return sorted(c for c in state.candidates if c in state.penalty_vote)


def view(state: GameState, viewer: Viewer, public: PublicView | None = None) -> View:
    """The projection of ``state`` for one viewer. ``public`` may be shared across viewers of one state."""
    roles = known_roles(state, viewer)
    cache = state.derived()
    if "teams" not in cache:
        cache["teams"] = {s: str(team_of(state.rules, r)) for s, r in enumerate(state.roles, 1)}
        cache["keys"] = {s: str(s) for s in range(1, state.n + 1)}
    teams, keys = cache["teams"], cache["keys"]
    known = sorted(roles)
    seat = viewer.seat if viewer.kind == "seat" and 1 <= viewer.seat <= state.n else 0
    if state.phase is Phase.ENDED and "timeline" not in cache:
        cache["timeline"] = timeline(state)
    ended: list[EventRecord] | None = cache.get("timeline") if state.phase is Phase.ENDED else None
    return View(
        **(public if public is not None else public_view(state)),
        roles={keys[s]: roles[s] for s in known},
        teams={keys[s]: teams[s] for s in known},
        events=visible_events(state, viewer),
        viewer={"kind": viewer.kind, "seat": viewer.seat},
        me=_me(state, seat) if seat else None,
        actions=legal_actions(state, viewer),
        chat=chat_channels(state, viewer),
        team_night=_team_night(state, seat) if seat else None,
        moderator_night=moderator_night(state) if viewer.kind == "moderator" else None,
        timeline=ended,
    )


# The keys of a view beyond its public part, in the order ``view`` writes them: what is the viewer's own.
OWN_KEYS = ("roles", "teams", "events", "viewer", "me", "actions", "chat", "team_night", "moderator_night", "timeline")
OwnPart = tuple[object, ...]  # a view's values of ``OWN_KEYS``, in that order


def own_part(made: View) -> OwnPart:
    """What a view holds beyond the public part (kept to make the viewer's next view with ``with_public``)."""
    values = cast(dict[str, object], made)
    return tuple(values[key] for key in OWN_KEYS)


def with_public(own: OwnPart, public: PublicView) -> View:
    """A viewer's view of the present state from his own part of an earlier one and the present public part: his
    view now, when no action since reached him (``engine.reach``); ``view`` builds the same dict."""
    made: dict[str, object] = {**public}
    made.update(zip(OWN_KEYS, own, strict=True))
    return cast(View, made)


def _me(state: GameState, seat: int) -> Me:
    mine = [NightChoice(act=a.act, target=a.target, note=a.note) for a in state.night_acts.get(seat, ())]
    noted = state.role(seat) == "commissar" and ruleset(state).commissar_note
    return Me(seat=seat, role=str(state.role(seat)), alive=state.alive[seat - 1],
              night_choices=mine if state.phase is Phase.NIGHT else [], done=_done(state, seat),
              note_used=seat in state.notes_used if noted else None)


def _done(state: GameState, seat: int) -> bool:
    phase = state.phase
    if phase is Phase.NIGHT:
        return seat in state.night_done
    if phase is Phase.VOTE:
        return seat in state.votes
    if phase is Phase.ELIMINATE_ALL:
        return seat in state.yes_votes
    if phase is Phase.DISCUSSION:
        return seat in state.ready
    return False


def _team_night(state: GameState, seat: int) -> TeamNight | None:
    """The mafia's night: who chooses the kill, the suggestions, the choice (team members only)."""
    if state.phase is not Phase.NIGHT or not in_mafia_team(state, seat) or not state.alive[seat - 1]:
        return None
    don = acting_don(state)
    suggestions: dict[str, int | None] = {}
    for member in state.living():
        if in_mafia_team(state, member):
            action = chosen(state, member, Act.SUGGEST)
            if action is not None:
                suggestions[str(member)] = action.target
    kill = chosen(state, don, Act.KILL)
    return TeamNight(acting_don=don, suggestions=suggestions, kill=kill.target if kill else None)


def legal_actions(state: GameState, viewer: Viewer) -> list[Offer]:
    """What this viewer can do now, with every legal target; empty when nothing."""
    phase = state.phase
    if phase is Phase.ENDED:
        return points.extra_actions(state) if viewer.kind == "moderator" else []
    if viewer.kind == "moderator":
        return _moderator_actions(state) if ruleset(state).fouls else []
    seat = viewer.seat
    if viewer.kind != "seat" or not 1 <= seat <= state.n:
        return []
    alive = state.alive[seat - 1]
    if phase is Phase.LAST_WORDS:  # (and a first night's dead, his best move: engine.best_move)
        return best_move.actions(state, seat) + ([{"type": "end_speech"}] if state.speaker == seat else [])
    if not alive:
        if phase is Phase.KAMIKAZE and state.eliminated_by_vote == seat:
            return [{"type": "kamikaze_pick", "targets": [v for v in state.voters_against if state.is_alive(v)],
                     "none": True}]
        return []
    if phase is Phase.NIGHT:
        return _night_actions(state, seat)
    if phase is Phase.DISCUSSION:
        return [] if seat in state.ready else [{"type": "ready"}]
    if phase is Phase.VOTE:
        if seat in state.votes:
            return []
        if ruleset(state).open_vote:
            return [{"type": "vote", "targets": [s for s in state.living() if s != seat], "none": True}]
        return [{"type": "vote", "targets": [c for c in state.candidates if c != seat], "none": False}]
    if phase is Phase.ELIMINATE_ALL:
        return [] if seat in state.yes_votes else [{"type": "eliminate_all", "candidates": list(state.candidates)}]
    if phase in (Phase.SPEECHES, Phase.DEFENCE) and state.speaker == seat:
        actions: list[Offer] = []
        may_nominate = state.day > 1 or bool(state.options["day_one_votes"])
        if phase is Phase.SPEECHES and may_nominate and not any(by == seat for by, _ in state.nominations):
            taken = {nominee for _, nominee in state.nominations}
            actions.append({"type": "nominate",
                            "targets": [s for s in state.living() if s != seat and s not in taken]})
        actions.append({"type": "end_speech"})
        return actions
    return []


def _moderator_actions(state: GameState) -> list[Offer]:
    """uk: fouls (2 at once only at night), taking the last foul back, sending a player from the table."""
    living = state.living()
    double = state.phase is Phase.NIGHT or bool(state.options["double_foul_by_day"])
    return [
        {"type": "foul", "targets": living, "amounts": [0.5, 1, 2] if double else [0.5, 1],
         "removes": {str(s): 4 - state.fouls.get(s, 0.0) for s in living}},  # the amount that removes him
        {"type": "withdraw_foul", "targets": [s for s in living if state.foul_amounts.get(s)],
         "last": {str(s): state.foul_amounts[s][-1] for s in living if state.foul_amounts.get(s)}},
        {"type": "send_off", "targets": living},
    ]


def _night_actions(state: GameState, seat: int) -> list[Offer]:
    if seat in state.night_done:
        return []
    rs = ruleset(state)
    result: list[Offer] = []
    for slot in free_slots(state, seat, rs.night_slots(state, seat)):
        for act in sorted(slot):
            targets = rs.night_targets(state, seat, act)
            entry: Offer = {"type": "night_act", "act": str(act), "targets": targets}
            if act == Act.CHECK and rs.commissar_note:
                entry["note"] = seat not in state.notes_used
            reason = rs.night_refusal(state, seat, act)
            if reason is not None:
                entry["allowed"], entry["reason"] = False, reason  # shown as not allowed, with why
            result.append(entry)
    result.append({"type": "night_act", "act": str(Act.PASS), "targets": []})
    return result


def chat_channels(state: GameState, viewer: Viewer) -> ChatChannels:
    """Which chats this viewer may read and write now: room (day), mafia (night), dead."""
    if state.phase is Phase.ENDED:
        return {"read": ["room", "mafia", "dead"], "write": ["room"] if viewer.kind == "seat" else []}
    if viewer.kind == "moderator":
        return {"read": ["room", "mafia", "dead"], "write": ["room"]}
    if viewer.kind != "seat" or not 1 <= viewer.seat <= state.n:
        return {"read": ["room"], "write": []}
    seat = viewer.seat
    if not state.alive[seat - 1]:
        return {"read": ["room", "dead"], "write": ["dead"]}
    read, write = ["room"], list[str]()
    if state.phase in _DAY_CHAT_PHASES:
        write.append("room")
    if in_mafia_team(state, seat):
        read.append("mafia")
        if state.phase is Phase.NIGHT:
            write.append("mafia")
    return {"read": read, "write": write}


def timeline(state: GameState) -> list[EventRecord]:
    """Half-day by half-day in the rule set's order (uz: night 1, day 1, ...; uk: day 1, night 1, ...), who
    did what at night, then what happened (shown when the game ends). A choice that an event already tells
    (a check with its result) is not listed twice."""
    events: list[EventRecord] = [{"day": e.day, "phase": e.phase, **e.as_dict()}
                                 for e in state.events if e.type != "game_over"]
    told = {(e["day"], e["seat"], e["target"]): e for e in events if e["type"] == "check" and e["phase"] == "night"}
    choices = []
    for choice in state.choices:
        check = told.get((choice["day"], choice["seat"], choice["target"])) if choice["act"] == "check" else None
        if check is None:
            choices.append(choice)
        elif choice.get("note"):
            check["note"] = True  # the check's line says a note was left with it
    night_first = ruleset(state).night_first

    def half(item: EventRecord) -> tuple[int, int]:
        is_night = item["phase"] == "night"
        return int(item["day"]), 0 if is_night == night_first else 1

    return sorted(choices + events, key=half)


def moderator_night(state: GameState) -> ModeratorNight | None:
    """What the moderator sees at night (he knows every role): who has not chosen yet, each choice as it comes,
    and what the night would bring if it ended now."""
    if state.phase is not Phase.NIGHT:
        return None
    cache = state.derived()
    if "moderator_night" not in cache:
        picks = [ModeratorPick(seat=seat, role=str(state.role(seat)), act=str(a.act), target=a.target, note=a.note)
                 for seat in sorted(state.night_acts) for a in state.night_acts[seat] if a.act != Act.PASS]
        waiting = [s for s in state.living() if s not in state.night_done]
        cache["moderator_night"] = ModeratorNight(waiting=waiting, picks=picks, outcome=_outcome(state))
    result: ModeratorNight = cache["moderator_night"]
    return result


def _outcome(state: GameState) -> list[EventRecord]:
    """The night's events if it were resolved now (on a copy: the game is untouched)."""
    trial = copy.copy(state)
    for name in ("roles", "alive", "picks", "notes_used", "self_heals"):  # what resolving changes
        setattr(trial, name, copy.deepcopy(getattr(state, name)))
    trial.events = list(state.events)  # events never change: the list is enough
    trial.cache = {}
    first = len(trial.events)
    ruleset(trial).resolve_night(trial)
    return [{"day": e.day, "phase": e.phase, **e.as_dict()} for e in trial.events[first:]]

"""uz day: dawn, discussion (players may say they are ready), the vote with a live tally,
and the voted-out kamikaze's pick among those who voted against him."""

from __future__ import annotations

from engine.actions import Action, KamikazePick, Ready, Vote
from engine.common import check_seat, check_target, kill, set_phase
from engine.errors import IllegalTarget, NotYourTurn
from engine.i18n import N_
from engine.rng import packed_state, restored
from engine.roles import Role
from engine.state import PUBLIC, GameState, Phase
from engine.uz_night import promote_sergeant


def begin(state: GameState) -> None:
    """The game opens with the first night: nothing to prepare."""


def start_day(state: GameState, night_dead: list[int]) -> None:
    """The day after a night: the discussion (the night's dead were told at dawn, by the night's events)."""
    state.ready = set()
    state.votes = {}
    set_phase(state, Phase.DISCUSSION)


def apply(state: GameState, action: Action) -> bool:
    """Apply a day action; returns True when the day is over (the caller starts the night)."""
    if isinstance(action, Ready):
        if state.phase is not Phase.DISCUSSION:
            raise NotYourTurn(N_("The discussion is over."))
        check_seat(state, action.seat)
        if action.seat in state.ready:
            raise NotYourTurn(N_("You are already ready to vote."))
        state.ready.add(action.seat)
        if len(state.ready) == state.alive.count(True):
            start_vote(state)
        return False
    if isinstance(action, Vote):
        validate_vote(state, action)
        state.votes[action.seat] = action.target
        if len(state.votes) == state.alive.count(True):
            return close_vote(state)
        return False
    if isinstance(action, KamikazePick):
        if state.phase is not Phase.KAMIKAZE or action.seat != state.eliminated_by_vote:
            raise NotYourTurn(N_("Only the voted-out kamikaze picks now."))
        if action.target is not None:
            if action.target not in state.voters_against or not state.is_alive(action.target):
                raise IllegalTarget(N_("The kamikaze can only pick a living player who voted for this elimination."))
            kill(state, action.target, "kamikaze")
            promote_sergeant(state)
        return True
    raise NotYourTurn(N_("That is not possible during the day."))


def validate_vote(state: GameState, action: Vote) -> None:
    if state.phase is not Phase.VOTE:
        raise NotYourTurn(N_("There is no vote now."))
    check_seat(state, action.seat)
    if action.seat in state.votes:
        raise NotYourTurn(N_("You have already voted."))
    if action.target is not None:
        check_target(state, action.seat, action.target, allow_self=False)


def start_vote(state: GameState) -> None:
    state.votes = {}
    set_phase(state, Phase.VOTE)


def deadline(state: GameState) -> bool:
    if state.phase is Phase.DISCUSSION:
        start_vote(state)
        return False
    if state.phase is Phase.VOTE:
        return close_vote(state)
    return True  # the kamikaze did not pick: nobody


def close_vote(state: GameState) -> bool:
    tally: dict[int, int] = {}
    for target in state.votes.values():
        if target is not None:
            tally[target] = tally.get(target, 0) + 1
    top = max(tally.values(), default=0)
    leaders = sorted(t for t, c in tally.items() if c == top)
    eliminated: int | None = None
    if len(leaders) == 1:
        eliminated = leaders[0]
    elif len(leaders) > 1 and state.options["tie_result"] == "random":
        rng = restored(state.rng_state)
        eliminated = rng.choice(leaders)
        state.rng_state = packed_state(rng)
    state.emit("vote_result", PUBLIC, votes={str(v): t for v, t in sorted(state.votes.items())},
               eliminated=eliminated)
    if eliminated is None:
        return True
    kill(state, eliminated, "vote")
    promote_sergeant(state)
    voters = sorted(v for v, t in state.votes.items() if t == eliminated)
    if state.role(eliminated) is Role.KAMIKAZE and voters:
        state.eliminated_by_vote = eliminated
        state.voters_against = voters
        set_phase(state, Phase.KAMIKAZE)
        return False
    return True

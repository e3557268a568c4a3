"""uk day: last words, speeches with nominations, defence, the vote, the tie re-vote and the
eliminate-all vote; and the moderator's fouls."""

from __future__ import annotations

from engine.actions import Action, EliminateAll, EndSpeech, Foul, Nominate, Vote
from engine.common import check_seat, check_target, kill, set_phase
from engine.errors import IllegalTarget, NotYourTurn
from engine.i18n import N_
from engine.state import PUBLIC, GameState, Phase


def start_day(state: GameState, night_dead: list[int]) -> None:
    state.nominations = []
    state.candidates = []
    state.votes = {}
    state.vote_round = 0
    if night_dead:
        _last_words(state, night_dead, Phase.SPEECHES)
    else:
        _start_speeches(state)


def _last_words(state: GameState, seats: list[int], then: Phase) -> None:
    state.after_last_words = then
    state.queue = list(seats)
    set_phase(state, Phase.LAST_WORDS)
    _next_speaker(state)


def _start_speeches(state: GameState) -> None:
    n = state.n
    start = (state.day - 1) % n
    order = [(start + i) % n + 1 for i in range(n)]
    queue = []
    for seat in order:
        if not state.is_alive(seat):
            continue
        if seat in state.loses_speech:
            state.loses_speech.discard(seat)
            state.emit("speech_lost", PUBLIC, seat=seat)
            continue
        queue.append(seat)
    state.queue = queue
    set_phase(state, Phase.SPEECHES)
    _next_speaker(state)


def _next_speaker(state: GameState) -> bool:
    """Move to the next speaker of this phase; True when the night begins."""
    while state.queue:
        state.speaker = state.queue.pop(0)
        state.step += 1
        if state.phase is Phase.LAST_WORDS or state.is_alive(state.speaker):
            return False
    state.speaker = 0
    return _phase_done(state)


def _phase_done(state: GameState) -> bool:
    if state.phase is Phase.LAST_WORDS:
        if state.after_last_words is Phase.SPEECHES:
            _start_speeches(state)
            return False
        return True
    if state.phase is Phase.SPEECHES:
        return _after_speeches(state)
    if state.phase is Phase.DEFENCE:
        state.vote_round += 1
        state.votes = {}
        set_phase(state, Phase.VOTE)
        return False
    return True


def _after_speeches(state: GameState) -> bool:
    nominees = [nominee for _, nominee in state.nominations if state.is_alive(nominee)]
    if not nominees:
        return True
    if len(nominees) == 1:
        rule = state.options["single_nominee"]
        spared = rule == "never_eliminated" or (rule == "eliminated_except_day_one" and state.day == 1)
        if spared:
            state.emit("vote_result", PUBLIC, votes={}, eliminated=None)
            return True
        state.emit("vote_result", PUBLIC, votes={}, eliminated=nominees[0])
        return _eliminate(state, nominees)
    state.candidates = nominees
    state.queue = list(nominees)
    set_phase(state, Phase.DEFENCE)
    return _next_speaker(state)


def _eliminate(state: GameState, seats: list[int]) -> bool:
    for seat in seats:
        kill(state, seat, "vote")
    _last_words(state, seats, Phase.NIGHT)
    return False


def apply(state: GameState, action: Action) -> bool:
    """Apply a day action; True when the day is over and the night begins."""
    if isinstance(action, Nominate):
        if state.phase is not Phase.SPEECHES or action.seat != state.speaker:
            raise NotYourTurn(N_("You can only nominate during your own speech."))
        check_seat(state, action.seat)
        if state.day == 1 and not state.options["day_one_votes"]:
            raise NotYourTurn(N_("Day 1 is for introductions: no nominations today."))
        if any(by == action.seat for by, _ in state.nominations):
            raise NotYourTurn(N_("You have already nominated a player today."))
        check_target(state, action.seat, action.target, allow_self=False)
        if any(nominee == action.target for _, nominee in state.nominations):
            raise IllegalTarget(N_("Player {seat} is already nominated."), seat=action.target)
        state.nominations.append((action.seat, action.target))
        state.emit("nomination", PUBLIC, seat=action.seat, target=action.target)
        return False
    if isinstance(action, EndSpeech):
        if state.phase not in (Phase.SPEECHES, Phase.DEFENCE, Phase.LAST_WORDS) or action.seat != state.speaker:
            raise NotYourTurn(N_("It is not your turn to speak."))
        return _next_speaker(state)
    if isinstance(action, Vote):
        _validate_vote(state, action)
        assert action.target is not None
        state.votes[action.seat] = action.target
        if len(state.votes) == state.alive.count(True):
            return _close_vote(state)
        return False
    if isinstance(action, EliminateAll):
        if state.phase is not Phase.ELIMINATE_ALL:
            raise NotYourTurn(N_("There is no vote on eliminating everyone now."))
        check_seat(state, action.seat)
        if action.seat in state.yes_votes:
            raise NotYourTurn(N_("You have already voted."))
        state.yes_votes[action.seat] = action.yes
        if len(state.yes_votes) == state.alive.count(True):
            return _close_eliminate_all(state)
        return False
    if isinstance(action, Foul):
        return foul(state, action)
    raise NotYourTurn(N_("That is not possible during the day."))


def _validate_vote(state: GameState, action: Vote) -> None:
    if state.phase is not Phase.VOTE:
        raise NotYourTurn(N_("There is no vote now."))
    check_seat(state, action.seat)
    if action.seat in state.votes:
        raise NotYourTurn(N_("You have already voted."))
    if action.target is None:
        raise IllegalTarget(N_("Everyone must vote; abstaining is not allowed."))
    if action.target == action.seat:
        raise IllegalTarget(N_("You cannot vote for yourself."))
    if action.target not in state.candidates:
        raise IllegalTarget(N_("Player {seat} is not a nominee in this vote."), seat=action.target)


def deadline(state: GameState) -> bool:
    if state.phase in (Phase.SPEECHES, Phase.DEFENCE, Phase.LAST_WORDS):
        return _next_speaker(state)
    if state.phase is Phase.VOTE:
        return _close_vote(state)
    if state.phase is Phase.ELIMINATE_ALL:
        return _close_eliminate_all(state)
    return True


def _close_vote(state: GameState) -> bool:
    if state.options["missed_vote"] == "last_nominee":
        for voter in state.living():
            if voter not in state.votes:
                fallback = [c for c in state.candidates if c != voter]
                if fallback:
                    state.votes[voter] = fallback[-1]
    tally = {c: 0 for c in state.candidates}
    for target in state.votes.values():
        if target is not None and target in tally:
            tally[target] += 1
    penalties = sorted(c for c in state.candidates if c in state.penalty_vote)
    for seat in penalties:
        tally[seat] += 1
        state.penalty_vote.discard(seat)
    top = max(tally.values(), default=0)
    leaders = [c for c in state.candidates if tally[c] == top]
    state.emit("vote_result", PUBLIC, votes={str(v): t for v, t in sorted(state.votes.items())},
               penalties=penalties, round=state.vote_round,
               eliminated=leaders[0] if len(leaders) == 1 else None, tied=leaders if len(leaders) > 1 else [])
    if not leaders:
        return True
    if len(leaders) == 1:
        return _eliminate(state, leaders)
    if state.vote_round == 1:
        state.candidates = leaders
        state.queue = list(leaders)
        set_phase(state, Phase.DEFENCE)
        return _next_speaker(state)
    if state.options["second_tie"] == "eliminate_all_vote":
        state.candidates = leaders
        state.yes_votes = {}
        set_phase(state, Phase.ELIMINATE_ALL)
        return False
    return True


def _close_eliminate_all(state: GameState) -> bool:
    yes = sum(1 for v in state.yes_votes.values() if v)
    living = state.alive.count(True)
    passed = yes * 2 > living
    state.emit("eliminate_all_result", PUBLIC, yes=yes, living=living, candidates=list(state.candidates),
               passed=passed)
    if not passed:
        return True
    return _eliminate(state, [c for c in state.candidates if state.is_alive(c)])


def foul(state: GameState, action: Foul) -> bool:
    if action.amount not in (0.5, 1):
        raise IllegalTarget(N_("A foul is 0.5 or 1."))
    check_seat(state, action.seat)
    before = state.fouls.get(action.seat, 0.0)
    after = before + float(action.amount)
    state.fouls[action.seat] = after
    state.emit("foul", PUBLIC, seat=action.seat, amount=action.amount, total=after)
    if before < 3 <= after:
        if state.phase is Phase.SPEECHES and action.seat in state.queue:
            # His speech today is still to come: that is the next speech he loses.
            state.queue.remove(action.seat)
            state.emit("speech_lost", PUBLIC, seat=action.seat)
        else:
            state.loses_speech.add(action.seat)
        if state.options["three_fouls_penalty_vote"]:
            state.penalty_vote.add(action.seat)
    if before < 4 <= after:
        return _remove(state, action.seat)
    return False


def _remove(state: GameState, seat: int) -> bool:
    """Four fouls: out at once, with no last words."""
    kill(state, seat, "fouls")
    state.loses_speech.discard(seat)
    state.penalty_vote.discard(seat)
    if seat in state.queue:
        state.queue.remove(seat)
    state.votes.pop(seat, None)
    state.yes_votes.pop(seat, None)
    if seat in state.candidates:
        state.candidates.remove(seat)
        state.votes = {v: t for v, t in state.votes.items() if t != seat}
    if state.phase is Phase.NIGHT:  # he has left the table: his choices tonight go with him
        state.night_done.discard(seat)
        state.night_acts.pop(seat, None)
        return False
    if state.speaker == seat and state.phase is not Phase.LAST_WORDS:
        return _next_speaker(state)
    if state.phase is Phase.VOTE and len(state.votes) == state.alive.count(True):
        return _close_vote(state)
    if state.phase is Phase.ELIMINATE_ALL and len(state.yes_votes) == state.alive.count(True):
        return _close_eliminate_all(state)
    return False

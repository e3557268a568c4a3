"""uk day: last words, speeches with nominations, defence, the vote, the tie re-vote and the
eliminate-all vote; and the moderator's fouls."""

from __future__ import annotations

from engine.actions import Act, Action, EliminateAll, EndSpeech, Foul, Nominate, SendOff, Vote, WithdrawFoul
from engine.common import check_seat, check_target, kill, set_phase
from engine.errors import IllegalTarget, NotYourTurn
from engine.i18n import N_
from engine.night import free_slots
from engine.state import PUBLIC, GameState, Phase
from engine.uk_night import slots as night_slots

LOST_SPEECH = N_("Player {seat} lost this speech to fouls, so cannot nominate today.")
DOUBLE_FOUL_BY_NIGHT = N_("Two fouls at once are given only at night, for gestures or sounds.")


def begin(state: GameState) -> None:
    """The game opens with the first day's speeches."""
    start_day(state, [])


def start_day(state: GameState, night_dead: list[int]) -> None:
    """A day: the night's dead say their last words first, then the speeches."""
    state.nominations = []
    state.candidates = []
    state.votes = {}
    state.vote_round = 0
    state.silenced = set()
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
    set_phase(state, Phase.SPEECHES)
    state.queue = [seat for seat in order if state.is_alive(seat)]
    _next_speaker(state)  # a speech lost to fouls is lost when its turn comes (RULES.md), the first one too
    state.opening_step = state.step


def _lose_speech(state: GameState, seat: int) -> None:
    state.loses_speech.discard(seat)
    state.silenced.add(seat)
    state.emit("speech_lost", PUBLIC, seat=seat)


def speech_opening(state: GameState) -> bool:
    """The day's first speech has not begun yet: its speaker has neither nominated nor ended it, and its time
    has not run out. A foul now is a foul before the day (RULES.md: 3 fouls cost the next speech, even the
    day's first)."""
    return (state.phase is Phase.SPEECHES and state.step == state.opening_step and state.speaker != 0
            and not any(by == state.speaker for by, _ in state.nominations))


def _next_speaker(state: GameState) -> bool:
    """Move to the next speaker of this phase; True when the night begins. A player whose 3 fouls cost him his
    next speech loses it here, when its turn comes: a foul withdrawn before then has given it back."""
    while state.queue:
        seat = state.queue.pop(0)
        if state.phase is Phase.SPEECHES and seat in state.loses_speech and state.is_alive(seat):
            _lose_speech(state, seat)
            continue
        state.speaker = seat
        state.step += 1
        if state.phase is Phase.LAST_WORDS or state.is_alive(seat):
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
        return _open_vote(state)
    return True


def _open_vote(state: GameState) -> bool:
    """The defences are over: the vote begins among the nominees still in the game. With one left (the others
    removed by fouls or sent from the table, in a speech, the defences or the tied players' speeches) there is
    no vote: the single-nominee rules decide, as if he had been the only one nominated (RULES.md)."""
    nominees = [c for c in state.candidates if state.is_alive(c)]
    if len(nominees) < 2:
        return _without_vote(state, nominees)
    state.candidates = nominees
    state.vote_round += 1
    state.votes = {}
    set_phase(state, Phase.VOTE)
    return False


def _without_vote(state: GameState, nominees: list[int]) -> bool:
    """No nominee: no vote. A single nominee: eliminated without a vote, or spared, by ``single_nominee``."""
    if not nominees:
        return True
    rule = state.options["single_nominee"]
    spared = rule == "never_eliminated" or (rule == "eliminated_except_day_one" and state.day == 1)
    if spared:
        state.emit("vote_result", PUBLIC, votes={}, eliminated=None, single=nominees[0])
        return True
    state.emit("vote_result", PUBLIC, votes={}, eliminated=nominees[0], single=nominees[0])
    return _eliminate(state, nominees)


def _after_speeches(state: GameState) -> bool:
    nominees = [nominee for _, nominee in state.nominations if state.is_alive(nominee)]
    if len(nominees) < 2:
        return _without_vote(state, nominees)
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
        if action.seat in state.silenced:
            raise NotYourTurn(LOST_SPEECH, seat=action.seat)
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
    if isinstance(action, WithdrawFoul):
        return withdraw_foul(state, action)
    if isinstance(action, SendOff):
        _check_fouled(state, action.seat)
        return _remove(state, action.seat, sent_off=True)
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
    # The penalty vote counts in the first round in which he is a nominee, never in a re-vote.
    penalties = sorted(c for c in state.candidates if c in state.penalty_vote) if state.vote_round == 1 else []
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
    if action.amount not in (0.5, 1, 2):
        raise IllegalTarget(N_("A foul is 0.5 or 1."))
    if action.amount == 2 and state.phase is not Phase.NIGHT and not state.options["double_foul_by_day"]:
        raise IllegalTarget(DOUBLE_FOUL_BY_NIGHT)
    _check_fouled(state, action.seat)
    before = state.fouls.get(action.seat, 0.0)
    after = before + float(action.amount)
    state.fouls[action.seat] = after
    state.foul_amounts.setdefault(action.seat, []).append(float(action.amount))
    state.emit("foul", PUBLIC, seat=action.seat, amount=float(action.amount), total=after)
    day_over = False
    if before < 3 <= after:
        if state.options["three_fouls_penalty_vote"]:
            state.penalty_vote.add(action.seat)
        if action.seat == state.speaker and speech_opening(state):
            _lose_speech(state, action.seat)  # the day's first speech, not begun: its turn has come
            if after < 4:
                day_over = _next_speaker(state)
        else:
            state.loses_speech.add(action.seat)  # lost when its turn comes (today's if still to come)
    if before < 4 <= after:
        return _remove(state, action.seat)
    return day_over


def _check_fouled(state: GameState, seat: int) -> None:
    """Fouls, their withdrawal and a send-off concern a living player (the dead are out of the game)."""
    if not 1 <= seat <= state.n:
        raise IllegalTarget(N_("There is no seat {seat}."), seat=seat)
    if not state.alive[seat - 1]:
        raise IllegalTarget(N_("Player {seat} is dead: the dead get no fouls."), seat=seat)


def withdraw_foul(state: GameState, action: WithdrawFoul) -> bool:
    """Take back the last foul given to this player. What his fouls had not yet cost him (a speech to come, a
    penalty vote not yet counted) is given back when he drops below 3; what is done stays done."""
    _check_fouled(state, action.seat)
    given = state.foul_amounts.get(action.seat) or []
    if not given:
        raise IllegalTarget(N_("Player {seat} has no foul to withdraw."), seat=action.seat)
    amount = given.pop()
    before = state.fouls.get(action.seat, 0.0)
    after = before - amount
    state.fouls[action.seat] = after
    if not given:
        del state.foul_amounts[action.seat]
    if after < 3 <= before and state.options["withdrawn_foul_restores"]:
        state.loses_speech.discard(action.seat)
        state.penalty_vote.discard(action.seat)
    state.emit("foul_withdrawn", PUBLIC, seat=action.seat, amount=amount, total=after)
    return False


def _remove(state: GameState, seat: int, sent_off: bool = False) -> bool:
    """Four fouls, or sent from the table: out at once, with no last words."""
    at_night = state.phase is Phase.NIGHT
    acting_before = {s for s in state.living() if Act.KILL in _night_powers(state, s)} if at_night else set()
    kill(state, seat, "fouls", **({"sent_off": True} if sent_off else {}))
    state.loses_speech.discard(seat)
    state.penalty_vote.discard(seat)
    if seat in state.queue:
        state.queue.remove(seat)
    state.votes.pop(seat, None)
    state.yes_votes.pop(seat, None)
    if seat in state.candidates:
        state.candidates.remove(seat)
        state.votes = {v: t for v, t in state.votes.items() if t != seat}
    if at_night:  # he has left the table: his choices tonight go with him
        state.night_done.discard(seat)
        state.night_acts.pop(seat, None)
        for heir in state.living():  # powers pass at once: the next acting don, a lone courtesan, kill tonight
            if heir not in acting_before and Act.KILL in _night_powers(state, heir):
                state.night_done.discard(heir)
        return False
    if state.speaker == seat and state.phase is not Phase.LAST_WORDS:
        return _next_speaker(state)
    if state.phase is Phase.VOTE and len(state.votes) == state.alive.count(True):
        return _close_vote(state)
    if state.phase is Phase.ELIMINATE_ALL and len(state.yes_votes) == state.alive.count(True):
        return _close_eliminate_all(state)
    return False


def _night_powers(state: GameState, seat: int) -> set[str]:
    return {str(act) for slot in free_slots(state, seat, night_slots(state, seat)) for act in slot}

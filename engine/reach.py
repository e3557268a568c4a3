"""Whose own share of the game an action can change: the seats whose view (``engine.view.view``) differs from the one
they had before it in more than the public part (``engine.view.public_view``).

A vote changes the public tally on every screen and the voter's own offer; the other seats' roles, news, offers and
chats are what they were. The web layer makes each seat's view once per state (a dozen seats at every tap), and the
seats an action did not reach need only the new public part beside what they already had (issue 32).

``reach`` is conservative: whenever the step, the phase, the day, the news, who lives, the roles or the speaker
changed it answers None (every viewer); otherwise the actor, and at night the whole mafia team when the actor is in
it (their team's night card). The moderator is never named: his night overview changes with every choice, so his
view is made again at every state. ``tests/engine/test_reach.py`` plays random games and checks every seat it
does not name.
"""

from __future__ import annotations

from engine.actions import Action, EliminateAll, KamikazePick, NightAct, Nominate, Ready, Vote
from engine.common import in_mafia_team
from engine.state import GameState, Phase

__all__ = ["Mark", "mark", "reach"]

# What, when it changes, may change any viewer's own view: the step, the phase, the day, the news, who lives, the
# roles (a don's heir), the speaker.
Mark = tuple[int, Phase, int, int, tuple[bool, ...], tuple[str, ...], int | None]

# The actions whose only own effect is on their actor's view (his offers, his "done"), the rest being public.
_ACTOR_ONLY = (Vote, Ready, EliminateAll, Nominate, KamikazePick)


def mark(state: GameState) -> Mark:
    """The state's mark, taken before an action and handed to ``reach`` after it."""
    return (state.step, state.phase, state.day, len(state.events), tuple(state.alive), tuple(state.roles),
            state.speaker)


def reach(before: Mark, state: GameState, action: Action) -> frozenset[int] | None:
    """The seats whose own view ``action``, just applied to the state that ``before`` marked, can have changed; None
    when it may be anyone's (spectators' included). A spectator's own part changes only with None."""
    if mark(state) != before:
        return None
    if isinstance(action, NightAct):
        seat = action.seat
        if state.phase is Phase.NIGHT and in_mafia_team(state, seat):
            return frozenset({seat, *(s for s in range(1, state.n + 1) if in_mafia_team(state, s))})
        return frozenset({seat})
    if isinstance(action, _ACTOR_ONLY):
        return frozenset({action.seat})
    return None  # the clock, the moderator's fouls and the rest: anything may follow

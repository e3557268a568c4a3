"""What a viewer reads of the events, made once per event: kept from one action to the next (``engine.knowledge``).

The events a viewer may read are dicts made from the state's events; a state's list of events is only appended to,
so those made at the action before are kept for the next (``engine.state.CARRIED``) instead of all being made again
at every action of the game. What every viewer reads must stay exactly what a state replayed from its log shows.
"""

from __future__ import annotations

import random

import pytest

from engine.game import new_game, replay
from engine.knowledge import MODERATOR, SPECTATOR, Viewer, visible_events
from engine.state import GameState
from tests.engine.play_helpers import steps


def viewers(state: GameState) -> list[Viewer]:
    return [MODERATOR, SPECTATOR, *(Viewer.of_seat(seat) for seat in range(1, state.n + 1))]


@pytest.mark.parametrize(("rules", "players", "seed"), [("uz", 12, 7), ("uk", 12, 8), ("uz", 5, 9)])
def test_every_viewer_reads_what_the_replayed_state_shows_after_every_action(rules: str, players: int,
                                                                            seed: int) -> None:
    state = new_game(rules, players, seed, None)
    checked = 0
    for _action in steps(state, random.Random(seed), fouls=rules == "uk"):
        fresh = replay(rules, players, seed, state.options, state.log)
        for viewer in viewers(state):
            assert visible_events(state, viewer) == visible_events(fresh, viewer), (viewer, len(state.log))
        checked += 1
    assert checked > 10 and state.events


def test_an_event_s_dict_is_made_once_and_a_new_one_joins_it() -> None:
    state = new_game("uz", 8, 3, None)
    seen: dict[int, object] = {}  # the event's index -> the dict the moderator read at its first showing
    grew = 0
    for _action in steps(state, random.Random(3)):
        events = visible_events(state, MODERATOR)  # every event, in the state's order
        for index, told in enumerate(events):
            assert seen.setdefault(index, told) is told  # the same dict at every later action
        grew = max(grew, len(events))
    assert grew > 3  # the game told the table several events, each kept from then on


def test_a_state_whose_events_were_replaced_reads_them_anew() -> None:
    """A list of events that is not the one the kept dicts were made from (a state copied, restored) is read anew."""
    state = new_game("uz", 8, 4, None)
    for _action in steps(state, random.Random(4)):
        if len(state.events) > 4:
            break
    before = visible_events(state, MODERATOR)
    state.events = state.events[:2]  # another list, shorter: the kept dicts say nothing about it
    state.log.append(state.log[-1])  # a new version of the state
    after = visible_events(state, MODERATOR)
    assert len(after) == 2 and after == before[:2]

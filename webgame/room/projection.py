"""The one way out of a room to a screen: ``Projection``, everything one viewer may be shown of the game.

A page asks its room (``Room.projection(token_hash)``) and draws only from what it gets: the engine's view
for this viewer, the events he may read, the chat lines he may read. It never holds the game's state, so
what a viewer may not know cannot reach his browser by a slip of a page. Of the engine this module imports
only the view's types (``engine.view_types``, which import nothing), so a page can name the type without
importing the rules' state; mypy then checks every key a page reads of ``Projection.view``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired

from engine.view_types import EventRecord, Offer, View, ViewerKind
from webgame.room.chat import ChatLine

__all__ = ["DatedEvent", "Projection", "ShownView", "ViewerKind"]

DatedEvent = tuple[int, str, EventRecord]  # (day, phase, event)


class ShownView(View):
    """The engine's view as the room shows it: two keys of the room's own on top (``webgame.room.table_game``)."""

    # A player holding a gone moderator's controls (``webgame.room.host_watch``): the moderator's actions (fouls on
    # the living seats, no roles), beside his seat's own.
    moderator_actions: NotRequired[list[Offer]]
    # The day's result held on every screen before the night (``webgame.room.result_hold``): no seat's action now.
    result_hold: NotRequired[bool]


@dataclass(frozen=True, slots=True)
class Projection:
    """One viewer's share of a room's game at one moment (shared dicts inside: read them, never change them)."""

    game_id: int
    view: ShownView  # engine.view.view(state, viewer, room.public()): phase, day, step, roles he knows, ...
    viewer_kind: ViewerKind
    viewer_seat: int  # his engine seat (1..n), 0 for the moderator and a spectator
    events: list[DatedEvent]  # the events he may read, in order, as the engine words them for him
    chat: list[ChatLine]  # the chat lines he may read, in order
    alive_seat: bool  # he has a seat and it is alive (the pages pad the living and the dead apart)
    seats: int  # how many seats play this game

    @property
    def phase(self) -> str:
        return self.view["phase"]

    @property
    def step(self) -> int:
        return self.view["step"]

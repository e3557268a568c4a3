"""The one way out of a room to a screen: ``Projection``, everything one viewer may be shown of the game.

A page asks its room (``Room.projection(token_hash)``) and draws only from what it gets: the engine's view
for this viewer, the events he may read, the chat lines he may read. It never holds the game's state, so
what a viewer may not know cannot reach his browser by a slip of a page. This module imports nothing of the
engine, so a page can name the type without importing the rules' state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from webgame.room.chat import ChatLine

ViewerKind = Literal["seat", "moderator", "spectator"]
DatedEvent = tuple[int, str, dict[str, Any]]  # (day, phase, event)


@dataclass(frozen=True, slots=True)
class Projection:
    """One viewer's share of a room's game at one moment (shared dicts inside: read them, never change them)."""

    game_id: int
    view: dict[str, Any]  # engine.view.view(state, viewer, room.public()): phase, day, step, roles he knows, ...
    viewer_kind: ViewerKind
    viewer_seat: int  # his engine seat (1..n), 0 for the moderator and a spectator
    events: list[DatedEvent]  # the events he may read, in order, as the engine words them for him
    chat: list[ChatLine]  # the chat lines he may read, in order
    alive_seat: bool  # he has a seat and it is alive (the pages pad the living and the dead apart)
    seats: int  # how many seats play this game

    @property
    def phase(self) -> str:
        return str(self.view["phase"])

    @property
    def step(self) -> int:
        return int(self.view["step"])

"""Whether a uk game's moderator is gone: his phone has had no open page for the room's hand-over delay.

A moderated game goes on without him (the clock ends each step), and his controls pass to a player only if the
room allows it (``webgame.room.host_watch``). Either way the table must know: a gone moderator gives no fouls and
pauses nothing, and the players would otherwise wait for him. Everyone may know it (whether a phone is connected
is no secret: the lobby shows it), so every screen says it: the TV (``webgame.pages.results_screen``) and every
phone under its phase (``webgame.pages.moving.notices``), until he is back.

It is read from the room's presence (``Audience.gone_for``, kept for the seat moves) and its lobby settings, each
time a screen asks: nothing is stored. The clock's tick is what makes a screen ask again as the delay runs out
(the host watch tells the room's pages when the answer changes, ``webgame.room.host_watch.HostWatch.tick``).
"""

from __future__ import annotations

from typing import Protocol

from webgame.language.i18n import N_
from webgame.room.seating import Lobby
from webgame.room.table_game import Stage

MODERATOR_GONE = N_("The moderator's phone is gone: the game goes on with the clock alone.")


class Presence(Protocol):
    """Since when each seat has had no page open (``webgame.room.subscribers.Audience``)."""

    def gone_for(self, token_hash: str) -> float: ...


class Table(Protocol):
    """What this reads of a room (``webgame.room.rooms.Room``)."""

    lobby: Lobby

    @property
    def audience(self) -> Presence: ...

    @property
    def stage(self) -> Stage: ...


def moderator_gone(room: Table) -> bool:
    """A moderated game is running and its moderator (the room's host) has had no page open for the hand-over delay
    (a player who took his controls over is the host now, and is there)."""
    lobby = room.lobby
    if not lobby.moderated or room.stage is not Stage.PLAYING or lobby.host_hash is None:
        return False
    return room.audience.gone_for(lobby.host_hash) >= lobby.handover_seconds

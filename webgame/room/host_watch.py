"""The host's phone gone: after the room's delay the host role passes to the next connected player in seat order.

Driven by the game clock (``webgame.room.clock.Clock.tick``, a few times a second, the same tick that ends steps and
moves the bots), not by a task of its own. The room counts each seat's open pages (``Room.is_connected``):
when the host has none, the watch notes the time; when he has had none for ``Lobby.handover_seconds`` (an option
of the lobby, 30 s unless the host changed it), the role passes to the first seat after his, in seat order, that
has a page open and is not a bot (a bot can never be the host: nobody could run the game). Everyone is told
(``webgame.room.notices``). The old host, back, is a player like any other. Nothing happens while nobody else is
there to take it over.

A uk moderator is the host of a moderated room. Mid-game his controls (the clock, the fouls) pass on only if the
room allows it (``Lobby.moderator_takeover``, off unless the host turned it on); the player who takes them keeps
his own seat's screen, so he sees no roles but his own (``Room.viewer``: a seat is a seat first). Otherwise the
game goes on with the clock alone. In the lobby a new host does not moderate until he says so.

The host role is kept in the database (``Room.host_token_hash``), so a hand-over survives a restart; the time
the host has been gone is not (after a restart everyone's phone comes back first, and the count starts again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room import moderator_presence
from webgame.room.notices import NEW_HOST, NEW_MODERATOR, Notices
from webgame.room.seating import Lobby, SeatInfo
from webgame.room.subscribers import Audience, Change
from webgame.room.table_game import Stage, TableGame

T = TypeVar("T")


class Table(Protocol):
    """What the host watch and the seat moves use of a room (``webgame.room.rooms.Room``). They change the room
    only through its ``change`` (its lock, then the pages told), never by themselves."""

    id: int
    lobby: Lobby
    game: TableGame
    notices: Notices
    now: Callable[[], float]
    audience: Audience[Any]  # the seats' open pages, and since when a seat has had none (webgame.room.seat_moves)

    @property
    def stage(self) -> Stage: ...

    def is_connected(self, token_hash: str) -> bool: ...

    async def change(self, what: Change | None, change: Callable[[], Awaitable[T]]) -> T: ...


HostCall = Callable[..., Awaitable[None]]  # a request of the host's: (his token hash, ...)


class HostWatch:
    """One room's watch over its host's phone: since when it has been gone, and the hand-over."""

    def __init__(self, room: Table) -> None:
        self.room = room
        self.gone_since: float | None = None  # when the host's last page closed (as the clock first saw it)
        self.moderator_gone = False  # as the pages were last told: the uk moderator's phone gone for the delay

    async def make_host(self, token_hash: str | None, seat_id: int) -> None:
        """The host hands his role to seat ``seat_id`` himself (outside a game)."""
        async def hand_over() -> None:
            self.room.lobby.require_host(token_hash)
            if self.room.stage is Stage.PLAYING:
                raise Refusal(N_("The host role can only be handed over outside a game."))
            await self.room.lobby.make_host(seat_id)

        await self.room.change(Change.STRUCTURE, hand_over)

    async def set_handover(self, token_hash: str | None, seconds: int | None = None,
                           takeover: bool | None = None) -> None:
        """The host's lobby options of the hand-over: its delay, and whether a gone moderator's controls may pass."""
        async def set_options() -> None:
            self.room.lobby.require_host(token_hash)
            if self.room.stage is not Stage.LOBBY:
                raise Refusal(N_("The game has already started."))
            await self.room.lobby.set_handover(seconds, takeover)

        await self.room.change(Change.SETTINGS, set_options)

    def may_pass(self) -> bool:
        """Whether the host role may pass on now: always, but a moderator's mid-game only if the room allows it."""
        lobby = self.room.lobby
        if self.room.stage is Stage.PLAYING and lobby.moderated:
            return lobby.moderator_takeover
        return True

    def candidates(self) -> list[SeatInfo]:
        """Who could take the host role now, in seat order after the host's: connected people, no bots; in a
        game, only its players."""
        room, lobby = self.room, self.room.lobby
        seats, host = lobby.seats, lobby.host_seat
        start = seats.index(host) + 1 if host in seats else 0
        playing = {seat.id for seat in room.game.seating} if room.stage is Stage.PLAYING else None
        return [seat for seat in seats[start:] + seats[:start]
                if seat is not host and not seat.is_bot and room.is_connected(seat.token_hash)
                and (playing is None or seat.id in playing)]

    def gone_for(self, now: float) -> float:
        """How long the host's phone has been gone (0 while it is there)."""
        return 0.0 if self.gone_since is None else max(0.0, now - self.gone_since)

    async def tick(self, now: float) -> bool:
        """Note the host's absence, or pass his role on when it has lasted long enough; True if it passed."""
        room, lobby = self.room, self.room.lobby
        if moderator_presence.moderator_gone(room) != self.moderator_gone:  # every phone and the TV say it, or stop
            await room.change(Change.PRESENCE, self._moderator_presence)
        host = lobby.host_hash
        if host is None or room.is_connected(host) or not self.may_pass():
            self.gone_since = None
            return False
        if self.gone_since is None:
            self.gone_since = now
            return False
        if now - self.gone_since < lobby.handover_seconds:
            return False
        return await room.change(Change.STRUCTURE, lambda: self._pass_on(host))

    async def _moderator_presence(self) -> bool:
        """Whether the moderator's phone is gone for the delay, as the pages are to say it; False if unchanged."""
        gone = moderator_presence.moderator_gone(self.room)
        if gone == self.moderator_gone:
            return False
        self.moderator_gone = gone
        return True

    async def _pass_on(self, host: str) -> bool:
        """Under the room's lock: the host role to the first candidate (``candidates``), if the host ``host`` is
        still gone and someone is there to take it; False if it did not pass."""
        room, lobby = self.room, self.room.lobby
        if lobby.host_hash != host or room.is_connected(host) or not self.may_pass():
            return False
        candidates = self.candidates()
        if not candidates:
            return False  # nobody else is there: the count goes on until someone comes
        old, new = lobby.host_seat, candidates[0]
        moderator = lobby.moderated and room.stage is Stage.PLAYING
        await lobby.make_host(new.id)
        if lobby.moderated and room.stage is not Stage.PLAYING:
            await lobby.set_moderated(False)  # the new host plays until he chooses to moderate
        self.gone_since = None
        if moderator:
            room.notices.add(NEW_MODERATOR, new=new.name)
        else:
            room.notices.add(NEW_HOST, name=old.name if old else "?", new=new.name)
        return True

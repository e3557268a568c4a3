"""Moving a seat to another phone or browser, with a one-time code.

A seat is its token: the browser keeps it, the server its SHA-256 (``webgame.browser.identity``). A person whose phone
died, or who opened the link in another browser, gets his seat on the new one with a code: asked for from his own
phone (behind its reveal) or, when that phone is dead, by the host, who hands it to the person in front of him.
Typed (or scanned) on the new phone, the code gives that browser a new token and the seat's hash becomes the new
token's: the seat, with everything the game knows of it (role, private results, the pick it still has to make,
which the engine keeps by seat), is the new phone's; the old phone's token opens nothing any more, so it only
watches, at once. The host role follows the seat.

The rules that keep it from being a way to steal a seat (a seat is its owner's: issue 26):
- a seat is never taken by its name: only with a code, asked for by the seat's owner or the host;
- the host's code, once roles are dealt (the game and its results), only for a seat whose phone has had no
  connected page for the room's hand-over delay (``Lobby.handover_seconds``, the lobby setting the host watch
  uses): a phone at the table moves only from itself, so no host (by hand-over too) nor a moderator's stand-in
  reads a connected player's role by moving his seat to a browser of his own. Checked when the code is asked for
  and again when it is typed: a phone that came back meanwhile voids the code, and so does a host role that
  passed to someone else. In the lobby, before any role is dealt, the host's code is free (nothing is secret);
- a code is ``MOVE_CODE_LENGTH`` letters of ``tokens.CODE_ALPHABET`` (40 bits), works once, for
  ``MOVE_CODE_SECONDS``; a new code for the same seat voids the one before; a wrong one counts against the
  browser's and the address's wrong-code attempts (``ratelimit.WRONG_CODES``, counted by the page), so guessing
  is hopeless;
- every move is told to the whole room and the TV with who asked for it (``webgame.room.notices``): "3. Sevara
  was moved to another phone by the host, Aziz"; the old phone, back, is told that its seat moved and by whom
  (``moved_away``, in memory: a restart forgets it), not silently turned into a spectator.

The move itself is written to the database (the seat's token hash, the room's host), so it survives a restart.
Pending codes live in memory only: a restart voids them, and the player asks for a new one.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.expressions import F

from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room import notices as room_notices
from webgame.room.host_watch import Table
from webgame.room.notices import Notice
from webgame.room.seating import SeatInfo
from webgame.room.subscribers import Change
from webgame.room.table_game import Stage
from webgame.store import leases, queries as store, tokens
from webgame.store.models import Room as RoomModel, Seat

MOVE_CODE_LENGTH = 8
MOVE_CODE_SECONDS = 300
MOVED_AWAY_KEPT = 200  # old phones remembered per room (what each is told when it comes back)
Offer = Callable[..., Awaitable[str]]  # (token hash, seat id or None) -> a new code
Take = Callable[[str, str], Awaitable[tuple[SeatInfo, str]]]  # (code, new token) -> the seat, its old token hash
WRONG_CODE = N_("This code is wrong, used or expired. Ask for a new one.")
# The host asks for a code for someone's seat while that phone is at the table (the game or its results):
PHONE_HERE = N_("{name}'s phone is connected: only that phone can move its seat (behind its Show button).")
PHONE_JUST_LEFT = N_("{name}'s phone left {gone} s ago: the host can give a code for it once it has been gone "
                     "for {delay} s.")
# ... and the code is typed after that phone came back, or after the host role passed on:
PHONE_CAME_BACK = N_("{name}'s phone came back, so this code no longer works.")
HOST_CHANGED = N_("The one who asked for this code is not the host any more: ask the host for a new code.")


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A code that moves seat ``seat_id`` to the browser that types it, until ``expires`` (epoch seconds).
    ``host_seat_id``: the host's seat when the host asked for it for someone else's (None: the owner asked);
    ``asked``: when."""

    seat_id: int
    expires: float
    host_seat_id: int | None = None
    asked: float = 0.0


def new_move_code() -> str:
    return "".join(secrets.choice(tokens.CODE_ALPHABET) for _ in range(MOVE_CODE_LENGTH))


def normalize(code: Any) -> str:
    """What people type (spaces, dashes, any case) to the stored form."""
    return "".join(ch for ch in str(code or "")[:40] if ch.isalnum()).upper()


async def save_move(room_id: int, seat_id: int, token_hash: str, *, host: bool) -> None:
    """The seat's token hash becomes ``token_hash`` (the old token opens nothing any more); ``host``: the seat holds
    the room's host role, which follows it. One transaction, fenced by the room's lease in a cluster."""
    async with leases.fenced(room_id, transaction=True) as connection:
        try:
            updated = await Seat.filter(id=seat_id, room_id=room_id).using_db(connection).update(token_hash=token_hash)
        except IntegrityError as error:
            raise store.SeatTokenTaken(room_id) from error
        if not updated:
            raise store.RoomNotFound(room_id)
        changes: dict[str, Any] = {"version": F("version") + 1}
        if host:
            changes["host_token_hash"] = token_hash
        await RoomModel.filter(id=room_id).using_db(connection).update(**changes)


class SeatMoves:
    """One room's pending move codes (code -> seat, in memory), the move itself, and what each old phone is told."""

    def __init__(self, room: Table) -> None:
        self.room = room
        self.codes: dict[str, PendingMove] = {}
        self.moved_away: dict[str, Notice] = {}  # an old token hash -> what its phone is told (its seat moved)

    def _prune(self) -> None:
        now = self.room.now()
        self.codes = {code: move for code, move in self.codes.items() if move.expires > now}

    def live_code(self, seat_id: int) -> str | None:
        """The code that moves this seat now, if one was asked for and is still good."""
        self._prune()
        return next((code for code, move in self.codes.items() if move.seat_id == seat_id), None)

    def away_notice(self, token_hash: str | None) -> Notice | None:
        """What the old phone of a moved seat is told (its seat was moved, and by whom); None for any other."""
        return self.moved_away.get(token_hash) if token_hash is not None else None

    def _seat(self, seat_id: int) -> SeatInfo | None:
        return next((seat for seat in self.room.lobby.seats if seat.id == seat_id), None)

    def _host_may_offer(self, seat: SeatInfo) -> None:
        """The host may ask for a code for someone else's seat: in the lobby, or once its phone has been gone for
        the hand-over delay; otherwise refused with the reason."""
        room = self.room
        if room.stage is Stage.LOBBY:
            return
        gone, delay = room.audience.gone_for(seat.token_hash), room.lobby.handover_seconds
        if room.audience.is_connected(seat.token_hash):
            raise Refusal(PHONE_HERE, name=seat.name)
        if gone < delay:
            raise Refusal(PHONE_JUST_LEFT, name=seat.name, gone=int(gone), delay=delay)

    def _host_code_holds(self, seat: SeatInfo, move: PendingMove) -> None:
        """When the host's code is typed: he is still the host, and (once roles are dealt) the seat's phone has not
        come back since he asked (nor was it at the table when he asked in the lobby)."""
        room, audience = self.room, self.room.audience
        host = room.lobby.host_seat
        if host is None or host.id != move.host_seat_id:
            raise Refusal(HOST_CHANGED)
        if room.stage is Stage.LOBBY:
            return
        back = audience.is_connected(seat.token_hash) or audience.left_at.get(seat.token_hash, -1.0) >= move.asked
        if back or audience.gone_for(seat.token_hash) < room.lobby.handover_seconds:
            raise Refusal(PHONE_CAME_BACK, name=seat.name)

    async def offer_move(self, token_hash: str | None, seat_id: int | None = None) -> str:
        """A new code for this token's own seat (``seat_id`` None or his own), or, for the host, for seat ``seat_id``
        (``_host_may_offer``). Nothing a page shows changes: the code is shown only to whoever asked for it."""
        return await self.room.change(None, lambda: self._offer(token_hash, seat_id))

    async def _offer(self, token_hash: str | None, seat_id: int | None) -> str:
        room = self.room
        own = room.lobby.seat_by_hash(token_hash)
        by_host: int | None = None
        if seat_id is None or (own is not None and own.id == seat_id):
            seat = own
            if seat is None:
                raise Refusal(N_("You have no seat in this room."))
        else:
            room.lobby.require_host(token_hash)
            if own is None:  # (the host role is a seat's: never so)
                raise Refusal(N_("You have no seat in this room."))
            seat = self._seat(seat_id)
            if seat is None:
                raise Refusal(N_("That seat is no longer at the table."))
            if not seat.is_bot:
                self._host_may_offer(seat)
            by_host = own.id
        if seat.is_bot:
            raise Refusal(N_("A bot has no phone to move."))
        await leases.confirm(room.id)  # a cluster: no code from a process that lost the room (webgame.store.leases)
        self._prune()
        self.codes = {code: move for code, move in self.codes.items() if move.seat_id != seat.id}
        code, now = new_move_code(), room.now()
        self.codes[code] = PendingMove(seat.id, now + MOVE_CODE_SECONDS, by_host, now)
        return code

    async def take_seat(self, code: str, token: str) -> tuple[SeatInfo, str]:
        """The browser holding ``token`` (a new one) takes the seat ``code`` moves; the seat and its old token's
        hash. A wrong, used or expired code is refused (``WRONG_CODE``) and changes nothing; a host's code whose
        seat's phone came back (or whose host is no longer the host) is refused with why, and voided."""
        return await self.room.change(Change.STRUCTURE, lambda: self._take(normalize(code), store.hash_token(token)))

    async def _take(self, key: str, new_hash: str) -> tuple[SeatInfo, str]:
        room, lobby = self.room, self.room.lobby
        self._prune()
        move = self.codes.get(key) if len(key) == MOVE_CODE_LENGTH else None
        if move is None:
            raise Refusal(WRONG_CODE)
        if lobby.seat_by_hash(new_hash) is not None or room.game.game_seat(new_hash):
            raise Refusal(N_("This phone already has a seat in this room."))
        del self.codes[key]  # once, whatever happens next
        seat = self._seat(move.seat_id)
        if seat is None:
            raise Refusal(N_("That seat is no longer at the table."))
        host_name = lobby.host_seat.name if lobby.host_seat is not None else "?"
        if move.host_seat_id is not None:
            self._host_code_holds(seat, move)
        old_hash, host = seat.token_hash, lobby.host_hash == seat.token_hash
        await save_move(room.id, seat.id, new_hash, host=host)
        for held in (*lobby.seats, *room.game.seating):  # after a restart the game's seating has its own copies
            if held.id == seat.id:
                held.token_hash = new_hash
        if host:
            lobby.host_hash = new_hash
        self._tell(seat, new_hash, old_hash, host_name if move.host_seat_id is not None else None)
        return seat, old_hash

    def _tell(self, seat: SeatInfo, new_hash: str, old_hash: str, host: str | None) -> None:
        """Every phone and the TV: the seat moved, and who asked for it; the old phone, when it looks: its seat."""
        room = self.room
        number = room.game.game_seat(new_hash) if room.stage is not Stage.LOBBY else 0
        if host is None:
            public = room_notices.MOVED_BY_OWNER if number else room_notices.MOVED_BY_OWNER_IN_LOBBY
            room.notices.add(public, number=number, name=seat.name)
            away = Notice(room_notices.AWAY_BY_OWNER, {"name": seat.name})
        else:
            public = room_notices.MOVED_BY_HOST if number else room_notices.MOVED_BY_HOST_IN_LOBBY
            room.notices.add(public, number=number, name=seat.name, host=host)
            away = Notice(room_notices.AWAY_BY_HOST, {"name": seat.name, "host": host})
        self.moved_away.pop(new_hash, None)
        self.moved_away[old_hash] = away
        while len(self.moved_away) > MOVED_AWAY_KEPT:
            del self.moved_away[next(iter(self.moved_away))]

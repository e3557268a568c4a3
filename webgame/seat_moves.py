"""Moving a seat to another phone or browser, with a one-time code.

A seat is its token: the browser keeps it, the server its SHA-256 (``webgame.identity``). A person whose phone
died, or who opened the link in another browser, gets his seat on the new one with a code: asked for from his own
phone (behind its reveal) or, when that phone is dead, by the host, who hands it to the person in front of him.
Typed (or scanned) on the new phone, the code gives that browser a new token and the seat's hash becomes the new
token's: the seat, with everything the game knows of it (role, private results, the pick it still has to make,
which the engine keeps by seat), is the new phone's; the old phone's token opens nothing any more, so it only
watches, at once. The host role follows the seat.

The rules that keep it from being a way to steal a seat:
- a seat is never taken by its name: only with a code, asked for by the seat's owner or the host;
- a code is ``MOVE_CODE_LENGTH`` letters of ``tokens.CODE_ALPHABET`` (40 bits), works once, for
  ``MOVE_CODE_SECONDS``; a new code for the same seat voids the one before; a wrong one counts against the
  browser's and the address's wrong-code attempts (``ratelimit.WRONG_CODES``, counted by the page), so guessing
  is hopeless;
- every move is told to the whole room and the TV (``webgame.room_notices``): "3. Sevara moved to another phone".

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

from webgame import leases, store, tokens
from webgame.errors import Refusal
from webgame.host_watch import Table
from webgame.i18n import N_
from webgame.models import Room as RoomModel
from webgame.models import Seat
from webgame.room_notices import MOVED, MOVED_IN_LOBBY
from webgame.seating import SeatInfo
from webgame.table_game import Stage

MOVE_CODE_LENGTH = 8
MOVE_CODE_SECONDS = 300
Offer = Callable[..., Awaitable[str]]  # (token hash, seat id or None) -> a new code
Take = Callable[[str, str], Awaitable[tuple[SeatInfo, str]]]  # (code, new token) -> the seat, its old token hash
WRONG_CODE = N_("This code is wrong, used or expired. Ask for a new one.")


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A code that moves seat ``seat_id`` to the browser that types it, until ``expires`` (epoch seconds)."""

    seat_id: int
    expires: float


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
    """One room's pending move codes (code -> seat, in memory) and the move itself."""

    def __init__(self, room: Table) -> None:
        self.room = room
        self.codes: dict[str, PendingMove] = {}

    def _prune(self) -> None:
        now = self.room.now()
        self.codes = {code: move for code, move in self.codes.items() if move.expires > now}

    def live_code(self, seat_id: int) -> str | None:
        """The code that moves this seat now, if one was asked for and is still good."""
        self._prune()
        return next((code for code, move in self.codes.items() if move.seat_id == seat_id), None)

    def _seat(self, seat_id: int) -> SeatInfo | None:
        return next((seat for seat in self.room.lobby.seats if seat.id == seat_id), None)

    async def offer_move(self, token_hash: str | None, seat_id: int | None = None) -> str:
        """A new code for this token's own seat (``seat_id`` None), or, for the host, for seat ``seat_id``."""
        room = self.room
        async with room.lock:
            if seat_id is None:
                seat = room.lobby.seat_by_hash(token_hash)
                if seat is None:
                    raise Refusal(N_("You have no seat in this room."))
            else:
                room.lobby.require_host(token_hash)
                seat = self._seat(seat_id)
                if seat is None:
                    raise Refusal(N_("That seat is no longer at the table."))
            if seat.is_bot:
                raise Refusal(N_("A bot has no phone to move."))
            self._prune()
            self.codes = {code: move for code, move in self.codes.items() if move.seat_id != seat.id}
            code = new_move_code()
            self.codes[code] = PendingMove(seat.id, room.now() + MOVE_CODE_SECONDS)
        return code

    async def take_seat(self, code: str, token: str) -> tuple[SeatInfo, str]:
        """The browser holding ``token`` (a new one) takes the seat ``code`` moves; the seat and its old token's
        hash. A wrong, used or expired code is refused (``WRONG_CODE``) and changes nothing."""
        room, lobby = self.room, self.room.lobby
        key, new_hash = normalize(code), store.hash_token(token)
        async with room.lock:
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
            old_hash, host = seat.token_hash, lobby.host_hash == seat.token_hash
            await save_move(room.id, seat.id, new_hash, host=host)
            for held in (*lobby.seats, *room.game.seating):  # after a restart the game's seating has its own copies
                if held.id == seat.id:
                    held.token_hash = new_hash
            if host:
                lobby.host_hash = new_hash
            number = room.game.game_seat(new_hash) if room.stage is not Stage.LOBBY else 0
            if number:
                room.notices.add(MOVED, number=number, name=seat.name)
            else:
                room.notices.add(MOVED_IN_LOBBY, name=seat.name)
        room.notify("structure")
        return seat, old_hash

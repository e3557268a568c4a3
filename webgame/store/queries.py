"""The room layer's persistence: small async functions over the ORM, returning plain records.

Nothing here knows about NiceGUI or the rules. Records are frozen dataclasses, so callers never hold a
live ORM object (no lazy loading, no accidental save). The database must be open (see ``webgame.store.db``).

The action log is the source of truth for a game: ``append_action`` accepts index ``n`` only when the
game already has exactly ``n`` actions (0-based, no gaps, no duplicates), as one compare-and-set on
``Game.step`` plus an insert in one transaction, so replaying ``load_actions`` rebuilds the game exactly. In a
cluster every write of a room checks its lease in its transaction (``leases.fenced``; the actions: ``lease=``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from tortoise import timezone
from tortoise.exceptions import IntegrityError
from tortoise.expressions import F
from tortoise.transactions import in_transaction

from webgame.store import leases, sqlite_log
from webgame.store.models import ActionRecord, ChatMessage, Game, Room, RoomStatus, Seat
from webgame.store.records import (
    ActionIndexConflict,
    ChatRecord,
    GameNotFound,
    GameRecord,
    RoomCodeTaken,
    RoomNotFound,
    RoomRecord,
    SeatRecord,
    SeatTokenTaken,
    StoreError,
    chat_record,
    game_record,
    room_record,
    seat_record,
)
from webgame.store.tokens import (
    hash_token,
    new_room_code,
    new_seat_token,
    normalize_code,
)

__all__ = [
    "ActionIndexConflict",
    "ChatRecord",
    "GameNotFound",
    "GameRecord",
    "RoomCodeTaken",
    "RoomNotFound",
    "RoomRecord",
    "RoomStatus",
    "SeatRecord",
    "SeatTokenTaken",
    "StoreError",
    "add_seat",
    "append_action",
    "append_chat",
    "create_room",
    "finish_game",
    "get_game",
    "get_room",
    "get_room_by_code",
    "get_seat_by_token",
    "hash_token",
    "latest_game",
    "leave_seat",
    "list_active_rooms",
    "list_chat",
    "list_seats",
    "load_actions",
    "new_room_code",
    "new_seat_token",
    "normalize_code",
    "set_deadline",
    "set_room_status",
    "set_seat_positions",
    "start_game",
    "update_room",
]

_CODE_ATTEMPTS = 20


# ---------------------------------------------------------------- rooms


async def create_room(
    *,
    rules: str,
    language: str = "en",
    options: Mapping[str, Any] | None = None,
    timers: Mapping[str, Any] | None = None,
    moderated: bool = False,
    code: str | None = None,
) -> RoomRecord:
    """Create a room in the lobby with a fresh unique code (or ``code``: raises RoomCodeTaken if used)."""
    attempts = 1 if code is not None else _CODE_ATTEMPTS
    for _ in range(attempts):
        candidate = normalize_code(code) if code is not None else new_room_code()
        try:
            room = await Room.create(
                code=candidate,
                rules=rules,
                language=language,
                options=dict(options or {}),
                timers=dict(timers or {}),
                moderated=moderated,
            )
        except IntegrityError:
            continue
        return room_record(room)
    raise RoomCodeTaken(code if code is not None else f"no free code after {attempts} attempts")


async def get_room(room_id: int) -> RoomRecord:
    room = await Room.get_or_none(id=room_id)
    if room is None:
        raise RoomNotFound(room_id)
    return room_record(room)


async def get_room_by_code(code: str) -> RoomRecord | None:
    room = await Room.get_or_none(code=normalize_code(code))
    return room_record(room) if room is not None else None


async def set_room_status(room_id: int, status: RoomStatus) -> None:
    async with leases.fenced(room_id) as connection:
        updated = await Room.filter(id=room_id).using_db(connection).update(status=status, version=F("version") + 1)
    if not updated:
        raise RoomNotFound(room_id)


_KEEP: Any = object()


async def update_room(
    room_id: int,
    *,
    rules: str | None = None,
    options: Mapping[str, Any] | None = None,
    timers: Mapping[str, Any] | None = None,
    moderated: bool | None = None,
    host_token_hash: str | None = None,
    min_players: int | None = _KEEP,
    max_players: int | None = _KEEP,
    handover_seconds: int | None = None,
    moderator_takeover: bool | None = None,
) -> RoomRecord:
    """Change the lobby's settings (only the arguments given; ``min_players=None`` clears the limit)."""
    changes: dict[str, Any] = {"version": F("version") + 1}
    if rules is not None:
        changes["rules"] = rules
    if options is not None:
        changes["options"] = dict(options)
    if timers is not None:
        changes["timers"] = dict(timers)
    if moderated is not None:
        changes["moderated"] = moderated
    if host_token_hash is not None:
        changes["host_token_hash"] = host_token_hash
    if min_players is not _KEEP:
        changes["min_players"] = min_players
    if max_players is not _KEEP:
        changes["max_players"] = max_players
    if handover_seconds is not None:
        changes["handover_seconds"] = handover_seconds
    if moderator_takeover is not None:
        changes["moderator_takeover"] = moderator_takeover
    async with leases.fenced(room_id) as connection:
        if not await Room.filter(id=room_id).using_db(connection).update(**changes):
            raise RoomNotFound(room_id)
    return await get_room(room_id)


async def list_active_rooms() -> list[RoomRecord]:
    """Rooms in the lobby or playing, oldest first: what to bring back after a restart."""
    rooms = await Room.filter(status__in=[RoomStatus.LOBBY, RoomStatus.PLAYING]).order_by("id")
    return [room_record(room) for room in rooms]


# ---------------------------------------------------------------- seats


async def add_seat(
    room_id: int,
    *,
    token: str,
    name: str,
    position: int | None = None,
    is_moderator: bool = False,
    is_host: bool = False,
    is_bot: bool = False,
    bot_level: str = "simple",
) -> SeatRecord:
    """Seat a person. ``position`` defaults to one after the last seat still at the table."""
    token_hash = hash_token(token)
    async with leases.fenced(room_id, transaction=True) as connection:
        if not await Room.filter(id=room_id).using_db(connection).exists():
            raise RoomNotFound(room_id)
        if position is None:
            last = await Seat.filter(room_id=room_id, left=False).using_db(connection).order_by("-position").first()
            position = last.position + 1 if last is not None else 0
        try:
            seat = await Seat.create(
                room_id=room_id,
                token_hash=token_hash,
                name=name,
                position=position,
                is_moderator=is_moderator,
                is_bot=is_bot,
                bot_level=bot_level,
                using_db=connection,
            )
        except IntegrityError as error:
            raise SeatTokenTaken(room_id) from error
        changes: dict[str, Any] = {"version": F("version") + 1}
        if is_host:
            changes["host_token_hash"] = token_hash
        await Room.filter(id=room_id).using_db(connection).update(**changes)
    return seat_record(seat)


async def get_seat_by_token(token: str) -> SeatRecord | None:
    seat = await Seat.get_or_none(token_hash=hash_token(token))
    return seat_record(seat) if seat is not None else None


async def list_seats(room_id: int, *, include_left: bool = False) -> list[SeatRecord]:
    query = Seat.filter(room_id=room_id)
    if not include_left:
        query = query.filter(left=False)
    return [seat_record(seat) for seat in await query.order_by("position", "id")]


async def leave_seat(seat_id: int) -> None:
    """Mark a seat as left (or removed by the host). The row stays: finished games still name it."""
    async with in_transaction() as connection:
        seat = await Seat.get_or_none(id=seat_id, using_db=connection)
        if seat is None:
            return
        await leases.check_room(connection, seat.room_id)
        await Seat.filter(id=seat_id).using_db(connection).update(left=True)
        await Room.filter(id=seat.room_id).using_db(connection).update(version=F("version") + 1)


async def set_seat_positions(room_id: int, positions: Mapping[int, int]) -> None:
    """Reorder the table: seat id -> new 0-based position, for seats of this room."""
    async with leases.fenced(room_id, transaction=True) as connection:
        for seat_id, position in positions.items():
            await Seat.filter(id=seat_id, room_id=room_id).using_db(connection).update(position=position)
        await Room.filter(id=room_id).using_db(connection).update(version=F("version") + 1)


# ---------------------------------------------------------------- games


async def start_game(
    room_id: int,
    *,
    rules: str,
    seed: int,
    seating: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None = None,
    deadline_at: float | None = None,
) -> GameRecord:
    """Record a new game (numbered after the room's last one, its first step's deadline ``deadline_at``) and put
    the room in ``playing``."""
    async with leases.fenced(room_id, transaction=True) as connection:
        if not await Room.filter(id=room_id).using_db(connection).exists():
            raise RoomNotFound(room_id)
        last = await Game.filter(room_id=room_id).using_db(connection).order_by("-number").first()
        game = await Game.create(
            room_id=room_id,
            number=last.number + 1 if last is not None else 1,
            rules=rules,
            options=dict(options or {}),
            seed=seed,
            seating=[dict(entry) for entry in seating],
            deadline_at=deadline_at,
            using_db=connection,
        )
        await Room.filter(id=room_id).using_db(connection).update(status=RoomStatus.PLAYING, version=F("version") + 1)
    return game_record(game)


async def get_game(game_id: int) -> GameRecord:
    game = await Game.get_or_none(id=game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game_record(game)


async def latest_game(room_id: int) -> GameRecord | None:
    """The room's most recent game, finished or not."""
    game = await Game.filter(room_id=room_id).order_by("-number").first()
    return game_record(game) if game is not None else None


async def append_action(game_id: int, index: int, payload: Mapping[str, Any], *, lease: leases.Fence | None = None
                        ) -> None:
    """Append one accepted action at ``index`` (0-based). Raises ActionIndexConflict unless ``index`` is exactly
    the number of actions already stored (``LeaseLost`` unless the room's lease is still ``lease``, in a cluster:
    ``webgame.store.leases``); then nothing is written."""
    sqlite = sqlite_log.client() if lease is None else None
    if sqlite is not None:  # one step on the loop's thread, or one trip to the database thread (sqlite_log)
        try:
            result = await sqlite_log.append(sqlite, game_id, index, payload)
        except sqlite3.IntegrityError as error:  # only if someone wrote the log without going through here
            raise ActionIndexConflict(game_id, index, index + 1) from error
        if result == sqlite_log.WRITTEN:
            return
        if result == sqlite_log.MISSING:
            raise GameNotFound(game_id)
        if result is not None:
            raise ActionIndexConflict(game_id, index, result)
    async with in_transaction() as connection:
        if lease is not None:
            await leases.check(connection, game_id, lease)
        # Compare-and-set: on PostgreSQL a concurrent writer waits on the row and then matches nothing.
        claimed = await Game.filter(id=game_id, step=index).using_db(connection).update(step=index + 1)
        if not claimed:
            game = await Game.get_or_none(id=game_id, using_db=connection)
            if game is None:
                raise GameNotFound(game_id)
            raise ActionIndexConflict(game_id, index, game.step)
        try:
            await ActionRecord.create(game_id=game_id, index=index, payload=dict(payload), using_db=connection)
        except IntegrityError as error:  # only if someone wrote the log without going through here
            raise ActionIndexConflict(game_id, index, index + 1) from error


async def load_actions(game_id: int) -> list[dict[str, Any]]:
    """The game's action payloads in log order (list position == action index)."""
    records = await ActionRecord.filter(game_id=game_id).order_by("index")
    return [record.payload for record in records]


async def set_deadline(game_id: int, *, deadline_at: float | None, paused_remaining: float | None = None,
                       night_left: float | None = None) -> None:
    """Save the running phase's clock: an epoch deadline, or (paused) the seconds that were left; ``night_left``:
    how much of it follows the day's result's hold (``webgame.room.result_hold``)."""
    sqlite = sqlite_log.client() if not leases.ACTIVE else None
    if sqlite is not None:  # one statement, on the loop's thread or in one trip (webgame.store.sqlite_log)
        found = await sqlite_log.set_clock(sqlite, game_id, deadline_at, paused_remaining, night_left)
        if found is not None:
            if not found:
                raise GameNotFound(game_id)
            return
    room_id = await _room_of(game_id) if leases.ACTIVE else 0  # (the fence's room: a cluster only)
    async with leases.fenced(room_id) as connection:
        updated = await Game.filter(id=game_id).using_db(connection).update(
            deadline_at=deadline_at, paused_remaining=paused_remaining, night_left=night_left)
    if not updated:
        raise GameNotFound(game_id)


async def _room_of(game_id: int) -> int:
    """The room of a game (a game never changes rooms); 0 when there is no such game."""
    found: list[Any] = await Game.filter(id=game_id).limit(1).values_list("room_id", flat=True)
    return int(found[0]) if found else 0


async def finish_game(game_id: int, *, winner: str | None, room_status: RoomStatus = RoomStatus.FINISHED) -> GameRecord:
    """Close a game (``winner`` None: abandoned) and set the room's status (``LOBBY`` to play again)."""
    async with in_transaction() as connection:
        game = await Game.get_or_none(id=game_id, using_db=connection)
        if game is None:
            raise GameNotFound(game_id)
        await leases.check_room(connection, game.room_id)
        game.finished_at = timezone.now()
        game.winner = winner
        game.deadline_at = None
        game.paused_remaining = None
        await game.save(using_db=connection, update_fields=["finished_at", "winner", "deadline_at", "paused_remaining"])
        await Room.filter(id=game.room_id).using_db(connection).update(status=room_status, version=F("version") + 1)
    return game_record(game)


# ---------------------------------------------------------------- chat


async def append_chat(
    room_id: int, *, channel: str, seat_position: int, text: str, game_id: int | None = None
) -> ChatRecord:
    async with leases.fenced(room_id) as connection:
        message = await ChatMessage.create(room_id=room_id, game_id=game_id, channel=channel,
                                           seat_position=seat_position, text=text, using_db=connection)
    return chat_record(message)


async def list_chat(
    room_id: int, *, channel: str | None = None, game_id: int | None = None, limit: int = 200
) -> list[ChatRecord]:
    """The last ``limit`` messages of a room (optionally one channel, one game), oldest first."""
    query = ChatMessage.filter(room_id=room_id)
    if channel is not None:
        query = query.filter(channel=channel)
    if game_id is not None:
        query = query.filter(game_id=game_id)
    newest_first = await query.order_by("-id").limit(limit)
    return [chat_record(message) for message in reversed(newest_first)]

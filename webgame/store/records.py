"""The room layer's records and storage errors: frozen copies of the ORM's rows, so that no caller ever holds a
live ORM object (no lazy loading, no accidental save). ``webgame.store.queries`` makes them and re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from webgame.store.models import ChatMessage, Game, Room, RoomStatus, Seat

# ---------------------------------------------------------------- errors


class StoreError(Exception):
    """Base of the errors ``webgame.store.queries`` raises on purpose."""


class RoomNotFound(StoreError, LookupError):
    """No room has this id."""


class GameNotFound(StoreError, LookupError):
    """No game has this id."""


class RoomCodeTaken(StoreError):
    """The room code asked for is in use (or no free code was drawn)."""


class SeatTokenTaken(StoreError):
    """This seat token already has a seat in the room."""


class ActionIndexConflict(StoreError):
    """The index is already in the log (a duplicate) or would leave a gap; nothing was written."""

    def __init__(self, game_id: int, index: int, expected: int) -> None:
        super().__init__(f"game {game_id}: action index {index} refused, the next index is {expected}")
        self.game_id = game_id
        self.index = index
        self.expected = expected


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomRecord:
    """A room: its code, lobby settings, status and host."""

    id: int
    code: str
    created_at: datetime
    rules: str
    options: dict[str, Any]
    timers: dict[str, Any]
    language: str
    status: RoomStatus
    host_token_hash: str | None
    moderated: bool
    version: int
    min_players: int | None = None
    max_players: int | None = None
    handover_seconds: int = 30
    moderator_takeover: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRecord:
    """A seat at a room's table (its token only as a SHA-256)."""

    id: int
    room_id: int
    token_hash: str
    name: str
    position: int
    is_moderator: bool
    joined_at: datetime
    left: bool
    is_bot: bool = False
    bot_level: str = "simple"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """A game of a room: what replays it (rules, options, seed, seating) and its clock and result."""

    id: int
    room_id: int
    number: int
    rules: str
    options: dict[str, Any]
    seed: int
    seating: list[dict[str, Any]]
    started_at: datetime
    finished_at: datetime | None
    winner: str | None
    deadline_at: float | None
    paused_remaining: float | None
    night_left: float | None  # the part of the clock after the day's result's hold (webgame.room.result_hold)
    step: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatRecord:
    """A chat message as it was saved."""

    id: int
    room_id: int
    game_id: int | None
    channel: str
    seat_position: int
    text: str
    created_at: datetime


def room_record(room: Room) -> RoomRecord:
    return RoomRecord(
        id=room.id,
        code=room.code,
        created_at=room.created_at,
        rules=room.rules,
        options=dict(room.options),
        timers=dict(room.timers),
        language=room.language,
        status=RoomStatus(room.status),
        host_token_hash=room.host_token_hash,
        moderated=room.moderated,
        version=room.version,
        min_players=room.min_players,
        max_players=room.max_players,
        handover_seconds=room.handover_seconds,
        moderator_takeover=room.moderator_takeover,
    )


def seat_record(seat: Seat) -> SeatRecord:
    return SeatRecord(
        id=seat.id,
        room_id=seat.room_id,
        token_hash=seat.token_hash,
        name=seat.name,
        position=seat.position,
        is_moderator=seat.is_moderator,
        joined_at=seat.joined_at,
        left=seat.left,
        is_bot=seat.is_bot,
        bot_level=seat.bot_level,
    )


def game_record(game: Game) -> GameRecord:
    return GameRecord(
        id=game.id,
        room_id=game.room_id,
        number=game.number,
        rules=game.rules,
        options=dict(game.options),
        seed=game.seed,
        seating=list(game.seating),
        started_at=game.started_at,
        finished_at=game.finished_at,
        winner=game.winner,
        deadline_at=game.deadline_at,
        paused_remaining=game.paused_remaining,
        night_left=game.night_left,
        step=game.step,
    )


def chat_record(message: ChatMessage) -> ChatRecord:
    return ChatRecord(
        id=message.id,
        room_id=message.room_id,
        game_id=message.game_id,
        channel=message.channel,
        seat_position=message.seat_position,
        text=message.text,
        created_at=message.created_at,
    )

"""Tortoise ORM models: what a room and its games leave on disk.

The live game lives in memory (the engine's state); the database keeps enough to rebuild it after a
restart: the room, its seats, each game's seed and seating, and the ordered log of accepted actions.
Replaying the log through the engine gives the same state again.

Seat tokens are bearer secrets kept in the players' browsers. Only their SHA-256 is stored here.
Changing a model means a new migration: `tortoise makemigrations` (see docs/DATABASE.md).
Field descriptions become SQL comments: keep ';' out of them (Tortoise's migration runner splits on it).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model


class RoomStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class Room(Model):
    id = fields.IntField(primary_key=True)
    code = fields.CharField(max_length=12, unique=True, description="Short code people type or scan to join")
    created_at = fields.DatetimeField(auto_now_add=True)
    rules = fields.CharField(max_length=8, description="Rule set id: 'uz' or 'uk'")
    options: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)
    timers: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict, description="Phase name -> seconds")
    language = fields.CharField(max_length=16, default="en")
    status = fields.CharEnumField(RoomStatus, max_length=16, default=RoomStatus.LOBBY)
    host_token_hash = fields.CharField(max_length=64, null=True, description="SHA-256 of the host seat's token")
    moderated = fields.BooleanField(default=False, description="A human moderator runs the table")
    version = fields.IntField(default=0, description="Bumped on every change to the room or its seats")
    min_players = fields.IntField(
        null=True, description="Fewest players the host allows (null: the rule set's minimum)"
    )
    max_players = fields.IntField(null=True, description="Most players the host allows (null: the rule set's maximum)")
    handover_seconds = fields.IntField(
        default=30, description="Seconds the host's phone may be gone before the host role passes on"
    )
    moderator_takeover = fields.BooleanField(
        default=False, description="A player may take a gone moderator's controls mid-game"
    )

    seats: fields.ReverseRelation[Seat]
    games: fields.ReverseRelation[Game]
    chat_messages: fields.ReverseRelation[ChatMessage]

    class Meta:
        table = "room"
        indexes = (("status",),)


class Seat(Model):
    id = fields.IntField(primary_key=True)
    room: fields.ForeignKeyRelation[Room] = fields.ForeignKeyField(
        "models.Room", related_name="seats", on_delete=fields.CASCADE
    )
    room_id: int
    token_hash = fields.CharField(max_length=64, unique=True, description="SHA-256 hex of the seat token")
    name = fields.CharField(max_length=64)
    position = fields.IntField(description="Place at the table, 0-based")
    is_moderator = fields.BooleanField(default=False)
    joined_at = fields.DatetimeField(auto_now_add=True)
    left = fields.BooleanField(default=False, description="Left or removed, kept so old games still name it")
    is_bot = fields.BooleanField(default=False, description="A bot the server plays (its token is never given out)")
    bot_level = fields.CharField(max_length=8, default="simple", description="A bot's level: simple or strong")

    class Meta:
        table = "seat"
        indexes = (("room_id", "position"),)


class Game(Model):
    id = fields.IntField(primary_key=True)
    room: fields.ForeignKeyRelation[Room] = fields.ForeignKeyField(
        "models.Room", related_name="games", on_delete=fields.CASCADE
    )
    room_id: int
    number = fields.IntField(description="1 for the room's first game, then 2, ...")
    rules = fields.CharField(max_length=8)
    options: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)
    seed = fields.BigIntField(description="Seed of the engine's RNG, 0 <= seed < 2**63")
    seating: fields.JSONField[list[dict[str, Any]]] = fields.JSONField(
        description="[{'seat_id': int, 'name': str}, ...] in seat order"
    )
    started_at = fields.DatetimeField(auto_now_add=True)
    finished_at = fields.DatetimeField(null=True)
    winner = fields.CharField(max_length=32, null=True)
    deadline_at = fields.FloatField(null=True, description="Epoch seconds when the running phase ends")
    paused_remaining = fields.FloatField(null=True, description="Seconds left while the clock is paused")
    night_left = fields.FloatField(
        null=True, description="Seconds of the running phase's clock after the day's result held on the screens"
    )
    step = fields.IntField(default=0, description="Number of actions recorded in the log")

    actions: fields.ReverseRelation[ActionRecord]
    chat_messages: fields.ReverseRelation[ChatMessage]

    class Meta:
        table = "game"
        unique_together = (("room", "number"),)


class ActionRecord(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="actions", on_delete=fields.CASCADE
    )
    game_id: int
    index = fields.IntField(description="0-based position in the game's action log")
    payload: fields.JSONField[dict[str, Any]] = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "action_record"
        unique_together = (("game", "index"),)


class ChatMessage(Model):
    id = fields.IntField(primary_key=True)
    room: fields.ForeignKeyRelation[Room] = fields.ForeignKeyField(
        "models.Room", related_name="chat_messages", on_delete=fields.CASCADE
    )
    room_id: int
    game: fields.ForeignKeyNullableRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="chat_messages", null=True, on_delete=fields.CASCADE
    )
    game_id: int | None
    channel = fields.CharField(max_length=32, description="e.g. 'lobby', 'day', 'mafia', 'dead'")
    seat_position = fields.IntField()
    text = fields.TextField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "chat_message"
        indexes = (("room_id", "channel"),)


# Which process runs a room now (a cluster of game processes on PostgreSQL: ``webgame.store.leases``). ``epoch`` goes
# up at every change of owner: an action is written only by the owner of the epoch it holds, so a process that
# was slow or cut off while another took the room over can no longer write. (No class docstring: Tortoise would
# make it the table's comment, and the migration would have to carry it.)
class RoomLease(Model):

    room_id = fields.IntField(primary_key=True, generated=False, description="The room (room.id)")
    owner = fields.CharField(max_length=96, null=True, description="The process holding the room, null when free")
    epoch = fields.IntField(default=0, description="Bumped at every change of owner")
    expires_at = fields.FloatField(default=0.0, description="Database epoch seconds when the lease lapses")
    wanted_by = fields.CharField(max_length=96, null=True, description="A process the proxy now sends the room to")

    class Meta:
        table = "room_lease"


# A rate limit's token bucket shared by the processes of a cluster (``webgame.cluster.shared_limits``).
class RateBucket(Model):

    id = fields.IntField(primary_key=True)
    limiter = fields.CharField(max_length=32, description="Which limit (ratelimit.Limiter.name)")
    key = fields.CharField(max_length=128, description="Whose: an address or browser key")
    tokens = fields.FloatField(description="Attempts left as of at")
    at = fields.FloatField(description="Database epoch seconds of the last change")

    class Meta:
        table = "rate_bucket"
        unique_together = (("limiter", "key"),)


# A browser's ``app.storage.user`` (its seat tokens, its language) when the game runs as a cluster on PostgreSQL
# (``webgame.framework.browser_storage``): the processes, on any machine, read and write it here instead of NiceGUI's
# files.
# ``version`` goes up at every write: a process writes only over the version it read, else it merges its changes.
class BrowserStorage(Model):

    id = fields.CharField(max_length=64, primary_key=True, description="NiceGUI's storage id (the session's id)")
    data: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict, description="The browser's storage")
    version = fields.BigIntField(default=0, description="Bumped at every write")
    updated_at = fields.FloatField(default=0.0, description="Database epoch seconds of the last write")

    class Meta:
        table = "browser_storage"


# A room's evening (issue 30, ``webgame.evening.standings``): its standings count the room's finished games from game
# number
# ``first_game`` on. No row: from the room's first game. The host's "new evening" moves it past the last game.
class Evening(Model):

    room_id = fields.IntField(primary_key=True, generated=False, description="The room (room.id)")
    first_game = fields.IntField(default=1, description="The first game number the evening counts")
    started_at = fields.FloatField(default=0.0, description="Epoch seconds when the host started it")

    class Meta:
        table = "evening"

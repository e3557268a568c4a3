"""What the evening's standings read and write (issue 30, ``webgame.evening.standings``): where the room's evening
begins, and
its finished games. The games themselves are the store's (``Game`` and its action log): a restart or a failover
loses none, and the standings are their replay. The evening's start is written inside the room's fence
(``leases.fenced``), as every write of a room.
"""

from __future__ import annotations

import time

from webgame.store import leases
from webgame.store.models import Evening, Game
from webgame.store.records import GameRecord, game_record


async def first_game(room_id: int) -> int:
    """The first game number the room's evening counts (1: the room's first game)."""
    row = await Evening.get_or_none(room_id=room_id)
    return row.first_game if row is not None else 1


async def start_evening(room_id: int) -> int:
    """A new evening: it counts the games after the room's last one. Returns its first game number."""
    last = await Game.filter(room_id=room_id).order_by("-number").first()
    first = (last.number + 1) if last is not None else 1
    async with leases.fenced(room_id) as connection:
        updated = await Evening.filter(room_id=room_id).using_db(connection).update(
            first_game=first, started_at=time.time())
        if not updated:
            await Evening.create(room_id=room_id, first_game=first, started_at=time.time(), using_db=connection)
    return first


async def finished_games(room_id: int, since: int) -> list[GameRecord]:
    """The room's finished games from number ``since`` on, in the order they were played."""
    rows = await Game.filter(room_id=room_id, number__gte=since, finished_at__isnull=False).order_by("number")
    return [game_record(row) for row in rows]


async def game_by_number(room_id: int, number: int) -> GameRecord | None:
    row = await Game.get_or_none(room_id=room_id, number=number)
    return game_record(row) if row is not None else None

"""Room leases: which process of a cluster runs a room, kept in the database (``room_lease``).

A process runs a room only while it holds the room's lease: a row (owner, epoch, expires_at) it renews every
``RENEW_SECONDS``; a lease not renewed for ``TTL_SECONDS`` may be taken by another process, which bumps the
epoch. Time is the database's clock, so processes on machines whose clocks differ still agree.

A lease alone does not stop a process that was frozen (SIGSTOP, a long pause, a cut cable) from writing once it
wakes up, before it has seen that its lease is gone. So every write of a room is *fenced*: an action
(``store.append_action``), a join, a setting, a chat line, a seat moved or removed, the host role, the clock
(pause, extension, a new deadline), a new or finished game. Each is written only when the lease row still names
this process and the epoch it took the room with, checked in the write's own transaction (``fenced``,
``check_room``, ``check``: one query, ``_check``), with the row share-locked on PostgreSQL, so a takeover
(which updates that row) waits for a write in flight, and the new owner, which reads the room after its
takeover, sees it. A write of a process that lost the room is refused (``LeaseLost``) and changes nothing: two
processes never both run one room.

Off (``HELD`` unused) in a single process, where SQLite's one writer needs no lease.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from webgame.store.records import StoreError

TTL_SECONDS = 5.0
RENEW_SECONDS = 1.0
RENEW_BATCH = 500  # rooms renewed by one statement


class LeaseLost(StoreError):
    """This process no longer holds the room's lease: the write was refused, nothing changed."""


@dataclass(frozen=True, slots=True)
class Fence:
    """What a write of a room must still find in its lease row."""

    owner: str
    epoch: int


HELD: dict[int, Fence] = {}
"""The rooms this process holds (room id -> its lease), while clustering is on (``webgame.cluster.process`` keeps
it)."""
ACTIVE = False
"""A cluster (``webgame.cluster.process``): a room's writes need its lease; off in a single process."""
NOT_HELD = Fence("", -1)  # matches no lease row: the write of a room this process does not hold is refused


class Claims(Protocol):
    """How a process of a cluster takes a room (by its code) before it loads it (``webgame.cluster.process``)."""

    async def claim(self, code: str) -> bool: ...


DROPPED: set[int] = set()
"""Rooms this process ran and gave up or lost (until it takes them again)."""
VALID_UNTIL = 0.0
"""Monotonic time until which this process's leases are surely still its own (its last renewal, or claim, plus
a lease's life less a margin): past it, another process may have taken them (``webgame.cluster.process`` keeps it)."""
MARGIN_SECONDS = 1.0


def extend_validity(since: float, ttl: float = TTL_SECONDS) -> None:
    """The leases were renewed (or taken) by a statement sent at monotonic time ``since``."""
    global VALID_UNTIL
    VALID_UNTIL = max(VALID_UNTIL, since + ttl - MARGIN_SECONDS)


def fence(room_id: int | None) -> Fence | None:
    """What a write of this room must find in its lease row (None: no cluster, nothing to check). A lease this
    process may have lost already (not renewed for a lease's life) matches no row: refused without asking."""
    if not ACTIVE or room_id is None:
        return None
    if time.monotonic() > VALID_UNTIL:
        return NOT_HELD
    return HELD.get(room_id, NOT_HELD)


def room_fence(room_id: int) -> Fence | None:
    """What a write of this room (other than an action) must find in its lease row, decided in the process: None
    when nothing is to be checked (no cluster; or a room this process never ran: the start page creates rooms,
    and seats their hosts, that another process will run); ``LeaseLost`` at once for a room this process has
    dropped, or may have lost (asleep past its lease: a process woken up from a freeze refuses everything until
    its next renewal has told it what is still its own)."""
    if not ACTIVE:
        return None
    if room_id in DROPPED:
        raise LeaseLost(f"room {room_id}: this process gave it up")
    lease = HELD.get(room_id)
    if lease is not None and time.monotonic() > VALID_UNTIL:
        raise LeaseLost(f"room {room_id}: this process may have lost its lease")
    return lease


class RoomMoving(LookupError):
    """The room exists, but another process holds it and did not hand it over in time (a failover or a
    hand-over under way): not a wrong code; the page asks the browser to try again shortly."""


class RoomElsewhere(LookupError):
    """A code typed with a look-alike (``0`` for ``D``, ...) stands for room ``code``, whose requests the proxy
    sends by that spelling: its page is there (a redirect), never claimed here (``webgame.room.lookup``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _client(connection: BaseDBAsyncClient | None = None) -> BaseDBAsyncClient:
    return connection or connections.get("default")


def _postgres(client: BaseDBAsyncClient) -> bool:
    return client.capabilities.dialect == "postgres"


def _sql(client: BaseDBAsyncClient, sql: str) -> str:
    """``?`` placeholders as the driver wants them ($1, $2, ... for asyncpg), and the database's clock."""
    if _postgres(client):
        now = "EXTRACT(EPOCH FROM clock_timestamp())::float8"
        parts = sql.replace("NOW()", now).split("?")
        return parts[0] + "".join(f"${number}{part}" for number, part in enumerate(parts[1:], 1))
    return sql.replace("NOW()", "((julianday('now') - 2440587.5) * 86400.0)")


async def _query(sql: str, values: list[Any], connection: BaseDBAsyncClient | None = None) -> list[dict[str, Any]]:
    client = _client(connection)
    return [dict(row) for row in await client.execute_query_dict(_sql(client, sql), values)]


def slot(owner: str) -> str | None:
    """``p1:`` of the owner ``p1:4242:9f3a``: the process's name in the proxy's configuration, which a restart
    keeps (None for an owner without one)."""
    name, colon, _ = owner.partition(":")
    return name + colon if colon and name else None


async def acquire(room_id: int, owner: str, ttl: float = TTL_SECONDS) -> Fence | None:
    """Take the room if its lease is free or has lapsed (the epoch goes up), or extend it if it is ours already
    (the same epoch: a renewal running at the same moment must not see it as lost); None while another holds
    it. An owner is one incarnation of a process: a restarted process is a new owner and gets a new epoch.

    A lease held by an earlier incarnation of the same process name is taken at once, without waiting for it
    to lapse: the proxy sends that name's rooms to the one process started under it, so its predecessor is dead
    (a restart), or, if only frozen, fenced out by the new epoch like any process that lost its lease. After a
    restart the phones' pages no longer wait the lease's 5 s."""
    same_slot, values = "", [room_id, owner, ttl]
    prefix = slot(owner)
    if prefix is not None:
        same_slot = " OR substr(room_lease.owner, 1, ?) = ?"
        values += [len(prefix), prefix]
    rows = await _query(
        "INSERT INTO room_lease (room_id, owner, epoch, expires_at, wanted_by) VALUES (?, ?, 1, NOW() + ?, NULL) "
        "ON CONFLICT (room_id) DO UPDATE SET owner = excluded.owner, "
        "epoch = CASE WHEN room_lease.owner = excluded.owner THEN room_lease.epoch ELSE room_lease.epoch + 1 END, "
        "expires_at = excluded.expires_at, wanted_by = NULL "
        "WHERE room_lease.owner IS NULL OR room_lease.expires_at < NOW() OR room_lease.owner = excluded.owner"
        f"{same_slot} RETURNING epoch", values)
    if not rows:
        return None
    return Fence(owner, int(rows[0]["epoch"]))


async def want(room_id: int, owner: str) -> None:
    """Ask the holder to hand the room over (the proxy now sends its requests to ``owner``)."""
    await _query("UPDATE room_lease SET wanted_by = ? WHERE room_id = ? AND owner IS NOT NULL AND owner <> ?",
                 [owner, room_id, owner])


async def renew(held: dict[int, Fence], ttl: float = TTL_SECONDS) -> tuple[set[int], set[int]]:
    """Extend every lease still ours, a few hundred rooms per statement: (rooms lost, rooms another process
    asks for). A room is lost when its row no longer names this owner with the epoch it holds."""
    lost: set[int] = set()
    wanted: set[int] = set()
    by_owner: dict[str, list[int]] = {}
    for room_id, lease in held.items():
        by_owner.setdefault(lease.owner, []).append(room_id)
    for owner, room_ids in by_owner.items():
        for start in range(0, len(room_ids), RENEW_BATCH):
            batch = room_ids[start:start + RENEW_BATCH]
            marks = ", ".join("?" for _ in batch)
            rows = await _query("UPDATE room_lease SET expires_at = NOW() + ? "
                                f"WHERE owner = ? AND room_id IN ({marks}) RETURNING room_id, epoch, wanted_by",
                                [ttl, owner, *batch])
            kept = {int(row["room_id"]): row for row in rows}
            for room_id in batch:
                row = kept.get(room_id)
                if row is None or int(row["epoch"]) != held[room_id].epoch:
                    lost.add(room_id)
                elif row["wanted_by"]:
                    wanted.add(room_id)
    return lost, wanted


async def release(room_id: int, lease: Fence) -> None:
    """Give the room up (its next owner need not wait for the lease to lapse)."""
    HELD.pop(room_id, None)
    await _query("UPDATE room_lease SET owner = NULL, expires_at = 0, wanted_by = NULL "
                 "WHERE room_id = ? AND owner = ? AND epoch = ?", [room_id, lease.owner, lease.epoch])


async def check(connection: BaseDBAsyncClient, game_id: int, lease: Fence) -> None:
    """Inside an action's transaction: raise ``LeaseLost`` unless the game's room is still held by ``lease``."""
    await _check(connection, lease, game_id=game_id)


async def check_room(connection: BaseDBAsyncClient, room_id: int) -> None:
    """Inside the transaction of any other write of room ``room_id``: raise ``LeaseLost`` unless this process
    still holds it (``room_fence``: nothing to check without a cluster or for a room never run here)."""
    lease = room_fence(room_id)
    if lease is not None:
        await _check(connection, lease, room_id=room_id)


async def _check(connection: BaseDBAsyncClient, lease: Fence, *, room_id: int | None = None,
                 game_id: int | None = None) -> None:
    """The fence itself, one query: the lease row (of the room, or of the game's room) names ``lease``.

    On PostgreSQL the lease row is share-locked until the transaction ends: a takeover waits for this write."""
    lock = " FOR SHARE OF room_lease" if _postgres(connection) else ""
    if room_id is not None:
        source, key = "room_lease", room_id
        where = "room_lease.room_id = ?"
    else:
        assert game_id is not None
        source, key = "room_lease JOIN game ON game.room_id = room_lease.room_id", game_id
        where = "game.id = ?"
    rows = await _query(f"SELECT room_lease.epoch FROM {source} "
                        f"WHERE {where} AND room_lease.owner = ? AND room_lease.epoch = ?{lock}",
                        [key, lease.owner, lease.epoch], connection)
    if not rows:
        raise LeaseLost(f"room {room_id} / game {game_id}: the lease is no longer {lease.owner} epoch {lease.epoch}")


async def confirm(room_id: int) -> None:
    """A change of a room kept in memory only (a seat's move code): ``LeaseLost`` unless this process still holds
    the room, asked of the database (a process woken up after a takeover hands out no code the room's new
    process would not know). Nothing to check without a cluster."""
    if room_fence(room_id) is not None:
        async with in_transaction() as connection:
            await check_room(connection, room_id)


@asynccontextmanager
async def fenced(room_id: int, *, transaction: bool = False) -> AsyncIterator[BaseDBAsyncClient | None]:
    """A write of room ``room_id`` (what a store function does inside): in a cluster, in a transaction that
    first checks the room's lease (``check_room``). Without a cluster, the write runs as it always did: in a
    transaction only if it needs one (``transaction``), else on the pool (None), with no statement added."""
    if not ACTIVE and not transaction:
        yield None
        return
    async with in_transaction() as connection:
        await check_room(connection, room_id)
        yield connection


async def owners(room_ids: Iterable[int]) -> dict[int, str | None]:
    """Who holds these rooms now (the tests and the bench look)."""
    ids = list(room_ids)
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = await _query(f"SELECT room_id, owner, expires_at > NOW() AS live FROM room_lease WHERE room_id IN ({marks})",
                        ids)
    return {int(row["room_id"]): (row["owner"] if row["live"] else None) for row in rows}

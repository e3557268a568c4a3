"""Every write of a room is fenced by its lease, in the write's own transaction (``webgame.store.leases.fenced``).

The process here still believes it holds the room (its renewal has not run yet: it was frozen between its
last look and its write, or woke up just now) while another process has taken the room over in PostgreSQL.
Whatever its players or its clock try (a join, a setting, a chat line, the clock's buttons, a seat moved, the
host role handed over, a new game), the write is refused, the player is told, and neither the database nor the
room in memory changes."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tortoise import connections

from webgame.cluster.process import Cluster
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.rooms import Room
from webgame.room.table_game import Stage
from webgame.store import leases, queries as store
from webgame.store.leases import LeaseLost

PLAYERS = 5


async def _running_room(started: bool) -> tuple[Room, list[str], Cluster]:
    """A room of 5 run by process "a" (created by the start page, then claimed), its game started or not."""
    leases.ACTIVE = True
    registry = rooms.registry
    cluster = Cluster(registry, "a")
    registry.claims = cluster
    tokens = [store.new_seat_token() for _ in range(PLAYERS)]
    created = await registry.create(token=tokens[0], name="Host", rules="uz", language="en")  # never run here
    room = await registry.find(created.code)
    assert room is not None and room.id in leases.HELD
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"P{index}")
    hashes = [store.hash_token(token) for token in tokens]
    if started:
        await room.start(hashes[0])
    return room, hashes, cluster


async def _taken_over(room: Room) -> None:
    """Process "b" takes the room (the lease lapsed while "a" was frozen); "a" has not renewed since, so it
    still thinks the room is its own (its lease looks valid in memory)."""
    await connections.get("default").execute_query("UPDATE room_lease SET expires_at = 0 WHERE room_id = $1",
                                                   [room.id])
    assert await leases.acquire(room.id, "b") is not None
    leases.VALID_UNTIL = time.monotonic() + 600
    assert leases.room_fence(room.id) == leases.HELD[room.id]  # the local check lets it through: the database must not


async def _database(room_id: int) -> dict[str, Any]:
    """Everything PostgreSQL holds of the room (its row, seats, games, chat), to compare before and after."""
    client = connections.get("default")
    tables = {"room": "SELECT * FROM room WHERE id = $1",
              "seats": "SELECT * FROM seat WHERE room_id = $1 ORDER BY id",
              "games": "SELECT * FROM game WHERE room_id = $1 ORDER BY id",
              "actions": "SELECT a.* FROM action_record a JOIN game g ON g.id = a.game_id WHERE g.room_id = $1 "
                         "ORDER BY a.id",
              "chat": "SELECT * FROM chat_message WHERE room_id = $1 ORDER BY id"}
    return {name: [dict(row) for row in await client.execute_query_dict(sql, [room_id])]
            for name, sql in tables.items()}


def _memory(room: Room) -> tuple[Any, ...]:
    return (room.rules, dict(room.options), dict(room.timers), room.min_players, room.max_players, room.host_hash,
            [(seat.id, seat.token_hash, seat.position) for seat in room.seats], room.handover_seconds,
            room.stage, room.deadline, room.paused_remaining, len(room.chat), room.version())


SAID = {"Something went wrong; please try again.", "The message could not be saved. Please try again."}


async def _refused(room: Room, what: str, request: Any) -> None:
    """The request is refused for the lease (not for a reason of its own: that would prove nothing), and nothing
    changed anywhere."""
    before, memory = await _database(room.id), _memory(room)
    with pytest.raises((LeaseLost, Refusal)) as refused:
        await request()
    assert isinstance(refused.value, LeaseLost) or refused.value.msgid in SAID, f"{what}: {refused.value!r}"
    assert await _database(room.id) == before, f"{what}: written although the room is another process's"
    assert _memory(room) == memory, f"{what}: the room changed in memory"


async def test_a_process_whose_lease_was_taken_writes_nothing_in_the_lobby(pg: str) -> None:
    room, hashes, _cluster = await _running_room(started=False)
    host = hashes[0]
    move_code = await room.offer_move(hashes[2])  # asked for before the takeover (codes live in memory)
    await _taken_over(room)

    await _refused(room, "a join", lambda: room.join(store.new_seat_token(), "Late"))
    await _refused(room, "an option", lambda: room.set_option(host, "reveal_roles_on_death", False))
    await _refused(room, "the player limits", lambda: room.set_player_limits(host, 5, 6))
    await _refused(room, "the rule set", lambda: room.set_rules(host, "uk"))
    await _refused(room, "a seat moved along the table", lambda: room.move_seat(host, room.seats[1].id, 1))
    await _refused(room, "a seat removed", lambda: room.remove_seat(host, room.seats[3].id))
    await _refused(room, "a bot", lambda: room.add_bot(host))
    await _refused(room, "the host role handed over", lambda: room.make_host(host, room.seats[1].id))
    await _refused(room, "the hand-over delay", lambda: room.set_handover(host, 60))
    await _refused(room, "a seat moved to another phone", lambda: room.take_seat(move_code, store.new_seat_token()))
    await _refused(room, "a new game", lambda: room.start(host))
    assert room.stage is Stage.LOBBY


async def test_a_process_whose_lease_was_taken_writes_nothing_in_the_game(pg: str) -> None:
    room, hashes, _cluster = await _running_room(started=True)
    host = hashes[0]
    assert room.stage is Stage.PLAYING and room.deadline is not None
    await _taken_over(room)

    await _refused(room, "pause", lambda: room.pause(host))
    await _refused(room, "extend", lambda: room.extend(host))
    await _refused(room, "end the step now", lambda: room.skip(host, room.state.step if room.state else 0))
    writer = next(seat for seat in hashes if room.game.write_channels(room.viewer(seat)))  # the mafia, at night
    channel = room.game.write_channels(room.viewer(writer))[0]
    await _refused(room, "a chat line", lambda: room.say(writer, channel, "from the past"))

    for seat_hash in hashes[1:]:  # the host's phone gone, the others there: the clock would pass his role on
        room.client_connected(seat_hash)
    before, memory = await _database(room.id), _memory(room)
    assert not await room.host_watch.tick(1.0) and room.host_watch.gone_since == 1.0
    with pytest.raises(LeaseLost):
        await room.host_watch.tick(1.0 + room.handover_seconds + 1)
    assert await _database(room.id) == before and _memory(room) == memory, "the host role passed on"


async def test_a_process_whose_lease_was_taken_hands_out_no_move_code_and_keeps_its_bots(pg: str) -> None:
    """The writes that the other tests leave out: a seat's move code (kept in memory only, so asked of the
    database: the code would be for a room this process no longer runs) and a bot taken off the table."""
    room, hashes, _cluster = await _running_room(started=False)
    await room.add_bot(hashes[0])
    await _taken_over(room)
    codes = dict(room.moves.codes)
    await _refused(room, "a move code for one's own seat", lambda: room.offer_move(hashes[2]))
    assert room.moves.codes == codes, "a code was handed out"
    await _refused(room, "a bot removed", lambda: room.remove_bot(hashes[0]))


async def test_a_paused_clock_resumed_by_a_process_whose_lease_was_taken_stays_paused(pg: str) -> None:
    room, hashes, _cluster = await _running_room(started=True)
    await room.pause(hashes[0])  # still its own: saved
    assert room.paused
    await _taken_over(room)
    await _refused(room, "resume", lambda: room.resume(hashes[0]))
    assert room.paused


async def test_the_start_page_still_writes_rooms_no_process_runs_yet(pg: str) -> None:
    """The exception: a room this process never ran (the start page creates it and seats its host, for the
    process the proxy sends its code to) is written without a lease, even in a cluster."""
    leases.ACTIVE = True
    registry = rooms.registry
    registry.claims = Cluster(registry, "a")
    created = await registry.create(token=store.new_seat_token(), name="Host", rules="uz", language="en")
    assert created.id not in leases.HELD and registry.get(created.code) is None
    assert len(await store.list_seats(created.id)) == 1
    assert (await store.get_room(created.id)).min_players is not None


async def test_a_process_that_dropped_a_room_refuses_its_writes_before_asking_the_database(pg: str) -> None:
    room, hashes, cluster = await _running_room(started=False)
    await _taken_over(room)
    await cluster.renew()  # its renewal finds the lease gone: the room is dropped
    assert room.id in leases.DROPPED and registry_empty(room)
    with pytest.raises(LeaseLost):
        leases.room_fence(room.id)
    await _refused(room, "a join after the drop", lambda: room.join(store.new_seat_token(), "Late"))


def registry_empty(room: Room) -> bool:
    return rooms.registry.get(room.code) is None

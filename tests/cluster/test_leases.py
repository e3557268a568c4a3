"""Room leases on PostgreSQL: one owner at a time, a lapsed lease taken over, a stale owner's action refused,
a hand-over when the proxy sends a room elsewhere (``webgame.store.leases``, ``webgame.cluster.process``)."""

from __future__ import annotations

import asyncio
import time

import pytest
from tortoise.transactions import in_transaction

from engine.actions import NightAct
from webgame.cluster.process import Cluster
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.store import leases, queries as store
from webgame.store.leases import Fence, LeaseLost

SHORT = 0.6  # seconds: a lease that lapses within the test


async def _game(players: int = 3) -> tuple[store.RoomRecord, store.GameRecord]:
    room = await store.create_room(rules="uz")
    seats = [await store.add_seat(room.id, token=store.new_seat_token(), name=f"P{i}") for i in range(players)]
    seating = [{"seat_id": seat.id, "name": seat.name} for seat in seats]
    return room, await store.start_game(room.id, rules="uz", seed=7, seating=seating)


async def test_one_owner_at_a_time_and_a_lapsed_lease_is_taken_over(pg: str) -> None:
    room, game = await _game()
    first = await leases.acquire(room.id, "a", ttl=SHORT)
    assert first == Fence("a", 1)
    assert await leases.acquire(room.id, "a", ttl=SHORT) == first  # ours already: the same epoch
    assert await leases.acquire(room.id, "b", ttl=SHORT) is None  # held: b waits
    await store.append_action(game.id, 0, {"n": 0}, lease=first)

    await asyncio.sleep(SHORT + 0.2)  # a was frozen: no renewal
    second = await leases.acquire(room.id, "b", ttl=5)
    assert second == Fence("b", 2)

    lost, wanted = await leases.renew({room.id: first})  # a wakes up
    assert (lost, wanted) == ({room.id}, set())
    with pytest.raises(LeaseLost):
        await store.append_action(game.id, 1, {"n": "a's, too late"}, lease=first)
    await store.append_action(game.id, 1, {"n": "b's"}, lease=second)
    assert await store.load_actions(game.id) == [{"n": 0}, {"n": "b's"}]


async def test_a_restarted_process_takes_its_predecessors_rooms_at_once_and_fences_it_out(pg: str) -> None:
    """The proxy sends p1's rooms to whatever runs as p1: after a restart the new p1 need not wait for the old
    p1's leases to lapse; the old one, were it only frozen, can write nothing once the epoch moved on. Another
    process's lease is still waited for."""
    room, game = await _game()
    old = await leases.acquire(room.id, "p1:100:aaaa", ttl=60)
    assert old == Fence("p1:100:aaaa", 1)
    assert await leases.acquire(room.id, "p2:200:bbbb", ttl=60) is None  # another process: waits
    assert await leases.acquire(room.id, "p10:300:cccc", ttl=60) is None  # "p10" is not "p1"
    new = await leases.acquire(room.id, "p1:400:dddd", ttl=60)  # p1 restarted: at once, a new epoch
    assert new == Fence("p1:400:dddd", 2)
    with pytest.raises(LeaseLost):
        await store.append_action(game.id, 0, {"n": "the old p1's"}, lease=old)
    await store.append_action(game.id, 0, {"n": "the new p1's"}, lease=new)
    assert (await leases.renew({room.id: old}))[0] == {room.id}  # the old one, awake, finds the room lost
    assert await store.load_actions(game.id) == [{"n": "the new p1's"}]
    assert leases.slot("p1:400:dddd") == "p1:" and leases.slot("a") is None


async def test_a_takeover_waits_for_a_write_in_flight(pg: str) -> None:
    """The old owner's write that checked its lease before the takeover is in the log the new owner reads."""
    room, game = await _game()
    old = await leases.acquire(room.id, "a", ttl=SHORT)
    assert old is not None
    await asyncio.sleep(SHORT + 0.1)
    order: list[str] = []

    async def slow_write() -> None:
        async with in_transaction() as connection:
            await leases.check(connection, game.id, old)  # the lease row share-locked from here
            order.append("checked")
            await asyncio.sleep(0.5)
            await connection.execute_query("UPDATE game SET step = 1 WHERE id = $1", [game.id])
            order.append("written")  # the commit follows; the takeover still waits for it

    async def takeover() -> None:
        while "checked" not in order:
            await asyncio.sleep(0.01)
        assert await leases.acquire(room.id, "b") is not None
        order.append("taken")

    await asyncio.gather(slow_write(), takeover())
    assert order == ["checked", "written", "taken"]
    assert (await store.get_game(game.id)).step == 1


async def test_a_room_asked_for_is_handed_over(pg: str) -> None:
    room, _game_record = await _game()
    held = await leases.acquire(room.id, "a")
    assert held is not None
    assert await leases.acquire(room.id, "b") is None
    await leases.want(room.id, "b")
    lost, wanted = await leases.renew({room.id: held})
    assert (lost, wanted) == (set(), {room.id})
    await leases.release(room.id, held)
    assert await leases.acquire(room.id, "b") == Fence("b", 2)  # at once: no waiting for a lapse
    assert await leases.owners([room.id]) == {room.id: "b"}


async def test_a_process_that_lost_its_room_stops_acting_and_drops_it(pg: str) -> None:
    """A process frozen past its lease: its player's tap is refused (the game as it was), and at its next
    renewal the room leaves its registry; the new owner plays on from the log."""
    leases.ACTIVE = True
    registry = rooms.registry
    cluster = Cluster(registry, "a")
    registry.claims = cluster
    tokens = [store.new_seat_token() for _ in range(5)]
    creator = await registry.create(token=tokens[0], name="Host", rules="uz", language="en")
    assert registry.get(creator.code) is None  # created, not run: the process the proxy sends it to loads it
    room = await registry.find(creator.code)
    assert room is not None and registry.get(room.code) is room
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"P{index}")
    hashes = [store.hash_token(token) for token in tokens]
    await room.start(hashes[0])
    await room.act(hashes[0], NightAct(1, "pass"))

    held = leases.HELD[room.id]
    await store.set_deadline(room.game_id or 0, deadline_at=time.time() + 600)
    await connection_expire(room.id)  # the lease lapses (as if the process had been frozen)
    other = await leases.acquire(room.id, "b")
    assert other is not None and other.epoch == held.epoch + 1

    before = room.state.step if room.state else None
    with pytest.raises(Refusal):
        await room.act(hashes[1], NightAct(2, "pass"))
    assert room.state is not None and room.state.step == before and len(room.state.log) == 1
    assert len(await store.load_actions(room.game_id or 0)) == 1

    await cluster.renew()
    assert registry.get(room.code) is None and room.id not in leases.HELD
    with pytest.raises(LeaseLost):  # a join or a chat line still on its way is refused too
        await store.append_chat(room.id, channel="day", seat_position=1, text="late")


async def test_a_process_asleep_past_its_lease_writes_nothing_before_it_has_looked(pg: str) -> None:
    """Woken up after a freeze longer than its lease, a process refuses its rooms' writes at once, before its
    next renewal has told it whether they are still its own."""
    leases.ACTIVE = True
    room, game = await _game()
    cluster = Cluster(rooms.registry, "a")
    assert await cluster.claim(room.code)
    lease = leases.HELD[room.id]
    await store.append_action(game.id, 0, {"n": 0}, lease=leases.fence(room.id))
    leases.VALID_UNTIL = time.monotonic() - 0.1  # as if its renewals had stopped a lease's life ago
    assert leases.fence(room.id) is leases.NOT_HELD
    with pytest.raises(LeaseLost):
        await store.append_chat(room.id, channel="day", seat_position=1, text="from the past")
    await cluster.renew()  # nobody took it meanwhile: still ours, valid again
    assert leases.fence(room.id) == lease
    await store.append_chat(room.id, channel="day", seat_position=1, text="now")


async def connection_expire(room_id: int) -> None:
    from tortoise import connections

    await connections.get("default").execute_query("UPDATE room_lease SET expires_at = 0 WHERE room_id = $1",
                                                   [room_id])

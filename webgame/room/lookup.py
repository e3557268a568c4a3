"""A room page's room, found by the code in its URL: in one process, or in a process of a cluster, which may
have to claim the room first (``webgame.cluster.process``; docs/SCALING.md, "Ownership").

In a cluster a process claims a room only for a request that the proxy sent it by that room's own code: the
room's pages (``/r/CODE``, ``/r/CODE/screen``, whose route is their path) and a socket that came through the
room's own prefix (``webgame.framework.page_adoption`` checks it). A code typed with a look-alike (``/r/0BCDE`` for
``DBCDE``) was hashed by the proxy under its typed spelling, to another process: it is looked up without a
claim and answered with a redirect to the room's own spelling (``leases.RoomElsewhere``). A page never waits
for a claim longer than ``LOOKUP_SECONDS``: past that it answers "this room is moving" (a light page that tries
again by itself) while the claim goes on, so that no page build ends in the framework's "500" page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Protocol, TypeVar

from webgame.store import leases, queries as store, room_codes

RoomT = TypeVar("RoomT")
RoomT_co = TypeVar("RoomT_co", covariant=True)


class Rooms(Protocol[RoomT_co]):
    """What a lookup needs of a process's rooms (``webgame.room.rooms.Registry``; named here by its shape, so that
    the registry's module, which looks its rooms up through this one, is not imported back)."""

    @property
    def rooms(self) -> Mapping[str, RoomT_co]: ...

    @property
    def claims(self) -> leases.Claims | None: ...

    async def load(self, code: str) -> RoomT_co | None: ...


LOOKUP_SECONDS = 4.0
"""How long a page waits for its room in a cluster (a claim waits up to a lease's life for a dead owner's lease
to lapse); then the page is the light "moving" page, which comes back 2 s later. Well within the page routes'
``response_timeout`` and nginx's page timeout (12 s)."""


async def find(registry: Rooms[RoomT], code: str) -> RoomT | None:
    """The room of this typed code (its exact spelling, else its one look-alike reading), claimed first in a
    cluster; ``RoomMoving`` while another process holds it, ``RoomElsewhere`` for a look-alike in a cluster."""
    if registry.claims is None:
        return await room_codes.lookup(code, registry.load)
    typed = store.normalize_code(code)

    async def known(reading: str) -> str | None:  # the database's word, no claim
        if reading in registry.rooms:
            return reading
        return reading if len(reading) <= 12 and await store.get_room_by_code(reading) is not None else None

    exact = await room_codes.lookup(typed, known)
    if exact is None:
        return None
    if exact != typed:
        raise leases.RoomElsewhere(exact)
    return await registry.load(exact)


async def find_within(registry: Rooms[RoomT], code: str, seconds: float = LOOKUP_SECONDS) -> RoomT | None:
    """``find``, but in a cluster at most ``seconds``: then ``RoomMoving``. The claim goes on without the page
    (``Cluster.claim`` is shielded): the page's next try finds the room held, and rebuilds it at once."""
    if registry.claims is None:
        return await find(registry, code)
    try:
        async with asyncio.timeout(seconds):
            return await find(registry, code)
    except TimeoutError:
        raise leases.RoomMoving(code) from None

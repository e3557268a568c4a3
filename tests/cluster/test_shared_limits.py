"""Rate limits across the processes of a cluster (``webgame.cluster.shared_limits``), two processes played by two
limiters of the same name on one PostgreSQL database."""

from __future__ import annotations

import pytest

from webgame.cluster import shared_limits
from webgame.guard import ratelimit
from webgame.guard.ratelimit import Limiter

ADDRESS = "203.0.113.7"


async def test_a_client_spread_over_two_processes_gets_one_limit(pg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "SHARED", True)
    here, there = Limiter("wrong code", burst=5, per_minute=1), Limiter("wrong code", burst=5, per_minute=1)
    for _ in range(3):  # 3 + 3 attempts: each process alone would allow 5
        assert here.spend(ADDRESS) and there.spend(ADDRESS)

    await shared_limits.push(here)
    await shared_limits.push(there)
    assert there.blocked(ADDRESS)  # it counted the other's three with its own
    assert not here.blocked(ADDRESS)  # not yet: it has not read the others' since
    await shared_limits.pull({"wrong code": here}, 0.0)
    assert here.blocked(ADDRESS) and not here.spend(ADDRESS)
    assert here.wait_seconds(ADDRESS) > 60  # a whole attempt in the red: more than a minute at one a minute


async def test_other_clients_and_other_limits_are_untouched(pg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "SHARED", True)
    here, there = Limiter("create", burst=2, per_minute=1), Limiter("create", burst=2, per_minute=1)
    joins = Limiter("join", burst=2, per_minute=1)
    assert there.spend(ADDRESS) and there.spend(ADDRESS)
    await shared_limits.push(there)
    await shared_limits.pull({"create": here, "join": joins}, 0.0)
    assert here.blocked(ADDRESS)
    assert not here.blocked("198.51.100.1") and not joins.blocked(ADDRESS)

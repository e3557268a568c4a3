"""Rate limits across the processes of a cluster: the token buckets of ``webgame.guard.ratelimit``, kept in PostgreSQL
too.

Every process keeps deciding from its own buckets in memory (a page handler never waits for the database), and
every ``SYNC_SECONDS`` it adds the attempts it counted since to the shared buckets (``rate_bucket``: one
statement per limit, the refill computed by PostgreSQL on its own clock) and takes the result as its own; then
it reads the buckets the other processes changed meanwhile and keeps, for each key, the lower of the two. So a
client who spreads his attempts over N processes is held to the one limit, give or take what a second lets
through on each process. Buckets untouched for an hour are deleted.
"""

from __future__ import annotations

import asyncio
import logging

from tortoise import connections

from webgame.guard import ratelimit
from webgame.guard.ratelimit import Bucket, Limiter

log = logging.getLogger(__name__)

SYNC_SECONDS = 1.0
FORGET_SECONDS = 3600.0
_NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"


async def push(limiter: Limiter) -> None:
    """Add this process's new attempts to the shared buckets; take the shared counts back."""
    if not limiter.spent:
        return
    spent, limiter.spent = limiter.spent, {}
    keys = list(spent)
    rows = await connections.get("default").execute_query_dict(
        "INSERT INTO rate_bucket (limiter, key, tokens, at) "
        f"SELECT $1, k, $2::float8 - d, {_NOW} FROM unnest($3::text[], $4::float8[]) AS t(k, d) "
        "ON CONFLICT (limiter, key) DO UPDATE SET "
        "tokens = LEAST($2::float8, rate_bucket.tokens + (excluded.at - rate_bucket.at) * $5::float8 / 60.0) "
        "- ($2::float8 - excluded.tokens), at = excluded.at RETURNING key, tokens",
        [limiter.name, float(limiter.burst), keys, [spent[key] for key in keys], float(limiter.per_minute)])
    now = limiter.now()
    for row in rows:
        key = str(row["key"])
        mine = limiter.buckets.get(key)
        pending = limiter.spent.get(key, 0.0)  # counted here while the statement ran
        shared = float(row["tokens"]) - pending
        if mine is None or shared < mine.tokens:
            limiter.buckets[key] = Bucket(shared, now)


async def pull(limiters: dict[str, Limiter], since: float) -> float:
    """Lower this process's buckets to what the others have spent since ``since`` (database seconds)."""
    client = connections.get("default")
    rows = await client.execute_query_dict(
        f"SELECT limiter, key, tokens, {_NOW} - at AS age, {_NOW} AS now FROM rate_bucket WHERE at > $1", [since])
    latest = since
    for row in rows:
        limiter = limiters.get(str(row["limiter"]))
        latest = max(latest, float(row["now"]) - float(row["age"]))
        if limiter is None:
            continue
        tokens = min(float(limiter.burst), float(row["tokens"]) + float(row["age"]) * limiter.per_minute / 60.0)
        mine = limiter.buckets.get(str(row["key"]))
        if mine is None or tokens < mine.tokens - limiter.spent.get(str(row["key"]), 0.0):
            limiter.buckets[str(row["key"])] = Bucket(tokens, limiter.now())
    return latest


async def run(interval: float = SYNC_SECONDS) -> None:
    """Share the buckets for as long as the process runs."""
    limiters = {limiter.name: limiter for limiter in ratelimit.LIMITERS}
    since, rounds = 0.0, 0
    while True:
        await asyncio.sleep(interval)
        try:
            for limiter in limiters.values():
                await push(limiter)
            since = await pull(limiters, since)
            rounds += 1
            if rounds % 600 == 0:
                await connections.get("default").execute_query(
                    f"DELETE FROM rate_bucket WHERE at < {_NOW} - $1", [FORGET_SECONDS])
        except Exception:
            log.exception("shared rate limits: the sync failed")

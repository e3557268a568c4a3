"""Rate limits against pranksters: token buckets per browser, inside looser ones per address.

A bucket holds up to ``burst`` tokens and gains ``per_minute`` of them a minute; an attempt spends one, and
with none left it is refused or, for page loads, asked to come back (a light page that reloads itself). Limited:

- creating a room (``CREATE``, per address): a party needs a few, a script that fills the database needs many;
- taking a seat in a lobby (``JOINS``): per browser, and loosely per address (a table of 30 shares one Wi-Fi);
- wrong room codes (``WRONG_CODES``): room codes are 5 characters from 32 (about 33 million), so guessing one
  takes millions of tries; each browser gets a few a minute, each address a few dozen. Only wrong codes are
  spent; a browser (or address) out of attempts gets the same answer for every code, before any lookup, so a
  right code is delayed, never refused, and guessing costs no database queries;
- building a room page for a browser without a seat there (``PAGES``): a page is a whole element tree
  subscribed to its room; a seated player's own pages are never refused (``SEAT_PAGE`` only spaces a burst of
  reloads by a few seconds).

Why the browser first: a table shares one public address, so a limit per address let one phone's guesses lock
every phone of the table out (issue 14). The browser is NiceGUI's storage id in the signed session cookie; a
flooder who throws his cookies away is a new browser each time, and only then does the address's bound bite.

The address is ``request.client.host``. Behind a reverse proxy every request comes from the proxy, so with
``TRUST_PROXY=1`` the last entry of ``X-Forwarded-For`` (the address our proxy saw) is used instead. Never set
it without such a proxy: anyone could then pick his own address. The machine itself (loopback: the tests,
the load generator, a local game) is not limited per address (per browser it is).

Buckets live in memory, per process, like the rooms; a bucket that has refilled is forgotten, so the table
stays small (and at most ``MAX_KEYS`` keys are kept: the oldest go first). In a cluster (``SHARED``) every
process also adds its attempts to buckets in PostgreSQL every second and reads the others' back
(``webgame.cluster.shared_limits``): a client who spreads his attempts over the processes gets the one limit, give or
take what one second lets through.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webgame import settings
from webgame.language.i18n import N_

MAX_KEYS = 50_000
# a cluster: every attempt is also counted in PostgreSQL for all processes (webgame.cluster.shared_limits)
SHARED = False
UNLIMITED = frozenset({"127.0.0.1", "::1", "localhost"})
TOO_MANY = N_("Too many attempts from your network. Please wait a minute and try again.")


@dataclass
class Bucket:
    """One client's tokens for one kind of request, as of ``at``."""

    tokens: float
    at: float


@dataclass
class Limiter:
    """``burst`` attempts at once, then ``per_minute`` a minute, per key."""

    name: str
    burst: int
    per_minute: float
    now: Callable[[], float] = time.monotonic
    buckets: OrderedDict[str, Bucket] = field(default_factory=OrderedDict)
    spent: dict[str, float] = field(default_factory=dict)  # a cluster: attempts not yet shared (shared_limits)

    def _bucket(self, key: str) -> Bucket:
        now = self.now()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = Bucket(float(self.burst), now)
        else:
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.per_minute / 60.0)
            bucket.at = now
        return bucket

    def blocked(self, key: str) -> bool:
        """True when ``key`` has no attempt left now (spends nothing)."""
        return key not in UNLIMITED and self._bucket(key).tokens < 1.0

    def spend(self, key: str) -> bool:
        """Take one attempt; False (and nothing taken) when there is none left."""
        if key in UNLIMITED:
            return True
        bucket = self._bucket(key)
        if bucket.tokens < 1.0:
            self._keep(key, bucket)
            return False
        bucket.tokens -= 1.0
        self._keep(key, bucket)
        if SHARED:
            self.spent[key] = self.spent.get(key, 0.0) + 1.0
        return True

    def wait_seconds(self, key: str) -> int:
        """Whole seconds until ``key`` has an attempt again (0: it has one now)."""
        if key in UNLIMITED:
            return 0
        missing = 1.0 - self._bucket(key).tokens
        return 0 if missing <= 0 else int(missing * 60.0 / self.per_minute) + 1

    def _keep(self, key: str, bucket: Bucket) -> None:
        self.buckets[key] = bucket
        self.buckets.move_to_end(key)
        while len(self.buckets) > MAX_KEYS:
            self.buckets.popitem(last=False)
        if len(self.buckets) > 1000 and len(self.buckets) % 1000 == 0:
            self.forget_full()

    def forget_full(self) -> None:
        """Drop the buckets that are full again (they hold nothing a new bucket would not)."""
        now = self.now()
        for key in [k for k, b in self.buckets.items()
                    if b.tokens + (now - b.at) * self.per_minute / 60.0 >= self.burst]:
            del self.buckets[key]

    def reset(self) -> None:
        self.buckets.clear()
        self.spent.clear()


CREATE = Limiter("create", burst=5, per_minute=2)  # per address
# Taking a seat in a lobby: per browser (a browser with a seat keeps it), and per address only loosely (a table of
# 30 on one Wi-Fi joins within a minute).
JOIN_BROWSER = Limiter("join, browser", burst=5, per_minute=5)
JOIN = Limiter("join, address", burst=40, per_minute=30)
# Wrong room codes: each browser gets a few; an address, loosely more (its browsers may be many phones).
WRONG_CODE_BROWSER = Limiter("wrong code, browser", burst=10, per_minute=6)
WRONG_CODE = Limiter("wrong code, address", burst=60, per_minute=30)
# Room pages built for a browser with no seat in that room (a new player, a spectator, the TV): a page is a whole
# tree subscribed to its room, so building one is a resource; a seated player's return is never counted.
PAGE_BROWSER = Limiter("page, browser", burst=20, per_minute=20)
PAGE = Limiter("page, address", burst=80, per_minute=60)
# A seated player's own pages: never refused, but a burst of reloads beyond this waits a moment (a light page that
# retries by itself in a few seconds): building a page is the server's work, and a seat may flood it too.
SEAT_PAGE = Limiter("page, seat", burst=12, per_minute=30)
LIMITERS = (CREATE, JOIN_BROWSER, JOIN, WRONG_CODE_BROWSER, WRONG_CODE, PAGE_BROWSER, PAGE, SEAT_PAGE)


def browser_key(browser: str) -> str:
    """A browser's bucket key (its storage id), apart from addresses; an unknown browser shares one bucket."""
    return "browser:" + (browser or "unknown")


@dataclass(frozen=True, slots=True)
class Pair:
    """One browser's bucket inside its address's looser one: the browser's own limit is the one that bites; the
    address's only stops someone who throws his cookies away to get a fresh browser at every request."""

    browser: Limiter
    address: Limiter

    def blocked(self, browser: str, address: str) -> bool:
        return self.browser.blocked(browser_key(browser)) or self.address.blocked(address)

    def spend(self, browser: str, address: str) -> bool:
        """One attempt from both buckets; False (nothing taken) if either is empty."""
        if self.blocked(browser, address):
            return False
        self.browser.spend(browser_key(browser))
        self.address.spend(address)
        return True

    def wait_seconds(self, browser: str, address: str) -> int:
        """How long until both have an attempt again (at least 1 s)."""
        return max(1, self.browser.wait_seconds(browser_key(browser)), self.address.wait_seconds(address))


WRONG_CODES = Pair(WRONG_CODE_BROWSER, WRONG_CODE)
JOINS = Pair(JOIN_BROWSER, JOIN)
PAGES = Pair(PAGE_BROWSER, PAGE)


class Visits:
    """Rooms a browser has opened before (browser storage id, room code), newest last, at most ``MAX_KEYS``.

    A browser that holds a seat in a room, or has had its page before (the TV, a spectator reloading), opens it
    again whatever the limits say: its code is known to be right, and guessing cannot use it. Kept in memory, not
    in the browser's storage: a flood of first visits must not write a file each."""

    def __init__(self) -> None:
        self.seen: OrderedDict[tuple[str, str], None] = OrderedDict()

    def add(self, browser: str, code: str) -> None:
        if not browser:
            return
        self.seen[(browser, code)] = None
        self.seen.move_to_end((browser, code))
        while len(self.seen) > MAX_KEYS:
            self.seen.popitem(last=False)

    def has(self, browser: str, code: str) -> bool:
        return bool(browser) and (browser, code) in self.seen

    def reset(self) -> None:
        self.seen.clear()


VISITS = Visits()


def trust_proxy() -> bool:
    """Whether a request's address is the last one our proxy put in ``X-Forwarded-For`` (``TRUST_PROXY=1``)."""
    return settings.current().trust_proxy


def client_address(request: Any) -> str:
    """Who is asking: the socket's peer, or (``TRUST_PROXY=1``) the address our proxy put last in
    ``X-Forwarded-For``."""
    if trust_proxy():
        forwarded = str(request.headers.get("x-forwarded-for", ""))
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1][:64]
    client = getattr(request, "client", None)
    host = getattr(client, "host", None)
    return str(host) if host else "unknown"


def reset_all() -> None:
    for limiter in LIMITERS:
        limiter.reset()
    VISITS.reset()

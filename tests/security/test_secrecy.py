"""Secrecy as the browsers see it: random bot games of both rule sets played through simulated phones.

Every socket.io message sent to every client (``Wire`` wraps NiceGUI's emit) and every page's first HTML
is searched, in that phone's language, for what its viewer may not know at that moment (see
forbidden.py: role and team names next to a player, private results, the mafia's night, who killed at
night, other chats' lines, distinctive role names, role ids in classes and test ids). Seats are living
and dead players (dead_see_roles off), plus a spectator, the TV and (uk) the moderator. A phone sleeps
and reloads now and then (its new page is checked from its first HTML).

At night, every state change must reach every living player's phone as the same number of messages of
the same size (within ``SIZE_TOLERANCE`` bytes), whatever his role: otherwise a friend sniffing the
table's Wi-Fi could tell the mafia from the town by the size of the traffic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from nicegui.testing import User

from engine.state import Phase

from .conftest import FakeTime
from .forbidden import forbidden_for
from .oracle import Oracle
from .stats import STATS
from .table import Phone, Table, drain
from .wire import Elements, Wire, client_tree, raw_strings, update_trees

COMPARED = ("update", "load_js_components", "notify")  # what a change of the room sends (run_javascript: public)
SIZE_TOLERANCE = 48  # bytes: element ids and message counters have a digit more or less from phone to phone

# (rules, players, seed, moderated): a spread of sizes and role mixes of both rule sets (uz 12 and 14 have the killer,
# the lawyer, the hobo; uk 8 with and without a moderator). The projection test plays 80 more games, up to 30 players.
GAMES = [
    ("uz", 5, 101, False), ("uz", 6, 106, False), ("uz", 7, 102, False), ("uz", 8, 107, False),
    ("uz", 9, 103, False), ("uz", 10, 108, False), ("uz", 12, 109, False), ("uz", 14, 105, False),
    ("uk", 8, 201, True), ("uk", 8, 204, False), ("uk", 9, 202, False),
]


@dataclass(repr=False)
class Inspector:
    table: Table
    wire: Wire
    oracle: Oracle | None = None
    problems: list[str] = field(default_factory=list)
    night_sizes: list[dict[str, int]] = field(default_factory=list)
    snapshots: int = 0
    was_night: bool = False
    uneven: list[str] = field(default_factory=list)
    last: dict[str, list[Any]] = field(default_factory=dict)
    lobby_pages: set[str] = field(default_factory=set)  # first HTML checked, or loaded before the deal

    def check(self) -> None:
        table, state = self.table, self.table.state
        oracle = self.oracle
        assert oracle is not None
        self.snapshots += 1
        # At night, and at the dawn that ends it (the night's results go out then), the phones of the living
        # must not differ by role. (By day the speaker's phone may differ: who speaks is public.)
        night = (state.phase is Phase.NIGHT or self.was_night) and state.phase is not Phase.ENDED  # the end: no secret
        self.was_night = state.phase is Phase.NIGHT
        sizes: dict[str, int] = {}
        counts: dict[str, int] = {}
        for phone in table.everyone():
            if phone.user.client is None:
                continue
            messages = self.wire.unread(phone.client_id)
            self.last[phone.what] = messages
            STATS.add("messages inspected", len(messages))
            forbidden = forbidden_for(phone.viewer, phone.language, state, oracle, table.names, table.chat)
            texts = raw_strings(messages)
            rows: list[str] = []
            attributes: list[str] = []
            for tree in update_trees(messages):
                elements = Elements(tree)
                rows += elements.rows()
                attributes += elements.attributes()
            found = forbidden.find(texts, rows, attributes)
            self.problems += [f"{phone.what} ({phone.language}), day {state.day} {state.phase}: {p}" for p in found]
            if night and phone.viewer > 0 and state.alive[phone.viewer - 1] and phone.viewer != table.actor:
                state_messages = [m for m in messages if m.type in COMPARED]
                sizes[phone.what] = sum(m.size for m in state_messages)
                counts[phone.what] = len(state_messages)
        if night and len(sizes) > 1 and any(sizes.values()):
            self.night_sizes.append(sizes)
            if max(sizes.values()) - min(sizes.values()) > SIZE_TOLERANCE or len(set(counts.values())) > 1:
                roles = {f"{what}={state.roles[int(what.split()[1]) - 1]}": size for what, size in sizes.items()}
                detail = {what: [(m.type, m.size, m.data if m.type == "load_js_components" else "")
                                 for m in self.last[what]] for what in sizes}
                self.uneven.append(f"night {state.day}: sizes differ by role: {roles} counts {counts} {detail}")
        if self.problems:
            pytest.fail("\n".join(self.problems[:8]), pytrace=False)

    def check_pages(self) -> None:
        """The rendered pages as they are now, and the first HTML of every page loaded so far."""
        table, state = self.table, self.table.state
        assert self.oracle is not None
        for phone in table.everyone():
            if phone.user.client is None:
                continue
            forbidden = forbidden_for(phone.viewer, phone.language, state, self.oracle, table.names, table.chat)
            elements = Elements(client_tree(phone.user.client))
            found = forbidden.find(elements.texts(), elements.rows(), elements.attributes())
            first = self.wire.pages.get(phone.client_id)
            if first is not None and phone.client_id not in self.lobby_pages:  # checked once, as it was loaded
                self.lobby_pages.add(phone.client_id)
                loaded = Elements(first)
                found += forbidden.find(loaded.texts(), loaded.rows(), loaded.attributes())
                found += forbidden.find([self.wire.html.get(phone.client_id, "")], pairs=False)
            STATS.add("pages inspected", 1)
            self.problems += [f"{phone.what} page ({phone.language}), day {state.day} {state.phase}: {p}"
                              for p in found]
        if self.problems:
            pytest.fail("\n".join(self.problems[:8]), pytrace=False)


async def reload(phone: Phone, wire: Wire) -> None:
    """The phone slept past the reconnect timeout: it loads the page again (a new client, a new first HTML)."""
    path = phone.user.back_history[-1] if phone.user.back_history else "/"
    await phone.user.open(path)
    await drain()
    STATS.add("reloads", 1)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players", "seed", "moderated"), GAMES)
async def test_no_browser_receives_a_secret(create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch,
                                            fake_time: FakeTime, rules: str, players: int, seed: int,
                                            moderated: bool) -> None:
    """The room's clock is the test's (``fake_time``): steps end when the bots are done or the test says so."""
    wire = Wire()
    wire.install(monkeypatch)
    table = await Table.seat(create_user, rules, players, seed, moderated=moderated)
    inspector = Inspector(table, wire)
    inspector.oracle = Oracle.start(table.state)
    for phone in table.everyone():
        wire.mark_read(phone.client_id)  # the lobby and the deal: checked as pages below
    inspector.lobby_pages = {phone.client_id for phone in table.phones}
    inspector.check_pages()
    last_phase = [str(table.state.phase), table.state.day]

    async def after_each() -> None:
        inspector.oracle = oracle_now[0] if oracle_now else inspector.oracle
        inspector.check()
        phase = [str(table.state.phase), table.state.day]
        if phase != last_phase:
            last_phase[:] = phase
            if table.rng.random() < 0.3:
                await reload(table.rng.choice(table.everyone()), wire)
            inspector.check()
            inspector.check_pages()

    oracle_now: list[Oracle] = []
    original_start = Oracle.start

    def start(state: object) -> Oracle:  # share the table's oracle with the inspector
        oracle = original_start(state)  # type: ignore[arg-type]
        oracle_now[:] = [oracle]
        return oracle

    monkeypatch.setattr(Oracle, "start", staticmethod(start))
    oracle = await table.play(after_each, fouls=moderated)
    inspector.oracle = oracle
    inspector.check()
    inspector.check_pages()
    STATS.add("page games", 1)
    STATS.add("page actions", len(table.state.log))
    STATS.add("taps on pages", table.taps)
    STATS.add("night state changes compared", len(inspector.night_sizes))
    if inspector.uneven:
        pytest.fail("\n".join(inspector.uneven[:5]), pytrace=False)

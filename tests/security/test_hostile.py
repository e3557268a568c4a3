"""Hostile input: whatever a forged client sends, nothing crashes, a refusal changes nothing, text stays text.

Hypothesis throws at every door: raw action dicts (``engine.actions.from_dict``, then the engine), names,
chat lines, night acts, votes and every other action with any seat and target, option names and values,
player limits, rule sets, seat moves and room codes. Each input is either accepted (and then leaves the
room valid) or refused with a ``Refusal``/``RuleError`` and the room exactly as before. Names and chat
lines with markup reach the page as text, never as elements. Chat has a length limit and flood control.
"""

from __future__ import annotations

import contextlib
import copy
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from nicegui.testing import User

from engine import actions as engine_actions
from engine.actions import (
    Action,
    EliminateAll,
    EndSpeech,
    Foul,
    KamikazePick,
    NightAct,
    Nominate,
    Ready,
    Vote,
)
from engine.errors import RuleError
from engine.game import apply, new_game
from engine.options import OPTION_TABLES
from tests.engine.play_helpers import steps
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.rooms import CHAT_BURST, CHAT_MAX_LENGTH, CHAT_WINDOW, Room
from webgame.store import queries as store

from .conftest import FakeTime
from .stats import STATS

HOSTILE = settings(max_examples=150, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
NASTY_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "{name}", "{0}", "%s", "\u202eevil",
                     "a\u200bb", "\x00", " ", "x" * 301, "Px01", "\n\n", "🎭" * 30, "' OR 1=1 --", "${jndi:x}"]),
)
INTS = st.one_of(st.integers(-3, 40), st.integers(), st.sampled_from([0, -1, 2**63, -(2**63)]))
ANY_JSON = st.recursive(st.one_of(st.none(), st.booleans(), INTS, st.floats(allow_nan=True), st.text(max_size=12)),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                      max_size=3), max_leaves=6)
FIELDS = ["type", "seat", "act", "target", "note", "yes", "amount", "step"]


def counted(kind: str) -> None:
    STATS.add("inputs fuzzed", 1)
    STATS.add(f"inputs fuzzed: {kind}", 1)


# ---------------------------------------------------------------- the engine's door


def _states() -> list[Any]:
    """Games at every kind of step: a few random games of both rule sets, kept at a dozen moments each."""
    found = []
    for rules, players, seed in (("uz", 8, 1), ("uz", 12, 2), ("uk", 10, 3), ("uk", 12, 4)):
        state = new_game(rules, players, seed)
        for index, _action in enumerate(steps(state, random.Random(seed), fouls=True)):
            if index % 7 == 0:
                found.append(copy.deepcopy(state))
    return found


STATES = _states()


@HOSTILE
@given(st.fixed_dictionaries({}, optional={name: ANY_JSON for name in FIELDS})
       | st.fixed_dictionaries({"type": st.sampled_from(sorted(engine_actions.ACTION_TYPES))},
                               optional={name: ANY_JSON | INTS for name in FIELDS[1:]}),
       st.integers(0, len(STATES) - 1))
def test_raw_action_dicts_never_crash_and_a_refusal_changes_nothing(data: dict[str, Any], which: int) -> None:
    counted("raw action dicts")
    try:
        action = engine_actions.from_dict(data)
    except RuleError:
        return
    assert engine_actions.from_dict(engine_actions.to_dict(action)) == action
    state = copy.deepcopy(STATES[which])
    before = copy.deepcopy(state)
    try:
        apply(state, action)
    except RuleError:
        state.cache, before.cache = {}, {}
        assert state == before
        return
    assert state.log[-1] == action
    for value in (getattr(action, "amount", 0.5),):
        assert not (isinstance(value, float) and math.isnan(value)), "a NaN foul was accepted"


# ---------------------------------------------------------------- the room's doors


def room_snapshot(room: Room) -> dict[str, Any]:
    return {
        "rules": room.rules, "options": dict(room.options), "timers": dict(room.timers), "moderated": room.moderated,
        "host": room.host_hash, "limits": (room.min_players, room.max_players),
        "seats": [(s.id, s.name, s.position, s.token_hash) for s in room.seats], "stage": room.stage,
        "state": _plain(room.state), "deadline": room.deadline, "chat": list(room.chat),
    }


def _plain(state: Any) -> Any:
    if state is None:
        return None
    copied = copy.deepcopy(state)
    copied.cache = {}
    return copied


class Door:
    """One room kept across hypothesis examples (a database per test, opened by the ``db`` fixture)."""

    def __init__(self) -> None:
        self.room: Room | None = None
        self.tokens: list[str] = []

    async def lobby(self, players: int = 5, rules: str = "uz") -> Room:
        if self.room is None:
            self.tokens = [store.new_seat_token() for _ in range(players)]
            self.room = await rooms.registry.create(token=self.tokens[0], name="Host", rules=rules, language="en")
            for index, token in enumerate(self.tokens[1:], 1):
                await self.room.join(token, f"Player {index}")
        return self.room

    async def game(self, players: int = 6, rules: str = "uz") -> Room:
        room = await self.lobby(players, rules)
        if room.state is None:
            await room.start(store.hash_token(self.tokens[0]))
        return room

    def hash(self, index: int) -> str | None:
        if 0 <= index < len(self.tokens):
            return store.hash_token(self.tokens[index])
        return None if index < 0 else store.hash_token(f"forged {index}")


async def attempt(room: Room, call: Any, kind: str) -> bool:
    """True if accepted; a refusal must leave the room as it was (and its database log)."""
    counted(kind)
    before = room_snapshot(room)
    logged = len(await store.load_actions(room.game_id)) if room.game_id else 0
    try:
        await call
    except (Refusal, RuleError):
        assert room_snapshot(room) == before, kind
        assert (len(await store.load_actions(room.game_id)) if room.game_id else 0) == logged
        return False
    if room.game_id and room.state is not None:
        assert len(await store.load_actions(room.game_id)) == len(room.state.log)  # memory == database
    return True


@pytest.fixture
def door() -> Door:
    return Door()


@HOSTILE
@given(name=NASTY_TEXT)
async def test_names(db: Path, door: Door, name: str) -> None:
    room = await door.lobby()
    if len(room.players()) >= 30:  # a full table: the next names go to a new room
        door.room = None
        room = await door.lobby()
    if await attempt(room, room.join(store.new_seat_token(), name), "names"):
        seat = room.seats[-1]
        assert 1 <= len(seat.name) <= 24 and seat.name == seat.name.strip()
        assert not any(ord(c) < 32 or c in "\u202e\u200b" for c in seat.name)


@HOSTILE
@given(channel=st.sampled_from(["room", "mafia", "dead", "", "ROOM", "<b>"]) | st.text(max_size=8),
       text=NASTY_TEXT, who=st.integers(-1, 8))
async def test_chat_lines(db: Path, door: Door, fake_time: FakeTime, channel: str, text: str, who: int) -> None:
    room = await door.game()
    fake_time.advance(CHAT_WINDOW)  # flood control is tested on its own below
    if await attempt(room, room.say(door.hash(who), channel, text), "chat lines"):
        line = room.chat[-1]
        assert 0 < len(line.text) <= CHAT_MAX_LENGTH and not any(ord(c) < 32 for c in line.text)


ACTIONS = st.one_of(
    st.builds(NightAct, INTS, st.sampled_from(["kill", "check", "shoot", "heal", "block", "cover", "visit",
                                               "freeze", "suggest", "suspect", "pass"]),
              st.none() | INTS, st.booleans()),
    st.builds(Vote, INTS, st.none() | INTS), st.builds(Ready, INTS), st.builds(Nominate, INTS, INTS),
    st.builds(EndSpeech, INTS), st.builds(EliminateAll, INTS, st.booleans()),
    st.builds(KamikazePick, INTS, st.none() | INTS),
    st.builds(Foul, INTS, st.sampled_from([0.5, 1, 0, -1, 2, 0.7, float("nan"), float("inf")])),
)


@HOSTILE
@given(action=ACTIONS, who=st.integers(-1, 8), rules=st.sampled_from(["uz", "uk"]))
async def test_actions_from_anyone(db: Path, door: Door, fake_time: FakeTime, action: Action, who: int,
                                   rules: str) -> None:
    room = await door.game(13 if rules == "uk" else 6, rules)
    if room.stage is not rooms.Stage.PLAYING:
        return
    await attempt(room, room.act(door.hash(who), action), "actions")
    if room.stage is rooms.Stage.PLAYING and random.random() < 0.05:  # move on now and then
        assert room.state is not None
        await room.skip(door.hash(0), room.state.step)


OPTION_NAMES = sorted({spec.name for specs in OPTION_TABLES.values() for spec in specs})


@HOSTILE
@given(name=st.sampled_from(OPTION_NAMES) | st.text(max_size=20), value=ANY_JSON,
       low=INTS, high=INTS, rules=st.text(max_size=6) | st.sampled_from(["uz", "uk"]),
       seat=INTS, delta=INTS, moderated=st.booleans())
async def test_lobby_settings(db: Path, door: Door, name: str, value: Any, low: int, high: int, rules: str,
                              seat: int, delta: int, moderated: bool) -> None:
    room = await door.lobby()
    host = door.hash(0)
    await attempt(room, room.set_option(host, name, value), "option values")
    await attempt(room, room.set_player_limits(host, low, high), "player limits")
    await attempt(room, room.set_rules(host, rules), "rule sets")
    await attempt(room, room.set_moderated(host, moderated), "moderation")
    await attempt(room, room.move_seat(host, seat, delta), "seat moves")
    for spec in OPTION_TABLES[room.rules]:
        assert spec.check(room.engine_options()[spec.name]) == room.engine_options()[spec.name]
    low_now, high_now = room.player_limits()
    assert low_now <= high_now


@HOSTILE
@given(code=NASTY_TEXT | st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789 ", max_size=14))
async def test_room_codes(db: Path, code: str) -> None:
    counted("room codes")
    room = await rooms.registry.find(code)
    assert room is None or room.code == store.normalize_code(code)


async def test_room_code_urls(create_user: Callable[[], User]) -> None:
    from urllib.parse import quote

    visitor = create_user()
    for code in ["zzzzz", "A" * 200, "%00", "..%2F..%2Fetc", "<script>", "K7QXM'--", "🎭", " ", "\\", "a/b"]:
        counted("room code urls")
        url = f"/r/{quote(code, safe='%/')}"
        response = await visitor.http_client.get(url)
        # a page, no route, or (this browser has guessed too many) the light page that waits: no crash
        assert response.status_code in (200, 404, 429), (code, response.status_code)
        if response.status_code == 200:
            await visitor.open(url)
            await visitor.should_see("There is no room with this code.")


# ---------------------------------------------------------------- text stays text


async def test_markup_in_names_and_chat_is_shown_as_text(create_user: Callable[[], User]) -> None:
    from tests.web.helpers import create_room, join, page_dump, settle, wait_for

    from .wire import Elements, Wire, client_tree

    wire = Wire()
    mp = pytest.MonkeyPatch()
    wire.install(mp)
    try:
        host, evil, friend = create_user(), create_user(), create_user()
        room = await create_room(host, "Host")
        evil_name = "<img src=x onerror=f()>"  # names have at most 24 characters; the chat line below is longer
        await join(evil, room, evil_name)
        for name in ("C", "D"):
            await room.join(store.new_seat_token(), name)
        await friend.open(f"/r/{room.code}")  # a fresh page, its first HTML holds the name
        await friend.should_see(content=evil_name)
        assert friend.client is not None
        html = wire.html[friend.client.id]
        assert "<img src=x" not in html  # the page's element tree is embedded with < escaped
        for tree in (client_tree(friend.client), wire.pages[friend.client.id]):
            elements = Elements(tree)
            assert any(evil_name in text for text in elements.texts())
            assert not any(str(e.get("tag")) == "script" for e in elements.tree.values())
            pictures = [e for e in elements.tree.values() if str(e.get("tag")) == "img"]
            assert [(e.get("props") or {}).get("src") for e in pictures] == [f"/qr/{room.code}"]  # the QR code only
        await room.start(room.host_hash)
        await wait_for(lambda: room.state is not None)
        await settle()
        script = "<script>alert(document.cookie)</script><img src=x onerror=alert(1)>"
        assert room.state is not None
        await room.act(room.seating[0].token_hash, NightAct(1, "pass"))
        for seat in range(1, 6):
            if room.state.phase.value != "night":
                break
            with contextlib.suppress(RuleError):
                await room.act(room.seating[seat - 1].token_hash, NightAct(seat, "pass"))
        writer = next(s for s in room.seating if s.name == evil_name)
        await room.say(writer.token_hash, "room", script)
        await settle()
        assert script in page_dump(host)
        assert not any(str(e.get("tag")) == "script" for e in Elements(client_tree(host.client)).tree.values())
        for messages in wire.sent.values():
            for message in messages:
                if message.type in ("notify", "run_javascript"):
                    assert script not in str(message.data) and evil_name not in str(message.data)
                    assert not (isinstance(message.data, dict) and message.data.get("html"))
    finally:
        mp.undo()


async def test_chat_length_and_flood_control(db: Path, fake_time: FakeTime) -> None:
    door = Door()
    room = await door.game()
    writer = door.hash(1)
    with pytest.raises(Refusal):
        await room.say(writer, "room", "x" * (CHAT_MAX_LENGTH + 1))
    assert room.state is not None
    # It is night: the town does not talk. Skip to the day.
    await room.skip(door.hash(0), room.state.step)
    living = next(s for s in room.seating if room.state.alive[room.game_seat(s.token_hash) - 1])
    for number in range(CHAT_BURST):
        await room.say(living.token_hash, "room", f"message {number}")
    with pytest.raises(Refusal) as refused:
        await room.say(living.token_hash, "room", "one too many")
    assert refused.value.msgid == "You are writing too fast. Wait a few seconds."
    STATS.add("inputs fuzzed: flood", 1)
    other = next(s for s in room.seating if s is not living and room.state.alive[room.game_seat(s.token_hash) - 1])
    await room.say(other.token_hash, "room", "someone else may still talk")
    fake_time.advance(CHAT_WINDOW)
    await room.say(living.token_hash, "room", "after a pause")
    assert [line.text for line in room.chat][-2:] == ["someone else may still talk", "after a pause"]

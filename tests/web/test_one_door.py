"""One door into a room (issue 29 point 4): every change goes through ``Room.change`` (its lock, then the pages told
once), and a tap is validated, written, then applied: a failed write changes nothing a page can see, and no page
ever draws an action the log does not hold."""

from __future__ import annotations

import ast
import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

from engine.actions import NightAct, Vote
from engine.errors import RuleError
from webgame.errors import Refusal
from webgame.room import table_game
from webgame.room.chat import ChatLine
from webgame.room.rooms import Change, Room
from webgame.store import leases, queries as store

from .conftest import FakeTime
from .test_rooms import make_room

WEBGAME = Path(__file__).parent.parent.parent / "webgame"


class Told:
    """A page that only notes what it was told."""

    def __init__(self) -> None:
        self.told: list[Change] = []

    def room_changed(self, what: Change) -> None:
        self.told.append(what)

    def chat_added(self, line: ChatLine) -> None: ...


class Page:
    """A page of the room: what it was told, and what it would have drawn each time (every seat's projection)."""

    def __init__(self, room: Room, hashes: list[str]) -> None:
        self.room, self.hashes = room, hashes
        self.told: list[Change] = []
        self.drawn: list[int] = []  # the actions in the game each time it drew

    def room_changed(self, what: Change) -> None:
        self.told.append(what)
        projection = self.room.projection(self.hashes[0])
        assert projection is not None and self.room.state is not None
        self.drawn.append(len(self.room.state.log))

    def chat_added(self, line: ChatLine) -> None: ...


def screens(room: Room, hashes: list[str]) -> list[Any]:
    """What every seat's screen would show now."""
    return [copy.deepcopy(room.projection(token_hash)) for token_hash in hashes]


async def test_a_failed_write_changes_nothing_a_page_can_see(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    await room.act(hashes[0], NightAct(1, "pass"))
    page = Page(room, hashes)
    room.subscribe(page)
    before, shown = copy.deepcopy(room.state), screens(room, hashes)

    def no_replay(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a failed write needs no replay")

    monkeypatch.setattr(table_game, "replay", no_replay)
    failures: list[BaseException] = [OSError("disk full"), store.ActionIndexConflict(room.game_id or 0, 1, 2),
                                     leases.LeaseLost("the room runs elsewhere now")]
    for failure in failures:
        async def fails(*_args: object, error: BaseException = failure, **_kwargs: object) -> None:
            raise error

        monkeypatch.setattr(store, "append_action", fails)
        for seat in (2, 4):  # seat 4's pass would have ended the night, had seats 2 and 3 passed
            with pytest.raises(Refusal):
                await room.act(hashes[seat - 1], NightAct(seat, "pass"))
            assert room.state == before and screens(room, hashes) == shown, failure
    assert page.told == []  # nothing changed: no page was told to redraw
    with pytest.raises(RuleError):  # the engine's refusal comes before the write: nothing is written
        await room.act(hashes[1], Vote(2, 3))  # (a vote at night)
    assert room.state == before and page.told == []


async def test_no_page_draws_an_action_before_it_is_written(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the write of a tap is on its way (a slow disk), the pages redraw for other reasons (a phone comes
    back, the countdown): none of them draws the tap. Once written, it is drawn, and the pages are told once."""
    room, hashes = await make_room(4)
    await room.start(hashes[0])
    page = Page(room, hashes)
    room.subscribe(page)
    shown = screens(room, hashes)
    real_append, written = store.append_action, asyncio.Event()
    writing, landed = asyncio.Event(), []

    async def slow(game_id: int, index: int, payload: dict[str, Any], **kwargs: Any) -> None:
        writing.set()
        await written.wait()
        await real_append(game_id, index, payload, **kwargs)
        landed.append(index)

    monkeypatch.setattr(store, "append_action", slow)
    tap = asyncio.create_task(room.act(hashes[1], NightAct(2, "pass")))
    await writing.wait()
    room.notify(Change.PRESENCE)  # a phone came back meanwhile: every page redraws from the room
    assert room.state is not None and room.state.log == [] and screens(room, hashes) == shown
    assert room.version()[1] == 0  # a page built now would not draw it either
    written.set()
    await tap
    assert landed == [0] and room.state is not None and len(room.state.log) == 1
    assert page.told == [Change.PRESENCE, Change.STATE] and page.drawn == [0, 1]
    assert screens(room, hashes) != shown


async def test_host_watch_and_seat_moves_tell_the_pages_through_the_room(
        db: Path, fake_time: FakeTime) -> None:
    """The host's hand-over, its options and a seat moved with a code: each change told once, as the room tells
    it; a refused one tells nobody."""
    room, hashes = await make_room(4)
    page = Told()
    room.subscribe(page)
    told = page.told
    await room.set_handover(hashes[0], 60)
    assert told == [Change.SETTINGS]
    with pytest.raises(Refusal):
        await room.make_host(hashes[1], room.seats[2].id)  # not the host
    assert told == [Change.SETTINGS]
    await room.make_host(hashes[0], room.seats[1].id)
    assert told == [Change.SETTINGS, Change.STRUCTURE] and room.host_hash == hashes[1]
    code = await room.offer_move(hashes[2])  # only the asking phone shows its code
    assert told == [Change.SETTINGS, Change.STRUCTURE]
    await room.take_seat(code, store.new_seat_token())
    assert told == [Change.SETTINGS, Change.STRUCTURE, Change.STRUCTURE]
    with pytest.raises(Refusal):
        await room.take_seat(code, store.new_seat_token())  # used
    assert told == [Change.SETTINGS, Change.STRUCTURE, Change.STRUCTURE]


def test_only_the_room_takes_its_lock_and_tells_its_pages() -> None:
    """Nothing in the web layer takes a room's lock but ``Room.change`` (``webgame/room/rooms.py``), and in the room
    package only the room and its audience call ``notify``: the parts (the game, the host watch, the seat moves)
    change under the room's lock and never tell the pages themselves."""
    lock_users, notifiers = set(), set()
    for path in WEBGAME.rglob("*.py"):
        name = path.relative_to(WEBGAME).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "lock" and not (
                    isinstance(node.value, ast.Name) and node.value.id == "self"):
                lock_users.add(name)  # a room's lock taken (or handed) from outside the room
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"notify", "changed"} and name.startswith("room/")):
                notifiers.add(name)
    assert lock_users == set(), lock_users
    assert notifiers <= {"room/rooms.py", "room/subscribers.py"}, notifiers
    assert "changed" not in table_game.TableGame.__init__.__code__.co_varnames  # no way to the pages of its own


async def test_the_registry_keeps_nothing_for_a_code_once_loaded(db: Path, fake_time: FakeTime) -> None:
    """A code's loading lock lives while a load of it runs or waits: a wrong code typed leaves nothing behind,
    nor do side-by-side loads of one room (which find the same room)."""
    from webgame.room import rooms

    room, _hashes = await make_room(2)
    assert await rooms.registry.load("ZZZZZ") is None
    rooms.registry.rooms.clear()  # as after a restart: the room comes back from the database
    first, second = await asyncio.gather(rooms.registry.load(room.code), rooms.registry.load(room.code))
    assert first is second and first is not None and first.code == room.code
    assert rooms.registry._loading == {}  # noqa: SLF001

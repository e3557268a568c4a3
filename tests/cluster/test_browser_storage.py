"""A browser's storage kept in PostgreSQL (``webgame.framework.browser_storage``): two processes, played by two storage
objects of the same browser on one database, each with its own copy in memory, as on two machines.

What must hold: a seat kept by one process is found by the other; two writes of one browser at the same moment
(a seat taken in two rooms on two processes) both stay; a read before a page sees what another process wrote."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from nicegui import core
from nicegui.persistence import FilePersistentDict
from nicegui.storage import Storage
from tortoise import connections

from tests.conftest import Environment
from webgame.browser import storage_expiry
from webgame.browser.identity import BrowserIdentity
from webgame.framework import browser_storage
from webgame.framework.browser_storage import PostgresStorage, merge

BROWSER = "0c6e7d2a-5b8f-4d8e-9a51-3f1c2b7a9e10"


@pytest.fixture(autouse=True)
def loop_for_writes() -> Iterator[None]:
    """NiceGUI's background tasks (the write back) run on ``core.loop``: the test's loop here."""
    kept = core.loop
    core.loop = asyncio.get_running_loop() if _running() else None
    yield
    core.loop = kept


def _running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def _process(browser: str = BROWSER) -> PostgresStorage:
    """This browser's storage as one more process finds it: read from the database."""
    core.loop = asyncio.get_running_loop()
    storage = PostgresStorage(browser)
    await storage.initialize()
    return storage


def _seat(storage: PostgresStorage, code: str, token: str) -> None:
    BrowserIdentity(storage=storage, language="en").keep_token(code, token)


async def test_a_seat_kept_on_one_process_is_found_on_another(pg: str) -> None:
    here = await _process()
    _seat(here, "K7QXM", "token-1")
    here["lang"] = "uz"
    await here.flushed()

    there = await _process()
    assert BrowserIdentity(storage=there, language="en").token_for("K7QXM") == "token-1"
    assert there["lang"] == "uz"
    assert dict(await _process("another browser")) == {}


async def test_two_processes_writing_one_browser_at_once_lose_nothing(pg: str) -> None:
    """Both read the browser's storage, then each takes a seat in its own room in the same instant: the second
    write finds the first one's version, merges and writes both seats."""
    here, there = await _process(), await _process()
    _seat(here, "AAAAA", "token-a")
    _seat(there, "BBBBB", "token-b")
    here["lang"] = "ru"
    await asyncio.gather(here.flushed(), there.flushed())

    fresh = await _process()
    assert fresh["seats"] == {"AAAAA": "token-a", "BBBBB": "token-b"}
    assert fresh["lang"] == "ru"
    assert fresh.version == 2
    await here.reload()
    await there.reload()
    assert here["seats"] == there["seats"] == fresh["seats"]


async def test_many_writers_racing_keep_every_seat(pg: str) -> None:
    writers = [await _process() for _ in range(6)]
    for round_ in range(5):
        for index, writer in enumerate(writers):
            _seat(writer, f"R{index}X{round_}", f"token-{index}-{round_}")
        await asyncio.sleep(0)  # the writes of this round are on their way together
    await asyncio.gather(*(writer.flushed() for writer in writers))

    fresh = await _process()
    assert fresh["seats"] == {f"R{i}X{r}": f"token-{i}-{r}" for i in range(6) for r in range(5)}


async def test_a_page_may_wait_until_the_token_is_written_for_every_process(pg: str) -> None:
    here = await _process()
    identity = BrowserIdentity(storage=here, language="en")
    identity.keep_token("K7QXM", "token-1")
    await identity.saved()  # what the start page does before sending the phone to the room it created
    assert BrowserIdentity(storage=await _process(), language="en").token_for("K7QXM") == "token-1"
    await BrowserIdentity(storage={}, language="en").saved()  # a plain dict (NiceGUI's files): nothing to wait for


async def test_a_reload_before_a_page_sees_the_other_process_and_keeps_its_own_unsaved_change(pg: str) -> None:
    here, there = await _process(), await _process()
    _seat(there, "BBBBB", "token-b")
    await there.flushed()
    assert "seats" not in here  # not read again yet: what a page built without the refresh would see

    await here.reload()
    assert here["seats"] == {"BBBBB": "token-b"}
    version = here.version
    await here.reload()  # nothing new: the same contents, no write
    assert here.version == version and here["seats"] == {"BBBBB": "token-b"}


async def test_the_storage_is_in_postgresql_only_while_installed() -> None:
    try:
        browser_storage.install(True)
        assert isinstance(Storage._create_persistent_dict(f"user-{BROWSER}"), PostgresStorage)  # noqa: SLF001
        assert isinstance(Storage._create_persistent_dict("general"), FilePersistentDict)  # noqa: SLF001
        browser_storage.install(True)  # again (NiceGUI's test fixtures run setup again): still one layer
        assert browser_storage.in_postgres()
    finally:
        browser_storage.install(False)
    assert not browser_storage.in_postgres()
    assert isinstance(Storage._create_persistent_dict(f"user-{BROWSER}"), FilePersistentDict)  # noqa: SLF001


def test_only_a_postgresql_url_moves_the_storage(environment: Environment) -> None:
    environment.set("DATABASE_URL", "postgres://mafia@127.0.0.1:5432/mafia")
    assert browser_storage.on_postgres()
    environment.set("DATABASE_URL", "sqlite:///tmp/mafia.sqlite3")
    assert not browser_storage.on_postgres()
    environment.unset("DATABASE_URL")
    assert not browser_storage.on_postgres()


def test_the_merge_keeps_both_sides_changes_key_by_key() -> None:
    base = {"lang": "en", "seats": {"OLD00": "t0"}}
    mine = {"lang": "uz", "seats": {"OLD00": "t0", "AAAAA": "ta"}}
    theirs = {"lang": "en", "seats": {"OLD00": "t0", "BBBBB": "tb"}, "other": 1}
    assert merge(base, mine, theirs) == {"lang": "uz", "seats": {"OLD00": "t0", "AAAAA": "ta", "BBBBB": "tb"},
                                         "other": 1}
    assert merge(base, {"seats": {}}, theirs) == {"seats": {"BBBBB": "tb"}, "other": 1}  # removed here: gone
    assert merge(base, base, theirs) == theirs  # nothing changed here: theirs as is


async def test_the_read_before_a_page_costs_one_indexed_read(pg: str) -> None:
    """The benchmark of docs/PERFORMANCE.md (the cluster): the read ``refresh`` does before every page."""
    here, there = await _process(), await _process()
    _seat(there, "BBBBB", "token-b")
    await there.flushed()
    reads = 300
    client = connections.get("default")
    started = time.perf_counter()
    for _ in range(reads):
        await client.execute_query_dict("SELECT 1")
    round_trip = (time.perf_counter() - started) / reads
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(reads):
        await here.reload()
    unchanged, unchanged_cpu = (time.perf_counter() - started) / reads, (time.process_time() - cpu) / reads
    started = time.perf_counter()
    for index in range(reads // 3):  # another process writes before every read: the read takes it
        _seat(there, "BBBBB", f"token-{index}")
        await there.flushed()
        await here.reload()
        assert here["seats"]["BBBBB"] == f"token-{index}"
    written_and_read = (time.perf_counter() - started) / (reads // 3)
    print(f"browser storage: read before a page {unchanged * 1000:.2f} ms, {unchanged_cpu * 1000:.2f} ms of this "
          f"process's CPU (SELECT 1: {round_trip * 1000:.2f} ms); "
          f"another process's write, then the read {written_and_read * 1000:.2f} ms")
    assert unchanged < 0.05


async def test_the_read_before_a_page_is_skipped_only_when_the_request_just_read_it(pg: str) -> None:
    """``refresh``, as ``cluster.Routing`` calls it before a room page: the browser named by the (signed)
    session finds another process's write; a request that has just read the storage does not read it again."""
    from nicegui import app

    here, there = await _process(), await _process()
    users = app.storage._users  # noqa: SLF001
    users[BROWSER] = here
    try:
        _seat(there, "BBBBB", "token-b")
        await there.flushed()
        await browser_storage.refresh({"session": {"id": BROWSER}, "state": {browser_storage.LOADED: True}}, [])
        assert "seats" not in here  # read in this request already (by NiceGUI's creation of the storage)
        await browser_storage.refresh({"session": {"id": BROWSER}, "state": {}}, [])
        assert here["seats"] == {"BBBBB": "token-b"}
    finally:
        users.pop(BROWSER, None)


async def _row_age(browser: str, days: float) -> None:
    await connections.get("default").execute_query(
        f"UPDATE browser_storage SET updated_at = {browser_storage.NOW_SQL} - $2 WHERE id = $1",
        [browser, days * storage_expiry.DAY])


async def _rows() -> set[str]:
    rows = await connections.get("default").execute_query_dict("SELECT id FROM browser_storage")
    return {row["id"] for row in rows}


async def test_rows_without_a_seat_expire_after_a_week_and_with_one_once_no_cookie_names_them(pg: str) -> None:
    """Issue 26: 100 visitors who touched the language picker left 100 rows, never removed."""
    ages = {"language-fresh": ({"lang": "uk"}, 6.9), "language-old": ({"lang": "uk"}, 7.1),
            "seats-emptied": ({"seats": {}}, 8), "seat-in-use": ({"seats": {"K7QXM": "t"}}, 14.9),
            "seat-gone": ({"seats": {"K7QXM": "t"}}, storage_expiry.SEATED_DAYS + 0.1)}
    for browser, (data, days) in ages.items():
        storage = await _process(browser)
        storage.update(data)
        await storage.flushed()
        await _row_age(browser, days)
    assert await storage_expiry.sweep_rows() == 3
    assert await _rows() == {"language-fresh", "seat-in-use"}
    revived = await _process("seat-gone")  # a process that still held it in memory writes it anew
    assert dict(revived) == {}


async def test_a_row_in_use_is_marked_used_and_a_gone_row_is_written_anew(pg: str) -> None:
    storage = await _process("weekly-table")
    _seat(storage, "K7QXM", "token-1")
    await storage.flushed()
    await _row_age("weekly-table", storage_expiry.SEATED_DAYS - 1)
    storage_expiry._TOUCHED.clear()  # noqa: SLF001
    storage_expiry.touch(storage)  # a page built for it
    for _ in range(100):
        await asyncio.sleep(0.01)
        rows = await connections.get("default").execute_query_dict(
            f"SELECT {browser_storage.NOW_SQL} - updated_at AS age, version FROM browser_storage WHERE id = $1",
            ["weekly-table"])
        if rows[0]["age"] < 60:
            break
    assert rows[0]["age"] < 60 and rows[0]["version"] == storage.version  # marked, not a new version
    assert await storage_expiry.sweep_rows() == 0
    await _row_age("weekly-table", storage_expiry.SEATED_DAYS + 1)
    assert await storage_expiry.sweep_rows() == 1
    _seat(storage, "AAAAA", "token-2")  # the process still holds it: its next change writes it anew, both seats
    await storage.flushed()
    assert (await _process("weekly-table"))["seats"] == {"K7QXM": "token-1", "AAAAA": "token-2"}

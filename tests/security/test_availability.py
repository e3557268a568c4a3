"""Availability: one phone at the table and a stranger with the room link cannot stop the table playing.

Each test here failed before the fix it covers (issue 14):

1. wrong codes are counted per browser (the address is only a loose outer bound): a phone that guesses locks
   out itself, not the table's reloads, its TV or a late player; a right code is delayed, never refused; the
   start page's Join never limits a right code;
2. a room page is built for a browser without a seat only within a per-browser/per-address budget, the rest get
   a light page that retries by itself; pages that never connect go away; a room keeps at most ``WATCHERS``
   pages without a seat (a flooder's go first) and a seat at most ``SEAT_PAGES``;
3. a browser's ``log`` event writes nothing; malformed messages are dropped without a traceback;
4. ``/qr/CODE`` answers only a browser that opened the room;
5. the chat part draws the last lines only; refusals count against flood control; a megabyte is refused at once;
6. a socket message counts only from its own page's socket, a handshake only from the page's own browser;
7. names: invisible, stacked accents, right-to-left with digits refused; two tabs take one seat;
8. the browsers' storage lives in the data folder; uvicorn does not read X-Forwarded-For.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import socketio.exceptions
from itsdangerous import TimestampSigner
from nicegui import Client, core
from nicegui.testing import User

from tests.conftest import Environment
from tests.web.helpers import create_room, join, node, screen_with, tap, wait_for
from webgame import app as webgame_app
from webgame.browser import transport
from webgame.browser.identity import clean_name
from webgame.errors import Refusal
from webgame.framework import page_sockets
from webgame.guard import page_limits, ratelimit, socket_guard
from webgame.language.i18n import translator
from webgame.pages.game_view import GameView
from webgame.pages.screen import Draft
from webgame.pages.screen_model import revealed_nodes
from webgame.room import chat_limits, rooms
from webgame.store import queries as store

from .conftest import FakeTime, limits_on_a_clock
from .stats import STATS

TABLE = "192.0.2.10"  # the table's Wi-Fi, as the proxy sees it
STRANGER = "198.51.100.7"


@pytest.fixture(autouse=True)
def fresh_limits(monkeypatch: pytest.MonkeyPatch, environment: Environment) -> FakeTime:
    """Empty buckets on a clock the test moves, and X-Forwarded-For trusted (as behind the documented proxy)."""
    environment.set("TRUST_PROXY", "1")
    return limits_on_a_clock(monkeypatch)


def at(user: User, address: str) -> User:
    user.http_client.headers["X-Forwarded-For"] = address
    return user


# ---------------------------------------------------------------- 1. wrong codes


async def test_a_phone_guessing_codes_locks_out_only_itself(create_user: Callable[[], User],
                                                            fresh_limits: FakeTime) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    tv = at(create_user(), TABLE)
    await tv.open(f"/r/{room.code}/screen")
    prankster = at(create_user(), TABLE)
    answers = [await prankster.http_client.get(f"/r/QQ{attempt:03d}")
               for attempt in range(ratelimit.WRONG_CODE_BROWSER.burst + 10)]
    assert [answer.status_code for answer in answers[-10:]] == [429] * 10
    assert "Too many wrong room codes" in answers[-1].text and 'http-equiv="refresh"' in answers[-1].text
    right = await prankster.http_client.get(f"/r/{room.code}")  # delayed like a wrong one: the guess tells nothing
    assert right.status_code == 429 and right.text.replace(room.code, "") == answers[-1].text
    STATS.add("wrong codes refused (one browser)", 11)

    await host.open(f"/r/{room.code}")  # the table: the host's reload, the TV's, a late player, same network
    await host.should_see(marker="start")
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(room.code)
    late = at(create_user(), TABLE)
    await late.open(f"/r/{room.code}")
    await late.should_see(marker="join-name")
    for _ in range(25):  # 25 phones of the table tap Join on the start page with the right code: never "too many"
        phone = at(create_user(), TABLE)
        await phone.open("/")
        phone.find(marker="join-code").type(room.code.lower())
        phone.find(marker="join-room").click()
        await wait_for(lambda phone=phone: phone.back_history[-1] == f"/r/{room.code}")
    fresh_limits.advance(11)  # the prankster's right code opens once he has an attempt again
    await prankster.open(f"/r/{room.code}")
    await prankster.should_see(marker="join-name")


async def test_an_address_that_guesses_a_lot_still_reaches_its_rooms(create_user: Callable[[], User]) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    guesser = at(create_user(), TABLE)
    for attempt in range(ratelimit.WRONG_CODE.burst + 5):  # a fresh browser (no cookie) at every guess
        guesser.http_client.cookies.clear()
        await guesser.http_client.get(f"/r/QQ{attempt:03d}")
    guesser.http_client.cookies.clear()
    assert (await guesser.http_client.get("/r/QQ999")).status_code == 429  # the address's loose bound
    await host.open(f"/r/{room.code}")  # a seat's return passes whatever the address did
    await host.should_see(marker="start")


# ---------------------------------------------------------------- 2. page floods and watchers


async def test_a_page_flood_builds_few_pages_and_they_go(create_user: Callable[[], User],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_limits, "CONNECT_GRACE", 0.3)
    host = at(create_user(), TABLE)
    room = await create_room(host)
    pages_before = len(Client.instances)
    stranger = at(create_user(), STRANGER)
    statuses: Counter[int] = Counter()
    for _ in range(200):  # plain GETs, a new cookie-less browser each time
        stranger.http_client.cookies.clear()
        statuses[(await stranger.http_client.get(f"/r/{room.code}")).status_code] += 1
    assert statuses[200] <= ratelimit.PAGE.burst and statuses[429] == 200 - statuses[200], statuses
    assert len(Client.instances) - pages_before <= page_limits.WATCHERS
    STATS.add("page loads answered with a light page", statuses[429])
    await asyncio.sleep(0.6)
    assert len(Client.instances) == pages_before  # none of them connected: all gone
    assert len(room.subscribers) == 1
    await host.open(f"/r/{room.code}")
    await host.should_see(marker="start")


async def test_one_browser_reloading_builds_its_budget_only(create_user: Callable[[], User]) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    watcher = at(create_user(), TABLE)
    codes = [(await watcher.http_client.get(f"/r/{room.code}")).status_code for _ in range(40)]
    assert codes.count(200) == ratelimit.PAGE_BROWSER.burst and codes[-1] == 429
    other = at(create_user(), TABLE)  # the same network, another phone: not affected
    await other.open(f"/r/{room.code}")
    await other.should_see(marker="join-name")


async def test_a_full_room_makes_room_from_the_flooders_pages(create_user: Callable[[], User],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_limits, "WATCHERS", 4)
    monkeypatch.setattr(page_limits, "FAIR_SHARE", 1)
    host = at(create_user(), TABLE)
    room = await create_room(host)
    flood = [at(create_user(), STRANGER) for _ in range(4)]
    for user in flood:
        await user.open(f"/r/{room.code}")
    late = at(create_user(), TABLE)
    await late.open(f"/r/{room.code}")  # the stranger's newest page closes for it
    await late.should_see(marker="join-name")
    assert sum(1 for user in flood if user.client is not None and not user.client.is_deleted) == 3
    others = [at(create_user(), f"203.0.113.{number}") for number in range(3)]
    for user in others[:2]:
        await user.open(f"/r/{room.code}")
    answer = await others[2].http_client.get(f"/r/{room.code}")  # nobody holds more than his share: full
    assert answer.status_code == 429 and "as many watchers as it can take" in answer.text
    STATS.add("watchers refused by a full room", 1)


async def test_a_seat_keeps_a_few_pages_and_a_reload_flood_waits(create_user: Callable[[], User],
                                                                  fresh_limits: FakeTime) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    for _ in range(page_limits.SEAT_PAGES + 4):
        await host.open(f"/r/{room.code}")
    assert len(room.subscribers) == page_limits.SEAT_PAGES
    await host.should_see(marker="start")
    answers = [(await host.http_client.get(f"/r/{room.code}")).status_code for _ in range(20)]
    assert answers[-1] == 429 and answers.count(200) < 20  # a flood of reloads waits a moment ...
    fresh_limits.advance(2.5)
    await host.open(f"/r/{room.code}")  # ... and the seat's page comes back
    await host.should_see(marker="start")
    assert len(room.subscribers) <= page_limits.SEAT_PAGES


# ---------------------------------------------------------------- 3 and 6. the socket


async def test_socket_messages_count_only_from_their_own_pages_socket(user: User, monkeypatch: pytest.MonkeyPatch,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    await user.open("/")
    client = user.client
    assert client is not None
    handled: list[dict[str, Any]] = []
    monkeypatch.setattr(Client, "handle_event", lambda _self, msg: handled.append(msg))
    handlers = core.sio.handlers["/"]
    own = page_sockets.sockets_of(client)[0]
    tap_message = {"client_id": client.id, "id": 3, "listener_id": "l", "args": []}
    handlers["event"]("a-bare-socket", dict(tap_message))
    assert handled == []  # knowing the page's id is not enough
    handlers["event"](own, dict(tap_message))
    assert len(handled) == 1
    for junk in ("junk", {"client_id": client.id}, {"client_id": client.id, "id": "3", "listener_id": "l"},
                 {"client_id": client.id, "id": 3, "listener_id": "l", "args": {"a": 1}}, None, [1, 2]):
        handlers["event"](own, junk)
    assert len(handled) == 1
    with caplog.at_level(logging.DEBUG):
        handlers["log"](own, {"client_id": client.id, "level": "error", "message": "x" * 100_000})
        handlers["ack"]("a-bare-socket", {"client_id": client.id, "next_message_id": 10**9})
    assert not any("x" * 1000 in record.getMessage() for record in caplog.records)
    assert socket_guard.DROPPED["browser log line"] >= 1
    assert core.sio.eio.max_http_buffer_size == transport.MAX_MESSAGE_BYTES
    STATS.add("forged or malformed socket messages dropped", 9)


def signed_session(secret: str, session_id: str) -> str:
    return TimestampSigner(secret).sign(base64.b64encode(json.dumps({"id": session_id}).encode())).decode()


async def test_a_handshake_needs_the_pages_own_browser(user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core.app.storage, "secret", "test secret")
    await user.open("/")
    client = user.client
    assert client is not None
    browser = client.request.session["id"]
    assert socket_guard.session_id(f"session={signed_session('test secret', browser)}", "test secret") == browser
    assert socket_guard.session_id(f"session={signed_session('another secret', browser)}", "test secret") is None
    query = f"client_id={client.id}&implicit_handshake=true&tab_id=t&document_id=d&EIO=4&transport=websocket"
    stranger = {"QUERY_STRING": query, "HTTP_COOKIE": f"session={signed_session('test secret', 'someone-else')}"}
    with pytest.raises(socketio.exceptions.ConnectionRefusedError):
        await core.sio.handlers["/"]["connect"]("a-bare-socket", stranger, None)
    assert await core.sio.handlers["/"]["handshake"](
        "another-bare-socket", {"client_id": client.id, "tab_id": "t", "document_id": "d"}) is False
    # no socket id skips the check: one named as NiceGUI's simulated phones name theirs is a stranger's socket too
    assert await core.sio.handlers["/"]["handshake"](
        "test-a-bare-socket", {"client_id": client.id, "tab_id": "t", "document_id": "d"}) is False
    assert socket_guard.same_browser({"HTTP_COOKIE": f"session={signed_session('test secret', browser)}"},
                                     client.id)


# ---------------------------------------------------------------- 4. the QR code


async def test_the_qr_code_answers_only_a_browser_that_opened_the_room(create_user: Callable[[], User]) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    stranger = at(create_user(), STRANGER)
    assert (await stranger.http_client.get(f"/qr/{room.code}")).status_code == 404
    assert (await stranger.http_client.get("/qr/QQQQQ")).status_code == 404
    assert (await host.http_client.get(f"/qr/{room.code}")).status_code == 200  # the lobby's own image
    await stranger.open(f"/r/{room.code}")
    assert (await stranger.http_client.get(f"/qr/{room.code}")).status_code == 200


# ---------------------------------------------------------------- 5. the chat


async def day_room(fake_time: FakeTime) -> tuple[rooms.Room, list[str]]:
    tokens = [store.new_seat_token() for _ in range(6)]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules="uz", language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    hashes = [store.hash_token(token) for token in tokens]
    await room.start(hashes[0])
    assert room.state is not None
    await room.skip(hashes[0], room.state.step)  # night -> day: everyone alive may talk
    living = [seat.token_hash for seat in room.seating if room.state.alive[room.game_seat(seat.token_hash) - 1]]
    return room, living


def chat_model(room: rooms.Room, view: GameView) -> list[dict[str, Any]]:
    """The chat part as the page draws it from its projection (read again, as a room change makes it)."""
    view.proj = room.projection(view.page.token_hash)
    assert view.proj is not None
    view.p = view.proj.view
    draft = Draft()
    view.chat(draft)
    return revealed_nodes(draft.nodes)  # as its owner sees it (a mafia member's covered chat is drawn beside it)


def chat_lines(room: rooms.Room, view: GameView) -> list[str]:
    """The chat's lines the page shows (elements of their own in the part's slot: ``ChatPart.sync``)."""
    chat_model(room, view)
    return [line.text for line, _hidden in view.chat_part.wanted]


async def test_the_chat_draws_its_last_lines_and_older_ones_on_request(db: Path, fake_time: FakeTime) -> None:
    room, living = await day_room(fake_time)
    for number in range(60):
        await room.say(living[number % len(living)], "room", f"line {number:02d}")
        fake_time.advance(2.1)
    page = SimpleNamespace(room=room, t=translator("en"), token_hash=living[0],
                           start_or_chat=SimpleNamespace(refresh=lambda: None))
    view = GameView(page)  # type: ignore[arg-type]
    view.p = {"chat": {"read": ["room"], "write": ["room"]}}
    shown = [text for text in chat_lines(room, view) if text.startswith("line ")]
    assert shown == [f"line {number:02d}" for number in range(60 - chat_limits.SHOWN, 60)]
    draft = Draft()
    view.proj = room.projection(living[0])
    view.chat(draft)
    draft.handlers["chat-earlier"]()
    shown = [text for text in chat_lines(room, view) if text.startswith("line ")]
    assert shown == [f"line {number:02d}" for number in range(60 - 2 * chat_limits.SHOWN, 60 - chat_limits.SHOWN)]
    await room.say(living[1], "room", "a new line")  # the page of older lines stays where it is
    assert "a new line" not in chat_lines(room, view)
    draft = Draft()
    view.chat(draft)
    draft.handlers["chat-latest"]()
    shown = [text for text in chat_lines(room, view) if text.startswith(("line ", "a new"))]
    assert shown[-1] == "a new line" and len(shown) == chat_limits.SHOWN


async def test_refused_lines_count_against_flood_control(db: Path, fake_time: FakeTime) -> None:
    room, living = await day_room(fake_time)
    writer = living[0]
    for _ in range(chat_limits.CHAT_BURST):
        with pytest.raises(Refusal):
            await room.say(writer, "room", "x" * (chat_limits.CHAT_MAX_LENGTH + 1))
    with pytest.raises(Refusal) as refused:
        await room.say(writer, "room", "a fine line")
    assert refused.value.msgid == "You are writing too fast. Wait a few seconds."
    fake_time.advance(chat_limits.CHAT_WINDOW)
    started = time.perf_counter()
    with pytest.raises(Refusal) as refused:
        await room.say(writer, "room", "é" * 1_000_000)
    assert time.perf_counter() - started < 0.01  # refused from its length, not walked through (45-90 ms before)
    assert refused.value.msgid == "A message can have at most {count} characters."
    STATS.add("inputs fuzzed: flood", 2)


# ---------------------------------------------------------------- 7. names and seats


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800\u2800", "Anna\u3164", "\u115f\u1160",
                                  "a\u0301\u0302\u0303", "Zalgo" + "\u0336" * 20, "\u0301Anna",
                                  "אבג .1", "1 אבג", "عمر 7"])
def test_names_that_hide_or_pretend_are_refused(name: str) -> None:
    with pytest.raises(Refusal):
        clean_name(name, [])


@pytest.mark.parametrize("name", ["Anna", "Zoë", "Nguyễn", "क्षितिज", "Олена", "אבג", "عمر", "Ali 2", "李雷"])
def test_ordinary_names_stay_welcome(name: str) -> None:
    assert clean_name(name, []) == name


async def test_two_tabs_opened_before_joining_take_one_seat(create_user: Callable[[], User]) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    guest = at(create_user(), TABLE)
    await guest.open(f"/r/{room.code}")
    first_tab = screen_with(guest, "join")
    assert first_tab is not None
    await guest.open(f"/r/{room.code}")  # a second tab, before joining in either
    await first_tab.tap("join", {"text": "Olena"})
    await wait_for(lambda: len(room.seats) == 2)
    tap(guest, "join", {"text": "Olena again"})
    await asyncio.sleep(0.2)
    assert [seat.name for seat in room.seats] == ["Host", "Olena"]
    assert node(guest, "join-name") is None or len(room.seats) == 2


async def test_joining_in_bulk_is_limited_per_browser_not_per_table(create_user: Callable[[], User]) -> None:
    host = at(create_user(), TABLE)
    room = await create_room(host)
    for number in range(25):  # a table of 26 on one Wi-Fi joins within a minute
        await join(at(create_user(), TABLE), room, f"Player {number}")
    assert len(room.seats) == 26


# ---------------------------------------------------------------- 8. where things live


def test_browser_storage_lives_in_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   environment: Environment) -> None:
    from nicegui.storage import Storage

    monkeypatch.setattr(Storage, "path", Storage.path)  # put back after the test
    environment.unset("NICEGUI_STORAGE_PATH")
    environment.set("MAFIA_DATA_DIR", str(tmp_path / "data"))
    assert webgame_app.place_browser_storage() == (tmp_path / "data" / "browsers").resolve() == Storage.path
    environment.set("NICEGUI_STORAGE_PATH", str(tmp_path / "elsewhere"))
    assert webgame_app.place_browser_storage() == (tmp_path / "elsewhere").resolve()


def test_uvicorn_does_not_take_forwarded_addresses() -> None:
    import uvicorn

    config = uvicorn.Config(lambda *_: None, **{key: value for key, value in transport.RUN_KWARGS.items()
                                               if key in ("proxy_headers", "ws_per_message_deflate")})
    assert config.proxy_headers is False  # X-Forwarded-For counts only in ratelimit.client_address, with TRUST_PROXY


async def test_a_seats_page_waits_longer_for_its_socket_than_a_strangers(create_user: Callable[[], User],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart a busy server may take long to answer every phone's reload and then its socket; a seated
    player's page deleted before its socket came made the phone reload and the server build it again."""
    monkeypatch.setattr(page_limits, "CONNECT_GRACE", 0.3)
    monkeypatch.setattr(page_limits, "SEAT_CONNECT_GRACE", 1.2)
    host = at(create_user(), TABLE)
    room = await create_room(host)
    stranger = at(create_user(), STRANGER)
    pages_before = set(Client.instances)
    assert (await host.http_client.get(f"/r/{room.code}")).status_code == 200  # his page, its socket not yet there
    assert (await stranger.http_client.get(f"/r/{room.code}")).status_code == 200
    seat_page, stranger_page = (Client.instances[key] for key in Client.instances if key not in pages_before)
    await asyncio.sleep(0.6)
    assert stranger_page.is_deleted and not seat_page.is_deleted
    await asyncio.sleep(1.0)
    assert seat_page.is_deleted

"""Authority: the server decides who may do what, whatever a page offered or a client forged.

- every room method checked with the wrong tokens (another seat, a non-host, nobody, a random token, the
  host of another room): refused, and the room exactly as before (state, settings, seats, database log);
- a non-host's own page, given the host's controls anyway (as a forged client would), gets refusals;
- seat tokens: 192 random bits, never stored (only their SHA-256), useless in another room;
- rate limits (creating rooms per address; wrong codes per browser, then loosely per address),
  X-Forwarded-For only when trusted;
- the session cookie is HttpOnly and SameSite=Lax (Secure on request); the storage secret comes from the
  environment or is made once and kept.
"""

from __future__ import annotations

import copy
import math
import os
import stat
import string
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from nicegui import ui
from nicegui.testing import User

from engine.actions import Deadline, EndSpeech, Foul, NightAct, Ready, Vote
from engine.errors import RuleError
from tests.conftest import Environment
from webgame.browser import identity
from webgame.errors import Refusal
from webgame.guard import ratelimit
from webgame.pages.screen import Screen
from webgame.room import rooms
from webgame.room.rooms import Room, Stage
from webgame.store import queries as store
from webgame.store.models import Seat

from .conftest import FakeTime
from .stats import STATS

pytestmark = pytest.mark.usefixtures("fresh_limits")


@pytest.fixture
def fresh_limits() -> None:
    ratelimit.reset_all()


async def make_room(players: int, rules: str = "uz", host_name: str = "Host") -> tuple[Room, list[str], list[str]]:
    tokens = [store.new_seat_token() for _ in range(players)]
    room = await rooms.registry.create(token=tokens[0], name=host_name, rules=rules, language="en")
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    return room, tokens, [store.hash_token(token) for token in tokens]


def snapshot(room: Room) -> dict[str, Any]:
    """Everything a request could change."""
    return {
        "rules": room.rules, "options": dict(room.options), "timers": dict(room.timers),
        "moderated": room.moderated, "host": room.host_hash, "limits": (room.min_players, room.max_players),
        "seats": [(s.id, s.name, s.position) for s in room.seats], "stage": room.stage,
        "state": copy.deepcopy(room.state), "deadline": room.deadline, "paused": room.paused_remaining,
        "chat": list(room.chat),
    }


async def refused(room: Room, call: Awaitable[Any]) -> None:
    before = snapshot(room)
    log = len(await store.load_actions(room.game_id)) if room.game_id else 0
    with pytest.raises((Refusal, RuleError)):
        await call
    assert snapshot(room) == before
    assert (len(await store.load_actions(room.game_id)) if room.game_id else 0) == log
    STATS.add("forbidden requests refused", 1)


async def test_host_only_controls_refuse_everyone_else(db: Path, fake_time: FakeTime) -> None:
    room, _tokens, hashes = await make_room(6)
    other, _other_tokens, other_hashes = await make_room(4, host_name="Other host")
    seat_ids = [seat.id for seat in room.seats]
    strangers = [hashes[1], hashes[5], None, store.hash_token(store.new_seat_token()), other_hashes[0], ""]
    for who in strangers:
        for call in (
            room.set_rules(who, "uk"), room.set_option(who, "night_seconds", 60),
            room.set_option(who, "reveal_roles_on_death", False), room.set_player_limits(who, 4, 5),
            room.set_moderated(who, True), room.move_seat(who, seat_ids[2], -1), room.remove_seat(who, seat_ids[3]),
            room.make_host(who, seat_ids[1]), room.start(who),
        ):
            await refused(room, call)
    await room.start(hashes[0])
    assert room.state is not None
    for who in strangers:
        step = room.state.step
        for call in (room.skip(who, step), room.pause(who), room.resume(who), room.extend(who), room.play_again(who),
                     room.make_host(who, seat_ids[1])):
            await refused(room, call)
    # The host himself cannot hand over in a game, nor end a step of another screen (a stale tab).
    await refused(room, room.make_host(hashes[0], seat_ids[1]))
    await refused(room, room.skip(hashes[0], room.state.step - 1))
    del other


async def test_actions_are_checked_against_the_seat_and_the_rules(db: Path, fake_time: FakeTime) -> None:
    room, _tokens, hashes = await make_room(6)
    other, _other_tokens, other_hashes = await make_room(6, host_name="Other host")
    await room.start(hashes[0])
    await other.start(other_hashes[0])
    assert room.state is not None
    for seat in range(1, 7):
        mine = room.seating[seat - 1].token_hash
        others = [h for h in hashes if h != mine] + [None, other_hashes[seat - 1], store.hash_token("guess")]
        for who in others:
            await refused(room, room.act(who, NightAct(seat, "pass")))  # for another seat
        await refused(room, room.act(mine, Deadline(room.state.step)))  # only the clock or the host
        await refused(room, room.act(mine, Foul(seat, 1)))  # only a moderator, and not in uz
        await refused(room, room.act(mine, Vote(seat, 1)))  # not now: it is night
        await refused(room, room.act(mine, Ready(seat)))
        await refused(room, room.act(mine, NightAct(seat, "pass", note=True)))
        await refused(room, room.act(mine, NightAct(seat, "kill", 99)))
        await refused(room, room.act(mine, EndSpeech(seat)))
    # A token of room B does nothing in room A, and the other way round.
    for seat in range(1, 7):
        await refused(other, other.act(room.seating[seat - 1].token_hash, NightAct(seat, "pass")))
        await refused(room, room.say(other_hashes[seat - 1], "room", "hello"))
    assert room.viewer(other_hashes[1]).kind == "spectator"
    assert room.seat_by_hash(other_hashes[1]) is None


async def test_the_moderator_fouls_and_nobody_else(db: Path, fake_time: FakeTime) -> None:
    room, _tokens, hashes = await make_room(13, rules="uk")
    await room.set_moderated(hashes[0], True)
    await room.start(hashes[0])
    assert room.state is not None
    for who in [*hashes[1:], None, store.hash_token("nobody")]:
        await refused(room, room.act(who, Foul(2, 1)))
    await refused(room, room.act(hashes[0], EndSpeech(1)))  # the moderator plays no seat
    await refused(room, room.act(hashes[0], Foul(2, 0.7)))  # 0.5 or 1
    await room.act(hashes[0], Foul(2, 1))
    assert room.state.fouls == {2: 1.0}


async def test_a_non_hosts_page_given_the_hosts_controls_gets_refusals(create_user: Callable[[], User],
                                                                        fake_time: FakeTime) -> None:
    """A forged client could send any event its page knows; here the non-host's page holds the host's controls
    (built with his own token, as a tampered page would be) and every one of them is refused by the room."""
    from tests.web.helpers import create_room, join, wait_for

    host, guest = create_user(), create_user()
    room = await create_room(host, "Host")
    for name in ("A", "B", "C"):
        await room.join(store.new_seat_token(), name)
    await join(guest, room, "Guest")
    page = next(s for s in room.subscribers if getattr(s, "client", None) is guest.client)
    assert page.token_hash is not None and not room.is_host(page.token_hash)
    await guest.should_not_see(marker="start")
    before = snapshot(room)
    assert guest.client is not None
    seat_id = room.seats[1].id
    with guest.client, ui.column():
        page.lobby.host_settings()
        forged = Screen(lambda d: page.lobby._seat_controls(d, seat_id, 1, len(room.seats), False, False))
    guest.find(marker="rules").elements.pop().value = "uk"
    guest.find(marker="option-reveal_roles_on_death").elements.pop().value = False
    with guest.client:
        await forged.tap(f"remove-{seat_id}")
        await forged.tap(f"host-{seat_id}")
        await forged.tap(f"up-{seat_id}")
        await forged.tap(f"move-for-{seat_id}")  # a one-time code to take this seat on another phone
    await guest.should_see("Only the host can do that.")
    await wait_for(lambda: True)
    assert snapshot(room) == before
    assert room.live_code(seat_id) is None  # no code to take that seat was made for the guest
    STATS.add("forbidden requests refused", 6)


def test_seat_tokens_cannot_be_guessed() -> None:
    tokens = [store.new_seat_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    alphabet = set(string.ascii_letters + string.digits + "-_")
    assert all(set(token) <= alphabet and len(token) == 32 for token in tokens)
    assert len(tokens[0]) * math.log2(len(alphabet)) >= 128  # 192 bits
    counts = Counter("".join(tokens))
    assert len(counts) == 64 and max(counts.values()) / min(counts.values()) < 1.5  # no visible bias
    assert store.hash_token(tokens[0]) != tokens[0] and len(store.hash_token(tokens[0])) == 64


async def test_the_database_never_holds_a_token(db: Path) -> None:
    room, tokens, hashes = await make_room(4)
    rows = await Seat.filter(room_id=room.id).values_list("token_hash", flat=True)
    assert sorted(rows) == sorted(hashes)
    raw = (db / "mafia.sqlite3").read_bytes() + b"".join(
        p.read_bytes() for p in db.glob("mafia.sqlite3-*") if p.is_file())
    assert not any(token.encode() in raw for token in tokens)


# ---------------------------------------------------------------- rate limits


def test_a_bucket_gives_a_burst_then_a_steady_rate() -> None:
    clock = FakeTime(0.0)
    limiter = ratelimit.Limiter("test", burst=5, per_minute=2, now=clock)
    assert all(limiter.spend("203.0.113.9") for _ in range(5))
    assert not limiter.spend("203.0.113.9") and limiter.blocked("203.0.113.9")
    assert limiter.spend("198.51.100.7")  # another address has its own bucket
    clock.advance(29)
    assert not limiter.spend("203.0.113.9")
    clock.advance(1)
    assert limiter.spend("203.0.113.9") and not limiter.spend("203.0.113.9")
    assert all(limiter.spend("127.0.0.1") for _ in range(100))  # the machine itself is not limited
    clock.advance(3600)
    limiter.forget_full()
    assert "203.0.113.9" not in limiter.buckets


def test_forwarded_addresses_count_only_behind_a_trusted_proxy(environment: Environment) -> None:
    class Request:
        headers = {"x-forwarded-for": "1.2.3.4, 203.0.113.5"}
        client = type("Client", (), {"host": "10.0.0.2"})()

    environment.unset("TRUST_PROXY")
    assert ratelimit.client_address(Request()) == "10.0.0.2"
    environment.set("TRUST_PROXY", "1")
    assert ratelimit.client_address(Request()) == "203.0.113.5"  # what our proxy saw, not what the client claims


async def test_creating_joining_and_guessing_are_rate_limited(create_user: Callable[[], User],
                                                              environment: Environment) -> None:
    from tests.web.helpers import wait_for

    environment.set("TRUST_PROXY", "1")
    prankster = create_user()
    prankster.http_client.headers["X-Forwarded-For"] = "203.0.113.66"
    prankster.http_client.headers["Accept-Language"] = "ru"
    await prankster.open("/")
    for number in range(ratelimit.CREATE.burst):
        prankster.find(marker="create-name").type(f"P{number}")
        prankster.find(marker="create").click()
        await wait_for(lambda n=number: len(rooms.registry.rooms) == n + 1)
        await prankster.open("/")
    count = len(rooms.registry.rooms)
    prankster.find(marker="create-name").type("One more")
    prankster.find(marker="create").click()
    await prankster.should_see("Слишком много попыток из вашей сети. Подождите минуту и попробуйте снова.")
    assert len(rooms.registry.rooms) == count
    STATS.add("rate-limited requests", 1)

    guesser = create_user()
    guesser.http_client.headers["X-Forwarded-For"] = "198.51.100.23"
    real = next(iter(rooms.registry.rooms))
    for attempt in range(ratelimit.WRONG_CODE_BROWSER.burst):
        await guesser.open(f"/r/QQQ{attempt:02d}")
        await guesser.should_see("There is no room with this code.")
    # Out of attempts: every code, the right one too, gets the same small page that waits (no lookup is made):
    # the right code is delayed, never refused, and the guess tells nothing.
    waiting = await guesser.http_client.get(f"/r/{real}")
    assert waiting.status_code == 429 and "Too many wrong room codes from this browser or network" in waiting.text
    assert int(waiting.headers["Retry-After"]) >= 1
    await guesser.open("/")
    guesser.find(marker="join-code").type(real)
    guesser.find(marker="join-room").click()
    await wait_for(lambda: guesser.notify.contains("Too many wrong room codes from this browser or network"))
    STATS.add("rate-limited requests", 2)

    neighbour = create_user()  # another browser on the same network is not affected
    neighbour.http_client.headers["X-Forwarded-For"] = "198.51.100.23"
    await neighbour.open(f"/r/{real}")
    await neighbour.should_see(marker="join-name")
    friend = create_user()  # nor another address
    friend.http_client.headers["X-Forwarded-For"] = "192.0.2.10"
    await friend.open(f"/r/{real}")
    await friend.should_see(marker="join-name")


# ---------------------------------------------------------------- cookies and the storage secret


async def test_the_session_cookie_is_httponly_and_samesite(user: User) -> None:
    response = await user.http_client.get("/")
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie


def test_secure_cookies_on_request(environment: Environment) -> None:
    from starlette.applications import Starlette
    from starlette.middleware.sessions import SessionMiddleware
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from webgame.browser import transport

    def page(request: Any) -> PlainTextResponse:
        request.session["id"] = "x"
        return PlainTextResponse("ok")

    environment.set("SECURE_COOKIES", "1")
    app = Starlette(routes=[Route("/", page)])
    app.add_middleware(SessionMiddleware, secret_key="k", **transport.session_cookie_kwargs())
    cookie = TestClient(app, base_url="https://testserver").get("/").headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" in cookie


def test_the_storage_secret_comes_from_the_environment_or_is_kept(tmp_path: Path,
                                                                   environment: Environment) -> None:
    environment.set("STORAGE_SECRET", "from the environment")
    assert identity.storage_secret() == "from the environment"
    environment.unset("STORAGE_SECRET")
    environment.set("MAFIA_DATA_DIR", str(tmp_path / "data"))
    first = identity.storage_secret()
    kept = tmp_path / "data" / identity.SECRET_FILE_NAME
    assert len(first) >= 40 and kept.read_text().strip() == first
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert identity.storage_secret() == first  # the same after a restart: seats survive
    kept.write_text("")
    assert identity.storage_secret() not in ("", first)  # an emptied file gets a new secret


async def test_unknown_rule_sets_and_rooms(db: Path) -> None:
    with pytest.raises(Refusal):
        await rooms.registry.create(token=store.new_seat_token(), name="X", rules="poker", language="en")
    for code in ("", " ", "A" * 100, "../../etc", "ZZZZZ", "\x00"):
        assert await rooms.registry.find(code) is None
    assert Stage.LOBBY.value == "lobby"

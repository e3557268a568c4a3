"""Browsers' server-side storage (issue 26, point 4): a visitor who only picks a language costs a cookie, not a
file; a storage without a seat expires after 7 days, one with a seat after 15 days without use (on files here;
the same on PostgreSQL rows in tests/cluster/test_browser_storage.py)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from nicegui.storage import Storage
from nicegui.testing import User

from webgame.browser import language_cookie, storage_expiry

from .helpers import create_room, tap, wait_for

DAY = storage_expiry.DAY


def storage_files() -> list[Path]:
    return sorted(Path(Storage.path).glob("storage-user-*.json"))


async def test_a_visitor_who_only_picks_a_language_leaves_no_storage(create_user: Callable[[], User]) -> None:
    before = storage_files()
    visitors = [create_user() for _ in range(20)]
    for number, visitor in enumerate(visitors):
        await visitor.open("/")
        tap(visitor, "language", ("uk", "ru", "uz", "ro")[number % 4])
    for number, visitor in enumerate(visitors):
        await visitor.should_see(("Нова кімната", "Новая комната", "Yangi xona", "Cameră nouă")[number % 4])
        assert visitor.http_client.cookies.get(language_cookie.LANG_COOKIE) == ("uk", "ru", "uz", "ro")[number % 4]
    await visitors[0].open("/")  # the choice is kept (in the cookie)
    await visitors[0].should_see("Нова кімната")
    assert storage_files() == before  # no file for any of them (before: one each, kept for ever)


async def test_the_language_picked_in_a_room_stays_with_the_room_page(create_user: Callable[[], User]) -> None:
    host = create_user()
    room = await create_room(host)
    await wait_for(lambda: len(storage_files()) == 1)  # written in the background
    files = storage_files()
    assert len(files) == 1 and "seats" in json.loads(files[0].read_text(encoding="utf-8"))  # the host's seat
    guest = create_user()
    await guest.open(f"/r/{room.code}?from=qr")
    tap(guest, "language", "ro")
    await guest.should_see("Intră în acest joc")
    went = guest.back_history[-1]  # the picker's switch, which sends the phone back to the page it was on
    assert (await guest.http_client.get(went)).headers["location"] == f"/r/{room.code}?from=qr"
    assert storage_files() == files  # a visitor of the room: still no file


def test_the_language_switch_goes_back_only_to_this_site() -> None:
    assert language_cookie.safe_next("/r/K7QXM?move=ABCDEFGH") == "/r/K7QXM?move=ABCDEFGH"
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "evil", "", None):
        assert language_cookie.safe_next(target) == "/"
    assert language_cookie.switch_path("uk", "/r/K7QXM?move=A") == "/lang/uk?next=/r/K7QXM%3Fmove%3DA"


async def test_an_unknown_language_sets_no_cookie(user: User) -> None:
    response = await user.http_client.get("/lang/xx?next=/")
    assert response.status_code == 303 and response.headers["location"] == "/"
    assert language_cookie.LANG_COOKIE not in response.headers.get("set-cookie", "")
    response = await user.http_client.get("/lang/uz?next=https://evil.example/")
    assert response.headers["location"] == "/" and "mafia_lang=uz" in response.headers["set-cookie"]
    assert "httponly" in response.headers["set-cookie"].lower()


def write(folder: Path, name: str, data: object, age_days: float, now: float) -> Path:
    path = folder / f"storage-user-{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return path


def test_expired_storage_files_are_removed(tmp_path: Path) -> None:
    now = time.time()
    seat = {"seats": {"K7QXM": "token"}}
    kept = [write(tmp_path, "fresh-language", {"lang": "uk"}, 6.9, now),
            write(tmp_path, "seat-two-weeks", seat, storage_expiry.SEATED_DAYS - 0.1, now),
            write(tmp_path, "empty-new", {}, 1, now)]
    general = tmp_path / "storage-general.json"
    general.write_text("{}", encoding="utf-8")
    os.utime(general, (now - 400 * DAY, now - 400 * DAY))
    removed = [write(tmp_path, "old-language", {"lang": "uk"}, 7.1, now),
               write(tmp_path, "old-empty-seats", {"seats": {}, "lang": "ru"}, 8, now),
               write(tmp_path, "seat-gone-cookie", seat, storage_expiry.SEATED_DAYS + 0.1, now)]
    (tmp_path / "storage-user-unreadable.json").write_text("{not json", encoding="utf-8")
    os.utime(tmp_path / "storage-user-unreadable.json", (now - 8 * DAY, now - 8 * DAY))
    assert storage_expiry.sweep_files(tmp_path, now) == len(removed) + 1
    assert all(path.exists() for path in [*kept, general])
    assert not any(path.exists() for path in removed)
    assert storage_expiry.SEATLESS_DAYS == 7 and storage_expiry.SEATED_DAYS == 15


async def test_a_seat_in_use_does_not_expire(create_user: Callable[[], User], monkeypatch: pytest.MonkeyPatch) -> None:
    host = create_user()
    room = await create_room(host)
    await wait_for(lambda: len(storage_files()) == 1)
    (path,) = storage_files()
    old = time.time() - (storage_expiry.SEATED_DAYS - 1) * DAY
    os.utime(path, (old, old))  # two weeks without a visit ...
    storage_expiry._TOUCHED.clear()  # noqa: SLF001 - (this process last marked it when the room was made)
    await host.open(f"/r/{room.code}")  # ... then the weekly game
    assert path.stat().st_mtime > time.time() - 60
    later = time.time() + (storage_expiry.SEATED_DAYS - 1) * DAY
    assert storage_expiry.sweep_files(path.parent, later) == 0 and path.exists()
    os.utime(path, (old, old))
    await host.open(f"/r/{room.code}")  # the same day again: not marked again (no write at every page)
    assert path.stat().st_mtime == pytest.approx(old)
    monkeypatch.setattr(storage_expiry, "TOUCH_EVERY", 0.0)
    storage_expiry.touch({})  # a plain dict (no file or row behind it): nothing to mark, no error
    await host.open(f"/r/{room.code}")
    assert path.stat().st_mtime > time.time() - 60

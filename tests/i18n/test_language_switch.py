"""Simulated phones: the language picker changes the screen, and one table plays in several languages
(each phone its own, whatever the room's rule set)."""

from __future__ import annotations

from collections.abc import Callable

from nicegui.testing import User

from engine.roles import ROLE_TABLES, Role
from webgame.language.i18n import translator

# The web tests' per-test data folder, empty registry and module bookkeeping (autouse), and their helpers.
from ..web.conftest import isolated_data  # noqa: F401
from ..web.helpers import click_when_enabled, create_room, join, node, settle, tap, wait_for


def language(user: User) -> str:
    """The language the page's picker shows (the header part's select node)."""
    picker = node(user, "language")
    assert picker is not None and picker["t"] == "select"
    return str(picker["v"])


async def test_the_language_picker_changes_the_home_page(user: User) -> None:
    await user.open("/")
    await user.should_see("Start a new room")
    tap(user, "language", "uk")
    await user.should_see("Нова кімната")
    await user.should_see("Створити кімнату")
    await user.should_not_see("Start a new room")
    assert language(user) == "uk"

    tap(user, "language", "uz")
    await user.should_see("Yangi xona")
    await user.should_not_see("Нова кімната")

    await user.open("/")  # the choice is kept in the browser's storage
    await user.should_see("Yangi xona")


async def test_the_language_picker_changes_the_room_page(create_user: Callable[[], User]) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, "Host", "uk")
    await guest.open(f"/r/{room.code}")
    await guest.should_see("Join this game")
    tap(guest, "language", "ro")
    await guest.should_see("Intră în acest joc")
    await guest.should_see("Reguli de club ucrainene (8–14 jucători)")
    await guest.should_not_see("Join this game")
    await host.should_see(room.code)  # the host's phone stays English
    await host.should_not_see("Intră în acest joc")


PHONES = [("en", "Night 1"), ("uk", "Ніч 1"), ("ru", "Ночь 1"), ("ro", "Noaptea 1"), ("uz", "1-tun")]


async def test_one_table_many_languages(create_user: Callable[[], User]) -> None:
    """A uz game on five phones set to five languages: each sees the night and its own role in its language."""
    users = [create_user() for _ in PHONES]
    for phone, (language, _title) in zip(users, PHONES, strict=True):
        phone.http_client.headers["accept-language"] = language
    room = await create_room(users[0], "P1", "uz")
    for number, phone in enumerate(users[1:], 2):
        await join(phone, room, f"P{number}")
    await click_when_enabled(users[0], "start")
    await wait_for(lambda: room.state is not None)
    await settle()
    assert room.state is not None
    for seat, (phone, (language, night_title)) in enumerate(zip(users, PHONES, strict=True), 1):
        await phone.should_see(night_title, marker="phase")
        role = ROLE_TABLES["uz"][Role(room.state.role(seat))]
        await phone.should_see(translator(language)(role.name), marker="my-role")
        if language != "en":
            await phone.should_not_see("Night 1", marker="phase")

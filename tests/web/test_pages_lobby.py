"""Home and lobby through simulated phones: creating, joining, refusals, the host's controls."""

from __future__ import annotations

import httpx
import pytest
from nicegui.testing import User

from webgame.room import rooms

from .helpers import click_when_enabled, create_room, join, node, page_dump, seat_directly, tap, wait_for


async def test_healthz(user: User) -> None:
    response = await user.http_client.get("/healthz")
    assert response.status_code == 200 and response.text == "ok"


async def test_create_a_room_then_join_it_by_code(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, "Aziz")
    await host.should_see(room.code)
    await host.should_see(content="Aziz")

    await guest.open("/")
    guest.find(marker="join-code").type(" " + room.code.lower()[:2] + " " + room.code.lower()[2:])
    guest.find(marker="join-room").click()
    await guest.should_see(marker="join-name")
    await guest.should_see("Your name")
    tap(guest, "join", {"text": "Olena"})  # the form sends what was typed with the tap
    await wait_for(lambda: len(room.seats) == 2)
    await host.should_see(content="Olena")  # the host's lobby updates by itself
    await guest.should_not_see(marker="start")  # only the host starts
    assert "Waiting for players" in page_dump(guest)


async def test_unknown_codes_and_bad_names_are_refused(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host)
    await guest.open("/")
    guest.find(marker="join-code").type("ZZZZZ")
    guest.find(marker="join-room").click()
    await guest.should_see("There is no room with this code.")
    guest.find(marker="join-code").type("!!")
    guest.find(marker="join-room").click()
    await guest.should_see("A room code has 5 letters and digits, like K7QXM.")

    await guest.open(f"/r/{room.code}")
    tap(guest, "join", {"text": ""})
    await guest.should_see("Please enter your name.")
    tap(guest, "join", {"text": "x" * 25})
    await guest.should_see("A name can have at most 24 characters.")
    tap(guest, "join-name", {"text": "HOST"})  # Enter in the field
    await guest.should_see("The name HOST is already taken in this room.")
    tap(guest, "join", {"not": "a name"})  # a forged tap: taken as an empty name
    await guest.should_see("Please enter your name.")
    assert len(room.seats) == 1

    tap(guest, "join", {"text": "<b onclick=x>Bo</b>"})
    await wait_for(lambda: len(room.seats) == 2)
    await host.should_see(content="<b onclick=x>Bo</b>")  # shown as text by a label


async def test_a_full_room_refuses_more_players(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, rules="uk")
    await seat_directly(room, [f"P{i}" for i in range(13)])
    await guest.open(f"/r/{room.code}")
    await guest.should_see(marker="join-name")
    tap(guest, "join", {"text": "Late"})
    await guest.should_see("This room is full: 14 players is the most this rule set allows.")


async def test_the_host_sets_options_reorders_removes_and_hands_over(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, "Host")
    await join(guest, room, "Guest")
    await seat_directly(room, ["Third"])

    night = next(iter(host.find(marker="option-night_seconds").elements))
    night.value = 45
    await wait_for(lambda: room.timers.get("night_seconds") == 45)
    switch = next(iter(host.find(marker="option-reveal_roles_on_death").elements))
    switch.value = False
    await wait_for(lambda: room.options.get("reveal_roles_on_death") is False)
    await guest.should_see(content="45 seconds")  # the guests' summary follows

    third = room.seats[2]
    tap(host, f"up-{third.id}")
    await wait_for(lambda: [s.name for s in room.seats] == ["Host", "Third", "Guest"])
    tap(host, f"remove-{third.id}")
    await wait_for(lambda: len(room.seats) == 2)

    guest_seat = room.seats[1]
    tap(host, f"host-{guest_seat.id}")
    await wait_for(lambda: room.host_hash == guest_seat.token_hash)
    await guest.should_see(marker="start")
    await host.should_not_see(marker="start")
    assert room.start_problem() is not None
    await guest.should_see(content="Waiting for players: 2 here, at least 4 needed.")


async def test_uk_moderator_mode_and_player_limits(create_user) -> None:
    host = create_user()
    room = await create_room(host, rules="uk")
    rules = next(iter(host.find(marker="option-speech_seconds").elements))
    assert rules.value == 60
    moderated = next(iter(host.find(marker="moderated").elements))
    moderated.value = True
    await wait_for(lambda: room.moderated)
    await host.should_see(content="moderator")
    smallest = next(iter(host.find(marker="min-players").elements))
    smallest.value = 8
    await wait_for(lambda: room.min_players == 8)
    await seat_directly(room, [f"P{i}" for i in range(8)])
    await click_when_enabled(host, "start")
    await wait_for(lambda: room.state is not None)
    assert room.state is not None and room.state.n == 8


async def test_timers_typed_right_after_switching_moderation_are_kept(create_user) -> None:
    host = create_user()
    room = await create_room(host, rules="uk")
    speech = next(iter(host.find(marker="option-speech_seconds").elements))
    moderated = next(iter(host.find(marker="moderated").elements))
    moderated.value = True
    speech.value = 45  # typed at once, while the switch is on its way
    await wait_for(lambda: room.moderated and room.timers.get("speech_seconds") == 45)
    await host.should_see(content="moderator")
    assert not speech.is_deleted, "the host's settings form was built again and lost what he typed"
    assert next(iter(host.find(marker="option-speech_seconds").elements)) is speech
    moderated.value = False
    await wait_for(lambda: not room.moderated)
    assert not speech.is_deleted and speech.value == 45


async def test_language_comes_from_the_phone(create_user) -> None:
    phone = create_user()
    phone.http_client.headers["accept-language"] = "ru-RU,ru;q=0.9,en;q=0.5"
    await phone.open("/")
    assert (node(phone, "language") or {}).get("v") == "ru"
    tap(phone, "language", "uk")
    await wait_for(lambda: phone.back_history[-1:] == ["/"])


@pytest.mark.parametrize("path", ["/r/NOPE2", "/r/NOPE2/screen"])
async def test_an_unknown_room_page_says_so(user: User, path: str) -> None:
    await user.open(path)
    await user.should_see("There is no room with this code.")
    assert not rooms.registry.rooms
    assert isinstance(user.http_client, httpx.AsyncClient)


async def test_the_host_adds_and_removes_bots_and_every_screen_marks_them(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, "Host")
    await join(guest, room, "Guest")
    await guest.should_not_see(marker="add-bot")  # only the host has the controls
    await host.should_not_see(marker="remove-bot")
    tap(host, "add-bot")
    await wait_for(lambda: len(room.seats) == 3)
    tap(host, "add-bot")
    await wait_for(lambda: len(room.seats) == 4)
    bots = [seat for seat in room.seats if seat.is_bot]
    assert len(bots) == 2
    await guest.should_see(content=f"3. {bots[0].name} (bot)")  # the mark is words, for screen readers too
    await host.should_see(content=f"4. {bots[1].name} (bot)")
    tap(host, "remove-bot")
    await wait_for(lambda: len(room.seats) == 3)
    await guest.should_not_see(content=bots[1].name)
    tap(host, "add-strong-bot")
    await wait_for(lambda: len(room.seats) == 4)
    assert room.seats[3].is_bot and room.seats[3].bot_level == "strong"
    await guest.should_see(content="strong")
    tap(host, "start")
    await wait_for(lambda: room.state is not None)
    assert room.seat_is_bot(3) and room.seat_is_bot(4) and not room.seat_is_bot(1)
    await host.should_not_see(marker="add-bot")  # the lobby is gone
    await guest.should_see(content=f"4. {room.seats[3].name} (bot)")  # the game screen marks it too

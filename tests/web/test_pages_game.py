"""A game through simulated phones: secrecy of roles, the night, the day, timers, reconnects, the end."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from nicegui.testing import User

from engine.actions import EndSpeech, Foul, NightAct, Nominate, Ready, Vote
from engine.roles import ROLE_TABLES, Role
from engine.state import Phase
from webgame.room import rooms
from webgame.room.clock import Clock
from webgame.room.rooms import Room

from .conftest import FakeTime
from .helpers import (
    click_when_enabled,
    covered_ids,
    create_room,
    join,
    node,
    page_dump,
    screen_with,
    settle,
    start_game,
    tap,
    wait_for,
)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms.secrets, "randbelow", lambda _n: 20240607)


def role_at(room: Room, seat: int) -> str:
    assert room.state is not None
    return str(room.state.role(seat))


def role_name(room: Room, role: str) -> str:
    return ROLE_TABLES[room.rules][Role(role)].name


def seats_with(room: Room, role: str) -> list[int]:
    assert room.state is not None
    return [seat for seat in range(1, room.state.n + 1) if role_at(room, seat) == role]


async def test_each_phone_sees_its_own_role_and_no_other(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 6)  # 2 mafia, doctor, commissar, 2 civilians
    mafia = seats_with(room, "mafia")
    for seat, phone in enumerate(users, 1):
        mine = role_name(room, role_at(room, seat))
        await phone.should_see(marker="my-role", content=mine)
        dump = page_dump(phone)
        for other in range(1, 7):
            other_role = role_at(room, other)
            if other == seat or (seat in mafia and other in mafia) or other_role in ("mafia", "civilian"):
                continue  # "Mafia" and "Civilian" are words that appear elsewhere; the distinct names are checked
            assert role_name(room, other_role) not in dump, (seat, other_role)
        if seat in mafia:
            partner = next(m for m in mafia if m != seat)
            await phone.should_see(content=f"{partner}. P{partner}: Mafia")
        else:
            assert ": Mafia" not in dump
    # The card is behind the reveal: the covered screen shows no role, and the way to reveal it.
    for phone in users:
        assert "my-role" not in covered_ids(phone) and "known" not in covered_ids(phone)
        assert "reveal" in covered_ids(phone)


async def test_the_night_screen_is_alike_for_every_role_then_ends_early(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 6)
    assert room.state is not None
    for phone in users:  # every living player has the same grid of six players
        assert user_markers(phone, "target-") == {f"target-{s}" for s in range(1, 7)}
    civilian = seats_with(room, "civilian")[0]
    await users[civilian - 1].should_see("Whom do you suspect tonight?")
    doctor = seats_with(room, "doctor")[0]
    await users[doctor - 1].should_see("Choose whom to heal tonight.")
    commissar = seats_with(room, "commissar")[0]
    mafia = seats_with(room, "mafia")
    don, helper = mafia[0], mafia[1]
    victim = civilian
    await users[don - 1].should_see("Choose whom to kill tonight.")
    await users[helper - 1].should_see("Suggest a target to the one who chooses the kill.")

    # The mafia's helper suggests; the acting don sees it; then he picks, confirms.
    await pick_and_confirm(users[helper - 1], victim)
    await users[don - 1].should_see(content=f"{helper}. P{helper} suggests {victim}. P{victim}.")
    await pick_and_confirm(users[don - 1], victim)
    await users[helper - 1].should_see(marker="kill-choice")
    # A double tap on an old confirm button changes nothing (the engine refuses, the page says why).
    log_length = len(room.state.log)
    await room_act_refused(room, users[don - 1], don)
    assert len(room.state.log) == log_length

    await pick_and_confirm(users[commissar - 1], don)
    await pick_and_confirm(users[doctor - 1], doctor)
    for seat in range(1, 7):
        if seat not in (don, helper, commissar, doctor):
            await click_when_enabled(users[seat - 1], "pass")
    await wait_for(lambda: room.state is not None and room.state.phase is Phase.DISCUSSION)
    await users[0].should_see(marker="phase", content="Day 1: discussion")
    await users[0].should_see(content=f"{victim}. P{victim} died tonight. Role: Civilian.")
    await users[commissar - 1].should_see(content=f"{commissar}. P{commissar} checked {don}. P{don}: mafia.")
    assert "checked" not in page_dump(users[doctor - 1])


async def pick_and_confirm(phone: User, target: int, prefix: str = "target") -> None:
    await click_when_enabled(phone, f"{prefix}-{target}")
    await click_when_enabled(phone, "confirm")
    await phone.should_see(marker="night-done")


async def room_act_refused(room: Room, phone: User, seat: int) -> None:
    from engine.errors import RuleError

    hashes = [s.token_hash for s in room.seating]
    with pytest.raises(RuleError):
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))


def user_markers(phone: User, prefix: str) -> set[str]:
    assert phone.client is not None
    found: set[str] = set()
    for element in list(phone.client.elements.values()):
        found |= {marker for marker in element._markers if marker.startswith(prefix)}
    return found


async def test_the_day_vote_with_a_live_tally(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 4)  # mafia, doctor, 2 civilians
    assert room.state is not None
    hashes = [s.token_hash for s in room.seating]
    for seat in range(1, 5):
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))
    await users[0].should_see(marker="phase", content="Day 1: discussion")
    for phone in users:
        await click_when_enabled(phone, "ready")
    await wait_for(lambda: room.state is not None and room.state.phase is Phase.VOTE)
    mafia = seats_with(room, "mafia")[0]
    voter = 1 if mafia != 1 else 2
    await click_when_enabled(users[voter - 1], f"vote-{mafia}")
    await click_when_enabled(users[voter - 1], "confirm")
    await users[voter - 1].should_see(marker="voted")
    for phone in users:
        await phone.should_see(marker="tally", content=f"{mafia}. P{mafia}: 1 ({voter}. P{voter})")
    await click_when_enabled(users[mafia - 1], "abstain")
    await users[0].should_see(content=f"Abstained: {mafia}. P{mafia}")


async def test_timers_run_on_the_server_clock(create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, users = await start_game(create_user, 4)
    assert room.state is not None
    await users[1].should_see(marker="countdown", content="0:20")
    fake_time.advance(20)
    await Clock(rooms.registry).tick()
    await wait_for(lambda: room.state is not None and room.state.phase is Phase.DISCUSSION)
    for phone in users:
        await phone.should_see(marker="phase", content="Day 1: discussion")
    await users[2].should_see(marker="countdown", content="0:30")
    assert room.deadline == fake_time.value + 30


async def test_the_host_pauses_extends_and_skips(create_user: Callable[[], User], fake_time: FakeTime) -> None:
    room, users = await start_game(create_user, 4)
    await users[1].should_not_see(marker="pause")
    await click_when_enabled(users[0], "pause")
    await wait_for(lambda: room.paused)
    await users[1].should_see(marker="countdown", content="0:20 (paused)")
    await click_when_enabled(users[0], "extend")
    await wait_for(lambda: room.remaining() == 50)
    await click_when_enabled(users[0], "resume")
    await wait_for(lambda: not room.paused)
    assert room.deadline == fake_time.value + 50
    await click_when_enabled(users[0], "skip")
    await wait_for(lambda: room.state is not None and room.state.phase is Phase.DISCUSSION)


async def test_a_phone_coming_back_gets_its_seat_and_a_latecomer_watches(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 4)
    again = create_user()
    again.http_client.cookies = users[2].http_client.cookies  # the same browser, a new tab / after sleeping
    await again.open(f"/r/{room.code}")
    await again.should_see(marker="my-role", content=role_name(room, role_at(room, 3)))
    assert room.is_connected(room.seating[2].token_hash)

    late = create_user()
    await late.open(f"/r/{room.code}")
    await late.should_see("You are watching this game.")
    await late.should_not_see(marker="join-name")
    await late.should_not_see(marker="reveal")
    await late.should_not_see(marker="my-role")
    assert ": Mafia" not in page_dump(late) and "Doctor" not in page_dump(late)


async def test_the_tv_screen_and_playing_again(create_user: Callable[[], User]) -> None:
    tv = create_user()
    host = create_user()
    room = await create_room(host, "P1")
    await tv.open(f"/r/{room.code}/screen")
    await tv.should_see(marker="code", content=room.code)
    assert "<svg" in page_dump(tv)
    others = [create_user() for _ in range(3)]
    for number, phone in enumerate(others, 2):
        await join(phone, room, f"P{number}")
    await tv.should_see(content="4. P4")
    await click_when_enabled(host, "start")
    await tv.should_see(marker="phase", content="Night 1")
    assert room.state is not None

    # Play it out: the mafia kills a civilian, then the town votes the mafia out.
    hashes = [s.token_hash for s in room.seating]
    mafia = seats_with(room, "mafia")[0]
    civilians = seats_with(room, "civilian")
    victim = civilians[0]
    for seat in range(1, 5):
        action = NightAct(seat, "kill", victim) if seat == mafia else NightAct(seat, "pass")
        await room.act(hashes[seat - 1], action)
    await tv.should_see(content=f"{victim}. P{victim} died tonight. Role: Civilian.")
    for seat in room.state.living():
        await room.act(hashes[seat - 1], Ready(seat))
    for seat in room.state.living():
        await room.act(hashes[seat - 1], Vote(seat, mafia if seat != mafia else civilians[1]))
    assert room.state.winner == "town"
    await tv.should_see(marker="winner", content="The town wins!")
    await tv.should_see(marker="timeline", content=f"{mafia}. P{mafia} (Mafia) chose to kill {victim}. P{victim}.")
    await others[0].should_see(marker="winner", content="The town wins!")
    await others[0].should_not_see(marker="play-again")

    await click_when_enabled(host, "play-again")
    await wait_for(lambda: room.state is None)
    await host.should_see(marker="start")
    await others[1].should_see(content="Waiting for the host to start the game.")
    await tv.should_see(marker="code", content=room.code)


async def test_uk_speeches_nominations_and_the_moderators_fouls(create_user: Callable[[], User]) -> None:
    moderator, speaker = create_user(), create_user()
    room = await create_room(moderator, "Mod", rules="uk")
    await click_when_enabled(moderator, "moderated")
    next(iter(moderator.find(marker="moderated").elements)).value = True
    next(iter(moderator.find(marker="min-players").elements)).value = 8
    await wait_for(lambda: room.moderated and room.min_players == 8)
    await join(speaker, room, "Speaker")
    from .helpers import seat_directly

    await seat_directly(room, [f"P{i}" for i in range(2, 9)])
    await click_when_enabled(moderator, "start")
    await wait_for(lambda: room.state is not None)
    assert room.state is not None and room.state.speaker == 1
    await speaker.should_see(marker="speaker", content="Now speaking: 1. Speaker")
    await speaker.should_see(marker="end-speech")
    await moderator.should_not_see(marker="end-speech")
    # The moderator sees every role; the speaker only those he may know.
    for role in ("Courtesan", "Maniac"):
        assert role in page_dump(moderator)
    mine = role_at(room, 1)
    if mine not in ("don", "mafia", "courtesan"):
        assert "Courtesan" not in page_dump(speaker)

    await click_when_enabled(speaker, "nominate-3")
    await click_when_enabled(speaker, "confirm")
    await speaker.should_see(marker="nominees", content="Nominated: 3. P3")
    await click_when_enabled(moderator, "foul-2")
    await click_when_enabled(moderator, "foul-amount-1")
    await wait_for(lambda: room.state is not None and room.state.fouls.get(2) == 1.0)
    await speaker.should_see(content="2. P2 gets a foul (1); 1 in all.")
    await click_when_enabled(speaker, "end-speech")
    await wait_for(lambda: room.state is not None and room.state.speaker == 2)
    await speaker.should_not_see(marker="end-speech")
    await moderator.should_see(marker="speaker", content="Now speaking: 2. P2")


async def test_chats_reach_only_their_readers(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 6)  # two mafia: they have a night chat
    mafia = seats_with(room, "mafia")
    civilian = seats_with(room, "civilian")[0]
    writer, partner = users[mafia[0] - 1], users[mafia[1] - 1]
    assert (node(writer, "chat-input") or {}).get("rf") == 0
    tap(writer, "chat-send", {"text": "   "})  # refused: said, and the browser puts the text back in the box
    await writer.should_see("Write something first.")
    await wait_for(lambda: (node(writer, "chat-input") or {}).get("rf") == 1)
    box = screen_with(writer, "chat-input")
    assert box is not None
    model = box.props["model"]
    tap(writer, "chat-send", {"channel": "mafia", "text": "kill the doctor"})
    await partner.should_see(content="kill the doctor")
    await writer.should_see(content="kill the doctor")
    # Taken: the browser emptied its box itself; the writer's part is not sent again (every phone gets the line).
    assert box.props["model"] == model
    assert (node(partner, "chat-input") or {}).get("rf") == 0
    assert "kill the doctor" not in page_dump(users[civilian - 1])
    await users[civilian - 1].should_not_see(marker="chat-input")  # the town does not talk at night

    assert room.state is not None
    hashes = [s.token_hash for s in room.seating]
    for seat in range(1, 7):
        action = NightAct(seat, "kill", civilian) if seat == mafia[0] else NightAct(seat, "pass")
        await room.act(hashes[seat - 1], action)
    await users[0].should_see(marker="phase", content="Day 1: discussion")
    alive = next(s for s in range(1, 7) if s not in mafia and s != civilian)
    tap(users[alive - 1], "chat-input", {"text": "<b>who</b>?"})  # Enter in the box
    await users[civilian - 1].should_see(content="<b>who</b>?")  # the dead read the room, as text
    tap(users[civilian - 1], "chat-send", {"text": "boo from the grave"})
    await settle()
    assert room.chat[-1].channel == "dead"
    assert "boo from the grave" not in page_dump(users[alive - 1])


async def moderated_uk_game(create_user: Callable[[], User]) -> tuple[Room, User, User, list[str]]:
    """A uk game of 8 run by a moderator: his phone, seat 1's phone, and the other seats' token hashes."""
    moderator, first = create_user(), create_user()
    room = await create_room(moderator, "Mod", rules="uk")
    next(iter(moderator.find(marker="moderated").elements)).value = True
    next(iter(moderator.find(marker="min-players").elements)).value = 8
    await wait_for(lambda: room.moderated and room.min_players == 8)
    await join(first, room, "P1")
    from .helpers import seat_directly

    hashes = await seat_directly(room, [f"P{i}" for i in range(2, 9)])
    await click_when_enabled(moderator, "start")
    await wait_for(lambda: room.state is not None)
    await settle()
    return room, moderator, first, hashes


async def test_the_moderator_confirms_a_removing_foul_withdraws_one_and_sends_a_player_off(
        create_user: Callable[[], User]) -> None:
    room, moderator, first, _hashes = await moderated_uk_game(create_user)
    state = room.state
    assert state is not None
    for _ in range(3):
        await click_when_enabled(moderator, "foul-3")
        await click_when_enabled(moderator, "foul-amount-1")
        await settle()
    await wait_for(lambda: state.fouls.get(3) == 3.0)
    await first.should_see(content="3. P3 gets a foul (1); 3 in all.")
    assert state.speaker == 1  # a speech is lost when its turn comes (docs/RULES.md, decided after the first games)
    await first.should_not_see(content="3. P3 loses this speech to fouls.")
    while state.speaker in (1, 2):  # the moderator ends the speeches before his
        await room.skip(room.host_hash, state.step)
    await first.should_see(content="3. P3 loses this speech to fouls.")
    assert state.speaker == 4
    await click_when_enabled(moderator, "foul-3")
    await click_when_enabled(moderator, "foul-amount-1")  # the 4th: asked first
    await moderator.should_see(marker="confirm-text", content="This foul removes 3. P3 from the game at once")
    assert state.is_alive(3) and state.fouls[3] == 3.0
    await click_when_enabled(moderator, "confirm-cancel")
    await moderator.should_not_see(marker="confirm-text")
    assert state.is_alive(3)
    await click_when_enabled(moderator, "foul-amount-1")
    await click_when_enabled(moderator, "confirm-yes")
    await wait_for(lambda: not state.is_alive(3))
    await first.should_see(content="3. P3 was removed for four fouls.")

    await click_when_enabled(moderator, "foul-4")
    await click_when_enabled(moderator, "foul-amount-0.5")
    await wait_for(lambda: state.fouls.get(4) == 0.5)
    await click_when_enabled(moderator, "foul-4")
    await click_when_enabled(moderator, "withdraw-foul")
    await wait_for(lambda: state.fouls.get(4) == 0.0)
    await first.should_see(content="The moderator withdrew a foul from 4. P4; 0 in all.")

    await click_when_enabled(moderator, "foul-5")
    await click_when_enabled(moderator, "send-off")
    await moderator.should_see(marker="confirm-text", content="Send 5. P5 from the table?")
    await click_when_enabled(moderator, "confirm-yes")
    await wait_for(lambda: not state.is_alive(5))
    await first.should_see(content="5. P5 was sent from the table.")
    assert (node(first, "withdraw-foul"), node(first, "send-off")) == (None, None)  # the moderator's alone


async def test_the_penalty_vote_is_shown_in_the_tally_on_phones_and_the_tv(create_user: Callable[[], User]) -> None:
    room, moderator, first, hashes = await moderated_uk_game(create_user)
    tv = create_user()
    await tv.open(f"/r/{room.code}/screen")
    state = room.state
    assert state is not None
    for _ in range(3):
        await room.act(room.host_hash, Foul(6, 1))  # seat 6 loses today's speech and gets a penalty vote
    await click_when_enabled(first, "nominate-6")
    await click_when_enabled(first, "confirm")
    await click_when_enabled(first, "end-speech")
    await wait_for(lambda: state.speaker == 2)
    await room.act(hashes[0], Nominate(2, 7))
    for seat in range(2, 9):
        if state.phase is not Phase.SPEECHES:
            break
        if state.speaker == seat:
            await room.act(hashes[seat - 2], EndSpeech(seat))
    while state.phase is Phase.DEFENCE:
        speaker = state.speaker
        await room.act(hashes[speaker - 2] if speaker > 1 else first_hash(room), EndSpeech(speaker))
    assert state.phase is Phase.VOTE and state.candidates == [6, 7]
    await first.should_see(marker="penalty", content="+1 penalty vote for 6. P6.")
    await tv.should_see(content="+1 penalty vote for 6. P6.")


def first_hash(room: Room) -> str:
    seat = room.seating[0]
    return seat.token_hash


async def test_a_confirm_carries_the_pick_and_a_bad_one_changes_nothing(create_user: Callable[[], User]) -> None:
    """The pick is the browser's (screen.js): Confirm sends the picked seat as its tap's value. A tab that sends
    anything else (no pick, a word, a list) is told to pick first, and a seat that may not be picked is refused by
    the rules; neither is logged. The pick itself sends nothing: the server has no handler for a grid's player."""
    room, users = await start_game(create_user, 6)
    assert room.state is not None
    doctor = seats_with(room, "doctor")[0]
    phone = users[doctor - 1]
    screen = screen_with(phone, "confirm")
    assert screen is not None
    assert "target-1" not in screen.handlers and "confirm" in screen.handlers
    log_length = len(room.state.log)
    for value in (None, "3", [3], True, {"seat": 3}):
        with screen:
            await screen.tap("confirm", value)
        await wait_for(lambda: phone.notify.contains("Tap a player, then confirm."))
        phone.notify.messages.clear()
    with screen:
        await screen.tap("confirm", 99)  # no such seat: the rules refuse it
    assert len(room.state.log) == log_length
    await pick_and_confirm(phone, 2)
    assert room.state.night_acts[doctor][0].target == 2

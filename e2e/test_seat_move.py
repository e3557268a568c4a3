"""A dead phone mid-game (issue 15), and a seat that is its owner's (issue 26): the host's code for a phone still
at the table is refused with why; seat 3's phone goes (its page closed), and once it has been gone for the room's
hand-over delay the host gets a code for it, the same player types it on a new phone (a new browser context) and
carries on with his own role to the end of the game. Every phone reads who moved the seat ("... by the host,
Aziz"), and the old phone, opened again, is told plainly that its seat was moved and by whom."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from e2e.harness import Phone, Server, Table, exactly, shows

pytestmark = pytest.mark.e2e


def test_a_seat_moves_to_a_new_phone_through_the_host(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    table.join(phones("Dilnoza", "uz"), phones("Bekzod", "en"), phones("Olga", "ru"))
    host.fill("handover-seconds", "10")  # the room's hand-over delay: a phone gone this long may be moved
    host.field("handover-seconds").press("Tab")
    host.page.wait_for_timeout(1500)  # (the field sends its value after 0.6 s)
    table.set_timers(night_seconds=120, discussion_seconds=4, vote_seconds=40)
    table.start("night")
    table.read_roles()

    # The host asks for a code for Dilnoza's seat while her phone is at the table: refused, with why.
    host.page.get_by_text(host.t("Move a seat to another phone"), exact=True).click()
    host.tid("move-for-seat-2").first.click()
    shows(host.page.get_by_text(host.t("{name}'s phone is connected: only that phone can move its seat (behind "
                                       "its Show button).").format(name="Dilnoza")))
    expect(host.tid("move-code-seat-2")).to_have_count(0)

    # Seat 3's phone goes: its page is closed (the browser keeps its cookie: the old phone comes back later).
    old = table.seat(3)
    role = old.role
    old.goto("about:blank")

    # Once it has been gone for the delay, the host gets a code for seat 3 (behind his own reveal) for the person
    # in front of him (the taps before that are refused: "... left N s ago").
    host.tap("move-for-seat-3", host.tid("move-code-seat-3"), attempts=15)
    code = host.text_of("move-code-seat-3").rsplit(":", 1)[-1].strip()
    assert len(code.replace(" ", "")) == 8

    # On a new phone (a new context: no cookie of the old one) he opens the room and types the code.
    new = phones("Bekzod", "en")
    new.goto(f"{server.base}/r/{table.code}")
    new.connected()
    new.fill("move-code", code)
    new.tid("move-take").click()
    new.seat = 3
    table.players[2] = new
    assert new.read_role(table) == role  # his own role, on the new phone
    for phone in (host, new, table.seat(2), table.seat(4)):
        t = phone.t
        moved = t("{number}. {name} was moved to another phone by the host, {host}.").format(
            number=3, name="Bekzod", host="Aziz")
        shows(phone.tid("notice").filter(has_text=exactly(moved)))

    # The old phone wakes up: its own page says plainly what happened to its seat, and by whom.
    old.goto(f"{server.base}/r/{table.code}")
    away = old.t("Your seat ({name}) was moved to another phone by the host, {host}. This phone has no seat here "
                 "any more.").format(name="Bekzod", host="Aziz")
    shows(old.tid("moved-away").filter(has_text=exactly(away)))
    expect(old.tid("my-role")).to_have_count(0)
    old.close()

    # The game goes on with him and finishes: the mafia kills, the town votes the mafia out.
    mafia = table.one("mafia")
    victim = next(p for p in table.by_role("civilian") if p is not mafia)
    doctor = table.one("doctor")
    table.night(1, {mafia.seat: ("kill", victim.seat), doctor.seat: ("heal", doctor.seat)})
    table.died(victim.seat)
    table.expect_phase("discussion", 1)
    table.ready_all(1)
    table.expect_phase("vote", 1, check=False)  # checked at dawn and at the end: a short test
    votes: dict[int, int | None] = {p.seat: mafia.seat for p in table.living if p is not mafia}
    votes[mafia.seat] = next(p.seat for p in table.living if p is not mafia)
    table.vote(1, votes)
    table.died(mafia.seat)
    table.expect_phase("ended", 1)
    for phone in table.players:
        expect(phone.tid("winner")).to_have_text(phone.t("The town wins!"))

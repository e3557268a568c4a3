"""A dead phone mid-game (issue 15): its browser context is closed, the host asks for a one-time code for that
seat, the same player types it on a new phone (a new browser context) and carries on with his own role to the
end of the game; the whole table is told."""

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
    table.set_timers(night_seconds=60, discussion_seconds=4, vote_seconds=40)
    table.start("night")
    table.read_roles()

    # Seat 3's phone dies: its browser is gone for good.
    old = table.seat(3)
    role = old.role
    old.close()

    # The host gives a code for seat 3 (behind his own reveal) to the person in front of him.
    host.page.get_by_text(host.t("Move a seat to another phone"), exact=True).click()
    host.tap("move-for-seat-3", host.tid("move-code-seat-3"))
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
    for phone in (host, new):
        t = phone.t
        shows(phone.tid("notice").filter(has_text=exactly(t("{number}. {name} moved to another phone.").format(
            number=3, name="Bekzod"))))

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

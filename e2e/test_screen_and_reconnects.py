"""The TV screen follows a game to its timeline; phones that reload, lose their network, or lose the server
(SIGKILL, then a restart on the same port and data) keep their seats and their choices."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.harness import TV_SIZE, Phone, Server, Table, exactly, has_class, shows
from webgame.framework import page_template

pytestmark = pytest.mark.e2e

RECONNECT = 60_000  # ms: a restarted server, a socket.io back-off and a page load, on a busy machine
# The page's elements drawn again under numbers from ``page_adoption.element_base()`` (13 digits, a fresh
# page's are small): the server built the page again in place.
REBUILT = "() => [...document.querySelectorAll('[id^=c]')].some((e) => /^c\\d{13,}$/.test(e.id))"


def five(table: Table, phones: Callable[..., Phone], languages: tuple[str, ...] = ("en", "uz", "ru", "uk", "ro"),
         **timers: int) -> None:
    table.open_room(phones("Aziz", languages[0]))
    table.join(*(phones(name, language) for name, language in zip(
        ("Dilnoza", "Олег", "Тарас", "Ioana"), languages[1:], strict=True)))
    table.set_timers(**timers)


def test_the_tv_follows_a_game_to_its_timeline(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    tv = table.tv = phones("TV", "uz", TV_SIZE)
    tv.goto(f"{server.base}/r/{table.code}/screen")
    expect(tv.tid("code")).to_have_text(table.code)
    table.join(*(phones(name, language) for name, language in (("Dilnoza", "uz"), ("Олег", "ru"), ("Тарас", "uk"),
                                                               ("Ioana", "ro"))))
    expect(tv.page.get_by_text(tv.t("Players: {count}").format(count=tv.t.number(5)))).to_be_visible()
    table.set_timers(night_seconds=120, discussion_seconds=120, vote_seconds=120)
    table.start("night")
    table.read_roles()
    mafia, doctor, commissar = table.one("mafia"), table.one("doctor"), table.one("commissar")
    first, second = table.by_role("civilian")

    table.night(1, {mafia.seat: ("kill", first.seat), doctor.seat: ("heal", doctor.seat),
                    commissar.seat: ("check", second.seat)})
    table.died(first.seat)
    table.expect_phase("discussion", 1)
    t = tv.t
    died = t("{name} died tonight.").format(name=table.label(t, first.seat)) + " " + t("Role: {role}.").format(
        role=t("Civilian"))
    expect(tv.tid("news").filter(has_text=exactly(died))).to_be_visible()
    expect(tv.tid(f"seat-{first.seat}")).to_have_text(table.label(t, first.seat) + t("Civilian"))  # dead: his role
    expect(tv.tid(f"seat-{second.seat}")).to_have_text(table.label(t, second.seat))  # alive: his name alone

    # The vote, with the live tally on the TV after each vote.
    table.ready_all(1)
    table.expect_phase("vote", 1)
    table.vote(1, {mafia.seat: doctor.seat})
    expect(tv.tid("tally")).to_have_text(t("{name}: {count}").format(name=table.label(t, doctor.seat),
                                                                     count=t.number(1)))
    table.vote(1, {second.seat: doctor.seat})
    expect(tv.tid("tally")).to_have_text(t("{name}: {count}").format(name=table.label(t, doctor.seat),
                                                                     count=t.number(2)))
    table.vote(1, {commissar.seat: doctor.seat, doctor.seat: mafia.seat})
    table.died(doctor.seat)

    # Night 2: the mafia kills the commissar and is as many as the town: the mafia wins.
    table.expect_phase("night", 2)
    table.night(2, {mafia.seat: ("kill", commissar.seat), commissar.seat: ("check", mafia.seat)})
    table.died(commissar.seat)
    table.expect_phase("ended", 2)
    expect(tv.tid("winner")).to_have_text(t("The mafia wins!"))
    kill = t("{name} ({role}) chose to kill {target}.").format(name=table.label(t, mafia.seat), role=t("Mafia"),
                                                               target=table.label(t, first.seat))
    expect(tv.tid("timeline").filter(has_text=exactly(kill))).to_be_visible()
    check = t("{checker} checked {target}: peaceful.").format(  # each check once, with its result
        checker=table.label(t, commissar.seat), target=table.label(t, second.seat))
    expect(tv.tid("timeline").filter(has_text=exactly(check))).to_be_visible()
    for phone in table.players:
        expect(phone.tid("winner")).to_have_text(phone.t("The mafia wins!"))


def test_a_reload_and_a_lost_network_keep_seats_and_choices(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    five(table, phones, night_seconds=180, discussion_seconds=180, vote_seconds=180)
    table.start("night")
    table.read_roles()
    mafia, doctor, commissar = table.one("mafia"), table.one("doctor"), table.one("commissar")
    first, second = table.by_role("civilian")

    # The doctor taps a player but has not confirmed when his phone reloads (it slept too long).
    doctor.tap(f"target-{second.seat}", doctor.tid("confirm"))
    doctor.reload()
    doctor.phase_is(table.title(doctor.t, "night", 1))
    expect(doctor.tid("reveal")).to_be_visible()  # a page loaded again starts covered
    expect(doctor.tid(f"target-{second.seat}")).to_have_count(0)
    doctor.reveal()
    expect(doctor.tid(f"target-{second.seat}")).to_have_class(has_class("bg-primary"))
    expect(doctor.tid("confirm")).to_be_visible()
    assert doctor.read_role(table) == "doctor"

    # The commissar taps a player, then his phone loses the network while another player confirms.
    commissar.tap(f"target-{mafia.seat}", commissar.tid("confirm"))
    commissar.offline(True)
    expect(commissar.page.locator("#popup")).to_have_attribute("aria-hidden", "false")
    first.tap(f"target-{mafia.seat}", first.tid("confirm"))
    first.tap("confirm", first.tid("night-done"))
    commissar.offline(False)
    expect(commissar.page.locator("#popup")).to_have_attribute("aria-hidden", "true", timeout=RECONNECT)
    still = commissar.t.ngettext("{count} player is still choosing.", "{count} players are still choosing.", 4)
    expect(commissar.page.get_by_text(still.format(count=commissar.t.number(4)), exact=True)).to_be_visible()
    commissar.reveal()
    expect(commissar.tid(f"target-{mafia.seat}")).to_have_class(has_class("bg-primary"))
    assert commissar.read_role(table) == "commissar"
    table.check_secrets()

    # Both confirm what they had picked; the night ends; the town votes the mafia out.
    table.night(1, {doctor.seat: ("heal", second.seat), commissar.seat: ("check", mafia.seat),
                    mafia.seat: ("kill", second.seat), second.seat: ("suspect", mafia.seat)})
    table.expect_phase("discussion", 1)
    t = commissar.t
    checked = t("{checker} checked {target}: mafia.").format(checker=table.label(t, commissar.seat),
                                                               target=table.label(t, mafia.seat))
    commissar.reveal()  # his check is his alone: behind the reveal
    expect(commissar.tid("news").filter(has_text=exactly(checked))).to_be_visible()
    table.ready_all(1)
    table.expect_phase("vote", 1)
    votes: dict[int, int | None] = {p.seat: mafia.seat for p in table.living}
    votes[mafia.seat] = None
    table.vote(1, votes)
    table.died(mafia.seat)
    table.expect_phase("ended", 1)


def test_every_phone_comes_back_after_the_server_is_killed(tmp_path: Path, phones: Callable[..., Phone]) -> None:
    server = Server(tmp_path / "data").start()
    try:
        table = Table(server.base, "uz")
        table.open_room(phones("Aziz", "en"))
        table.join(*(phones(name, language) for name, language in (("Dilnoza", "uz"), ("Олег", "ru"),
                                                                   ("Ioana", "ro"))))
        table.set_timers(night_seconds=240, discussion_seconds=240, vote_seconds=240)
        table.start("night")
        table.read_roles()
        mafia, doctor = table.one("mafia"), table.one("doctor")
        first, second = table.by_role("civilian")
        mafia.tap(f"target-{first.seat}", mafia.tid("confirm"))
        mafia.tap("confirm", mafia.tid("night-done"))
        for phone in table.players:
            phone.page.evaluate("() => { window.e2eBeforeRestart = true; }")

        assert table.players[0].page.evaluate("() => window.socket.io.reconnectionDelayMax()") \
            == page_template.RECONNECT_DELAY_MAX_MS  # the page's socket retries sooner than socket.io's 5 s

        server.kill()
        time.sleep(4.0)  # down long enough for every socket's back-off to reach its longest wait
        server.start()
        answering = time.time()
        for phone in table.players:  # each page's socket comes back and the server builds the page again in place
            phone.page.wait_for_function(REBUILT, timeout=RECONNECT)
            # ... within the back-off's longest wait of the server answering (and a margin for a busy machine)
            assert time.time() - answering < page_template.RECONNECT_DELAY_MAX_MS / 1000 + 3.0, time.time() - answering
            assert phone.page.evaluate("() => window.e2eBeforeRestart") is True  # the same page: no reload
            phone.phase_is(table.title(phone.t, "night", 1), timeout=RECONNECT)
        mafia.reveal()  # a page built again starts covered
        shows(mafia.tid("night-done"))
        assert mafia.read_role(table) == "mafia" and doctor.read_role(table) == "doctor"
        table.check_secrets()

        table.night(1, {doctor.seat: ("heal", second.seat), second.seat: ("suspect", mafia.seat),
                        first.seat: ("suspect", mafia.seat), mafia.seat: ("kill", first.seat)})
        table.died(first.seat)
        table.expect_phase("discussion", 1)
        table.ready_all(1)
        table.expect_phase("vote", 1)
        table.vote(1, {doctor.seat: mafia.seat, second.seat: mafia.seat, mafia.seat: doctor.seat})
        table.died(mafia.seat)
        table.expect_phase("ended", 1)
        for phone in table.players:
            expect(phone.tid("winner")).to_have_text(phone.t("The town wins!"))
    finally:
        server.stop()

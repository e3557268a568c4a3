"""Issue 27, point 2: every label fits a 360x640 phone, in every language, on every screen of both rule sets.

One uz game (seven phones) and one uk game (a moderator, three phones and five simulated phones) are played at
360x640. At each screen the phone measured switches through the five languages with its own picker (the page
reloads in place, in the same seat and step), and ``e2e.layout`` measures its whole page: no word drawn across
two lines, nothing past the screen's left or right edge. The counts are printed (``-s``) and must be 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import ViewportSize, expect

from e2e.glance import Crowd, end_step
from e2e.harness import Phone, Server, Table, shows
from e2e.layout import Findings
from e2e.screenshots import set_language

pytestmark = pytest.mark.e2e

SMALL: ViewportSize = {"width": 360, "height": 640}
LANGUAGES = ("en", "ru", "uk", "uz", "ro")
UZ_NAMES = [("Shahzodbek", "uz"), ("Олександра", "uk"), ("Gulnora Yusupova", "uz"), ("Ioana-Maria", "ro"),
            ("Константин", "ru"), ("Abdurakhmonov", "en"), ("Nodira", "uz")]


def small_phone(phones: Callable[..., Phone], name: str, language: str) -> Phone:
    phone = phones(name, language)
    phone.page.set_viewport_size(SMALL)
    phone.context.add_init_script("window.mafiaRevealMs = 600000;")  # measured, not timed: no cover meanwhile
    return phone


def walk(findings: Findings, phone: Phone, screen: str, before: Callable[[], None] | None = None) -> None:
    """The screen in the five languages, each switched in place with the phone's picker (its current one first)."""
    for language in sorted(LANGUAGES, key=lambda code: code != phone.language):
        set_language(phone, language)
        if before is not None:
            before()
        findings.measure(phone, screen)


def revealed(phone: Phone, shown: str = "my-role") -> Callable[[], None]:
    def reveal() -> None:
        phone.tap("reveal", phone.tid(shown))
    return reveal


def in_view(phone: Phone, name: str) -> None:
    """The element ``name`` is inside the phone's first screen as it is now (not scrolled to)."""
    box = phone.tid(name).first.bounding_box()
    assert box is not None, f"{phone}: no {name}"
    height = phone.page.viewport_size["height"] if phone.page.viewport_size else 640
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{phone}: {name} at {box} is not in view"


def above(phone: Phone, first: str, second: str) -> None:
    top, below = phone.tid(first).first.bounding_box(), phone.tid(second).first.bounding_box()
    assert top is not None and below is not None and top["y"] < below["y"], f"{phone}: {first} not above {second}"


def test_every_label_fits_in_five_languages(server: Server, phones: Callable[..., Phone]) -> None:
    findings = Findings()
    try:
        uk_game(server, phones, findings)
        uz_game(server, phones, findings)
    finally:
        print("\n" + findings.report())
    assert findings.screens >= 100
    assert findings.counts == (0, 0), findings.report()


def uz_game(server: Server, phones: Callable[..., Phone], findings: Findings) -> None:
    table = Table(server.base, "uz")
    table.open_room(small_phone(phones, *UZ_NAMES[0]))
    table.join(*(small_phone(phones, name, language) for name, language in UZ_NAMES[1:]))
    table.set_timers(night_seconds=600, discussion_seconds=600, vote_seconds=600)
    host, player = table.host, table.seat(2)
    in_view(player, "waiting-host")  # a player's lobby: what he waits for and the seats first, the QR after
    above(player, "waiting-host", "share")
    player.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # he scrolled down meanwhile
    walk(findings, host, "uz lobby, host")
    walk(findings, player, "uz lobby, player")
    player.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    table.start("night")
    for phone in table.players:  # every phone at the top: Night 1 and its countdown in view (points 5 and 10)
        phone.page.wait_for_function("() => window.scrollY === 0")
        in_view(phone, "phase")
        in_view(phone, "countdown")
    table.read_roles()
    don, mafia, doctor, commissar = (table.one(role) for role in ("don", "mafia", "doctor", "commissar"))
    civilians = table.by_role("civilian")
    walk(findings, civilians[0], "uz night 1, covered")
    walk(findings, host, "uz night 1, the host's clock")
    victim = civilians[1]
    for phone, target in ((don, victim), (doctor, doctor), (commissar, mafia), (civilians[0], don)):
        phone.reveal()
        phone.pick("target", target.seat)
        walk(findings, phone, f"uz night 1, revealed: {phone.role}", revealed(phone))
        phone.page.evaluate("() => window.mafiaVeil.cover()")
    table.night(1, {don.seat: ("kill", victim.seat), doctor.seat: ("heal", doctor.seat),
                    commissar.seat: ("check", mafia.seat), civilians[0].seat: ("suspect", don.seat)})
    table.died(victim.seat)
    table.expect_phase("discussion", 1, check=False)
    walk(findings, host, "uz day 1, discussion (host)")
    walk(findings, table.seat(victim.seat), "uz day 1, discussion (dead)")
    table.ready_all(1)
    table.expect_phase("vote", 1, check=False)
    voter = civilians[0]
    voter.pick("vote", mafia.seat)
    walk(findings, voter, "uz day 1, vote")
    table.vote(1, {p.seat: mafia.seat if p is not mafia else doctor.seat for p in table.living})
    table.died(mafia.seat)
    table.expect_phase("night", 2, check=False)
    for phone in table.players:  # the day's result first at the night's start, on every phone
        in_view(phone, "day-result")
    walk(findings, commissar, "uz night 2, the day's result")
    table.night(2, {don.seat: ("kill", civilians[2].seat), doctor.seat: ("heal", civilians[2].seat)})
    table.expect_phase("discussion", 2, check=False)
    walk(findings, commissar, "uz day 2, dawn")
    end_step(host)
    table.expect_phase("vote", 2, check=False)
    table.vote(2, {p.seat: don.seat if p is not don else doctor.seat for p in table.living})
    table.died(don.seat)
    table.expect_phase("ended", 2, check=False)
    in_view(host, "play-again")  # in the host's bar, not under the timeline (point 6)
    walk(findings, host, "uz end, host")
    walk(findings, player, "uz end, player")


def uk_game(server: Server, phones: Callable[..., Phone], findings: Findings) -> None:
    table = Table(server.base, "uk")
    moderator = small_phone(phones, "Ведучий", "uk")
    table.open_room(moderator, moderated=True)
    table.join(*(small_phone(phones, name, language) for name, language in
                 (("Мирослава", "uk"), ("Abdurakhmonov", "uz"), ("Константин", "ru"))))
    crowd = Crowd(server.base)
    try:
        crowd.join(table.code, ["Олександра", "Петро", "Ioana-Maria", "Соломія", "Shahzodbek"])
        shows(moderator.page.get_by_text(moderator.t("Players: {count}").format(count=moderator.t.number(8)),
                                         exact=True))
        moderator.fill("min-players", "8")  # a moderated room asks for 12 players unless the host allows fewer
        moderator.field("min-players").press("Tab")
        expect(moderator.tid("start")).to_be_enabled()
        table.set_timers(speech_seconds=600, defence_seconds=600, last_words_seconds=600, vote_seconds=600,
                         night_seconds=600)
        walk(findings, moderator, "uk lobby, moderator")
        uk_day(table, findings)
    finally:
        crowd.close()


def uk_day(table: Table, findings: Findings) -> None:
    moderator = table.moderator
    assert moderator is not None
    table.start("speeches")
    first, second, third = table.players
    first.pick("nominate", 4)
    walk(findings, first, "uk day 1, speech with a nomination")
    first.tap("confirm", first.tid("nominees"))
    moderator.pick("foul", 2)
    walk(findings, moderator, "uk moderator, a foul to give")
    table.foul(2, 1)
    # The foul taken: nobody selected (no second foul one tap away), the count on the player's tile.
    expect(moderator.tid("foul-2")).not_to_have_class(re.compile(r"\bbg-primary\b"))
    expect(moderator.tid("foul-amount-1")).to_have_count(0)
    expect(moderator.tid("foul-2")).to_contain_text(moderator.t("Fouls: {count}").format(count=moderator.t.number(1)))
    walk(findings, moderator, "uk moderator, after a foul")
    first.tap("end-speech", first.tid("speaker").filter(has_not_text=first.text_of("speaker")))
    second.pick("nominate", 5)
    second.tap("confirm", second.tid("nominees").filter(has_text="5."))
    for _speaker in range(2, 9):  # seat 2 ends his speech by the clock's hand too; then the simulated phones
        end_step(moderator)
    table.expect_phase("defence", 1, check=False)
    end_step(moderator)
    end_step(moderator)
    table.expect_phase("vote", 1, check=False)
    table.vote(1, {p.seat: 4 for p in table.players})
    walk(findings, third, "uk day 1, vote cast")
    end_step(moderator)  # the simulated phones' votes go to the last nominee: 4 against 4
    table.expect_phase("defence", 1, check=False)
    end_step(moderator)
    end_step(moderator)
    table.expect_phase("vote", 1, check=False)
    first.pick("vote", 4)
    walk(findings, first, "uk day 1, re-vote")
    table.vote(1, {p.seat: 4 for p in table.players})
    end_step(moderator)
    table.expect_phase("eliminate_all", 1, check=False)
    walk(findings, first, "uk day 1, eliminate all?")
    end_step(moderator)  # a missing answer is a no: nobody goes
    table.expect_phase("night", 1, check=False)
    above(moderator, "mod-waiting", "foul-1")  # the moderator's night: his overview before the foul grid
    walk(findings, moderator, "uk night 1, moderator")
    walk(findings, second, "uk night 1, covered")
    for seat in range(8, 0, -1):  # the moderator sends players from the table until a team wins
        if moderator.tid("winner").count():
            break
        moderator.pick("foul", seat)
        moderator.tap("send-off", moderator.tid("confirm-yes"))
        moderator.tap("confirm-yes", moderator.page.locator("body").filter(has_not=moderator.tid(f"foul-{seat}")))
    expect(moderator.tid("winner")).to_be_visible()
    walk(findings, moderator, "uk end, moderator")
    walk(findings, third, "uk end, player")

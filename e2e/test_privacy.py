"""Issue 20, "Private at the table: a glance at any phone gives nothing away", in real browsers.

- A glance tells nothing: at several moments of a uz game where every acting role is dealt (14 phones) and of
  a uk game of 12 with a moderator, the covered screen of every seated phone (all in one language) is read
  inside its viewport (``e2e.glance.signature``: text, boxes, enabled state, colours of every element drawn
  there) and must be the same for every role; a revealed screen must differ, and be the same again once
  covered (``mafiaVeil.cover()``, the page hidden).
- The step's button is in the first screen: at 360x640, for tables of 4, 12 and 30 (the other seats filled by
  simulated phones, ``e2e.glance.Crowd``), in the five languages spread over the tables.
- The screen covers itself: after ``mafiaRevealMs`` without a touch, when the page is hidden, when the phone
  is turned or laid flat, after a confirmed choice, when the phase changes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import ViewportSize, expect

from e2e.glance import (
    Crowd,
    end_step,
    first_screen_problem,
    hide_page,
    in_first_screen,
    same_glances,
    set_timers,
    signature,
    wait_covered,
    wait_revealed,
)
from e2e.harness import Move, Phone, Server, Table, exactly, play, shows

pytestmark = pytest.mark.e2e

NAMES_UZ = ["Aziz", "Dilnoza", "Bekzod", "Malika", "Timur", "Jasur", "Nodira", "Shoxrux", "Kamola", "Sardor",
            "Zarina", "Otabek", "Gulnora", "Rustam"]
NAMES_UK = ["Остап", "Мирослава", "Тарас", "Олена", "Богдан", "Ірина", "Андрій", "Соломія", "Назар", "Дарина",
            "Павло", "Леся"]


def first_enabled(phone: Phone, grid: str) -> int:
    """The seat of the first enabled button of a grid (``target``, ``vote``, ``nominate``)."""
    button = phone.page.locator(f'button[data-testid^="{grid}-"]:enabled').first
    button.wait_for(state="visible")
    return int(str(button.get_attribute("data-testid")).rsplit("-", 1)[1])


def reveal(phone: Phone, hold: bool = False) -> None:
    """Tap Show; ``hold``: the screen stays revealed until covered by hand or by the test (``let_go``), however
    slow the machine is between the reveal and the reading."""
    if hold:
        phone.page.evaluate("() => { window.mafiaRevealMs = 600000; }")
    phone.tap("reveal", phone.tid("cover"))
    wait_revealed(phone)


def let_go(*phones: Phone) -> None:
    """The product's own reveal delay again (after ``reveal(hold=True)``)."""
    for phone in phones:
        phone.page.evaluate("() => { delete window.mafiaRevealMs; }")


def dead_seats(table: Table) -> set[int]:
    """The seats whose own screen says they are dead (the dead are public: each one's screen says so)."""
    dead = set()
    for phone in table.players:
        t = phone.t
        lines = (t("You are dead: you watch, and talk only with the dead."),
                 t("You are dead. You watch the night in silence."))
        if any(phone.page.get_by_text(line, exact=True).count() for line in lines):
            dead.add(phone.seat)
    return dead


def at_default(phone: Phone) -> Phone:
    """A phone whose screen covers itself after the product's own delay (10 s without a touch), not the
    minute ``e2e.harness`` gives the game tests: a phone revealed by the harness's retry of a slow tap covers
    itself before it is read."""
    phone.context.add_init_script("delete window.mafiaRevealMs;")
    return phone


def start(table: Table, first_phase: str) -> None:
    """The host taps Start (again, if a join redrew it under his finger; never the reveal, unlike
    ``Phone.tap``): every phone shows the first phase."""
    host = table.host
    for _attempt in range(5):
        with contextlib.suppress(PlaywrightError):
            host.tid("start").first.click(timeout=3000)
        try:
            shows(host.tid("phase"), 6000)
            break
        except AssertionError:
            continue
    table.expect_phase(first_phase, 1, check=False)


def read_roles(table: Table) -> None:
    """Each player reads his own role card (revealed, then covered again by his own tap)."""
    for phone in table.players:
        table.roles[phone.seat] = phone.read_role(table)


def vote_covered(phone: Phone, target: int) -> None:
    """A vote (public) is made on the covered screen: a tap on the player, then Confirm."""
    phone.pick("vote", target)
    phone.tap("confirm", phone.tid("voted"))


def confirm_all(plan: list[tuple[Phone, int]]) -> None:
    """Each phone confirms its pick (its role's first act: a kill, a check, a heal, a suggestion...)."""
    play([Move(phone, [f"target-{target}", "confirm"], phone.tid("night-done")) for phone, target in plan])


# ---------------------------------------------------------------- 1. a glance tells nothing


def test_a_glance_tells_nothing_uz(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    table.open_room(at_default(phones(NAMES_UZ[0], "uz")))
    table.join(*(at_default(phones(name, "uz")) for name in NAMES_UZ[1:]))
    table.set_timers(night_seconds=600, discussion_seconds=600, vote_seconds=600)
    start(table, "night")
    host = table.host

    # Night 1, nobody has acted: every phone alike (the host's clock row aside), before anyone revealed.
    same_glances(table.players, "night 1, start")
    read_roles(table)
    don, doctor, commissar, killer = (table.one(role) for role in ("don", "doctor", "commissar", "killer"))
    lover, hobo = table.one("lover"), table.one("hobo")
    c1, c2, c3, c4 = table.by_role("civilian")
    covered = same_glances(table.players, "night 1, roles read")[0]

    # Revealed, the don's screen and the doctor's differ from the covered one and from each other.
    reveal(don, hold=True)
    reveal(doctor, hold=True)
    shows_don, shows_doctor = signature(don), signature(doctor)
    assert shows_don.revealed and shows_doctor.revealed
    assert shows_don != covered and shows_doctor != covered and shows_don != shows_doctor
    expect(don.tid("my-role")).to_be_visible()
    # Covered again by the page's own veil and by hiding the page: alike again.
    don.page.evaluate("() => window.mafiaVeil.cover()")
    hide_page(doctor)
    let_go(don, doctor)
    same_glances([c1, don, doctor], "night 1, covered again", wait=3000)

    # The mafia's chat (revealed only): a line written by a plain mafia changes no covered screen.
    writer = table.by_role("mafia")[0]
    writer.reveal()
    writer.fill("chat-input", "c1 tonight?")
    writer.tap("chat-send", writer.tid("chat").get_by_text("c1 tonight?"))
    writer.tap("cover", writer.tid("reveal"))

    # Mid-night: the don, the doctor, the commissar, the killer, the lover and the hobo have confirmed.
    confirm_all([(don, c1.seat), (doctor, c3.seat), (commissar, don.seat), (killer, c2.seat), (lover, c4.seat),
                 (hobo, c1.seat)])
    same_glances(table.players, "night 1, six have confirmed")

    # Dawn: the killed are out (the dead are public); the living see the same news, covered.
    end_step(host)
    table.expect_phase("discussion", 1, check=False)
    table.died(*dead_seats(table))
    assert table.dead, "nobody died in night 1"
    dawn = same_glances(table.living, "day 1, discussion")[0]
    for phone in (commissar, hobo):  # their private news is behind the reveal
        reveal(phone, hold=True)
        expect(phone.page.locator(".mafia-private").first).to_be_visible()
        assert signature(phone) != dawn, phone
    for phone in (commissar, hobo):
        phone.tap("cover", phone.tid("reveal"))
        let_go(phone)

    # The vote: alike before anyone votes; then those who voted alike, those who did not alike.
    end_step(host)
    table.expect_phase("vote", 1, check=False)
    same_glances(table.living, "day 1, vote")
    voters = [c3, c4, doctor]
    for phone in voters:
        vote_covered(phone, don.seat)
    same_glances(voters, "day 1, vote: those who voted")
    same_glances([p for p in table.living if p not in voters], "day 1, vote: those who did not")
    print("\n".join(table.log))


def test_a_glance_tells_nothing_uk(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uk")
    table.open_room(at_default(phones("Ведучий", "uk")), moderated=True)
    table.join(*(at_default(phones(name, "uk")) for name in NAMES_UK))
    table.set_timers(speech_seconds=600, defence_seconds=600, last_words_seconds=600, vote_seconds=600,
                     night_seconds=600)
    start(table, "speeches")
    moderator = table.moderator
    assert moderator is not None

    # Day 1, the first speech: everyone but the speaker (public) alike.
    same_glances(table.players[1:], "day 1, speeches, before anyone revealed")
    read_roles(table)
    don, doctor, commissar = table.one("don"), table.one("doctor"), table.one("commissar")
    courtesan, maniac = table.one("courtesan"), table.one("maniac")
    civilians = table.by_role("civilian")
    listening = [p for p in table.players if p.seat != 1]
    covered = same_glances(listening, "day 1, speeches")[0]
    reveal(don, hold=True)
    reveal(commissar, hold=True)
    shows_don, shows_commissar = signature(don), signature(commissar)
    assert shows_don != covered and shows_commissar != covered and shows_don != shows_commissar
    don.page.evaluate("() => window.mafiaVeil.cover()")
    hide_page(commissar)
    let_go(don, commissar)
    same_glances(listening, "day 1, speeches, covered again", wait=3000)

    # Two nominations by the first two speakers (of two civilians), then the moderator ends the speeches.
    nominees = [p.seat for p in civilians if p.seat > 2][:2]
    for speaker, nominee in zip((1, 2), nominees, strict=True):
        phone = table.seat(speaker)
        phone.pick("nominate", nominee)
        phone.tap("confirm", phone.tid("nominees").filter(has_text=table.label(phone.t, nominee)))
        end_step(moderator)
    for _ in range(20):
        if moderator.tid("phase").filter(has_text=exactly(table.title(moderator.t, "vote", 1))).count():
            break
        end_step(moderator)
    table.expect_phase("vote", 1, check=False)
    same_glances(table.players, "day 1, vote")
    voters = [don, doctor, maniac]
    for phone in voters:
        vote_covered(phone, nominees[0])
    same_glances(voters, "day 1, vote: those who voted")
    same_glances([p for p in table.players if p not in voters], "day 1, vote: those who did not")

    # The vote ends (the missing votes go to the last nominee); last words, then night 1.
    night = table.title(moderator.t, "night", 1)
    for _ in range(10):
        if moderator.tid("phase").filter(has_text=exactly(night)).count():
            break
        end_step(moderator)
    table.expect_phase("night", 1, check=False)
    table.died(*dead_seats(table))
    assert table.dead, "nobody was eliminated on day 1"
    same_glances(table.living, "night 1, start")

    # Mid-night: the don, the doctor, the commissar, the courtesan and the maniac have confirmed.
    town = [p for p in civilians if p.seat not in table.dead]
    plan = ((don, town[0].seat), (doctor, doctor.seat), (commissar, don.seat), (courtesan, town[1].seat),
            (maniac, town[2].seat))
    confirm_all([(phone, target) for phone, target in plan if phone.seat not in table.dead])
    same_glances(table.living, "night 1, some have confirmed")

    # Day 2: the last words of the night's dead (or, if nobody died, the speeches); the living but the
    # speaker (public) alike, covered.
    end_step(moderator)
    last_words = table.title(moderator.t, "last_words", 2)
    phase = "last_words" if moderator.tid("phase").filter(has_text=exactly(last_words)).count() else "speeches"
    table.expect_phase(phase, 2, check=False)
    table.died(*dead_seats(table))
    speaker = table.speaker(moderator, phase)
    same_glances([p for p in table.living if p.seat != speaker], f"day 2, {phase}")
    print("\n".join(table.log))


# ---------------------------------------------------------------- 2. the step's button in the first screen

SMALL: ViewportSize = {"width": 360, "height": 640}
TABLES = {  # size: (rules, the browser phones' languages: the host (or moderator) first)
    4: ("uz", ["ru", "uz"]),
    12: ("uk", ["uk", "en", "ro"]),
    30: ("uz", ["en", "uz", "uk", "ro", "ru"]),
}


def small_phone(phones: Callable[..., Phone], name: str, language: str) -> Phone:
    phone = phones(name, language)
    phone.page.set_viewport_size(SMALL)
    phone.context.add_init_script("window.mafiaRevealMs = 600000;")  # measured, not timed: no cover meanwhile
    return phone


@pytest.mark.parametrize("size", sorted(TABLES))
def test_the_step_button_is_in_the_first_screen(server: Server, phones: Callable[..., Phone], size: int) -> None:
    rules, languages = TABLES[size]
    moderated = rules == "uk"
    table = Table(server.base, rules)
    browsers = [small_phone(phones, f"{language.upper()}{index}", language) for index, language in
                enumerate(languages)]
    table.open_room(browsers[0], moderated=moderated)
    table.join(*browsers[1:])
    crowd = Crowd(server.base)
    try:
        players = size - len(table.players)
        crowd.join(table.code, [f"Sim{index:02d}" for index in range(players)])
        if rules == "uz":
            table.set_timers(night_seconds=600, discussion_seconds=600, vote_seconds=600)
        else:
            table.set_timers(speech_seconds=600, defence_seconds=600, last_words_seconds=600, vote_seconds=600,
                             night_seconds=600)
        host = table.host
        t = host.t
        shows_all = t("Players: {count}").format(count=t.number(size))
        expect(host.page.get_by_text(shows_all, exact=True)).to_be_visible()
        in_first_screen(host, host.tid("start"), "the lobby's start")
        problems: list[str] = []
        if rules == "uz":
            first_screen_uz(table)
        else:
            first_screen_uk(table, problems)
        assert not problems, "\n".join(problems)
    finally:
        crowd.close()


def night_confirm(table: Table, phones: list[Phone]) -> None:
    for phone in phones:
        phone.reveal()
        phone.pick("target", first_enabled(phone, "target"))
        in_first_screen(phone, phone.tid("confirm"), "the night's confirm after a pick")


def vote_confirm(phone: Phone) -> None:
    phone.pick("vote", first_enabled(phone, "vote"))
    in_first_screen(phone, phone.tid("confirm"), "the vote's confirm after a pick")


def first_screen_uz(table: Table) -> None:
    host = table.host
    table.start("night")
    night_confirm(table, table.players)
    end_step(host)  # nobody confirmed: nobody dies
    table.expect_phase("discussion", 1, check=False)
    for phone in table.players:
        in_first_screen(phone, phone.tid("ready"), "the discussion's ready")
    end_step(host)
    table.expect_phase("vote", 1, check=False)
    for phone in table.players:
        vote_confirm(phone)


def first_screen_uk(table: Table, problems: list[str]) -> None:
    """The uk steps; the moderator's foul grid is checked to the end (its problems are listed, not raised at
    the first one), so that one failing seat does not hide the steps after it."""
    moderator = table.moderator
    assert moderator is not None
    table.start("speeches")
    for speaker in table.players:  # seats 1 and 2: they speak first, and nominate seats 3 and 4 (simulated)
        assert table.speaker(moderator, "speeches") == speaker.seat
        in_first_screen(speaker, speaker.tid("end-speech"), "the speech's end")
        nominee = speaker.seat + 2
        speaker.pick("nominate", nominee)
        in_first_screen(speaker, speaker.tid("confirm"), "the nomination's confirm")
        in_first_screen(speaker, speaker.tid("end-speech"), "the speech's end beside the nomination")
        if speaker.seat == 1:  # the moderator's fouls: the grid, then the amounts after a pick
            for seat in range(1, 13):
                problems.append(first_screen_problem(moderator, moderator.tid(f"foul-{seat}"),
                                                     f"the foul grid's seat {seat}") or "")
            moderator.pick("foul", 5)
            for amount in ("0.5", "1"):
                problems.append(first_screen_problem(moderator, moderator.tid(f"foul-amount-{amount}"),
                                                     f"the foul of {amount} (after a tap on seat 5)") or "")
            problems[:] = [problem for problem in problems if problem]
        speaker.tap("confirm", speaker.tid("nominees"))
        end_step(moderator)
    vote = table.title(moderator.t, "vote", 1)
    for _ in range(20):
        if moderator.tid("phase").filter(has_text=exactly(vote)).count():
            break
        end_step(moderator)
    table.expect_phase("vote", 1, check=False)
    for phone in table.players:
        vote_confirm(phone)
    night = table.title(moderator.t, "night", 1)
    for _ in range(10):
        if moderator.tid("phase").filter(has_text=exactly(night)).count():
            break
        end_step(moderator)
    table.expect_phase("night", 1, check=False)
    night_confirm(table, table.players)


# ---------------------------------------------------------------- 3. the screen covers itself


def test_the_screen_covers_itself(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    crowd = Crowd(server.base)
    try:
        crowd.join(table.code, ["Sim1", "Sim2", "Sim3"])
        set_timers(host, "uz", lambda text: crowd.shows(0, text), night_seconds=600, discussion_seconds=600)
        table.start("night")
        page = host.page

        # No touch for mafiaRevealMs: covered (not before).
        page.evaluate("() => { window.mafiaRevealMs = 1500; }")
        opened = time.monotonic()
        reveal(host)
        wait_covered(host, 10_000)
        assert time.monotonic() - opened >= 1.4, "covered before mafiaRevealMs"
        expect(host.tid("my-role")).to_have_count(0)
        page.evaluate("() => { window.mafiaRevealMs = 600000; }")

        # The page hidden (the phone locked, another app): covered at once.
        reveal(host)
        hide_page(host)
        wait_covered(host, 2000)
        expect(host.tid("reveal")).to_be_visible()

        # The phone turned, then laid flat on the table for a second: covered.
        reveal(host)
        page.evaluate("() => window.dispatchEvent(new Event('orientationchange'))")
        wait_covered(host, 2000)
        reveal(host)
        flat = "() => window.dispatchEvent(new DeviceOrientationEvent('deviceorientation', " \
               "{alpha: 0, beta: 2, gamma: 1}))"
        page.evaluate(flat)
        page.wait_for_timeout(1200)  # the test is about time: a phone lying flat for more than a second
        page.evaluate(flat)
        wait_covered(host, 2000)

        # A confirmed night choice: covered mafiaCoverAfterMs later (default 1500 ms), not at once.
        reveal(host)
        host.pick("target", first_enabled(host, "target"))
        confirmed = time.monotonic()
        host.tid("confirm").click()
        wait_covered(host, 10_000)
        assert time.monotonic() - confirmed >= 1.4, "covered before mafiaCoverAfterMs"
        expect(host.tid("night-done")).to_have_count(0)
        reveal(host)
        expect(host.tid("night-done")).to_be_visible()  # the choice was taken

        # A new phase covers a revealed screen.
        reveal(host)
        end_step(host)
        wait_covered(host, 5000)
        table.expect_phase("discussion", 1, check=False)
    finally:
        crowd.close()

"""``python -m e2e.screenshots``: play two games on real phones and photograph every screen into docs/screens/.

Not run by the test suite. It starts its own server (a temporary data folder), plays a uz game with nine
phones and a uk game with twelve phones and a moderator, and takes each screen in English and in the
rule set's language (Uzbek, Ukrainian); the night and the vote also in Romanian and Russian. Phones are
390x844 at scale 1 (PNG); the TV also at 1280x720. A phone changes language with the picker on its page, as
a person does (the choice is kept by the browser).

    python -m e2e.screenshots            # writes docs/screens/*.png
    python -m e2e.screenshots --only uz  # one game (uz or uk)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from e2e.harness import ROOT, TV_SIZE, Phone, Server, Table, launch, shows
from webgame.language.i18n import LANGUAGES, translator

OUT = ROOT / "docs" / "screens"
ALL_LANGUAGES = ("en", "uz", "uk", "ro", "ru")


class Camera:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.taken: list[str] = []

    def shot(self, phone: Phone, name: str, focus: str | None = None) -> None:
        """The phone's screen as its owner sees it, scrolled so that ``focus`` (a test id) is in view."""
        if focus is not None:
            element = phone.tid(focus).first
            shows(element)
            element.evaluate("e => e.scrollIntoView({block: 'center'})")
        else:
            phone.page.evaluate("() => window.scrollTo(0, 0)")
        phone.page.wait_for_timeout(300)  # let Quasar's ripple and transitions settle before the photograph
        path = self.out / f"{name}.png"
        phone.screenshot(path)
        self.taken.append(path.name)
        print(f"  {path.name}", flush=True)

    def in_languages(self, phone: Phone, name: str, languages: tuple[str, ...], focus: str | None = None,
                     before: object = None) -> None:
        """The same screen in several languages: the phone switches with its own picker, then back."""
        original = phone.language
        for language in languages:
            set_language(phone, language)
            if callable(before):
                before()
            self.shot(phone, f"{language}-{name}", focus)
        set_language(phone, original)


def set_language(phone: Phone, language: str) -> None:
    """Pick ``language`` in the page's own language picker (the page reloads in it)."""
    if phone.language == language:
        return
    phone.page.evaluate("() => { window.e2eOldPage = true; }")
    phone.tid("language").click()
    phone.page.get_by_role("option", name=LANGUAGES[language], exact=True).click()
    phone.page.wait_for_function("() => window.e2eOldPage === undefined")
    phone.connected()
    phone.language, phone.t = language, translator(language)
    phone.loaded_in_game = True


def show_card(phone: Phone) -> None:
    """Reveal the screen (Show) and keep it revealed for the photograph."""
    phone.page.evaluate("() => { window.mafiaRevealMs = 600000; window.mafiaCoverAfterMs = 600000; }")
    if not phone.tid("my-role").count():
        phone.tap("reveal", phone.tid("my-role"))


def hide_card(phone: Phone) -> None:
    """Cover the screen again, and let it cover itself as it does for players."""
    phone.page.evaluate("() => { delete window.mafiaRevealMs; delete window.mafiaCoverAfterMs; }")
    if phone.tid("cover").count():
        phone.tap("cover", phone.tid("reveal"))


def say(phone: Phone, text: str) -> None:
    if not phone.field("chat-input").count():  # the mafia's chat is behind the reveal
        show_card(phone)
    phone.fill("chat-input", text)
    phone.tap("chat-send", phone.tid("chat").get_by_text(text))


# ---------------------------------------------------------------- the uz game


def uz_game(browser: Browser, base: str, camera: Camera) -> None:
    home = Phone(browser, "Visitor", "en")
    for language in ("en", "uz", "uk"):
        home.context.close()
        home = Phone(browser, "Visitor", language)
        home.goto(base + "/")
        home.connected()
        camera.shot(home, f"{language}-home")
    home.close()

    table = Table(base, "uz")
    host = Phone(browser, "Aziz", "en")
    table.open_room(host)
    tv = table.tv = Phone(browser, "TV", "en", TV_SIZE)
    tv.goto(f"{base}/r/{table.code}/screen")
    names = [("Dilnoza", "uz"), ("Bekzod", "uz"), ("Ioana", "ro"), ("Олег", "ru"), ("Тарас", "uk"), ("Malika", "en"),
             ("Jasur", "uz"), ("Sardor", "en")]
    table.join(*(Phone(browser, name, language) for name, language in names))
    table.set_timers(night_seconds=300, discussion_seconds=300, vote_seconds=300)
    camera.in_languages(host, "uz-lobby-host", ("en", "uz"), focus="option-night_seconds")
    player = table.seat(2)
    camera.in_languages(player, "uz-lobby-player", ("en", "uz"))
    camera.shot(tv, "en-uz-tv-lobby")

    table.start("night")
    table.read_roles()
    don, mafia, doctor = table.one("don"), table.one("mafia"), table.one("doctor")
    commissar, lover = table.one("commissar"), table.one("lover")
    civilians = table.by_role("civilian")
    victim = civilians[0]

    camera.in_languages(doctor, "uz-night-covered", ("en", "uz"), focus="reveal")
    camera.in_languages(doctor, "uz-role-shown", ("en", "uz"), focus="my-role", before=lambda: show_card(doctor))
    hide_card(doctor)

    # The mafia's night: a suggestion, a line in the team chat, the don's choice.
    mafia.tap(f"target-{victim.seat}", mafia.tid("confirm"))
    mafia.tap("confirm", mafia.tid("night-done"))
    say(mafia, "Not the doctor tonight")
    say(don, "Agreed")
    don.tap(f"target-{victim.seat}", don.tid("confirm"))
    camera.in_languages(don, "uz-night-mafia", ("en", "uz"), focus="chat",
                        before=lambda: (show_card(don), don.tid(f"target-{victim.seat}").click()))
    don.tap("confirm", don.tid("night-done"))

    # A power role and a civilian, each with a target picked; the night in every language.
    doctor.tap(f"target-{doctor.seat}", doctor.tid("confirm"))
    camera.in_languages(doctor, "uz-night-doctor", ALL_LANGUAGES, focus="night-prompt",
                        before=lambda: show_card(doctor))
    hide_card(doctor)
    civilian = civilians[1]
    civilian.tap(f"target-{don.seat}", civilian.tid("confirm"))
    camera.in_languages(civilian, "uz-night-civilian", ("en", "uz"), focus="night-prompt",
                        before=lambda: show_card(civilian))
    hide_card(civilian)
    camera.in_languages(civilian, "uz-night-covered-civilian", ("en", "uz"))
    camera.shot(tv, "en-uz-tv-night")
    table.night(1, {doctor.seat: ("heal", doctor.seat), civilian.seat: ("suspect", don.seat),
                    commissar.seat: ("check", mafia.seat), lover.seat: ("block", civilians[2].seat)})
    table.died(victim.seat)
    table.expect_phase("discussion", 1, check=False)

    # Dawn: the news, the discussion; the dead player's view with the dead chat.
    camera.in_languages(commissar, "uz-day-discussion", ("en", "uz"))
    say(victim, "I was a civilian, believe me")
    camera.in_languages(victim, "uz-dead-chat", ("en", "uz"), focus="chat")
    table.ready_all(1)
    table.expect_phase("vote", 1, check=False)

    # The vote with its live tally, in every language.
    voters = [p for p in table.living if p not in (mafia, don)]
    table.vote(1, {voters[0].seat: mafia.seat, voters[1].seat: mafia.seat, don.seat: voters[0].seat})
    watcher = voters[2]
    watcher.tap(f"vote-{mafia.seat}", watcher.tid("confirm"))
    camera.in_languages(watcher, "uz-vote", ALL_LANGUAGES, focus="tally")
    camera.shot(tv, "en-uz-tv-vote")
    tv_phone = Phone(browser, "TV phone", "uz")
    tv_phone.goto(f"{base}/r/{table.code}/screen")
    shows(tv_phone.tid("tally"))
    camera.shot(tv_phone, "uz-uz-tv-phone-vote")
    tv_phone.close()
    table.vote(1, {p.seat: mafia.seat for p in table.living if p.seat not in (
        voters[0].seat, voters[1].seat, don.seat, mafia.seat)} | {mafia.seat: voters[0].seat})
    table.died(mafia.seat)

    # Night 2 and day 2: the town finds the don.
    table.expect_phase("night", 2, check=False)
    table.night(2, {don.seat: ("kill", civilians[2].seat), doctor.seat: ("heal", civilians[2].seat),
                    commissar.seat: ("check", don.seat)})
    table.expect_phase("discussion", 2, check=False)
    table.ready_all(2)
    table.expect_phase("vote", 2, check=False)
    table.vote(2, {p.seat: don.seat if p is not don else doctor.seat for p in table.living})
    table.died(don.seat)
    table.expect_phase("ended", 2, check=False)
    camera.in_languages(host, "uz-end", ("en", "uz"), focus="winner")
    camera.in_languages(host, "uz-end-timeline", ("en", "uz"), focus="timeline")
    camera.shot(tv, "en-uz-tv-end")
    set_language(tv, "uz")
    camera.shot(tv, "uz-uz-tv-end")
    for phone in table.players + [tv]:
        phone.close()


# ---------------------------------------------------------------- the uk game


def uk_game(browser: Browser, base: str, camera: Camera) -> None:
    table = Table(base, "uk")
    moderator = Phone(browser, "Ведучий", "uk")
    table.open_room(moderator, moderated=True)
    names = ["Остап", "Мирослава", "Тарас", "Olena", "Богдан", "Ірина", "Andriy", "Соломія", "Nazar", "Дарина",
             "Pavlo", "Леся"]
    table.join(*(Phone(browser, name, "en" if i % 4 == 3 else "uk") for i, name in enumerate(names)))
    table.set_timers(speech_seconds=300, defence_seconds=300, last_words_seconds=300, vote_seconds=300,
                     night_seconds=300)
    camera.in_languages(moderator, "uk-lobby-moderator", ("en", "uk"), focus="moderated")
    table.start("speeches")
    table.read_roles()
    tv = table.tv = Phone(browser, "TV", "uk", TV_SIZE)
    tv.goto(f"{base}/r/{table.code}/screen")
    don, commissar, doctor = table.one("don"), table.one("commissar"), table.one("doctor")
    courtesan, maniac = table.one("courtesan"), table.one("maniac")
    first_mafia, second_mafia = table.by_role("mafia")
    nominees = [first_mafia.seat, second_mafia.seat]
    nominations: dict[int, int] = {}
    for nominee in nominees:
        nominations[next(s for s in range(1, 13) if s != nominee and s not in nominations)] = nominee
    fouled = table.by_role("civilian")[0]
    shots = {"done": False}

    def during(seat: int) -> None:
        if seat == 3 and not shots["done"]:
            shots["done"] = True
            table.foul(fouled.seat, 1)
            table.foul(fouled.seat, 0.5)
            moderator.tap(f"foul-{fouled.seat}", moderator.tid("foul-amount-1"))
            camera.in_languages(moderator, "uk-moderator-fouls", ("en", "uk"), focus="foul-amount-1")
            speaker = table.seat(seat)
            camera.in_languages(speaker, "uk-speech-nominate", ("en", "uk"), focus="end-speech")
            camera.shot(tv, "uk-uk-tv-speeches")

    table.speeches("speeches", 1, nominations, during)
    table.expect_phase("defence", 1, check=False)
    table.speeches("defence", 1)
    table.expect_phase("vote", 1, check=False)
    votes: dict[int, int | None] = {nominees[0]: nominees[1], nominees[1]: nominees[0]}
    rest = [p.seat for p in table.living if p.seat not in nominees]
    for index, seat in enumerate(rest):
        votes[seat] = nominees[index % 2]
    first_votes = dict(list(votes.items())[:6])
    table.vote(1, first_votes)
    voter = table.seat(rest[-1])
    voter.tap(f"vote-{nominees[0]}", voter.tid("confirm"))
    camera.in_languages(voter, "uk-vote", ("en", "uk"), focus="tally")
    table.vote(1, {s: t for s, t in votes.items() if s not in first_votes})
    table.expect_phase("defence", 1, check=False)
    table.speeches("defence", 1)
    table.expect_phase("vote", 1, check=False)
    voter.tap(f"vote-{nominees[1]}", voter.tid("confirm"))
    camera.in_languages(voter, "uk-revote", ("en", "uk"), focus="confirm")
    table.vote(1, votes)
    table.expect_phase("eliminate_all", 1, check=False)
    camera.in_languages(voter, "uk-eliminate-all", ("en", "uk"), focus="yes")
    table.eliminate_all(1, {p.seat: p.seat not in nominees + [courtesan.seat] for p in table.living})
    table.died(*nominees)
    table.expect_phase("last_words", 1, check=False)
    table.speeches("last_words", 1)

    table.expect_phase("night", 1, check=False)
    commissar.tap(f"target-{don.seat}", commissar.tid("confirm"))
    camera.in_languages(commissar, "uk-night-commissar", ("en", "uk"), focus="note",
                        before=lambda: (show_card(commissar), commissar.tid("note").click()))
    hide_card(commissar)
    commissar.tap(f"target-{don.seat}", commissar.tid("confirm"))
    commissar.tid("note").click()
    commissar.tap("confirm", commissar.tid("night-done"))
    dead = table.seat(nominees[0])
    say(dead, "Я був мирним!")
    camera.in_languages(dead, "uk-dead-chat", ("en", "uk"), focus="chat")
    table.night(1, {don.seat: ("kill", commissar.seat), doctor.seat: ("heal", doctor.seat),
                    courtesan.seat: ("freeze", fouled.seat), maniac.seat: ("kill", courtesan.seat)})
    table.died(commissar.seat, courtesan.seat)
    table.expect_phase("last_words", 2, check=False)
    camera.in_languages(doctor, "uk-dawn-note", ("en", "uk"), focus="news")
    camera.shot(tv, "uk-uk-tv-day")
    table.speeches("last_words", 2)
    table.expect_phase("speeches", 2, check=False)
    first = next(p.seat for p in table.living if p.seat >= 2 and p is not don)
    table.speeches("speeches", 2, {first: don.seat})
    table.died(don.seat)
    table.expect_phase("ended", 2, check=False)
    camera.in_languages(doctor, "uk-end", ("en", "uk"), focus="winner")
    camera.in_languages(doctor, "uk-end-timeline", ("en", "uk"), focus="timeline")
    camera.shot(tv, "uk-uk-tv-end")
    for phone in table.phones + [tv]:
        phone.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", choices=("uz", "uk"))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    camera = Camera(args.out)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "data").start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                if args.only in (None, "uz"):
                    uz_game(browser, server.base, camera)
                if args.only in (None, "uk"):
                    uk_game(browser, server.base, camera)
                browser.close()
        finally:
            server.stop()
    total = sum((args.out / name).stat().st_size for name in camera.taken)
    print(f"{len(camera.taken)} screenshots, {total / 1e6:.1f} MB, in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    sys.exit(main())

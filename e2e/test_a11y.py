"""Accessibility of every page a table sees, in the five languages (issue 16): axe-core finds no serious or
critical violation on the start page, the lobby (the host's and a player's), the night (covered, as the table
sees it, and revealed, as its owner does), the day, the vote, the results and the TV.

One uz game of five phones, one per language (the host in English), so every game screen is scanned in every
language without replaying the game; the host's lobby and the TV switch their language with the header's
picker, and the lobby is scanned with the uk rule set too. Besides axe: one <h1> and the reader's <html lang>
on every page, controls of 44 px each way, no control named in English on another language's phone. All
findings are gathered and reported at once."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from babel.messages.pofile import read_po

from e2e.harness import ROOT, Phone, Server, Table, shows
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages import wording

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = pytest.mark.e2e

BLOCKING = {"serious", "critical"}
# Every visible control, its size and its accessible name's sources (Quasar's select keeps a 1 px focus input).
CONTROLS = """() => { return Array.from(document.querySelectorAll(
    'button, a[href], [role=button], [role=switch], [role=checkbox], [role=combobox]:not(.q-select__focus-target)'))
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.getAttribute('data-testid') || el.tagName, Math.round(r.width), Math.round(r.height),
            el.getAttribute('aria-label') || '', el.getAttribute('title') || '', visibleLabel(el)]; });
  function visibleLabel(el) {  // the text a sighted user reads on the control (its icons' ligatures left out)
    const copy = el.cloneNode(true);
    copy.querySelectorAll('.q-icon, .material-icons, [aria-hidden=true]').forEach((icon) => icon.remove());
    return (copy.textContent || '').replace(/\\s+/g, ' ').trim(); }
}"""
with (ROOT / "locales" / "messages.pot").open("rb") as template:
    ENGLISH = {message.id for message in read_po(template) if isinstance(message.id, str) and message.id}
PLAYERS = (("Aziz", "en"), ("Dilnoza", "uz"), ("Олег", "uk"), ("Ioana", "ro"), ("Сергей", "ru"))


@dataclass
class Scanner:
    """axe-core run on a phone's page; what it finds, by page, language and rule."""

    axe: object = field(default_factory=lambda: axe_playwright.Axe())
    found: list[str] = field(default_factory=list)
    scans: int = 0
    seconds: float = 0.0

    def scan(self, phone: Phone, what: str, language: str | None = None) -> None:
        self.scan_all([phone], what, language)

    def scan_all(self, phones: list[Phone], what: str, language: str | None = None) -> None:
        """Scan these pages (their axe runs at once, each in its own browser page), then read each one."""
        started = time.monotonic()
        for phone in phones:
            phone.page.wait_for_load_state("load")
            if not phone.page.evaluate("() => typeof window.axe === 'object'"):  # once per page load (560 KB)
                phone.page.evaluate(self.axe.axe_script)  # type: ignore[attr-defined]
            phone.page.evaluate("() => { window.e2eAxe = axe.run(document, {resultTypes: ['violations']}); }")
        for phone in phones:
            response = phone.page.evaluate("() => window.e2eAxe")
            self.scans += 1
            expected = language or phone.language
            self.read(phone, what, expected, response)
        self.seconds += time.monotonic() - started

    def read(self, phone: Phone, what: str, expected: str, response: dict[str, Any]) -> None:
        lang = phone.page.evaluate("() => document.documentElement.lang")
        if lang != expected:
            self.found.append(f"{what} [{expected}]: <html lang={lang!r}>")
        if phone.page.locator("h1").count() != 1:
            self.found.append(f"{what} [{expected}]: {phone.page.locator('h1').count()} h1 elements")
        self.controls(phone, what, expected)
        for violation in response["violations"]:
            if violation.get("impact") not in BLOCKING:
                continue
            nodes = violation["nodes"]
            sample = "; ".join(f"{n['target']} {n.get('failureSummary', '')[:160]!r}" for n in nodes[:3])
            self.found.append(f"{what} [{expected}]: {violation['id']} ({violation['impact']}) x{len(nodes)}: "
                              f"{sample}")

    def controls(self, phone: Phone, what: str, language: str) -> None:
        """Controls of at least 44 px each way; names (aria-label, title) in the phone's language."""
        _ = translator(language)
        for name, width, height, aria, title, visible in phone.page.evaluate(CONTROLS):
            if width < 44 or height < 44:
                self.found.append(f"{what} [{language}]: {name} is {width}x{height} px")
            if aria and visible and visible.casefold() not in aria.casefold():  # axe's label-content-name-mismatch
                self.found.append(f"{what} [{language}]: {name} shows {visible!r} but is named {aria!r}")
            labels = (aria, title)
            for label in labels:
                if label and language != "en" and label in ENGLISH and _(label) != label:
                    self.found.append(f"{what} [{language}]: {name} is named in English: {label!r}")


def switch_language(phone: Phone, language: str, ready: str) -> None:
    """The header's language picker (the page reloads in that language)."""
    phone.select("language", LANGUAGES[language])
    phone.page.wait_for_function(f"() => document.documentElement.lang === {language!r}")
    shows(phone.tid(ready))


def test_every_page_in_every_language_has_no_serious_violation(server: Server,
                                                               phones: Callable[..., Phone]) -> None:
    scanner = Scanner()
    table = Table(server.base, "uz")
    people = [phones(name, language) for name, language in PLAYERS]
    host, others = people[0], people[1:]
    for phone in people:  # the start page, each in its own language
        phone.goto(server.base + "/")
    for phone in people:
        shows(phone.tid("create"))
    scanner.scan_all(people, "home")
    table.open_room(host)
    table.join(*others)
    scanner.scan_all(others, "lobby (player)")
    for language in ("en", "uz", "uk", "ro", "ru"):
        if language != "en":
            switch_language(host, language, "start")
        scanner.scan(host, "lobby (host)", language)
    switch_language(host, "en", "start")
    host.select("rules", host.t(wording.RULE_SET_NAMES["uk"]))  # the uk lobby: its options, its roles
    for phone in others:
        shows(phone.page.get_by_text(phone.t(wording.RULE_SET_NAMES["uk"]), exact=True))
    scanner.scan_all(people, "lobby (uk)")
    host.select("rules", host.t(wording.RULE_SET_NAMES["uz"]))
    for phone in others:
        shows(phone.page.get_by_text(phone.t(wording.RULE_SET_NAMES["uz"]), exact=True))
    table.set_timers(night_seconds=600, discussion_seconds=600, vote_seconds=600)

    tv = phones("TV", "en", {"width": 1280, "height": 720})
    tv.goto(f"{server.base}/r/{table.code}/screen")
    shows(tv.tid("code"))
    scanner.scan(tv, "TV (lobby)")

    table.start("night")
    scanner.scan_all(people, "night (covered)")
    for phone in people:
        phone.reveal()
    for phone in people:
        shows(phone.tid("my-role"))
    scanner.scan_all(people, "night (revealed)")
    table.read_roles()  # each reads his card (already shown) and covers his screen
    mafia = table.one("mafia")
    victim = next(p for p in table.players if p.role == "civilian")
    table.night(1, {mafia.seat: ("kill", victim.seat)})
    table.died(victim.seat)
    table.expect_phase("discussion", 1, check=False)
    scanner.scan_all([*people, tv], "day")
    table.ready_all(1)
    table.expect_phase("vote", 1, check=False)
    scanner.scan_all(people, "vote")
    table.vote(1, {p.seat: mafia.seat for p in table.living if p is not mafia} | {mafia.seat: None})
    table.expect_phase("ended", 1, check=False)
    scanner.scan_all(people, "results")
    for language in ("en", "uz", "uk", "ro", "ru"):
        if language != "en":
            switch_language(tv, language, "winner")
        scanner.scan(tv, "TV (results)", language)
    print(f"{scanner.scans} scans in {scanner.seconds:.1f} s; the table: {table.log[-1] if table.log else ''}")
    assert scanner.scans >= 50
    assert not scanner.found, "\n".join(scanner.found)


def test_the_share_button_copies_the_link_and_says_so(server: Server, phones: Callable[..., Phone]) -> None:
    """Without the phone's share sheet (a desktop browser), the share button copies the room's link and says so
    on the button (and to screen readers); the Telegram button carries the same link."""
    table = Table(server.base, "uz")
    host = phones("Mihai", "ro")
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    host.page.add_init_script("delete Navigator.prototype.share;")  # a browser without the Web Share API
    table.open_room(host)
    link = f"{server.base}/r/{table.code}"
    host.tid("share").click()
    shows(host.tid("share").filter(has_text=host.t("Link copied")))
    assert host.page.evaluate("() => navigator.clipboard.readText()") == link
    assert host.page.locator("[role=status]").filter(has_text=host.t("Link copied")).count() == 1
    telegram = host.tid("share-telegram").get_attribute("href") or ""
    assert telegram.startswith("https://t.me/share/url?") and urllib.parse.quote(link, safe="") in telegram

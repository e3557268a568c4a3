"""The TV's narrator in a real browser: a whole uz game told with the recorded clips (the browser has no Uzbek
voice) and a whole uk game told with speech synthesis, each in order and in the narrator's language, not the
TV page's; nothing said holds a secret; the TV at 1280x720 and 1920x1080 at night, at the vote and at the end
(``docs/screens/tv-*.png``).

Chromium runs with ``--autoplay-policy=no-user-gesture-required`` (sound without a tap); an init script spies on
``speechSynthesis.speak`` and ``HTMLMediaElement.prototype.play`` (clips play at 16x: the real decoder, not the
real time) and gives the browser voices for every language but Uzbek."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from e2e.harness import CHROMIUM, LAUNCH_ARGS, TV_SIZE, Phone, Server, Table, shot, shows
from webgame.language.i18n import LANGUAGES, Translator, translator
from webgame.pages import narration, wording
from webgame.pages.narration import Phrase

pytestmark = pytest.mark.e2e

FULL_HD = {"width": 1920, "height": 1080}

SPY = """
(() => {
  window.e2eSaid = [];
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    window.e2eSaid.push(["play", new URL(this.src, location.href).pathname]);
    this.playbackRate = 16;
    return play.call(this);
  };
  if ("speechSynthesis" in window) {
    const voices = ["en-GB", "uk-UA", "ru-RU", "ro-RO"].map((lang) => ({
      lang, name: "e2e " + lang, voiceURI: "e2e-" + lang, localService: true, default: false }));
    window.speechSynthesis.getVoices = () => voices;
    window.speechSynthesis.speak = (utterance) => {
      if (utterance.text.trim()) window.e2eSaid.push(["speak", utterance.text, utterance.lang]);
      setTimeout(() => { if (utterance.onend) utterance.onend(new Event("end")); }, 20);
    };
  }
})();
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """This module's Chromium may play sound without a tap (the other modules' may not)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=[*LAUNCH_ARGS, "--autoplay-policy=no-user-gesture-required"])
        yield launched
        launched.close()


def open_tv(phones: Callable[..., Phone], table: Table, language: str, size: dict[str, int]) -> Phone:
    tv = phones("TV", language, size)
    tv.context.add_init_script(SPY)
    tv.goto(f"{table.base}/r/{table.code}/screen")
    shows(tv.tid("code"))
    return tv


def said(tv: Phone) -> list[list[str]]:
    return [list(item) for item in tv.page.evaluate("() => window.e2eSaid")]


def wait_said(tv: Phone, count: int) -> list[list[str]]:
    """What the TV has said once it has said ``count`` things (speeches or clips)."""
    tv.page.wait_for_function(f"() => window.e2eSaid.length >= {count}", timeout=30_000)
    return said(tv)


def heard(language: str, rules: str, table: Table, expected: list[Phrase], voice: str = "") -> list[list[str]]:
    """What the spy must record for ``expected``: each phrase's cue, then its words: spoken with ``voice`` (a
    language tag), or, without a voice, its recorded clips."""
    t = translator(language)
    calls: list[list[str]] = []
    for phrase in expected:
        line = narration.render(phrase, t, rules, lambda seat: table.label(t, seat))
        if line.cue:
            calls.append(["play", f"/static/narrator/cue-{line.cue}.ogg"])
        if line.silent:
            continue
        if voice:
            calls.append(["speak", line.text, voice])
        else:
            calls.extend(["play", f"/static/narrator/{language}/{clip}.ogg"] for clip in line.clips)
    return calls


def no_secret(table: Table, t: Translator, texts: list[str], known: dict[int, str]) -> None:
    """No sentence names the role of a seat the spectator did not know at that moment (``known``: revealed)."""
    for text in texts:
        for seat, role in table.roles.items():
            if seat in known:
                continue
            name = wording.role_name(t, table.rules, role)
            if name in {wording.role_name(t, table.rules, r) for r in known.values()}:
                continue
            assert re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text) is None, (text, seat, role)


def set_narrator(table: Table, language: str) -> None:
    """The host picks the narrator's language in his lobby (his phone stays silent)."""
    table.host.select("narrator-language", LANGUAGES[language])


def test_a_uz_game_told_with_recorded_clips_and_the_tv_at_two_sizes(server: Server,
                                                                    phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    tv = table.tv = open_tv(phones, table, "ru", TV_SIZE)  # the TV's page in Russian, its narrator in Uzbek
    big = open_tv(phones, table, "en", FULL_HD)
    table.join(*(phones(name, language) for name, language in (("Dilnoza", "uz"), ("Олег", "ru"), ("Тарас", "uk"),
                                                               ("Ioana", "ro"))))
    set_narrator(table, "uz")
    table.set_timers(night_seconds=120, discussion_seconds=120, vote_seconds=120)
    expect(tv.page.locator(".mafia-narration")).to_have_attribute("data-lang", "uz")
    table.start("night")
    table.read_roles()
    mafia, doctor, commissar = table.one("mafia"), table.one("doctor"), table.one("commissar")
    first, second = table.by_role("civilian")
    for phone in table.players:  # a phone never loads the narrator, whatever its role
        assert phone.page.evaluate("() => typeof window.mafiaNarrator") == "undefined"

    # Night 1, half chosen: the TV shows how many have chosen, never who.
    mafia.tap(f"target-{first.seat}", mafia.tid("confirm"))
    mafia.tap("confirm", mafia.tid("night-done"))
    doctor.tap(f"target-{doctor.seat}", doctor.tid("confirm"))
    doctor.tap("confirm", doctor.tid("night-done"))
    for screen in (tv, big):
        expect(screen.tid("progress")).to_have_text(screen.t("Chosen: {done} of {living}").format(
            done=screen.t.number(2), living=screen.t.number(5)))
    screenshot(tv, big, "night")
    table.night(1, {mafia.seat: ("kill", first.seat), doctor.seat: ("heal", doctor.seat),
                    commissar.seat: ("check", second.seat)})
    table.died(first.seat)
    table.expect_phase("discussion", 1)
    table.ready_all(1)
    table.expect_phase("vote", 1)
    table.vote(1, {mafia.seat: doctor.seat, second.seat: doctor.seat})
    for screen in (tv, big):
        expect(screen.tid("tally")).to_have_text(screen.t("{name}: {count}").format(
            name=table.label(screen.t, doctor.seat), count=screen.t.number(2)))
    screenshot(tv, big, "vote")
    table.vote(1, {commissar.seat: doctor.seat, doctor.seat: mafia.seat})
    table.died(doctor.seat)
    table.expect_phase("night", 2)
    table.night(2, {mafia.seat: ("kill", commissar.seat), commissar.seat: ("check", mafia.seat)})
    table.died(commissar.seat)
    table.expect_phase("ended", 2)
    screenshot(tv, big, "end")

    expected = [Phrase("night", cue="night"),
                Phrase("wake", cue="day"), Phrase("died-night", first.seat), Phrase("role", first.seat, "civilian"),
                Phrase("vote-open", cue="day"),
                Phrase("voted-out", doctor.seat), Phrase("role", doctor.seat, "doctor"), Phrase("night", cue="night"),
                Phrase("wake", cue="day"), Phrase("died-night", commissar.seat),
                Phrase("role", commissar.seat, "commissar"), Phrase("winner", 0, "mafia")]
    wanted = heard("uz", "uz", table, expected)
    for screen in (tv, big):
        calls = wait_said(screen, len(wanted))
        assert calls == wanted, calls
    # The captions the clips stand for, checked like every page: no living player's unknown role.
    uz = translator("uz")
    lines = [narration.render(p, uz, "uz", lambda seat: table.label(uz, seat)).text for p in expected[:-1]]
    no_secret(table, uz, lines, {first.seat: "civilian", doctor.seat: "doctor", commissar.seat: "commissar"})
    # The clips are real Opus files the browser decodes.
    duration = tv.page.evaluate("""async (src) => { const a = new Audio(src);
        await new Promise((ok, fail) => { a.onloadedmetadata = ok; a.onerror = fail; }); return a.duration; }""",
                                wanted[2][1])
    assert 0.3 < duration < 6


def test_a_uk_game_told_by_speech_synthesis(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uk")
    table.open_room(phones("Ведучий", "uk"), moderated=True)
    tv = table.tv = open_tv(phones, table, "en", TV_SIZE)  # the TV's page in English, its narrator in Ukrainian
    table.join(*(phones(name, "uk" if index % 3 else "ru") for index, name in enumerate(
        ["Остап", "Мирослава", "Тарас", "Olena", "Богдан", "Ірина", "Andriy", "Соломія"])))
    set_narrator(table, "uk")
    host = table.host  # a moderated room asks for 12 players unless the host allows fewer
    host.fill("min-players", "8")
    host.field("min-players").press("Tab")
    expect(host.tid("start")).to_be_enabled()
    table.set_timers(speech_seconds=180, defence_seconds=180, last_words_seconds=180, vote_seconds=180,
                     night_seconds=180)
    table.start("speeches")
    table.read_roles()
    don, courtesan, maniac = table.one("don"), table.one("courtesan"), table.one("maniac")

    # Day 1: two nominations (the maniac, the courtesan); the moderator removes the don for four fouls.
    nominators = [p.seat for p in table.players if p not in (don, courtesan, maniac)][:2]
    nominations = {nominators[0]: maniac.seat, nominators[1]: courtesan.seat}
    fouler = nominators[1]

    def fouls(seat: int) -> None:
        if seat == fouler:
            for _foul in range(4):
                table.foul(don.seat, 1)
            table.died(don.seat)

    table.speeches("speeches", 1, nominations, fouls)
    table.expect_phase("defence", 1)
    table.speeches("defence", 1)
    table.expect_phase("vote", 1)
    votes: dict[int, int | None] = {p.seat: maniac.seat for p in table.living if p is not maniac}
    votes[maniac.seat] = courtesan.seat
    table.vote(1, votes)
    table.died(maniac.seat)
    table.expect_phase("last_words", 1)
    table.speeches("last_words", 1)
    table.expect_phase("night", 1)
    table.night(1, {p.seat: ("pass", None) for p in table.living})
    table.expect_phase("speeches", 2)

    # Day 2: the courtesan is removed for four fouls too: the red team wins.
    for _foul in range(4):
        table.foul(courtesan.seat, 1)
    table.died(courtesan.seat)
    table.expect_phase("ended", 2)

    expected = [Phrase("phase", value="speeches", cue="day", day=1),
                *[Phrase("foul", don.seat)] * 4, Phrase("removed", don.seat),
                Phrase("phase", value="defence", cue="day", day=1),
                Phrase("vote-open", cue="day"),
                Phrase("voted-out", maniac.seat), Phrase("phase", value="last_words", cue="day", day=1),
                Phrase("night", cue="night"),
                Phrase("wake", cue="day"), Phrase("nobody-died"),
                *[Phrase("foul", courtesan.seat)] * 4, Phrase("removed", courtesan.seat),
                Phrase("winner", 0, "red")]
    wanted = heard("uk", "uk", table, expected, "uk-UA")
    calls = wait_said(tv, len(wanted))
    assert calls == wanted, calls
    uk = translator("uk")
    no_secret(table, uk, [item[1] for item in calls if item[0] == "speak"][:-1], {})
    assert tv.page.locator(".mafia-narration").get_attribute("data-lang") == "uk"


def screenshot(tv: Phone, big: Phone, moment: str) -> None:
    for screen, size in ((tv, "1280x720"), (big, "1920x1080")):
        screen.page.wait_for_timeout(300)  # the bars' width transition
        screen.screenshot(shot(f"tv-{size}-{moment}.png"))


WATCH_UNLOCK = """
window.__unlockSeen = [];
document.addEventListener("pointerdown", (event) => { if (event.isTrusted) window.__unlockSeen.push("tap"); }, true);
setInterval(() => {
  const button = document.querySelector('[data-testid="narrator-unlock"]');
  if (!button) return;
  const visible = getComputedStyle(button).display !== "none" && button.getBoundingClientRect().width > 0;
  const entry = visible ? "shown " + button.textContent.replace("volume_up", "").trim() : "hidden";
  const log = window.__unlockSeen.filter((item) => item !== "tap");
  if (log[log.length - 1] !== entry) window.__unlockSeen.push(entry);
}, 50);
"""


def test_the_tv_asks_for_a_tap_while_the_browser_blocks_sound(server: Server, browser: Browser,
                                                              phones: Callable[..., Phone]) -> None:
    """A browser that plays sound only after a tap (most do): the TV says so with a large button, never silently;
    the tap turns the narrator on."""
    table = Table(server.base, "uz")
    table.open_room(phones("Aziz", "en"))
    strict = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *LAUNCH_ARGS, "--autoplay-policy=document-user-activation-required"])
    try:
        page = strict.new_page(viewport=TV_SIZE)
        # Every Playwright call that reads the page (expect, evaluate, even a screenshot) counts as the user's
        # activation in Chromium, after which sound may play and the button rightly goes: the page writes down
        # what it shows, and the test reads that only after its one tap.
        page.add_init_script(WATCH_UNLOCK)
        page.goto(f"{table.base}/r/{table.code}/screen")
        page.wait_for_timeout(2500)  # the page loads and narrator.js finds the sound blocked (the page's own timer)
        page.mouse.click(TV_SIZE["width"] // 2, 40)  # any tap on the TV
        page.wait_for_timeout(800)
        seen = page.evaluate("window.__unlockSeen")
        shown = [entry for entry in seen if entry.startswith("shown ")]
        assert shown and seen.index(shown[0]) < seen.index("tap"), seen
        assert shown[0] == "shown " + translator("en")("Tap to turn the narrator on"), seen
        assert seen[-1] == "hidden" and "hidden" in seen[seen.index("tap"):], seen
    finally:
        strict.close()

"""The TV fits its screen, at 1920x1080 and 1280x720 (issue 27, point 7), in real Chromium.

A TV has nobody to scroll it. On both sizes: a lobby of 30 (the host and 29 bots), the vote of a 30-seat game, the
vote's result held alone for a few seconds, and the end of that long game, whose timeline turns its pages by
itself; a uk game with the moderator's fouls on the seats. At each moment: no element outside the screen or cut
by its box, nothing under the caption or the corner's QR code, the narrator's switch on screen. The host's phone
shows the TV's QR code only behind "Open the room on a TV".
Screenshots (with ``E2E_SHOTS=docs/screens``): ``docs/screens/tv-<size>-<moment>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from e2e.harness import TV_SIZE, Phone, Server, Table, exactly, shot, shows

pytestmark = pytest.mark.e2e

FULL_HD = {"width": 1920, "height": 1080}
PAGE_MS = 1500  # the timeline's pages turn this often at the end of the test (the TV's own: 9 s)

# Every problem of the TV's layout at this moment, as [kind, element, box]: outside the screen, cut by the box that
# holds it (the body, the timeline's page shown), under the caption or under the corner's QR code. A timeline line
# on another page than the one shown is not on the screen, and not a problem.
PROBLEMS = """() => {
  const problems = [];
  const width = innerWidth, height = innerHeight;
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => { const s = getComputedStyle(el); return s.display !== "none" && s.visibility !== "hidden"; };
  const name = (el) => el.tagName.toLowerCase() + "." + [...el.classList].join(".") + " "
    + JSON.stringify((el.innerText || "").slice(0, 40));
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const caption = document.querySelector(".mafia-narration");
  const captionBox = caption && shown(caption) && caption.children.length ? box(caption) : null;
  const corner = document.querySelector(".mafia-corner");
  const cornerBox = corner ? box(corner) : null;
  const body = document.querySelector("[data-tv-fit]");
  const bodyBox = body ? box(body) : null;
  for (const el of document.querySelectorAll(".mafia-tv *")) {
    if (!shown(el)) continue;
    const r = box(el);
    if (r.width < 1 || r.height < 1) continue;
    if (el.closest(".q-field__bottom, .q-toggle__inner")) continue;  // Quasar's own decorations
    const pager = el.closest("[data-tv-pages]");
    if (pager && pager !== el && pager.firstElementChild !== el) {
      // A part of the timeline broken across columns (a long night) is read one column after the other, the next
      // page's first column included: each of its pieces (its client rects) must be whole where it is.
      const page = box(pager);
      const pieces = [...el.getClientRects()].filter((piece) => piece.width >= 1 && piece.height >= 1);
      const here = pieces.filter((piece) => piece.right > page.left + 1 && piece.left < page.right - 1);
      if (!here.length) continue;  // on another page
      for (const piece of here)
        if (piece.left < page.left - 1 || piece.right > page.right + 1 || piece.top < page.top - 1
            || piece.bottom > page.bottom + 1)
          problems.push(["cut by the page", name(el), [piece.left, piece.top, piece.right, piece.bottom]]);
      if (pieces.length > 1) continue;  // its bounding box spans the columns: its pieces were checked
    }
    if (pager && pager.firstElementChild === el) continue;  // the columns, slid by a page at a time
    if (r.left < -1 || r.top < -1 || r.right > width + 1 || r.bottom > height + 1)
      problems.push(["outside the screen", name(el), [r.left, r.top, r.right, r.bottom]]);
    if (bodyBox && body.contains(el) && !el.closest(".mafia-corner") && (r.bottom > bodyBox.bottom + 1
        || r.right > bodyBox.right + 1))
      problems.push(["cut by the body", name(el), [r.left, r.top, r.right, r.bottom]]);
    if (captionBox && !caption.contains(el) && !el.contains(caption) && overlap(r, captionBox))
      problems.push(["under the caption", name(el), [r.left, r.top, r.right, r.bottom]]);
    if (cornerBox && !corner.contains(el) && !el.contains(corner) && overlap(r, cornerBox))
      problems.push(["under the corner", name(el), [r.left, r.top, r.right, r.bottom]]);
  }
  return problems;
}"""
SLID = """(page) => { const pager = document.querySelector("[data-tv-pages]"), columns = pager.firstElementChild;
  const gap = parseFloat(getComputedStyle(columns).columnGap) || 0, box = pager.getBoundingClientRect();
  return Math.abs(columns.getBoundingClientRect().left - (box.left - page * (box.width + gap))) < 1; }"""
# The problems once tv.js has fitted the body to the last change (it does in the frame after it), read in the same
# frame: an update of the screen landing between a wait and a separate look would be read before its fitting.
SETTLED = f"""() => new Promise((done) => {{
  const look = () => requestAnimationFrame(() => window.mafiaTv.pending() ? look() : done(({PROBLEMS})()));
  requestAnimationFrame(look);
}})"""


def problems(tv: Phone) -> list[Any]:
    return list(tv.page.evaluate(SETTLED))


def fits(tv: Phone, moment: str = "") -> None:
    """The TV now: nothing outside, cut or covered; the narrator's switch on screen; a screenshot of ``moment``."""
    expect(tv.tid("narrator-on")).to_be_in_viewport(ratio=1)
    found = problems(tv)
    size = f"{tv.page.viewport_size['width']}x{tv.page.viewport_size['height']}" if tv.page.viewport_size else "?"
    if moment:
        tv.screenshot(shot(f"tv-{size}-{moment}.png"))
    assert not found, (size, moment, found[:8], len(found))


def open_tv(phones: Callable[..., Phone], table: Table, language: str, size: dict[str, int]) -> Phone:
    tv = phones("TV", language, size)
    tv.context.add_init_script("window.mafiaTvPageMs = 3600000;")  # the test turns the pages, then lets them turn
    tv.goto(f"{table.base}/r/{table.code}/screen")
    shows(tv.tid("code"))
    return tv


def test_thirty_seats_a_vote_and_a_long_game_fit_both_tvs(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    tvs = [open_tv(phones, table, "ru", TV_SIZE), open_tv(phones, table, "uz", FULL_HD)]

    # The host's phone: the TV's QR code only behind "Open the room on a TV" (friends scan the players' one).
    tv_qr = host.page.locator('img[src$="/tv"]')
    expect(tv_qr).not_to_be_visible()
    host.page.get_by_text(host.t("Open the room on a TV"), exact=True).click()
    expect(tv_qr).to_be_visible()

    # A lobby of 30: the host and 29 bots, every seat on both TVs.
    bots = host.page.get_by_text(re.compile(r"^\d+\. .+ \(bot\)$"))
    for count in range(1, 30):
        host.tap("add-bot", bots.nth(count - 1))
    for tv in tvs:
        expect(tv.tid("lobby-seat")).to_have_count(30)
        for seat in tv.tid("lobby-seat").all():
            expect(seat).to_be_in_viewport(ratio=1)
        fits(tv, "lobby-30")

    for name, value in (("night_seconds", 4), ("discussion_seconds", 3), ("vote_seconds", 8),
                        ("kamikaze_seconds", 3)):
        host.fill(f"option-{name}", str(value))
        host.field(f"option-{name}").press("Tab")
    host.page.wait_for_timeout(1500)  # the fields send their value after a pause (debounce)
    host.tap("start", host.tid("phase"))

    # The first vote with votes in it, on both TVs; then its result alone, held for a few seconds.
    for tv in tvs:
        shows(tv.tid("tally"), 120_000)
    for tv in tvs:
        fits(tv, "vote-30")
    for tv in tvs:
        shows(tv.tid("result"), 60_000)
    for tv in tvs:
        fits(tv, "result-30")
        expect(tv.tid("seat-1")).to_have_count(0)  # the result alone: the seats come back after it
    for tv in tvs:
        shows(tv.tid("seat-1"), 20_000)

    # The end of the long game: the winner, every role, the timeline in pages that turn by themselves, and under it
    # the evening's standings (issue 30: read from the database once the game is over, so they come a moment after
    # the winner and take their room from the timeline's pages: those are counted once they are in).
    for tv in tvs:
        shows(tv.tid("winner"), 600_000)
    for tv in tvs:
        shows(tv.tid("tv-standings-title"))
    for tv in tvs:
        lines = tv.tid("timeline")
        total = lines.count()
        assert total > 30, total
        pages = int(tv.page.evaluate("() => window.mafiaTv.pages()"))
        seen: set[int] = set()
        for page in range(pages):
            tv.page.evaluate(f"() => window.mafiaTv.show({page})")
            tv.page.wait_for_function(SLID, arg=page)
            fits(tv, "end-30" if page == 0 else "")
            seen |= set(tv.page.evaluate("""() => { const page = document.querySelector("[data-tv-pages]")
                .getBoundingClientRect();
                return [...document.querySelectorAll('[data-testid="timeline"]')].map((el, i) => [i,
                  el.getBoundingClientRect()]).filter(([i, r]) => r.left >= page.left - 1 && r.right <= page.right + 1)
                  .map(([i]) => i); }"""))
        assert seen == set(range(total)), (pages, sorted(set(range(total)) - seen))
        # ... and the pages turn by themselves
        if pages > 1:
            tv.page.evaluate(f"() => {{ window.mafiaTvPageMs = {PAGE_MS}; }}")
            start = int(tv.page.evaluate("() => window.mafiaTv.page()"))
            tv.page.wait_for_function(f"() => window.mafiaTv.page() !== {start}", timeout=PAGE_MS * 3)
    assert any(int(tv.page.evaluate("() => window.mafiaTv.pages()")) > 1 for tv in tvs)


def test_a_uk_game_shows_each_seats_fouls_on_both_tvs(server: Server, phones: Callable[..., Phone]) -> None:
    """The moderator's fouls on the seats of the TV (uk: 4 fouls remove a player, so the table follows them)."""
    table = Table(server.base, "uk")
    moderator = phones("Ведучий", "uk")
    table.open_room(moderator, moderated=True)
    tvs = [open_tv(phones, table, "uk", TV_SIZE), open_tv(phones, table, "uk", FULL_HD)]
    bots = moderator.page.get_by_text(re.compile(r"^\d+\. .+ \((бот|bot)\)$"))
    for count in range(1, 13):
        moderator.tap("add-bot", bots.nth(count - 1))
    for name in ("speech_seconds", "defence_seconds", "last_words_seconds", "vote_seconds", "night_seconds"):
        moderator.fill(f"option-{name}", "300")
        moderator.field(f"option-{name}").press("Tab")
    moderator.page.wait_for_timeout(1500)  # the fields send their value after a pause (debounce)
    moderator.tap("start", moderator.tid("phase"))
    moderator.tap("pause", moderator.tid("resume"))  # the bots wait while the moderator gives his fouls
    totals: dict[int, float] = {}
    for seat, amount in ((2, 1.0), (4, 0.5), (4, 1.0), (7, 1.0)):  # tapped as the moderator does: seat, amount
        totals[seat] = totals.get(seat, 0.0) + amount
        shown = tvs[0].tid(f"seat-{seat}").locator('[data-testid="fouls"]').filter(has_text=exactly(
            tvs[0].t("Fouls: {count}").format(count=tvs[0].t.number(totals[seat]))))
        moderator.tap(f"foul-{seat}", moderator.tid(f"foul-amount-{amount:g}"))
        moderator.tap(f"foul-amount-{amount:g}", shown)
    for tv in tvs:
        for seat, total in ((2, 1.0), (4, 1.5), (7, 1.0)):
            expect(tv.tid(f"seat-{seat}").locator('[data-testid="fouls"]')).to_have_text(
                tv.t("Fouls: {count}").format(count=tv.t.number(total)))
        expect(tv.tid("seat-3").locator('[data-testid="fouls"]')).to_have_count(0)
        fits(tv, "uk-fouls")

"""What a neighbour's glance at a phone shows, as data: the helpers of ``e2e/test_privacy.py`` (issue 20).

``signature(phone)`` reads every element that is drawn inside the phone's viewport (the first screenful, the
page scrolled to its top): its tag and test id, its own text, its box (rounded to whole pixels), whether it is
enabled, and its computed colours, border and font. Two phones of the same language at the same moment must
give the same signature whatever their roles. The differences the table is allowed to see are normalised
away before the reading:

- the phone's own name tile (``.mafia-me``): read as an ordinary tile (everyone knows whose phone it is);
- the countdown's digits (test id ``countdown``): read as 0:00 (they change its width and its neighbours');
- the phone's own button in a grid of players (``vote-N`` of his own seat is disabled: he may not vote for
  himself): its enabled state and opacity are not read;
- the host's clock buttons (pause / +30 s / end now) and his codes for moving a seat (``host-moves``): taken out
  of the layout while reading (the host is public; without them his screen is laid out like everyone's).

Also here: the first screen check (``in_first_screen``), and ``Crowd``: simulated phones (``bench/phone.py``,
HTTP + socket.io, no browser) that fill the seats of a room through its join form, as a browser does.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import json
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Error as PlaywrightError, Locator

from bench.phone import Phone as SimPhone
from e2e.harness import WAIT, Move, Phone, Table, play, shows
from engine.options import OPTION_TABLES

T = TypeVar("T")

# One line per element drawn inside the viewport. Runs in the page; returns {lines, me, open}.
SIGNATURE_JS = r"""
async ([seat, whole]) => {
  const ae = document.activeElement;
  if (ae && ae !== document.body && ae.blur) ae.blur();  // the finger has left the screen
  window.scrollTo(0, 0);
  // What a tap set moving (a ripple, a hover's fade) ends before the reading: a glance is not a video.
  for (let round = 0; round < 10; round++) {
    const running = document.getAnimations().filter((a) => a.playState === "running"
      && !(a.effect && a.effect.getComputedTiming && a.effect.getComputedTiming().iterations === Infinity));
    if (!running.length) break;
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => null))),
                        new Promise((done) => setTimeout(done, 400))]);
  }
  const hidden = [];
  for (const id of ["pause", "resume", "extend", "skip"]) {  // the host's clock row: out of the layout
    const button = document.querySelector(`[data-testid="${id}"]`);
    const row = button && button.closest(".nicegui-row");
    if (row && row.style.display !== "none") { hidden.push([row, row.style.display]); row.style.display = "none"; }
  }
  const moves = document.querySelector('[data-testid="host-moves"]');  // the host's seat-move codes, likewise
  if (moves && moves.style.display !== "none") {
    hidden.push([moves, moves.style.display]);
    moves.style.display = "none";
  }
  // The countdown's digits ("10:00" on one phone, "9:59" on the next) change its width and its neighbours':
  // its text is read as one fixed time (set on its own text node, which Vue keeps updating afterwards).
  const clocks = [];
  for (const el of document.querySelectorAll('[data-testid="countdown"]')) {
    for (const node of el.childNodes) if (node.nodeType === 3) { clocks.push([node, node.data]); node.data = "0:00"; }
  }
  const mine = Array.from(document.querySelectorAll(".mafia-me"));
  for (const el of mine) el.classList.remove("mafia-me");  // the own tile, read as any other tile
  const vw = window.innerWidth, vh = window.innerHeight;
  const lines = [];
  const CLASS_MARK = " || class: ";
  try {
    for (const el of document.body.querySelectorAll("*")) {
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE" || el.tagName === "TEMPLATE") continue;
      const r = el.getBoundingClientRect();
      if (r.width < 0.5 || r.height < 0.5) continue;
      if (!whole && (r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw)) continue;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) === 0) continue;
      const testid = el.getAttribute("data-testid") || "";
      let text = "";
      for (const node of el.childNodes) if (node.nodeType === 3) text += node.textContent;
      text = text.replace(/\s+/g, " ").trim();
      if ((el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value) text += " value=" + el.value;
      const disabled = el.disabled === true || el.getAttribute("aria-disabled") === "true"
        || el.classList.contains("disabled");
      // His own button in a grid of players (he may not vote for himself): as public as his own tile.
      const own = seat > 0 && new RegExp(`^(vote|nominate|target)-${seat}$`).test(testid);
      const box = [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)];
      lines.push([el.tagName.toLowerCase(), testid, text, box.join(","), own ? "own" : disabled ? "disabled" : "",
        s.color, s.backgroundColor, s.borderTopColor + " " + s.borderTopWidth + " " + s.borderTopStyle,
        s.fontWeight + " " + s.fontSize, own ? "own" : s.opacity].join(" | ")
        + CLASS_MARK + (el.getAttribute("class") || ""));
    }
  } finally {
    for (const el of mine) el.classList.add("mafia-me");
    for (const [node, data] of clocks) node.data = data;
    for (const [row, display] of hidden) row.style.display = display;
  }
  return {lines, me: mine.map((el) => el.getAttribute("data-testid") || "?"),
          open: !!(window.mafiaVeil && window.mafiaVeil.state.open)};
}
"""

CLASS_MARK = " || class: "  # after it, the element's classes: shown when glances differ, not compared
VEIL_OPEN = "() => !!(window.mafiaVeil && window.mafiaVeil.state.open)"
VEIL_SHUT = "() => !!window.mafiaVeil && !window.mafiaVeil.state.open"


class Glance:
    """One phone's signature at one moment."""

    def __init__(self, phone: Phone, lines: list[str], me: list[str], revealed: bool) -> None:
        self.phone = phone
        self.described = lines  # with each element's classes
        self.lines = [line.split(CLASS_MARK, 1)[0] for line in lines]
        self.me = me
        self.revealed = revealed

    @property
    def own(self) -> set[int]:
        """The lines of this phone's own button in a grid of players (see the module's docstring)."""
        return {index for index, line in enumerate(self.lines) if " | own | " in line}

    def __eq__(self, other: object) -> bool:
        """The same lines, but for each phone's own grid button, whose state is not compared (the same element
        in the same place with the same text is)."""
        if not isinstance(other, Glance) or len(self.lines) != len(other.lines):
            return False
        skipped = self.own | other.own
        for index, (mine, theirs) in enumerate(zip(self.lines, other.lines, strict=True)):
            if mine == theirs:
                continue
            if index not in skipped or mine.split(" | ")[:4] != theirs.split(" | ")[:4]:
                return False
        return True

    __hash__ = None  # type: ignore[assignment]

    def diff(self, other: Glance, limit: int = 40) -> str:
        matcher = difflib.SequenceMatcher(a=self.lines, b=other.lines, autojunk=False)
        lines = [f"{self.phone} / {other.phone}:"]
        for tag, a1, a2, b1, b2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            lines.append(f"@@ {a1}-{a2} / {b1}-{b2}")
            lines.extend("- " + line for line in self.described[a1:a2])
            lines.extend("+ " + line for line in other.described[b1:b2])
        more = f"\n... {len(lines) - limit} more lines" if len(lines) > limit else ""
        return "\n".join(lines[:limit]) + more


def signature(phone: Phone, whole: bool = False) -> Glance:
    """What the phone shows inside its viewport now, normalised (see the module's docstring); ``whole``: the
    whole page (what scrolling down would show too)."""
    phone.page.mouse.move(0, 0)  # no hover left by the last tap
    found = phone.page.evaluate(SIGNATURE_JS, [phone.seat, whole])
    return Glance(phone, [str(line) for line in found["lines"]], [str(me) for me in found["me"]], bool(found["open"]))


def wait_covered(phone: Phone, timeout: float = WAIT) -> None:
    """Until the phone's screen is covered (it covers itself after a confirmed choice and after a while)."""
    try:
        phone.page.wait_for_function(VEIL_SHUT, timeout=timeout)
    except PlaywrightError as error:
        state = phone.page.evaluate("() => [typeof window.mafiaVeil, window.mafiaVeil && window.mafiaVeil.state.open,"
                                    " window.mafiaRevealMs, document.querySelectorAll('[data-testid=cover]').length]")
        picture = Path(tempfile.gettempdir()) / f"e2e-not-covered-{phone.name}.png"
        phone.page.screenshot(path=str(picture))
        raise AssertionError(f"{phone}: not covered within {timeout / 1000:.0f} s (mafiaVeil, open, "
                             f"mafiaRevealMs, cover buttons: {state}; screen: {picture})") from error


def wait_revealed(phone: Phone, timeout: float = WAIT) -> None:
    phone.page.wait_for_function(VEIL_OPEN, timeout=timeout)


def same_glances(phones: Iterable[Phone], moment: str, wait: float = WAIT, settle: float = 6.0) -> list[Glance]:
    """Every phone's covered screen (waiting until each one has covered itself) must give the same signature,
    in its first screen and in the whole page; the phones' own tiles are each one tile (the one of its seat).
    Returns the glances of the first screens.

    The phones are read one after the other, and a room's change reaches them one after the other too: when
    they differ, all are read again, for up to ``settle`` seconds (a difference that lasts is a leak; one
    phone that has not yet drawn the last tally is not)."""
    phones = list(phones)
    assert len(phones) >= 2, f"{moment}: nothing to compare"
    for phone in phones:
        wait_covered(phone, wait)
    deadline = time.monotonic() + settle
    while True:
        glances = [signature(phone) for phone in phones]
        wholes = [signature(phone, whole=True) for phone in phones]  # and what scrolling down would show
        first = glances[0]
        assert first.lines, f"{moment}: {first.phone} shows nothing"
        for glance in glances:
            assert not glance.revealed, f"{moment}: {glance.phone} was revealed while read"
        other = next((glance for glance in glances[1:] if glance != first), None)
        further = next((whole for whole in wholes[1:] if whole != wholes[0]), None)
        if other is None and further is None:
            break
        if time.monotonic() > deadline:
            if other is not None:
                raise AssertionError(f"{moment}: a glance tells {first.phone} from {other.phone}:\n"
                                     f"{first.diff(other)}")
            assert further is not None
            raise AssertionError(f"{moment}: the first screens are alike, but scrolling down tells {wholes[0].phone}"
                                 f" from {further.phone}:\n{wholes[0].diff(further)}")
        phones[0].page.wait_for_timeout(500)  # the phones' screens are still being drawn: read them again
    for glance in glances:
        seat = glance.phone.seat
        if glance.me:  # a grid of names is shown: only his own tile is marked
            assert glance.me == [f"tile-{seat}"], f"{moment}: {glance.phone} marks {glance.me}"
    return glances


def hide_page(phone: Phone) -> None:
    """The page is hidden (the phone locked, another app in front): ``visibilitychange`` with the state
    ``hidden``, then visible again."""
    phone.page.evaluate(
        "() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});"
        " Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange'));"
        " delete document.visibilityState; delete document.hidden;"
        " document.dispatchEvent(new Event('visibilitychange')); }")


# ---------------------------------------------------------------- the first screen


def first_screen_problem(phone: Phone, locator: Locator, what: str) -> str | None:
    """Why ``locator`` is not usable in the first screen, or None: it must be drawn inside the viewport with the
    page at its top (no scrolling), and a tap at its centre must land on it (nothing, such as the pinned bar,
    lies over it). A screenshot of the screen is kept for a problem."""
    page = phone.page
    element = locator.first
    element.wait_for(state="visible")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    box = element.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, f"{phone}: {what} has no box"
    inside = (box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5
              and box["y"] + box["height"] <= size["height"] + 0.5)
    on_top = inside and element.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return !!hit && (hit === el || el.contains(hit)); }")
    if inside and on_top:
        return None
    picture = Path(tempfile.gettempdir()) / f"e2e-first-screen-{phone.name}-{'-'.join(what.split()[-3:])}.png"
    page.screenshot(path=str(picture))
    where = json.dumps({"x": round(box["x"]), "y": round(box["y"]), "width": round(box["width"]),
                        "height": round(box["height"])})
    why = "is not in the first screen" if not inside else "is covered by another element at its centre"
    return f"{phone} ({size['width']}x{size['height']}): {what} {why}: {where} (screen: {picture})"


def in_first_screen(phone: Phone, locator: Locator, what: str) -> None:
    problem = first_screen_problem(phone, locator, what)
    assert problem is None, problem


# ---------------------------------------------------------------- simulated phones


class Crowd:
    """Simulated phones (``bench/phone.py``) on an event loop of their own thread: each loads the room's page
    and takes a seat through the join form, then stays connected and does nothing (the room's clock, or the
    host's "End now", ends the steps for them)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="crowd", daemon=True)
        self.thread.start()
        self.phones: list[SimPhone] = []

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def join(self, code: str, names: list[str], language: str = "en", at_once: int = 6) -> None:
        """Each name takes a seat, in this order of names (seats are numbered in the order of the joins)."""
        self.run(self._join(code, names, language, at_once), timeout=60.0 + 5.0 * len(names))

    async def _join(self, code: str, names: list[str], language: str, at_once: int) -> None:
        phones = [SimPhone(self.base, name, language) for name in names]
        self.phones.extend(phones)
        gate = asyncio.Semaphore(at_once)

        async def load(phone: SimPhone) -> None:
            async with gate:
                await phone.visit(f"/r/{code}")

        await asyncio.gather(*(load(phone) for phone in phones))
        for phone in phones:  # one after the other: the seats in the order of the names
            await self._take_seat(phone)

    @staticmethod
    async def _take_seat(phone: SimPhone, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        key = phone.node_key("join-name")
        assert key is not None, f"{phone.label}: no join form"
        await phone.tap(key, {"text": phone.label})
        while phone.node_key("join-name") is not None:  # the form goes once the seat is taken
            if time.monotonic() > deadline:
                raise AssertionError(f"{phone.label}: not seated within {timeout:.0f} s")
            await phone.wait(0.5)

    def shows(self, index: int, text: str, timeout: float = 30.0) -> None:
        """Until the simulated phone ``index`` shows ``text`` (in any label or button)."""
        self.run(self._shows(self.phones[index], text, timeout), timeout + 5.0)

    @staticmethod
    async def _shows(phone: SimPhone, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not phone.has_text(text):
            if time.monotonic() > deadline:
                raise AssertionError(f"{phone.label}: {text!r} not shown within {timeout:.0f} s")
            await phone.wait(0.5)

    def close(self) -> None:
        try:
            self.run(self._close(), timeout=30.0)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)

    async def _close(self) -> None:
        await asyncio.gather(*(phone.close() for phone in self.phones), return_exceptions=True)


# ---------------------------------------------------------------- the host's clock

STEP_TEXT_JS = ("() => ['phase', 'speaker'].map((id) => { const el = document.querySelector(`[data-testid=\"${id}\"]`);"
                " return el ? el.textContent : ''; }).join('|')")


def end_step(host: Phone, attempts: int = 5) -> None:
    """The host taps "End now" until his screen shows another step (another phase or another speaker)."""
    before = host.page.evaluate(STEP_TEXT_JS)
    changed = f"() => ({STEP_TEXT_JS})() !== {json.dumps(before)}"
    for _attempt in range(attempts):
        with contextlib.suppress(PlaywrightError):  # redrawn under the finger: tapped again below
            host.tid("skip").first.click(timeout=3000)
        try:
            host.page.wait_for_function(changed, timeout=6000)
            return
        except PlaywrightError:
            continue
    raise AssertionError(f"{host}: End now did not end the step {before!r}")


def set_timers(host: Phone, rules: str, watch: Callable[[str], None], **seconds: int) -> None:
    """The host types each timer into the lobby; ``watch(text)`` waits until another phone's summary shows it
    (``Table.set_timers`` when the only other phones are simulated)."""
    t = host.t
    for name, value in seconds.items():
        host.fill(f"option-{name}", str(value))
        host.field(f"option-{name}").press("Tab")
        spec = next(s for s in OPTION_TABLES[rules] if s.name == name)
        watch(t("{label}: {seconds}").format(label=t(spec.label), seconds=t.seconds(value)))


# ---------------------------------------------------------------- a glance test's moves


def reveal_held(phone: Phone, hold: bool = False) -> None:
    """Tap Show; ``hold``: the screen stays revealed until covered by hand or by the test (``let_go``), however
    slow the machine is between the reveal and the reading."""
    if hold:
        phone.page.evaluate("() => { window.mafiaRevealMs = 600000; }")
    phone.tap("reveal", phone.tid("cover"))
    wait_revealed(phone)


def let_go(*phones: Phone) -> None:
    """The product's own reveal delay again (after ``reveal_held(hold=True)``)."""
    for phone in phones:
        phone.page.evaluate("() => { delete window.mafiaRevealMs; }")


def cover(*phones: Phone) -> None:
    """Each phone's owner taps Hide (after reading what only he may see)."""
    for phone in phones:
        phone.tap("cover", phone.tid("reveal"))


def vote_covered(phone: Phone, target: int) -> None:
    """A vote (public) is made on the covered screen: a tap on the player, then Confirm."""
    phone.pick("vote", target)
    phone.tap("confirm", phone.tid("voted"))


def confirm_all(plan: list[tuple[Phone, int]]) -> None:
    """Each phone confirms its pick (its role's first act: a kill, a check, a heal, a suggestion...), then its
    owner covers it. (The screen covers itself shortly after a confirmed choice, but on a loaded machine the
    harness may see the choice taken only after that, reveal again to look, and leave it open for the game
    tests' long reveal; ``test_privacy.py`` tests the covering by itself.)"""
    play([Move(phone, [f"target-{target}", "confirm"], phone.tid("night-done")) for phone, target in plan])
    for phone, _target in plan:
        phone.page.evaluate("() => window.mafiaVeil.cover()")


def start_covered(table: Table, first_phase: str) -> None:
    """The host taps Start (again, if a join redrew it under his finger; never the reveal, unlike
    ``Phone.tap``): every phone shows the first phase, covered."""
    host = table.host
    for _attempt in range(5):
        with contextlib.suppress(PlaywrightError):
            host.tid("start").first.click(timeout=3000)
        try:
            shows(host.tid("phase"), 6000)
            break
        except AssertionError:
            continue
    for phone in table.phones:
        phone.loaded_in_game = False
    table.expect_phase(first_phase, 1, check=False)


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

"""Real phones against a real server: the server process, the browser, and a table of phones that play.

Used by the e2e tests and by ``python -m e2e.screenshots``. Everything here drives the pages the way people
do (taps on buttons, typing into fields) and reads only what each phone shows: a phone's role comes from
its own role card. Words come from the game's own catalogs (``webgame.language.i18n``), so a phone can play in any
of the five languages; elements are found by their ``data-testid`` (``webgame.pages.components.testid``).

Waiting is always on what a screen shows (``shows``, ``expect(...)``, with a timeout), never on a fixed sleep. A tap
can be lost when it lands on an element that another player's tap has just re-rendered; ``Phone.tap``
taps again until the screen shows that the tap was taken.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Error as PlaywrightError,
    Locator,
    Page,
    Playwright,
    TimeoutError as PlaywrightTimeoutError,
    expect,
)

from engine.options import OPTION_TABLES
from engine.roles import ROLE_TABLES, TEAM_NAMES, Role, Team
from webgame.language.i18n import Translator, translator
from webgame.pages import wording

ROOT = Path(__file__).resolve().parent.parent


def shot(name: str) -> Path | None:
    """Where a test's screenshot ``name`` goes: ``E2E_SHOTS=docs/screens`` refreshes the README's pictures; a plain
    test run writes nothing into the work tree (None)."""
    folder = os.environ.get("E2E_SHOTS")
    return ROOT / folder / name if folder else None
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"  # Debian's chromium-headless-shell (scripts/test)
CHROMIUM = (os.environ.get("CHROMIUM_PATH") or (HEADLESS_SHELL if os.access(HEADLESS_SHELL, os.X_OK) else None)
            or shutil.which("chromium") or shutil.which("chromium-browser"))
"""The browser of the tests: Debian's headless shell (the same engine, about a fifth less CPU than the full
browser: no browser UI, no GPU process), else Debian's chromium."""
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
PHONE_SIZE = {"width": 390, "height": 844}
TV_SIZE = {"width": 1280, "height": 720}
LOCALES = {"en": "en-US", "uz": "uz-UZ", "uk": "uk-UA", "ro": "ro-RO", "ru": "ru-RU"}
SECRET = "e2e storage secret"
WAIT = 30_000  # ms: a loaded 2-core machine redraws 13 phones slowly; waits end as soon as the screen shows it
ROLE_IDS = {str(role) for role in Role}
TEAM_IDS = {str(team) for team in Team}


# ---------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``python -m webgame`` as its own process, on a free port, with its data in ``data``."""

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.data = data
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data / "server.log"

    def start(self) -> Server:
        env = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
        env.pop("DATABASE_URL", None)
        env.update(PORT=str(self.port), HOST="127.0.0.1", MAFIA_DATA_DIR=str(self.data), STORAGE_SECRET=SECRET,
                   NICEGUI_STORAGE_PATH=str(self.data / "nicegui"), PYTHONUNBUFFERED="1")
        self.data.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "webgame"], cwd=ROOT, env=env, stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90  # a loaded machine (two test workers, a browser each) starts slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                    if response.read() == b"ok":
                        return self
            except OSError:
                time.sleep(0.1)  # polling the health check while the process starts, not waiting on a screen
        raise RuntimeError(f"the server did not start:\n{self.log_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the machine loses power."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


def launch(playwright: Playwright) -> Browser:
    if CHROMIUM is None:
        raise RuntimeError("no chromium on this machine")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)


def new_context(browser: Browser, language: str, size: dict[str, int] | None = None,
                color_scheme: str = "light") -> BrowserContext:
    """A phone (or, with ``size``, a TV): its own cookies, its own language (the browser's Accept-Language), its
    own colour preference (``prefers-color-scheme``: "light" or "dark")."""
    scheme: Any = color_scheme
    if size is None:
        context = browser.new_context(viewport=PHONE_SIZE, is_mobile=True, has_touch=True, device_scale_factor=1,
                                      locale=LOCALES[language], color_scheme=scheme)
    else:
        context = browser.new_context(viewport=size, device_scale_factor=1, locale=LOCALES[language],
                                      color_scheme=scheme)
    context.set_default_timeout(WAIT)
    # The screen covers itself 10 s after the last touch; a loaded 2-core machine can take longer than that
    # between two steps of one phone's script, so the game tests give it a minute (e2e/test_privacy.py tests the
    # real timings).
    context.add_init_script("window.mafiaRevealMs = 60000;")
    return context


# ---------------------------------------------------------------- one phone


def exactly(text: str) -> re.Pattern[str]:
    return re.compile("^" + re.escape(text) + "$")


def has_class(name: str) -> re.Pattern[str]:
    return re.compile(r"(^|\s)" + re.escape(name) + r"(\s|$)")


def shows(locator: Locator, timeout: float = WAIT) -> None:
    """Wait until the screen shows ``locator``. Like ``expect(locator.first).to_be_visible()``, but woken by the
    page's own changes rather than polled at 100-1000 ms steps: a table of 14 phones waits thousands of times."""
    try:
        locator.first.wait_for(state="visible", timeout=timeout)
    except PlaywrightTimeoutError as error:
        raise AssertionError(f"not shown within {timeout / 1000:.0f} s: {locator}") from error


class Phone:
    """One person's browser: his page, his language, and what his own screen told him."""

    def __init__(self, browser: Browser, name: str, language: str = "en", size: dict[str, int] | None = None,
                 color_scheme: str = "light") -> None:
        self.name = name
        self.language = language
        self.t: Translator = translator(language)
        self.context = new_context(browser, language, size, color_scheme)
        self.page: Page = self.context.new_page()
        self.seat = 0  # his number in the game (join order), 0 for the moderator and spectators
        self.role = ""  # read from his own role card
        self.known: dict[int, str] = {}  # seat -> role, from his own role card ("You know:")
        self.loaded_in_game = False  # the document was loaded after the deal (its first script holds the game)
        self.cdp: Any = None

    def __repr__(self) -> str:
        return f"Phone({self.seat}. {self.name}, {self.language}, {self.role or '?'})"

    # ------------------------------------------------ finding things

    def tid(self, name: str) -> Locator:
        return self.page.locator(f'[data-testid="{name}"]')

    def text_of(self, name: str) -> str:
        return str(self.tid(name).first.inner_text()).strip()

    def phase_is(self, title: str, timeout: float = WAIT) -> None:
        shows(self.tid("phase").filter(has_text=exactly(title)), timeout)

    def phase_is_not(self, title: str) -> Locator:
        return self.tid("phase").filter(has_not_text=exactly(title))

    # ------------------------------------------------ doing things

    def goto(self, url: str, in_game: bool = False) -> None:
        self.page.goto(url)
        self.loaded_in_game = in_game

    def reload(self, in_game: bool = True) -> None:
        self.page.reload()
        self.loaded_in_game = in_game

    def connected(self) -> None:
        """Wait for the page's socket: what is typed before it connects never reaches the server."""
        self.page.wait_for_function("() => window.did_handshake === true")

    def field(self, name: str) -> Locator:
        """The text field ``name`` (Quasar puts the attribute on the <input> itself)."""
        return self.page.locator(f'input[data-testid="{name}"], textarea[data-testid="{name}"]')

    def fill(self, name: str, value: str) -> None:
        self.field(name).fill(value)

    def reveal(self) -> None:
        """Tap Show if the screen is covered (what only this phone's owner may see is behind it)."""
        button = self.tid("reveal").first
        try:
            if button.is_visible():
                button.click(timeout=2000)
        except PlaywrightError:
            pass  # re-rendered under the finger, or already revealed

    def tap(self, name: str, until: Locator, attempts: int = 5, wait: float = 4000) -> None:
        """Tap ``name`` until ``until`` shows (a tap on an element that was just re-rendered is lost). What is
        behind the reveal is revealed first, as its owner would (the screen covers itself again after a
        while and shortly after a confirmed choice)."""
        for _attempt in range(attempts):
            button = self.tid(name).first
            try:
                if not button.is_visible():
                    self.reveal()
                if button.is_visible() and button.is_enabled():
                    button.click(timeout=2000)
            except PlaywrightError:
                pass  # re-rendered under the finger: look again
            try:
                shows(until, wait)
                return
            except AssertionError:
                if until.first.is_visible():
                    return  # it came just now (a busy machine): a reveal now would open the next step's screen
                if not self.tid("reveal").first.is_visible():
                    continue
                self.reveal()  # covered again meanwhile: what it shows may be behind the reveal
                try:
                    shows(until, 1000)
                    return
                except AssertionError:
                    continue
        picture = Path(tempfile.gettempdir()) / f"e2e-{self.name}-{name}.png"
        self.page.screenshot(path=str(picture), full_page=True)
        raise AssertionError(f"{self}: tapping {name} did not lead to {until} (screen: {picture})")

    def pick(self, grid: str, seat: int, attempts: int = 5) -> None:
        """Tap a player in a grid (``target``, ``vote``, ``nominate``, ``foul``) until he shows as chosen."""
        chosen = self.tid(f"{grid}-{seat}").and_(self.page.locator(".bg-primary"))
        self.tap(f"{grid}-{seat}", chosen, attempts)

    def select(self, name: str, option: str) -> None:
        """Choose ``option`` (its visible text) in the select ``name``."""
        self.tid(name).click()
        self.page.get_by_role("option", name=option, exact=True).click()
        expect(self.tid(name)).to_contain_text(option)

    def offline(self, offline: bool) -> None:
        """A phone that loses its network (the socket drops at once), then finds it again."""
        if self.cdp is None:
            self.cdp = self.context.new_cdp_session(self.page)
            self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions",
                      {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def screenshot(self, path: Path | None, full_page: bool = False) -> None:
        """A picture of the page at ``path`` (None: none, see ``shot``)."""
        if path is not None:
            self.page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")

    def close(self) -> None:
        self.context.close()

    # ------------------------------------------------ reading the role card

    def read_role(self, table: Table) -> str:
        """Tap the role card, read it (role and the roles he knows), tap it closed again."""
        t, rules = self.t, table.rules
        by_name = {wording.role_name(t, rules, str(role)): str(role) for role in ROLE_TABLES[rules]}
        self.tap("reveal", self.tid("my-role"))
        self.role = by_name[self.text_of("my-role")]
        self.known = {}
        for line in self.tid("known").all_inner_texts():
            for other in table.players:
                for role_name, role in by_name.items():
                    if line.strip() == t("{name}: {role}").format(name=table.label(t, other.seat),
                                                                  role=role_name):
                        self.known[other.seat] = role
        self.tap("cover", self.tid("reveal"))
        return self.role

    # ------------------------------------------------ what reached the browser

    def dom_dump(self) -> tuple[str, list[tuple[str, str]]]:
        """The page's HTML (``page.content()``) plus every element the server has sent and the browser still
        holds (NiceGUI's element store, rendered or not), and every id/class/data-* attribute."""
        html = self.page.content()
        if not self.loaded_in_game:
            html = _without_first_script(html)  # the lobby's tree, sent before the deal: public by design
        store = self.page.evaluate("() => { try { return JSON.stringify(mounted_app.elements); }"
                                   " catch (e) { return ''; } }")
        assert store and len(store) > 1000, f"{self}: NiceGUI's element store could not be read"
        attributes = self.page.evaluate(
            "() => { const found = [];"
            " for (const el of document.querySelectorAll('*')) {"
            "  for (const a of el.attributes) {"
            "   if (a.name === 'id' || a.name === 'class' || a.name.startsWith('data-')) found.push([a.name, a.value]);"
            "  } }"
            " return found; }")
        return html + "\n" + str(store), [(str(name), str(value)) for name, value in attributes]


def _without_first_script(html: str) -> str:
    marker = html.find("parseElements(")
    if marker < 0:
        return html
    start = html.rfind("<script", 0, marker)
    end = html.find("</script>", marker)
    return html[:start] + html[end + len("</script>"):] if start >= 0 and end >= 0 else html


def night_bar(phone: Phone) -> Locator:
    """The night's own bar, covered (Show) or revealed already (Hide): the day's result is no longer held on this
    screen (``webgame.room.result_hold`` draws it without a bar). A revealed phone shows no Show button."""
    return phone.tid("reveal").or_(phone.tid("cover"))


# ---------------------------------------------------------------- taps made by several phones at once


@dataclass
class Move:
    """One phone's part in a round: the elements it taps, in order, and what its screen shows once done."""

    phone: Phone
    taps: list[str]
    done: Locator


def play(moves: list[Move]) -> None:
    """A round of taps. First every phone picks (a pick re-renders only its own screen, so all phones pick at
    once); then each phone in turn confirms and waits until its screen shows the tap was taken. Confirmations
    are not fired at once: every accepted action re-renders every phone, and a tap that lands on an element
    being replaced is lost (the phone taps again)."""
    for move in moves:
        if move.taps[0].startswith("target-"):  # a secret move: behind the reveal (votes are public)
            move.phone.reveal()
        for name in move.taps[:-1]:
            try:
                move.phone.tid(name).first.click(timeout=2000)
            except PlaywrightError:
                break
    for move in moves:
        phone, taps = move.phone, move.taps
        for name, following in zip(taps, taps[1:], strict=False):
            try:
                shows(phone.tid(following).or_(move.done), 3000)
            except AssertionError:
                phone.tap(name, phone.tid(following).or_(move.done))
        phone.tap(taps[-1], move.done)


# ---------------------------------------------------------------- a table of phones


@dataclass
class Table:
    """One room: the host (a player, or the uk moderator), the players, maybe a TV, and the game's truth as
    the players' own cards told it (seat -> role), used to steer the game and to check secrecy."""

    base: str
    rules: str
    players: list[Phone] = field(default_factory=list)
    moderator: Phone | None = None
    tv: Phone | None = None
    code: str = ""
    dead: set[int] = field(default_factory=set)
    roles: dict[int, str] = field(default_factory=dict)
    secrecy_checks: int = 0
    over: bool = False  # the game has ended: every role is shown to everyone
    fouls: dict[int, float] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    log: list[str] = field(default_factory=list)

    @property
    def host(self) -> Phone:
        return self.moderator or self.players[0]

    @property
    def phones(self) -> list[Phone]:
        return ([self.moderator] if self.moderator else []) + self.players

    @property
    def living(self) -> list[Phone]:
        return [p for p in self.players if p.seat not in self.dead]

    def by_role(self, role: str, alive: bool = True) -> list[Phone]:
        return [p for p in self.players if p.role == role and (not alive or p.seat not in self.dead)]

    def one(self, role: str) -> Phone:
        found = self.by_role(role)
        assert len(found) == 1, (role, found)
        return found[0]

    def seat(self, number: int) -> Phone:
        return self.players[number - 1]

    def label(self, t: Translator, seat: int) -> str:
        """A player as the phones show him: his number and his name."""
        return wording.seat_label(t, seat, self.seat(seat).name)

    # ------------------------------------------------ the lobby

    def open_room(self, host: Phone, moderated: bool = False) -> None:
        """The host creates the room on the start page (his language is his phone's)."""
        t = host.t
        host.goto(self.base + "/")
        host.connected()
        host.fill("create-name", host.name)
        if self.rules != "uz":
            host.select("create-rules", t(wording.RULE_SET_NAMES[self.rules]))
        host.tid("create").click()
        host.page.wait_for_url(re.compile(r".*/r/[A-Z0-9]{5}$"))
        self.code = host.page.url.rsplit("/", 1)[-1]
        expect(host.tid("start")).to_be_visible()
        if moderated:
            host.tid("moderated").click()
            expect(host.tid("moderated")).to_have_attribute("aria-checked", "true")
            self.moderator = host
        else:
            self.players.append(host)
            host.seat = 1

    def join(self, *phones: Phone) -> None:
        """Everyone opens the room link, types his name and taps Join, all at once (a join re-renders only the
        list of players elsewhere, never a join form). Seats are numbered in the order the server took the
        joins: each phone reads its number from its own line in the list."""
        for phone in phones:
            phone.page.goto(f"{self.base}/r/{self.code}", wait_until="commit")
            phone.loaded_in_game = False
        for phone in phones:
            phone.connected()
            phone.fill("join-name", phone.name)
        for phone in phones:
            phone.tid("join").click()
        for phone in phones:
            me = phone.page.locator(".q-badge").filter(has_text=exactly(phone.t("you")))
            try:
                shows(me, 5000)
            except AssertionError:
                phone.tap("join", me)
        self.players.extend(phones)
        count = len(self.players)
        for phone in phones:
            mine = phone.page.locator(".nicegui-row").filter(
                has=phone.page.locator(".q-badge").filter(has_text=exactly(phone.t("you"))))
            line = str(mine.first.inner_text())
            phone.seat = next(n for n in range(1, count + 1)
                              if line.startswith(wording.seat_label(phone.t, n, phone.name)))
        self.players.sort(key=lambda phone: phone.seat)
        assert [phone.seat for phone in self.players] == list(range(1, count + 1))

    def set_timers(self, **seconds: int) -> None:
        """The host types each timer into the lobby; a player's summary shows the new value."""
        host = self.host
        watcher = next(p for p in self.players if p is not host)
        t = watcher.t
        for name, value in seconds.items():
            host.fill(f"option-{name}", str(value))
            host.field(f"option-{name}").press("Tab")
            spec = next(s for s in OPTION_TABLES[self.rules] if s.name == name)
            shown = t("{label}: {seconds}").format(label=t(spec.label), seconds=t.seconds(value))
            shows(watcher.page.get_by_text(shown, exact=True))

    def start(self, first_phase: str) -> None:
        host = self.host
        host.tap("start", host.tid("phase"))
        for phone in self.phones:
            phone.loaded_in_game = False
        self.expect_phase(first_phase, 1, check=False)

    def read_roles(self) -> None:
        """Every player taps his card open at once, reads it, and taps it closed."""
        for phone in self.players:
            phone.reveal()
        for phone in self.players:
            phone.read_role(self)
            self.roles[phone.seat] = phone.role
        self.check_secrets()
        self.log.append(f"{time.monotonic() - self.started:6.1f}s roles read")

    # ------------------------------------------------ phases

    def title(self, t: Translator, phase: str, day: int) -> str:
        return wording.phase_title(t, phase, day)

    def expect_phase(self, phase: str, day: int, check: bool = True) -> None:
        """Every phone (and the TV) shows this phase; then nobody's page holds a secret."""
        for phone in self.phones:
            phone.phase_is(self.title(phone.t, phase, day))
        if self.tv is not None:  # the TV's results show the winner instead of a phase
            if phase == "ended":
                shows(self.tv.tid("winner"))
            else:
                self.tv.phase_is(self.title(self.tv.t, phase, day))
        self.log.append(f"{time.monotonic() - self.started:6.1f}s {phase} {day}")
        self.over = phase == "ended"
        if check:
            self.check_secrets()
            self.log.append(f"{time.monotonic() - self.started:6.1f}s checked")

    def died(self, *seats: int) -> None:
        self.dead.update(seats)

    # ------------------------------------------------ night

    def night(self, day: int, plan: dict[int, tuple[str, int | None]], notes: Iterable[int] = (),
              acted: Iterable[int] = ()) -> None:
        """Each living player acts: ``plan`` maps a seat to (act, target); everyone else suspects the next
        living player (or skips when his role has a power and no plan); the seats ``acted`` have already."""
        title = {p.seat: self.title(p.t, "night", day) for p in self.players}
        for phone in self.players:  # after a day, its result held on every screen first (webgame.room.result_hold)
            shows(night_bar(phone))
        actors = self.living
        moves: list[Move] = []
        done_before = set(acted)
        for index, phone in enumerate(actors):
            if phone.seat in done_before:
                continue
            act, target = plan.get(phone.seat, ("", None))
            if not act:
                acts = self.night_acts(phone)
                if acts == ["suspect"]:
                    others = [p.seat for p in self.living if p.seat != phone.seat]
                    act, target = "suspect", others[(index + 1) % len(others)]
                else:
                    act = "pass"
            done = phone.tid("night-done").or_(phone.phase_is_not(title[phone.seat]))
            if act == "pass":
                moves.append(Move(phone, ["pass"], done))
                continue
            if len(self.night_acts(phone)) > 1:  # read revealed: a covered screen holds no act toggle
                label = phone.t(wording.ACT_LABELS[act])
                toggle = phone.tid("night-act").get_by_role(
                    "button", name=re.compile("^(✓ )?" + re.escape(label) + "$"))  # the chosen one is ticked
                prompt = phone.tid("night-prompt").filter(has_text=exactly(phone.t(wording.ACT_PROMPTS[act])))
                for _attempt in range(5):
                    toggle.click()
                    try:
                        shows(prompt, 3000)
                        break
                    except AssertionError:
                        continue
                else:
                    raise AssertionError(f"{phone}: the act {act!r} was not chosen on the night's toggle")
            assert target is not None
            if phone.seat in set(notes):  # uk: the commissar leaves his note with tonight's check
                phone.tap(f"target-{target}", phone.tid("confirm"))
                note = phone.tid("note")
                note.click()
                expect(note).to_have_attribute("aria-checked", "true")
                phone.tap("confirm", done)  # at once: the switch re-renders nothing before the tap
                continue
            moves.append(Move(phone, [f"target-{target}", "confirm"], done))
        play(moves)

    def night_acts(self, phone: Phone) -> list[str]:
        """The acts this phone's night screen offers (from its prompt and its act toggle)."""
        shows(night_bar(phone))  # after a day, once its result has been held on the screens (webgame.room.result_hold)
        revealed = phone.tid("night-prompt").or_(phone.tid("night-done"))
        for _attempt in range(6):  # a tap on Show that landed as the part was drawn again is lost: tap it again
            phone.reveal()
            try:
                shows(revealed, 5000)
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"{phone}: the night's screen did not reveal")
        prompts = {phone.t(text): act for act, text in wording.ACT_PROMPTS.items()}
        acts = [prompts.get(phone.text_of("night-prompt"), "?")] if phone.tid("night-prompt").count() else []
        if phone.tid("night-act").count():
            labels = {phone.t(text): act for act, text in wording.ACT_LABELS.items()}
            acts = [labels[text.strip().removeprefix("✓").strip()]  # the chosen act is ticked
                    for text in phone.tid("night-act").get_by_role("button").all_text_contents()]
        return acts

    # ------------------------------------------------ day

    def ready_all(self, day: int, holdouts: Iterable[int] = ()) -> None:
        """uz discussion: everyone but ``holdouts`` says he is ready."""
        skip = set(holdouts)
        moves = []
        for phone in self.living:
            if phone.seat in skip:
                continue
            title = self.title(phone.t, "discussion", day)
            ready_text = phone.page.get_by_text(phone.t("You are ready. Waiting for the others."), exact=True)
            moves.append(Move(phone, ["ready"], ready_text.or_(phone.phase_is_not(title))))
        play(moves)

    def vote(self, day: int, votes: dict[int, int | None], phase: str = "vote") -> None:
        """Each voter taps his choice and confirms (``None``: abstain)."""
        moves = []
        for seat, target in votes.items():
            phone = self.seat(seat)
            title = self.title(phone.t, phase, day)
            done = phone.tid("voted").or_(phone.phase_is_not(title))
            moves.append(Move(phone, ["abstain"] if target is None else [f"vote-{target}", "confirm"], done))
        play(moves)

    SPEAKER_LINES = {"speeches": "Now speaking: {name}", "defence": "Defence: {name}",
                     "last_words": "Last words: {name}"}

    def speaker(self, watcher: Phone, phase: str) -> int:
        """The seat whose turn it is to speak, as ``watcher``'s screen says."""
        line = watcher.text_of("speaker")
        template = watcher.t(self.SPEAKER_LINES[phase])
        for phone in self.players:
            if line == template.format(name=self.label(watcher.t, phone.seat)):
                return phone.seat
        raise AssertionError(f"{watcher}: no speaker in {line!r}")

    def speeches(self, phase: str, day: int, nominations: dict[int, int] | None = None,
                 between: Callable[[int], None] | None = None) -> list[int]:
        """uk: every speaker of this phase speaks in turn, nominating as planned, and ends his speech.
        ``between(seat)`` runs during each speech (the moderator's fouls). Returns the speakers in order."""
        nominations = dict(nominations or {})
        watcher = self.moderator or self.living[0]
        title = self.title(watcher.t, phase, day)
        shows(watcher.tid("speaker"))
        spoken: list[int] = []
        while watcher.tid("phase").filter(has_text=exactly(title)).count():
            seat = self.speaker(watcher, phase)
            phone = self.seat(seat)
            spoken.append(seat)
            if between is not None:
                between(seat)
            if seat in nominations:
                target = nominations.pop(seat)
                nominee = self.label(phone.t, target)
                listed = phone.tid("nominees").filter(has_text=nominee)
                phone.tap(f"nominate-{target}", phone.tid("confirm").or_(listed))
                phone.tap("confirm", listed)
            said = watcher.text_of("speaker")
            moved = phone.tid("speaker").filter(has_not_text=exactly(phone.text_of("speaker"))).or_(
                phone.phase_is_not(self.title(phone.t, phase, day)))
            phone.tap("end-speech", moved)
            shows(watcher.tid("speaker").filter(has_not_text=exactly(said)).or_(watcher.phase_is_not(title)))
        assert not nominations, f"planned nominations not made: {nominations}"
        return spoken

    def eliminate_all(self, day: int, answers: dict[int, bool]) -> None:
        """uk: the yes/no vote on eliminating every tied player."""
        moves = []
        for seat, yes in answers.items():
            phone = self.seat(seat)
            gone = phone.page.locator("body").filter(has_not=phone.tid("yes"))
            moves.append(Move(phone, ["yes" if yes else "no"], gone.or_(
                phone.phase_is_not(self.title(phone.t, "eliminate_all", day)))))
        play(moves)

    def foul(self, seat: int, amount: float) -> None:
        """The uk moderator gives a foul: a tap on the player, then on the amount."""
        moderator = self.moderator
        assert moderator is not None
        name = f"foul-amount-{amount:g}"
        self.fouls[seat] = self.fouls.get(seat, 0.0) + amount
        t = moderator.t
        given = t("{name} gets a foul ({amount}); {total} in all.").format(
            name=self.label(t, seat), amount=t.number(amount), total=t.number(self.fouls[seat]))
        moderator.tap(f"foul-{seat}", moderator.tid(name))
        if self.fouls[seat] >= 4:  # the foul that removes a player asks first
            moderator.tap(name, moderator.tid("confirm-yes"))
            gone = moderator.page.locator("body").filter(has_not=moderator.tid(f"foul-{seat}"))
            moderator.tap("confirm-yes", gone)
            return
        moderator.tap(name, moderator.tid("news").filter(has_text=exactly(given)))

    # ------------------------------------------------ secrecy

    def allowed_roles(self, phone: Phone) -> set[str]:
        """The role ids this phone may know now (his own, his card's, and the revealed dead)."""
        allowed = {phone.role} | set(phone.known.values())
        if self.rules == "uz":
            allowed |= {self.roles[s] for s in self.dead}
        return allowed

    def check_secrets(self) -> None:
        """No page holds the role name of a living player its reader may not know; no id, class or data-*
        attribute names a role or a team."""
        if not self.roles:
            return
        viewers: list[tuple[Phone, set[str], set[int]]] = []
        for phone in self.players:
            known_seats = {phone.seat} | set(phone.known)
            viewers.append((phone, self.allowed_roles(phone), known_seats))
        if self.tv is not None:
            viewers.append((self.tv, {self.roles[s] for s in self.dead} if self.rules == "uz" else set(), set()))
        for phone, allowed, known_seats in viewers:
            text, attributes = phone.dom_dump()
            text = self._without_boilerplate(phone, text)
            for seat, role in self.roles.items():
                revealed = self.rules == "uz" and seat in self.dead
                if self.over or revealed or seat in known_seats or role in allowed:
                    continue
                name = wording.role_name(phone.t, self.rules, role)
                if name in {wording.role_name(phone.t, self.rules, r) for r in allowed}:
                    continue  # the same word names a role he may know
                found = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)
                assert found is None, (
                    f"{phone} holds the role of living seat {seat} ({role}: {name!r}) in "
                    f"{text[max(0, found.start() - 200):found.end() + 100]!r}")
            for attribute, value in attributes:
                for token in value.split():
                    bare = token.removeprefix("mafia-")
                    parts = set(re.split(r"[-_]", bare.lower()))
                    secret = parts & (ROLE_IDS | TEAM_IDS - {"red", "black"})
                    if token.startswith(("text-", "bg-")):
                        secret = set()  # Quasar's colour classes (text-red, bg-black) name colours, not teams
                    assert not secret, f"{phone}: {attribute}={value!r} names {secret}"
        self.secrecy_checks += 1

    def _without_boilerplate(self, phone: Phone, text: str) -> str:
        """The words every page has whatever the game (the app's title, the header) are not a leak."""
        t = phone.t
        for words in (t("Mafia · room {code}").format(code=self.code),):
            text = text.replace(words, " ")
            text = text.replace(json.dumps(words)[1:-1], " ")
        text = re.sub(r"<title>.*?</title>", " ", text, flags=re.S)
        return text


def team_name(t: Translator, team: str) -> str:
    return t(TEAM_NAMES[Team(team)])


def each(phones: Iterable[Phone], work: Callable[[Phone], None]) -> None:
    for phone in phones:
        work(phone)

"""The evening in real Chromium (issue 30): a person and three bots play two games; the downloads (the protocol
page, its CSV, the game file, the standings' CSV) over real HTTP with each browser's own cookies: nothing before the
game ends, everything after it for a browser that held a seat, nothing ever for a stranger; the TV shows the
evening's standings at the end and between games, the same as the standings' CSV. And the protocol of a 12-player
uk game as a phone (360x640) and as print (A4) show it, in Russian, Ukrainian and Uzbek: nothing past the phone's
edge, the points on its screen, one A4 page."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from playwright.sync_api import APIResponse, Browser, expect

from e2e.harness import TV_SIZE, Phone, Server, Table, shot, shows
from engine.actions import Deadline, NightAct
from engine.game import apply, new_game
from engine.knowledge import Viewer
from engine.scenario import run
from engine.seat_bots import decide
from engine.state import GameState, Phase
from engine.view import view
from webgame.evening.protocol import protocol
from webgame.language.i18n import translator
from webgame.pages import protocol as protocol_page, wording

pytestmark = pytest.mark.e2e


BOT = re.compile(r" \((bot|бот)\)$")
DOWNLOADS = ("games/1", "games/1.csv", "games/1.json", "standings.csv")


def get(phone: Phone, url: str) -> APIResponse:
    """A GET with this browser's own cookies (its seat in the room, or none), as a tap on a link sends it."""
    return phone.context.request.get(url, max_redirects=0)


def tv_rows(tv: Phone) -> list[tuple[str, float]]:
    names = [BOT.sub("", text.strip()) for text in tv.tid("tv-standing-name").all_inner_texts()]
    points = [float(text.strip().replace(",", ".").replace("\u2212", "-"))
              for text in tv.tid("tv-standing-points").all_inner_texts()]
    return list(zip(names, points, strict=True))


def csv_rows(response: APIResponse) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.text())))


def play_to_the_end(host: Phone) -> None:
    # The person only watches: every step he leaves open runs out on its 3 s timer (e2e/test_bots.py: 12-62 s a game,
    # rarely longer on a busy machine).
    expect(host.tid("winner")).to_be_visible(timeout=180_000)


def test_downloads_over_http_and_the_tvs_standings_between_games(server: Server,
                                                                  phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    stranger = phones("Eve", "en")
    table.open_room(host)
    bots = host.page.get_by_text(re.compile(r"^\d+\. .+ \(bot\)$"))
    for count in (1, 2, 3):
        host.tap("add-bot", bots.nth(count - 1))
    for name in ("night_seconds", "discussion_seconds", "vote_seconds", "kamikaze_seconds"):
        host.fill(f"option-{name}", "3")
        host.field(f"option-{name}").press("Tab")
    host.page.wait_for_timeout(1500)  # the fields send their value after a pause (debounce)
    room = f"{server.base}/r/{table.code}"
    tv = phones("TV", "ru", size=TV_SIZE)
    tv.goto(f"{room}/screen")
    tv.connected()

    host.tap("start", host.tid("phase"))
    for path in DOWNLOADS[:3]:  # the game runs: its protocol does not exist yet, even for a seat of the room
        response = get(host, f"{room}/{path}")
        assert response.status == 404, path
        assert "Aziz" not in response.text()
    standings = get(host, f"{room}/standings.csv")
    assert standings.status == 200 and len(csv_rows(standings)) == 1  # the headers: no game has ended

    for number in (1, 2):
        play_to_the_end(host)
        page = get(host, f"{room}/games/{number}")
        assert page.status == 200 and page.headers["content-type"].startswith("text/html")
        assert 'data-testid="protocol-seats"' in page.text() and "Aziz" in page.text()
        protocol_csv = get(host, f"{room}/games/{number}.csv")
        assert protocol_csv.status == 200 and protocol_csv.headers["content-type"].startswith("text/csv")
        assert f"filename*=UTF-8''protocol-{table.code}-{number}.csv" in protocol_csv.headers["content-disposition"]
        seats = csv_rows(protocol_csv)
        assert seats[0][:3] == ["Seat", "Name", "Role"] and [row[0] for row in seats[1:5]] == ["1", "2", "3", "4"]
        game_file = get(host, f"{room}/games/{number}.json")
        assert game_file.status == 200
        replayed = run(json.loads(game_file.text()))  # the game file replays to the game's result
        assert replayed.error is None and replayed.winner is not None
        winner = re.search(r'data-testid="protocol-winner"><b>(.*?)</b>', page.text())
        assert winner is not None
        assert winner.group(1) == translator("en")(wording.WINNERS[replayed.winner])
        standings = get(host, f"{room}/standings.csv")
        rows = csv_rows(standings)[1:]
        assert len(rows) == 4 and all(int(row[2]) == number for row in rows)  # everyone played every game
        for path in (*DOWNLOADS, "games/9", f"games/{number}.csv"):  # a stranger: nothing, never
            response = get(stranger, f"{room}/{path}")
            assert response.status == 404, path
            assert "Aziz" not in response.text() and not any(row[1] in response.text() for row in rows)
        assert get(host, f"{server.base}/r/ZZZZZ/games/1").status == 404

        want = [(BOT.sub("", row[1]), float(row[5])) for row in rows]
        shows(tv.tid("tv-standings-title"))  # the TV's end screen, under the timeline
        expect(tv.tid("tv-standing-name")).to_have_count(4)
        assert tv_rows(tv) == want
        tv.screenshot(shot(f"tv-1280x720-standings-end-{number}.png"))
        host.tap("play-again", host.tid("start"))
        expect(tv.tid("tv-standing-name")).to_have_count(4)  # between games, in the lobby
        assert tv_rows(tv) == want
        tv.screenshot(shot(f"tv-1280x720-standings-lobby-{number}.png"))
        t = translator(str(tv.page.evaluate("document.documentElement.lang"))[:2])
        games = t("Games: {games}, wins: {wins}").split("{wins}")[0].format(games=t.number(number))
        lines = tv.page.locator(".mafia-tv-standing .mafia-death-cause").all_inner_texts()
        assert len(lines) == 4 and all(line.startswith(games) for line in lines)  # "Игры: 2, победы: ..."
        if number == 1:
            host.tap("start", host.tid("phase"))
            assert get(host, f"{room}/games/2").status == 404  # the second game runs


NAMES = ["Олександра", "Богдан", "Ярослава", "Тарас", "Марічка", "Остап", "Соломія", "Назар", "Дарина",
         "Владислав", "Ірина", "Андрій"]


def long_uk_game(seed: int) -> GameState:
    """A 12-player uk game played by the table's bots, who often let a night pass: a long one (10 days)."""
    state = new_game("uk", 12, seed, {"best_move": True})
    rng = random.Random(seed)
    while state.phase is not Phase.ENDED:
        step, acted = state.step, False
        for seat in range(1, 13):
            action = decide(view(state, Viewer.of_seat(seat)), rng)
            if isinstance(action, NightAct) and rng.random() < 0.7:
                action = NightAct(seat, "pass")
            if action is not None:
                apply(state, action)
                acted = True
                if state.step != step:
                    break
        if not acted and state.step == step:
            apply(state, Deadline(step))
    return state


@pytest.mark.parametrize("language", ["ru", "uk", "uz"])
def test_a_twelve_player_protocol_reads_on_a_phone_and_prints_on_one_a4_page(browser: Browser,
                                                                             language: str) -> None:
    longest = max((long_uk_game(seed) for seed in range(12)), key=lambda state: len(state.events))
    game = SimpleNamespace(number=3, seating=[{"name": name, "seat_id": i} for i, name in enumerate(NAMES, 1)])
    found = protocol(game, longest, {11})  # type: ignore[arg-type]
    assert found is not None and len(found.lines) >= 55
    html = protocol_page.protocol_html(translator(language), "ABCDE", found)
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                  device_scale_factor=1)
    try:
        page = context.new_page()
        page.set_content(html)
        past = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(el => {
            const r = el.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 0.5; }).length""")
        assert past == 0  # nothing past the phone's edge, the seats' table included
        points = page.locator("[data-testid=protocol-seats] tr:first-child th").last
        assert points.is_visible() and points.bounding_box()["x"] + points.bounding_box()["width"] <= 360
        assert page.locator("li").count() == len(protocol_page.line_rows(translator(language), found))
        if (picture := shot(f"protocol-{language}-uk12-phone.png")) is not None:
            page.screenshot(path=str(picture))
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one A4 page
        page.emulate_media(media="print")  # as printed: A4's width at 96 dpi, its 10 mm margins left out
        page.set_viewport_size({"width": 718, "height": 1047})
        if (picture := shot(f"protocol-{language}-uk12-print.png")) is not None:
            page.screenshot(path=str(picture), full_page=True)
    finally:
        context.close()

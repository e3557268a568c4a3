"""A phone's first touch (issue 16): what a page makes it load, the installable app, NiceGUI's own texts in the
phone's language, the day's colours switch, and the language kept when it changes mid-game."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from nicegui.testing import User

from bench.phone import Phone
from webgame.browser import app_manifest
from webgame.framework import page_template
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages.screen import Screen

from .helpers import create_room, node, settle, start_game, tap

ROOT = Path(__file__).resolve().parents[2]
FONT = re.compile(r"fonts\.css|Material Icons|Roboto|\.woff2?\b|quasar\.(un)?important", re.I)


async def page_html(user: User, path: str) -> str:
    response = await user.http_client.get(path)
    assert response.status_code == 200, path
    return response.text


def stylesheets(page: str) -> list[str]:
    """The stylesheets a page's HTML makes the browser load (its links and its @imports)."""
    return re.findall(r'<link rel="stylesheet" href="([^"]+)"', page) + re.findall(r'@import url\("([^"]+)"\)', page)


async def test_every_page_links_the_manifest_and_loads_no_font(create_user: Callable[[], User]) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host)
    for path in ("/", f"/r/{room.code}", f"/r/{room.code}/screen"):
        page = await page_html(guest, path)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert '<meta name="theme-color"' in page, path
        assert not FONT.search(page), f"{path} still loads a font or Quasar's whole CSS: {FONT.search(page)}"
        assert "nicegui-aggrid" not in page and "nicegui-leaflet" not in page, "optional libraries in the map"
        assert 'import DOMPurify from "dompurify"' not in page, "DOMPurify is loaded only when HTML is sanitized"
        for sheet in stylesheets(page):
            css = (await guest.http_client.get(sheet)).text
            assert "@font-face" not in css and not re.search(r"url\([^)]*\.woff", css), sheet
        assert page_template.QUASAR_CSS in page
        phone = Phone("http://test")  # the bench's phone retries as this page tells the browser to
        phone._read_page(page)  # noqa: SLF001
        assert phone.delays == (page_template.RECONNECT_DELAY_MS / 1000, page_template.RECONNECT_DELAY_MAX_MS / 1000)


async def test_the_manifest_makes_the_game_installable(user: User) -> None:
    response = await user.http_client.get(app_manifest.PATH, headers={"accept-language": "uk-UA,uk;q=0.9"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text)
    assert manifest["name"] == translator("uk")("Mafia") == "Мафія"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] == page_template.THEME_COLOUR
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= set(sizes)
    for icon in manifest["icons"]:
        picture = await user.http_client.get(icon["src"])
        assert picture.status_code == 200, icon["src"]
        if icon["type"] == "image/png":  # the PNG's own header says its size
            width, height = int.from_bytes(picture.content[16:20], "big"), int.from_bytes(picture.content[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


async def test_the_connection_lost_banner_speaks_the_phones_language(create_user: Callable[[], User]) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host)
    guest.http_client.headers["accept-language"] = "uk-UA,uk;q=0.9"
    page = await page_html(guest, f"/r/{room.code}")
    banner = re.search(r'<div id="popup"[^>]*>(.*?)</div>', page, re.S)
    assert banner is not None
    assert "З&#39;єднання втрачено." in banner.group(1) and "Намагаємося під&#39;єднатися знову..." in banner.group(1)
    assert "Connection lost" not in page and "Гра завантажується..." in page  # the HTML's own loading line
    await guest.open(f"/r/{room.code}")
    tap(guest, "language", "ro")  # the phone's choice, kept in its browser, wins over Accept-Language
    await guest.should_see("Intră în acest joc")
    assert "Conexiunea s-a pierdut." in await page_html(guest, f"/r/{room.code}")
    for language in LANGUAGES:
        for text in page_template.FRAMEWORK_TEXTS.values():
            assert language == "en" or translator(language)(text) != text, (language, text)


async def test_home_and_lobby_have_the_colours_switch_and_the_night_is_dark_for_all(
        create_user: Callable[[], User]) -> None:
    await (user := create_user()).open("/")
    assert node(user, "theme") is not None
    await create_room(user)
    assert node(user, "theme") is not None  # the lobby
    room, users = await start_game(create_user, 4)
    await settle()
    for phone in users:  # the first night: the same dark colours on every phone, and no switch
        assert node(phone, "theme") is None
        header = node(phone, "language")
        assert header is not None
    dark_nodes = {json.dumps([n for n in _models(phone) if n.get("t") == "dark"]) for phone in users}
    assert dark_nodes == {json.dumps([{"t": "dark", "on": 1}])}


def _models(user: User) -> list[dict[str, object]]:
    """The top-level nodes of every screen part of the page."""
    assert user.client is not None
    nodes: list[dict[str, object]] = []
    for element in list(user.client.elements.values()):
        if isinstance(element, Screen) and not element.is_deleted:
            nodes.extend(json.loads(element.props["model"]))
    return nodes


async def test_the_language_changed_mid_game_is_kept(create_user: Callable[[], User]) -> None:
    room, users = await start_game(create_user, 4)
    phone = users[2]
    await phone.should_see("Night 1", marker="phase")
    tap(phone, "language", "uk")
    await phone.should_see("Ніч 1", marker="phase")
    await phone.open(f"/r/{room.code}")  # a reload (the phone slept): still Ukrainian, still his seat
    await phone.should_see("Ніч 1", marker="phase")
    assert node(phone, "reveal") is not None
    await users[1].should_see("Night 1", marker="phase")  # nobody else's language changed
    assert "Намагаємося під&#39;єднатися знову..." in await page_html(phone, f"/r/{room.code}")


def test_the_quasar_subset_is_up_to_date() -> None:
    done = subprocess.run([sys.executable, "scripts/quasar_subset.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_icon_the_pages_use_is_drawn() -> None:
    """The icon font is gone: an icon name without a path in static/icons.js would draw nothing."""
    drawn = set(re.findall(r"^\s{4}(\w+): ", (ROOT / "webgame/static/icons.js").read_text(), re.M))
    used: set[str] = set()
    for path in (ROOT / "webgame").rglob("*.py"):
        for pair in re.findall(r'\bicon=\s*"(\w+)"|\.icon\("(\w+)"\)', path.read_text()):
            used |= {name for name in pair if name}
    for path in (ROOT / "webgame").rglob("*.js"):
        for pair in re.findall(r'icon: (?:[^",]*\? )?"(\w+)"(?: : "(\w+)")?', path.read_text()):
            used |= {name for name in pair if name}
    quasar = {"arrow_drop_down", "keyboard_arrow_down", "check_circle", "warning", "info", "priority_high", "error",
              "cancel"}  # a select's arrow, an expansion item's chevron, notifications, fields
    assert used >= {"check", "gavel", "smart_toy", "record_voice_over", "visibility", "visibility_off", "send",
                    "dark_mode", "light_mode"}
    assert not (used | quasar) - drawn, f"icons without a path: {(used | quasar) - drawn}"

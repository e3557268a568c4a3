"""Help, sharing and first touch (issue 16): the role help and the how-to in five languages, the lobby's
explanations, the share button and the Telegram link, room codes read aloud and typed loosely, headings and
the page's language."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from nicegui.testing import User

from engine.options import OPTION_TABLES
from engine.roles import ROLE_TABLES
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages import wording
from webgame.pages.screen import Screen
from webgame.store import queries as store, room_codes, tokens

from .helpers import covered_ids, create_room, join, node, page_dump, start_game, tap, texts, wait_for


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_help_text_is_translated_in_every_language(language: str) -> None:
    _ = translator(language)
    for rules, roles in ROLE_TABLES.items():
        for role, info in roles.items():
            assert _(info.description) != info.description, (rules, role, language)
            heading = wording.role_heading(_, rules, str(role))
            assert wording.role_name(_, rules, str(role)) in heading and heading != str(role)
    for line in wording.HOW_TO_PLAY:
        assert _(line) != line, (line, language)
    for rules, specs in OPTION_TABLES.items():
        for spec in specs:
            assert wording.option_hint(_, spec) != wording.option_hint(translator("en"), spec), (rules, spec.name)


def test_each_option_hint_says_what_it_means_and_its_default() -> None:
    _ = translator("en")
    night = next(spec for spec in OPTION_TABLES["uz"] if spec.name == "night_seconds")
    assert wording.option_hint(_, night) == "How long this step lasts. Default: 20 seconds."
    tie = next(spec for spec in OPTION_TABLES["uz"] if spec.name == "tie_result")
    assert wording.option_hint(_, tie).endswith("Default: Nobody.") and wording.option_hint(_, tie).startswith(
        "nobody: nobody is eliminated")
    dead = next(spec for spec in OPTION_TABLES["uz"] if spec.name == "dead_see_roles")
    assert wording.option_hint(_, dead).endswith("Default: off.")


@pytest.mark.parametrize("rules", ["uz", "uk"])
async def test_the_lobby_explains_every_role_and_every_option(create_user, rules: str) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host, "Aziz", rules)
    await join(guest, room, "Olena")
    descriptions = {info.description for info in ROLE_TABLES[rules].values()}
    first_hint = wording.option_hint(translator("en"), OPTION_TABLES[rules][0])
    for phone in (host, guest):  # folded, a fold's texts are not sent: the room link's page stays light
        assert not descriptions & set(texts(phone)) and first_hint not in texts(phone)
        for fold in ("fold-options", "fold-roles"):  # the guest's summary has both; the host's inputs, the roles
            if node(phone, fold) is not None:
                tap(phone, fold, True)  # opened
        await wait_for(lambda phone=phone: descriptions <= set(texts(phone)))
    for phone in (host, guest):
        shown = texts(phone) + [hint for hint in page_dump(phone).split('"hint": "')[1:]]
        for info in ROLE_TABLES[rules].values():
            assert info.description in shown, (phone, info.role)
        _ = translator("en")
        for spec in OPTION_TABLES[rules]:
            assert any(text.startswith(wording.option_hint(_, spec)) for text in shown), (phone, spec.name)
    tap(guest, "fold-roles", False)  # folded again: the texts go, the other fold stays open
    await wait_for(lambda: not descriptions & set(texts(guest)))
    assert first_hint in texts(guest)


async def test_the_share_button_and_the_telegram_link_carry_the_room_link(create_user) -> None:
    host = create_user()
    room = await create_room(host)
    share, telegram = node(host, "share"), node(host, "share-telegram")
    assert share is not None and telegram is not None
    assert share["url"].endswith(f"/r/{room.code}") and room.code in share["msg"]
    assert share["x"] == "Share the link" and share["y"] == "Link copied"  # the visible confirmation
    link = urlsplit(telegram["href"])
    assert (link.scheme, link.netloc, link.path) == ("https", "t.me", "/share/url")
    query = parse_qs(link.query)
    assert query["url"] == [share["url"]] and room.code in query["text"][0]


def test_the_code_alphabet_has_no_look_alikes() -> None:
    assert not set("0O1I") & set(tokens.CODE_ALPHABET)
    assert len(set(tokens.CODE_ALPHABET)) == len(tokens.CODE_ALPHABET) == 32
    for _ in range(200):
        assert set(store.new_room_code()) <= set(tokens.CODE_ALPHABET)


def test_a_code_typed_loosely_is_read_both_ways() -> None:
    assert room_codes.readings(" k7q xm ") == ["K7QXM"]
    assert room_codes.readings("k70xm") == ["K70XM", "K7DXM", "K7QXM"]
    assert room_codes.readings("1bcde") == ["1BCDE", "LBCDE"]
    assert room_codes.readings("00000") == ["00000"]  # too many readings: the code as typed only
    assert room_codes.plausible("k70xm") and not room_codes.plausible("K7!XM") and not room_codes.plausible("")


async def test_a_look_alike_finds_the_room_only_when_one_fits() -> None:
    rooms = {"K7DXM": "room D", "ABLDE": "room L", "Q0AAA": "an old code", "QDAAA": "another", "QQAAA": "a third"}

    async def find(code: str) -> str | None:
        return rooms.get(code)

    assert await room_codes.lookup("k70xm", find) == "room D"  # 0 read as D (no K7QXM)
    assert await room_codes.lookup("AB1DE", find) == "room L"
    assert await room_codes.lookup("abide", find) == "room L"  # I for L, typed in lower case
    assert await room_codes.lookup("Q0AAA", find) == "an old code"  # an exact match wins
    assert await room_codes.lookup("QOAAA", find) is None  # D or Q: two rooms fit, none is chosen
    assert await room_codes.lookup("ZZZZZ", find) is None


async def test_a_code_typed_with_a_look_alike_joins_from_the_start_page(create_user) -> None:
    host, guest = create_user(), create_user()
    room = await create_room(host)
    typed = room.code.lower().replace("l", "1").replace("d", "0")
    await guest.open("/")
    guest.find(marker="join-code").type(typed)
    guest.find(marker="join-room").click()
    await guest.should_see(marker="join-name")


async def test_the_role_help_is_behind_the_reveal_only(create_user) -> None:
    room, users = await start_game(create_user, 4)
    for user in users:
        help_node = node(user, "role-help")
        assert help_node is not None and help_node["x"]
        assert "role-help" not in covered_ids(user)


async def test_every_page_has_one_h1_and_its_language(user: User) -> None:
    await user.open("/")
    assert user.client is not None
    levels: list[int] = []

    def walk(nodes: list[dict[str, Any]]) -> None:
        for item in nodes:
            if item.get("t") == "h":
                levels.append(item["l"])
            walk(item.get("k", []))

    for element in list(user.client.elements.values()):
        if isinstance(element, Screen):
            walk(json.loads(element.props["model"]))
    assert levels == [1]
    assert 'document.documentElement.lang="en"' in user.client.head_html
    await user.should_see("How to play")

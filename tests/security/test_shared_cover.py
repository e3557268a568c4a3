"""The night's covered part is built once for every phone of a room (``GameView.cover``), and holds nothing private.

Every living player's covered night screen is the same by design (the words, the grid of the living), so it is one
part of its own (the page's ``cover`` part, in the panel's ``cover`` slot), built once per change of the room and
language from the spectator's projection, and every living phone draws that very string. It holds no role name (in
any language), nothing from behind the reveal, and not even the phone's own tile mark: the page gives its browser
its own seat beside the model (the element's ``seat`` prop, ``Draft.own_seat``), and ``screen.js`` marks the tile
``tile-<seat>`` itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pytest
from nicegui.testing import User

from engine.roles import UK_ROLES, UZ_ROLES, Team
from engine.state import Phase
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages import night, shared_parts, wording
from webgame.pages.room import RoomPage
from webgame.pages.screen import Draft
from webgame.pages.screen_model import model_ids, model_texts
from webgame.room.rooms import Change, Room

from .table import Table, drain

SCREEN_JS = Path(__file__).resolve().parents[2] / "webgame" / "pages" / "screen.js"


def role_words() -> set[str]:
    """Every role and team name, in every language."""
    words: set[str] = set()
    for language in LANGUAGES:
        t = translator(language)
        words |= {wording.role_name(t, "uz", str(role)) for role in UZ_ROLES}
        words |= {wording.role_name(t, "uk", str(role)) for role in UK_ROLES}
        words |= {wording.team_name(t, str(team)) for team in Team}
    return words


def cover_screens(table: Table) -> dict[int, Any]:
    """Each open room page of the table (its engine seat, 0 for a watcher) -> its ``cover`` part's element."""
    found: dict[int, Any] = {}
    for page in table.room.subscribers:
        if isinstance(page, RoomPage) and page.cover.screen is not None:
            found[table.room.game.game_seat(page.token_hash) or 0] = page.cover.screen
    return found


def check_living(table: Table, words: set[str]) -> str:
    """Every living phone draws the very same cover model (one string), public only, and gets its own seat beside
    it; the spectator's is a cover of its own, public too."""
    screens = cover_screens(table)
    living = [seat for seat in range(1, len(table.phones) + 1) if table.state.alive[seat - 1]]
    assert set(living) <= set(screens) and 0 in screens
    first: str = screens[living[0]].props["model"]
    assert all(screens[seat].props["model"] is first for seat in living)  # one string: built once, drawn by all
    nodes = json.loads(first)
    texts = model_texts(nodes)
    assert "Everyone makes a secret choice. Tap Show, choose, confirm." in texts
    assert set(model_ids(nodes)) == {"night-cover", *(f"tile-{seat}" for seat in living)}
    for model in (first, screens[0].props["model"]):
        found = model_texts(json.loads(model))
        assert not [text for text in found if any(word in text for word in words)]
        assert '"rev"' not in model and '"me"' not in model  # nothing behind a reveal, no own mark: public only
    # The own tile: each phone's seat beside the model, its own and no other's (a watcher has none).
    assert {seat: screens[seat].props.get("seat") for seat in living} == {seat: seat for seat in living}
    assert "seat" not in screens[0].props
    return first


async def test_the_cover_is_one_model_for_every_living_phone(create_user: Callable[[], User],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    table = await Table.seat(create_user, "uz", 12, 107, languages=("en",))
    assert table.state.phase is Phase.NIGHT
    words = role_words()
    check_living(table, words)

    # Each (state of the room, key) is built once however many pages draw it.
    draws: list[tuple[Hashable, tuple[Hashable, ...], bool]] = []
    builds: list[str] = []
    real_draw, real_cover = shared_parts.draw, night.cover

    def draw(d: Draft, room: Room, key: Hashable, build: Callable[[Draft], None]) -> bool:
        fresh = real_draw(d, room, key, build)
        if isinstance(key, tuple) and key[0] == "cover":
            draws.append((room.version(), key, fresh))
        return fresh

    def cover(view: Any, d: Draft, kind: str) -> None:
        builds.append(kind)
        real_cover(view, d, kind)

    monkeypatch.setattr(shared_parts, "draw", draw)
    monkeypatch.setattr(night, "cover", cover)
    before = check_living(table, words)
    await to_next_night(table)
    after = check_living(table, words)
    assert after is not before
    living_pages = sum(1 for seat in range(1, 13) if table.state.alive[seat - 1])
    keys = {(version, key) for version, key, _ in draws}
    assert len(builds) == len(keys) == sum(fresh for _, _, fresh in draws)  # built once per state and key
    night_key = [(version, key) for version, key, _ in draws if key[2] == "living"]
    assert night_key and len(draws) > len(keys)
    assert sum(1 for version, key, _ in draws if (version, key) == night_key[-1]) == living_pages


def test_the_browser_marks_its_own_tile_from_the_seat_prop() -> None:
    """``screen.js`` takes the page's seat as a prop (beside the model) and marks the tile of that seat: the model's
    tiles carry no mark of their own."""
    js = SCREEN_JS.read_text(encoding="utf-8")
    assert "seat: { type: Number, default: 0 }" in js
    assert 'const mine = this.seat && id === "tile-" + this.seat;' in js
    assert '(mine ? " mafia-me" : "")' in js
    assert "node.me" not in js


async def to_next_night(table: Table) -> None:
    """Let the clock end every step (and the day's result's hold) until the next night."""
    room = table.room
    day = table.state.day
    for _ in range(40):
        state = table.state
        if state.phase is Phase.NIGHT and state.day > day and not room.holding():
            return
        if state.phase is Phase.ENDED:
            pytest.skip("the game ended before a second night")
        if room.holding():
            await room.change(Change.STATE, lambda: room.game.release(early=True))
        else:
            await room.expire(state.step, room.deadline or room.now())
        await drain()
    raise AssertionError("no second night")

"""The step's counts, built once for every phone of a room (``webgame.pages.shared_parts``), hold nothing private.

Every phone in one language (the living, a spectator) draws the very same model of the ``status`` part: one
string, built once per change of the room, not once per phone. It is the same as what a spectator may see, and
it holds no role, no team, no revealed node; a night act that changes the count changes it on every phone alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from nicegui.testing import User

from engine.actions import NightAct
from engine.roles import UZ_ROLES, Team
from engine.state import Phase
from webgame.language.i18n import translator
from webgame.pages import wording
from webgame.pages.record_part import player_rows
from webgame.pages.room import RoomPage
from webgame.pages.screen import Draft
from webgame.pages.screen_model import model_texts

from .table import Table, drain


def status_models(table: Table) -> dict[str, str]:
    """Each open room page of the table (its seat, or "spectator") -> the model of its ``status`` part."""
    found: dict[str, str] = {}
    for page in table.room.subscribers:
        if isinstance(page, RoomPage) and page.status.screen is not None:
            seat = table.room.game.game_seat(page.token_hash)
            found[f"seat {seat}" if seat else "spectator"] = page.status.screen.props["model"]
    return found


async def test_the_counts_are_built_once_and_hold_no_role(create_user: Callable[[], User]) -> None:
    table = await Table.seat(create_user, "uz", 8, 107, languages=("en",))
    assert table.state.phase is Phase.NIGHT
    rules = table.state.rules
    t = translator("en")
    role_words = {wording.role_name(t, rules, str(role)) for role in UZ_ROLES} | {
        wording.team_name(t, str(team)) for team in Team}

    def check() -> str:
        models = status_models(table)
        assert {"spectator", *(f"seat {seat}" for seat in range(1, 9))} <= set(models)
        first = next(iter(models.values()))
        assert all(model is first for model in models.values())  # one string: built once, drawn by every page
        texts = model_texts(json.loads(first))
        assert any("still choosing" in text for text in texts)
        assert not [text for text in texts if any(word in text for word in role_words)]
        assert '"rev"' not in first and '"cov"' not in first  # nothing behind a reveal: public only
        return first

    before = check()
    living = [seat for seat in range(1, 9) if table.state.alive[seat - 1]]
    actor = living[0]
    await table.room.act(table.phones[actor - 1].token_hash, NightAct(actor, "pass"))
    await drain()
    after = check()
    assert after != before  # one fewer is still choosing, on every phone alike


async def test_the_players_list_is_built_once_and_is_what_each_seat_would_draw(create_user: Callable[[], User]) -> None:
    """The players list of the news part (``shared_parts.graft``): at every step of a whole game, with uk's fouls and
    a moderator, every seat and spectator page draws the same nodes (one list per language, built once) and they are
    exactly what the page would draw from its own projection: nobody sees less, nobody more."""
    for rules, players, seed in (("uz", 8, 211), ("uk", 12, 212)):
        table = await Table.seat(create_user, rules, players, seed, moderated=rules == "uk", languages=("en", "ru"))
        compared = 0

        def check(table: Table = table) -> None:
            nonlocal compared
            firsts: dict[str, list[Any]] = {}
            for page in table.room.subscribers:
                if not isinstance(page, RoomPage) or page.game.proj is None:
                    continue
                view = page.game
                if view.viewer_kind == "moderator" or view.p["phase"] == "ended":
                    continue
                grafted, own = Draft(), Draft()
                view.record_part._players(grafted)  # noqa: SLF001
                player_rows(view, own, everything=False)
                assert grafted.nodes == own.nodes, view.viewer_kind
                first = firsts.setdefault(page.identity.language, grafted.nodes)
                assert all(a is b for a, b in zip(first, grafted.nodes, strict=True))  # one build for the language
                compared += 1

        await table.play(check, fouls=rules == "uk")
        assert compared > 8 * players

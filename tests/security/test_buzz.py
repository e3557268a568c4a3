"""The "your turn" buzz: a phone vibrates when its viewer has something to do at a new step, once a step, no other.

The buzz is a prop of the phone's panel beside its model (``Draft.buzz``: ``screen.js`` calls ``mafiaBuzz`` when the
part gets a key it has not buzzed for), not a script sent to the phones with a move: through whole games, every page's
panel holds a buzz key exactly when its viewer has an action, the key is new at every step, the model never holds it
(a covered screen is the same for a phone with a move and one that made it), and no phone is sent a script.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import Client
from nicegui.testing import User

from webgame.pages.room import RoomPage

from .table import Table


def buzz_key(page: RoomPage) -> str | None:
    screen = page.seats_or_panel.screen
    assert screen is not None
    assert "buzz" not in screen.drawn_model
    key = screen.props.get("buzz")
    return str(key) if key else None


async def test_a_phone_buzzes_once_at_each_step_it_has_a_move(create_user: Callable[[], User]) -> None:
    for rules, players, seed in (("uz", 8, 311), ("uk", 12, 312)):
        table = await Table.seat(create_user, rules, players, seed, moderated=rules == "uk", languages=("en", "uz"))
        scripts: list[Any] = []  # buzz scripts sent to any phone
        for client in Client.instances.values():
            original = client.outbox.enqueue_message

            def enqueue(kind: str, data: Any, target: str, original: Any = original,
                        scripts: list[Any] = scripts) -> None:
                if kind == "run_javascript" and "mafiaBuzz" in str(data):
                    scripts.append(data)
                original(kind, data, target)

            client.outbox.enqueue_message = enqueue  # type: ignore[method-assign,assignment]
        seen: dict[int, set[str]] = {}  # a page -> the buzz keys it was drawn with
        buzzed = idle = 0

        def check(table: Table = table, seen: dict[int, set[str]] = seen) -> None:
            nonlocal buzzed, idle
            step = table.state.step
            for page in table.game_pages():
                key, acts = buzz_key(page), bool(page.game.p.get("actions"))
                assert (key is not None) == acts, (page.game.viewer_kind, page.game.viewer_seat, step)
                if key is None:
                    idle += 1
                    continue
                assert key == f"{page.game.game_id}-{page.game.p['step']}"
                keys = seen.setdefault(id(page), set())
                buzzed += key not in keys
                keys.add(key)

        check()
        await table.play(check)
        assert buzzed > players and idle > 0  # new keys step after step, and viewers with nothing to do
        assert scripts == []  # no script of its own: the buzz rides in the panel

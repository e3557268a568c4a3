"""One person and three bots, in a real browser: the host fills the table with bots in the lobby (each marked
"(bot)" in words), starts, and the bots play the game to its end with him (issue 18). He only watches: every
step he leaves open runs out on its short timer (3 s), and the bots never hold a step up."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from e2e.harness import Phone, Server, Table

pytestmark = pytest.mark.e2e


def test_one_person_and_three_bots_play_to_the_end(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    host = phones("Aziz", "en")
    table.open_room(host)
    bots = host.page.get_by_text(re.compile(r"^\d+\. .+ \(bot\)$"))
    for count in (1, 2, 3):
        host.tap("add-bot", bots.nth(count - 1))
    expect(bots).to_have_count(3)
    host.tid("remove-bot").click()
    expect(bots).to_have_count(2)
    host.tap("add-bot", bots.nth(2))
    for name in ("night_seconds", "discussion_seconds", "vote_seconds", "kamikaze_seconds"):
        host.fill(f"option-{name}", "3")
        host.field(f"option-{name}").press("Tab")
    host.page.wait_for_timeout(1500)  # the fields send their value after a pause (debounce)
    host.tap("start", host.tid("phase"))
    # When the person is the mafia, nobody dies at night and only the bots' votes end the game; their ties can
    # make it long (12-62 s in three runs, once past 75 s on a busy machine): a timeout for the rare long game.
    expect(host.tid("winner")).to_be_visible(timeout=180_000)
    expect(host.page.get_by_text(re.compile(r"\(bot\)")).first).to_be_attached()

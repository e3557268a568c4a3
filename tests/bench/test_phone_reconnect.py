"""The load generator's phone reconnects as the page it loaded tells the browser to (``page_template``'s socket.io
backoff), and as socket.io does without it (the floor app): a storm measured with slower or faster retries than a
real phone's would measure the bench, not the game."""

from __future__ import annotations

import random

from bench.phone import SOCKET_IO_DELAYS, Phone
from webgame.framework import page_template

HTML = ("<script>const app = createApp(parseElements(String.raw`{}`), {prefix: \"\", "
        "query: {'client_id': '0f0e', 'next_message_id': 3}});\n"
        '      app.mount("#app");\n{reconnect}</script>')


def _page(reconnect: str) -> str:
    return HTML.replace("{reconnect}", reconnect)


def test_the_phone_takes_the_backoff_its_page_sets() -> None:
    phone = Phone("http://127.0.0.1:1")
    phone._read_page(_page(page_template.RECONNECT_SCRIPT))  # noqa: SLF001
    assert phone.delays == (page_template.RECONNECT_DELAY_MS / 1000, page_template.RECONNECT_DELAY_MAX_MS / 1000)
    random.seed(7)
    waits = [[phone.backoff(attempt) for attempt in range(8)] for _ in range(200)]
    first = page_template.RECONNECT_DELAY_MS / 1000
    assert all(first * 0.5 <= row[0] <= first * 1.5 for row in waits)
    assert max(wait for row in waits for wait in row) <= page_template.RECONNECT_DELAY_MAX_MS / 1000
    assert sum(row[-1] == page_template.RECONNECT_DELAY_MAX_MS / 1000 for row in waits) > 150  # capped after jitter


def test_a_page_that_sets_nothing_keeps_socket_ios_defaults() -> None:
    phone = Phone("http://127.0.0.1:1")
    phone._read_page(_page(""))  # noqa: SLF001
    assert phone.delays == SOCKET_IO_DELAYS == (1.0, 5.0)
    random.seed(7)
    assert max(phone.backoff(attempt) for attempt in range(10) for _ in range(50)) <= 5.0  # never socket.io's 7.5


def test_the_phone_acknowledges_as_its_page_says() -> None:
    """The game's page acknowledges at most every 5 s (every second look of NiceGUI's 3 s ones); the floor's page,
    which says nothing, at every look."""
    phone = Phone("http://127.0.0.1:1")
    phone._read_page(_page(page_template.RECONNECT_SCRIPT + page_template.ACK_SCRIPT))  # noqa: SLF001
    assert phone.ack_at_most == page_template.ACK_AT_MOST_MS / 1000 == 5.0
    phone._read_page(_page(""))  # noqa: SLF001
    assert phone.ack_at_most == 0.0

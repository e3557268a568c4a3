"""What a chat line costs every phone on the wire at the chat's allowed rate, padding included (issue 26).

Eleven living players write as fast as flood control lets them (``chat_limits.CHAT_BURST`` lines per
``CHAT_WINDOW`` seconds each), every line as long as allowed, in Cyrillic (two bytes a letter on the wire) and,
the worst case, in emoji (four bytes each): every living phone must receive at most ``LINE_BUDGET`` bytes per
line, and, as before, the same number of messages of the same size at the same moments whatever its role (the
padding's promise, docs/SECURITY.md). At night only the mafia write, on their own channel: every living phone
still receives the same, and the town's messages are padding only. The writer's phone is one of them: its box
empties itself in the browser, so a taken line sends it nothing more than it sends every phone.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from nicegui.testing import User

from engine.state import Phase
from webgame.room import chat_limits

from ..web.helpers import tap, wait_for
from .conftest import FakeTime
from .stats import STATS
from .table import Table, drain
from .wire import Wire

LINE_BUDGET = 2048  # bytes on the wire, per phone, per chat line (socket.io's framing included)
FRAMING = len('42["update",]')  # what socket.io adds around the JSON the wire counts
TOLERANCE = 48  # bytes (element ids and message counters differ by a digit or two between phones)
CYRILLIC = ("Кто-то из вас мафия, и я это знаю точно. " * 8)[: chat_limits.CHAT_MAX_LENGTH]
EMOJI = ("\U0001F575\U0001F52A\U0001F480\U0001F47B\U0001F319\U0001F52B" * 50)[: chat_limits.CHAT_MAX_LENGTH]


def line(text: str, number: int, writer: int) -> str:
    return f"{number}-{writer} {text}"[: chat_limits.CHAT_MAX_LENGTH]


def received(wire: Wire, table: Table, seats: list[int]) -> dict[int, list[int]]:
    """The sizes of the messages each of these seats' phones received since the last call (in order)."""
    return {seat: [m.size + FRAMING for m in wire.unread(table.phones[seat - 1].client_id) if m.type == "update"]
            for seat in seats}


async def write_at_the_allowed_rate(table: Table, wire: Wire, fake_time: FakeTime, writers: list[int],
                                    channel: str, lines: int, text: str) -> dict[int, list[list[int]]]:
    """Each writer writes ``lines`` lines, the writers in turn, every writer at ``CHAT_BURST`` lines per
    ``CHAT_WINDOW``; what each living phone received for each line."""
    living = [seat for seat in range(1, len(table.phones) + 1) if table.state.alive[seat - 1]]
    gap = chat_limits.CHAT_WINDOW / chat_limits.CHAT_BURST / len(writers)
    per_line: dict[int, list[list[int]]] = {seat: [] for seat in living}
    received(wire, table, living)
    for number in range(lines):
        for writer in writers:
            before = len(table.room.chat)
            tap(table.phones[writer - 1].user, "chat-send", {"channel": channel, "text": line(text, number, writer)})
            await wait_for(lambda before=before: len(table.room.chat) == before + 1)  # (kept in the database first)
            await drain()
            for seat, sizes in received(wire, table, living).items():
                per_line[seat].append(sizes)
            fake_time.advance(gap)
    return per_line


def check_even(per_line: dict[int, list[list[int]]]) -> None:
    """Every living phone got the same number of messages of the same size for every line."""
    seats = list(per_line)
    for index in range(len(per_line[seats[0]])):
        counts = {seat: len(per_line[seat][index]) for seat in seats}
        assert len(set(counts.values())) == 1, f"line {index}: message counts differ {counts}"
        for message in range(counts[seats[0]]):
            sizes = [per_line[seat][index][message] for seat in seats]
            assert max(sizes) - min(sizes) <= TOLERANCE, f"line {index}: sizes differ {sizes}"


def bytes_per_line(per_line: dict[int, list[list[int]]]) -> float:
    return max(sum(map(sum, lines)) / len(lines) for lines in per_line.values())


@pytest.mark.parametrize("text", [CYRILLIC, EMOJI], ids=["cyrillic", "emoji"])
async def test_a_chat_line_costs_each_phone_at_most_2_kb(create_user: Callable[[], User], fake_time: FakeTime,
                                                         monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    assert len(line(text, 4, 11)) == chat_limits.CHAT_MAX_LENGTH
    assert len(line(text, 4, 11).encode()) > (1100 if text is EMOJI else 500)  # four (two) bytes a letter
    wire = Wire()
    wire.install(monkeypatch)
    table = await Table.seat(create_user, "uz", 12, 7, languages=("ru", "en"))
    assert table.state.phase is Phase.NIGHT
    mafia = [seat for seat in range(1, 13) if "mafia" in table.room.game.write_channels(
        table.room.viewer(table.phones[seat - 1].token_hash))]
    assert len(mafia) >= 2
    night = await write_at_the_allowed_rate(table, wire, fake_time, mafia, "mafia", chat_limits.CHAT_BURST, text)
    check_even(night)
    await table.room.skip(table.room.host_hash, table.state.step)
    await drain()
    assert table.state.phase is not Phase.NIGHT
    writers = [seat for seat in range(1, 13) if table.state.alive[seat - 1]][:11]
    assert len(writers) == 11
    day = await write_at_the_allowed_rate(table, wire, fake_time, writers, "room", chat_limits.CHAT_BURST, text)
    check_even(day)
    figures = {"night": round(bytes_per_line(night)), "day": round(bytes_per_line(day))}
    # Cyrillic before issue 26: night 8,759, day 27,022; with each line an element: 1,718 and 1,693 (emoji 2,4xx)
    print(f"bytes per phone per chat line ({'emoji' if text is EMOJI else 'cyrillic'}): {figures}")
    STATS.add("chat lines measured", len(mafia) * chat_limits.CHAT_BURST + len(writers) * chat_limits.CHAT_BURST)
    assert max(figures.values()) <= LINE_BUDGET, figures

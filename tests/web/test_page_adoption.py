"""After a restart a phone's page is built again in place, under the id its browser still holds
(``webgame.framework.page_adoption``): no reload, the same browser's own page (its seat, its role's screen), and the
game
goes on. A socket that names a page the server will not build that way is refused as before, and the browser
reloads. Against a real server process, killed and started again on the same data."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.drivers import GameRoom, in_game
from bench.load import Server, free_port
from bench.phone import Phone, Refused

CLOCK = re.compile(r"^\d+:\d\d$")  # the countdown, a second apart on two pages


def texts(phone: Phone) -> set[str]:
    """What the phone's page says (its elements' texts and its screen parts' labels), the clock left out."""
    said: set[str] = set()
    for key, element in phone.elements.items():
        if "mafia-countdown" in (element.get("class") or ()):
            continue
        if element.get("text"):
            said.add(str(element["text"]))
        for node in phone.screen_nodes(key) or ():
            if isinstance(node.get("x"), str) and not CLOCK.match(node["x"]):
                said.add(node["x"])
    return said


async def fresh_page(server: Server, phone: Phone, path: str) -> set[str]:
    """What a page loaded now by the same browser (its cookies) says."""
    twin = Phone(server.base, f"{phone.label} again")
    assert phone.session is not None
    twin.jar = phone.session.cookie_jar  # type: ignore[assignment]
    try:
        await twin.visit(path)
        await twin.settle(0.3)
        return texts(twin)
    finally:
        await twin.close()


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[Server, GameRoom]]:
    server = Server("game", tmp_path, free_port())
    server.start()
    room = GameRoom(server.base, 0, 4, think=0.0, seed=3)
    try:
        await room.setup()  # four phones seated, the game started
        yield server, room
    finally:
        await room.close()
        server.stop()


async def restart(server: Server, room: GameRoom) -> None:
    server.kill()
    server.start()
    for phone in room.phones:  # every socket saw its server go
        await asyncio.wait_for(phone.closed.wait(), 30)


async def test_a_restart_builds_each_phones_own_page_again_in_place(table: tuple[Server, GameRoom]) -> None:
    """One table, one restart: what each phone's socket asks for after it."""
    server, room = table
    kept, owner, other, probe = room.phones
    await restart(server, room)

    # A socket that names a page the server does not build in place is refused (its browser reloads): not a
    # page id, not a room's page (a phone's or the TV's), no such room, no page named.
    for path, client_id in ((room.path, "not-a-page-id"), ("/", str(uuid.uuid4())),
                            (f"{room.path}/screen/x", str(uuid.uuid4())), ("/r/ZZZZZZ", str(uuid.uuid4())),
                            ("/r/ZZZZZZ/screen", str(uuid.uuid4())), ("", str(uuid.uuid4()))):
        probe.client_id, probe.path, probe.reconnecting = client_id, path, True
        with pytest.raises(Refused):
            await probe.connect()
    probe.path, probe.reconnecting = room.path, False

    # The room's TV is built in place too (issue 31: it ended on an error page after a failover).
    tv_id = str(uuid.uuid4())
    probe.client_id, probe.path, probe.reconnecting, probe.rebuilt = tv_id, f"{room.path}/screen", True, 0.0
    try:
        await probe.connect()
    finally:
        probe.path, probe.reconnecting = room.path, False
    assert await probe.rebuilt_page(10.0) and probe.has_text(room.code), "the TV's page was not built in place"
    await probe.drop()
    probe.client_id = str(uuid.uuid4())  # (its phone's page id is gone with the restart, as the others')

    # A socket naming another browser's page id (with its own cookie) gets its own browser's page.
    owners_page = owner.client_id
    other.client_id, other.rebuilt, other.reconnecting = owners_page, 0.0, True
    try:
        await other.connect()
    finally:
        other.reconnecting = False
    assert await other.rebuilt_page(10.0)

    # Every other phone comes back: its page built again in place, no reload; the owner of the taken id is
    # refused (the page under its id is another browser's) and reloads.
    give_up = time.time() + 60
    await asyncio.gather(*(phone.recover(give_up) for phone in (kept, owner, probe)))
    for phone in (kept, probe):
        steps = [name for name, _ in phone.trace]
        assert "rebuilt" in steps and "refused" not in steps and "loaded" not in steps, (phone.label, steps)
    steps = [name for name, _ in owner.trace]
    assert "refused" in steps and "loaded" in steps and owner.client_id != owners_page, steps
    for phone in room.phones:
        await phone.settle(0.3)
        assert in_game(phone), phone.label
        assert texts(phone) == await fresh_page(server, phone, room.path), phone.label  # its own seat's page
    assert await room.check() is True  # one more action reaches every phone

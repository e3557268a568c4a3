"""Traffic that does not tell roles apart: a phone's answers to its own taps, and the transport settings.

A friend on the table's Wi-Fi sees the size and timing of every (encrypted) message. test_secrecy.py compares
what every living player's phone receives when someone else acts or writes; here each phone taps itself:
a pick at night is answered with nothing (it is the browser's), its Confirm and the act switch with the same
number of bytes whatever the role. And since compression would undo the padding that makes sizes equal, the app must
not compress what carries game state (pages, socket messages) while static files stay gzipped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.testclient import TestClient
from nicegui import ui
from nicegui.testing import User

from engine.state import Phase
from webgame import app as web_app
from webgame.browser import transport
from webgame.pages import evenness

from ..web.helpers import node, screen_with, tap
from .conftest import FakeTime
from .stats import STATS
from .table import Table, drain
from .wire import Wire

TOLERANCE = 48  # bytes (element ids and message counters differ by a digit or two between phones)


def answers(wire: Wire, table: Table, phone_index: int) -> tuple[int, int]:
    """(bytes to the tapping phone, bytes to all the others) since the last mark."""
    own = sum(m.size for m in wire.unread(table.phones[phone_index].client_id) if m.type == "update")
    others = 0
    for index, phone in enumerate(table.everyone()):
        if index != phone_index:
            others += sum(m.size for m in wire.unread(phone.client_id) if m.type == "update")
    return own, others


def mark_all(wire: Wire, table: Table) -> None:
    for phone in table.everyone():
        wire.mark_read(phone.client_id)


@pytest.mark.slow
@pytest.mark.parametrize("players", [12, 24])
async def test_own_taps_are_answered_alike_for_every_role(create_user: Callable[[], User], players: int,
                                                          monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime) -> None:
    wire = Wire()
    wire.install(monkeypatch)
    table = await Table.seat(create_user, "uz", players, 7, languages=("en", "ru"))
    state = table.state
    assert state.phase is Phase.NIGHT
    roles = [str(role) for role in state.roles]
    await drain()
    # A pick is the browser's alone (screen.js): the server has nothing to answer to one, whatever the role; a tab
    # that sends one anyway (an old or a hostile page) is answered with nothing, on its phone or any other.
    for index, phone in enumerate(table.phones):
        mark_all(wire, table)
        target = f"target-{1 if phone.viewer != 1 else 2}"
        screen = screen_with(phone.user, target)
        assert screen is not None, f"seat {phone.viewer} has no grid to pick from"
        assert node(phone.user, target) == {**(node(phone.user, target) or {}), "t": "pick"}
        with screen:
            await screen.tap(target, None)
        await drain()
        assert answers(wire, table, index) == (0, 0), f"seat {phone.viewer}'s pick was answered"
        STATS.add("own taps compared", 1)

    # Confirm: every living phone hears of it with the same bytes, the tapper's own answer (his panel says his
    # choice is made) as big as every other phone's (a count changed).
    confirms: dict[str, int] = {}
    for index, phone in enumerate(table.phones[:-1]):  # the last one's Confirm ends the night: another test's
        mark_all(wire, table)
        view = table.room.projection(phone.token_hash)
        assert view is not None
        acts = [a for a in view.view["actions"] if a["type"] == "night_act" and a["act"] != "pass"]
        toggle = node(phone.user, "night-act")
        assert toggle is None or toggle["v"] == acts[0]["act"]  # the first act is the one shown
        before = len(state.log)
        tap(phone.user, f"target-{acts[0]['targets'][0]}")
        tap(phone.user, "confirm")
        for _ in range(500):  # the room applies in place, writes the log, then tells the pages
            if len(state.log) > before and not table.room.lock.locked():
                break
            await asyncio.sleep(0.002)
        await drain()
        assert len(state.log) == before + 1, f"seat {phone.viewer}'s Confirm was not taken"
        own, _others = answers(wire, table, index)
        sizes = [sum(m.size for m in wire.unread(other.client_id) if m.type == "update") for other in table.phones]
        assert max(sizes) - min(sizes) <= TOLERANCE, f"seat {phone.viewer}'s Confirm was heard unevenly: {sizes}"
        confirms[f"{phone.viewer}={roles[index]}"] = own
        STATS.add("own taps compared", 1)
    assert max(confirms.values()) - min(confirms.values()) <= TOLERANCE, f"a Confirm tells the role: {confirms}"

    # A phone that slept and loads the page again at night: its first HTML weighs the same whatever the role
    # (compared between phones of one language: the language changes the page's own texts).
    loads: dict[str, dict[str, int]] = {}
    for index, phone in enumerate(table.phones):
        await phone.user.open(f"/r/{table.room.code}")
        await drain()
        assert phone.user.client is not None
        html = wire.html[phone.user.client.id]
        loads.setdefault(phone.language, {})[f"{phone.viewer}={roles[index]}"] = len(html.encode())
        STATS.add("own taps compared", 1)
    for language, sizes in loads.items():
        spread = max(sizes.values()) - min(sizes.values())
        assert spread <= TOLERANCE * 2, f"a reload tells the role ({language}): {sizes}"


async def test_the_padding_is_invisible_and_blank(create_user: Callable[[], User]) -> None:
    table = await Table.seat(create_user, "uz", 6, 3)
    for phone in table.phones:
        assert phone.user.client is not None
        pads = [e for e in phone.user.client.elements.values() if evenness.PAD_PROP in e.props]
        assert len(pads) == 1
        pad = pads[0]  # NiceGUI's content element: the padding is a data attribute, which the browser never shows
        assert evenness.PAD_PROP.startswith("data-") and not pad._to_dict().get("text")
        assert set(str(pad.props[evenness.PAD_PROP])) <= {" "}
        page = next(s for s in table.room.subscribers if getattr(s, "client", None) is phone.user.client)
        first = page.heading.screen
        assert page.pad is pad and first is not None and first.parent_slot is not None \
            and first.parent_slot.parent is pad  # the column of the parts, never rebuilt: it carries the padding


async def test_the_padding_is_sent_then_not_kept(create_user: Callable[[], User],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The night's act switch (a seat with two acts) is answered padded (``pad_alone``); once that update has gone,
    the server holds no spaces."""
    wire = Wire()
    wire.install(monkeypatch)
    table = await Table.seat(create_user, "uz", 12, 7)
    await drain()
    phone = next((p for p in table.phones if node(p.user, "night-act") is not None), None)
    assert phone is not None, "no seat has two acts to switch between"
    toggle = node(phone.user, "night-act")
    assert toggle is not None
    other = next(value for value, _label in toggle["opts"] if value != toggle["v"])
    page = next(s for s in table.room.subscribers if getattr(s, "client", None) is phone.user.client)
    wire.mark_read(phone.client_id)
    tap(phone.user, "night-act", other)
    await drain()
    sent = [m for m in wire.unread(phone.client_id) if m.type == "update"]
    pads = [len(element["props"][evenness.PAD_PROP]) for m in sent for element in m.data.values()
            if isinstance(element, dict) and evenness.PAD_PROP in element.get("props", {})]
    assert pads and max(pads) > 1000, f"the switch's answer was not padded: {pads}"
    assert page.pad is not None and page.pad.props[evenness.PAD_PROP] == "", "the padding is kept after its send"


def test_the_server_does_not_compress_game_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """``run()`` turns off the socket's per-message deflate and gzips only static files."""
    seen: dict[str, object] = {}
    monkeypatch.setattr(ui, "run", lambda **kwargs: seen.update(kwargs))
    web_app.run()  # (it changes nothing of NiceGUI's: ``setup`` installed the framework's changes)
    assert seen["ws_per_message_deflate"] is False
    assert seen["gzip_middleware_factory"] is transport.GZipStaticOnly
    assert seen["session_middleware_kwargs"] == {"same_site": "lax", "https_only": False,
                                                 "max_age": transport.SESSION_DAYS * 86400}

    api = FastAPI()
    api.add_api_route("/r/ABCDE", lambda: HTMLResponse("<p>" + "secret " * 200 + "</p>"), methods=["GET"])
    api.add_api_route("/static/mafia.css", lambda: PlainTextResponse("body{}" * 400), methods=["GET"])
    client = TestClient(transport.GZipStaticOnly(api))
    page = client.get("/r/ABCDE", headers={"Accept-Encoding": "gzip"})
    static = client.get("/static/mafia.css", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in page.headers
    assert static.headers.get("content-encoding") == "gzip"


def test_socket_polling_is_not_compressed() -> None:
    from nicegui import core

    transport.uncompressed_socket()
    assert core.sio.eio.http_compression is False

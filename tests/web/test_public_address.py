"""Links that reach the table (issue 27.1): a room page opened on the server's own machine (``localhost``) gets its
links, QR codes and share targets on this machine's LAN address, and its lobby says so in one line; ``PUBLIC_URL``
wins over everything; a page opened by any other address keeps that address."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from nicegui import core
from nicegui.testing import User
from starlette.requests import Request

from tests.conftest import Environment
from webgame.browser import public_address
from webgame.browser.public_address import Address, Reach
from webgame.language.i18n import translator
from webgame.pages import components, reach_note

from .helpers import create_room, node, texts

LAPTOP = [Address("127.0.0.1", "lo"), Address("172.17.0.1", "docker0"), Address("10.8.0.2", "tun0"),
          Address("10.0.0.7", "eth0"), Address("192.168.1.5", "wlp2s0"), Address("169.254.3.3", "eth1")]


def _request(host: str, peer: str = "127.0.0.1", headers: dict[str, str] | None = None) -> Request:
    raw = [(b"host", host.encode())] + [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return Request({"type": "http", "scheme": "http", "method": "GET", "path": "/r/K7QXM", "root_path": "",
                    "query_string": b"", "server": ("127.0.0.1", 8080), "client": (peer, 50000), "headers": raw})


@pytest.fixture(autouse=True)
def a_laptop_on_wifi(monkeypatch: pytest.MonkeyPatch, environment: Environment) -> Iterator[None]:
    """This machine: a laptop (not a container), serving on every interface, its Wi-Fi on the default route."""
    for name in ("PUBLIC_URL", "HOST", "DOMAIN", "SECURE_COOKIES"):
        environment.unset(name)
    monkeypatch.setattr(public_address, "in_container", lambda: False)
    monkeypatch.setattr(public_address, "machine_addresses", lambda: list(LAPTOP))
    monkeypatch.setattr(public_address, "default_route_address", lambda: "192.168.1.5")
    monkeypatch.setattr(public_address, "_CACHE", public_address._Cache())
    yield


def test_the_addresses_phones_can_reach_come_likeliest_first() -> None:
    ranked = public_address.rank(LAPTOP, "192.168.1.5")
    assert [a.ip for a in ranked] == ["192.168.1.5", "10.0.0.7"]  # no loopback, docker, VPN or link-local
    assert [a.ip for a in public_address.rank(LAPTOP, None)] == ["192.168.1.5", "10.0.0.7"]  # private ranges
    office = [Address("10.1.2.3", "eth0"), Address("192.168.50.2", "enp3s0")]
    assert [a.ip for a in public_address.rank(office, "10.1.2.3")] == ["10.1.2.3", "192.168.50.2"]  # the route


def test_a_loopback_page_links_to_the_lan_address() -> None:
    for host in ("localhost:8080", "127.0.0.1:8080", "[::1]:8080"):
        request = _request(host)
        assert public_address.reach(request) == Reach("http://192.168.1.5:8080", "lan", ("http://10.0.0.7:8080",))
        assert components.room_url(request, "K7QXM") == "http://192.168.1.5:8080/r/K7QXM"
        assert components.tv_url(request, "K7QXM") == "http://192.168.1.5:8080/r/K7QXM/screen"


def test_a_page_opened_by_another_address_keeps_it() -> None:
    phone = _request("192.168.1.5:8080", peer="192.168.1.23")
    assert public_address.reach(phone) == Reach("http://192.168.1.5:8080", "own")
    assert components.room_url(phone, "K7QXM") == "http://192.168.1.5:8080/r/K7QXM"
    # A stranger who only claims to be local (or a proxy's hop) is not told the machine's private addresses.
    for claimed in (_request("localhost:8080", peer="203.0.113.9"),
                    _request("localhost:8080", headers={"X-Forwarded-For": "203.0.113.9"})):
        assert public_address.reach(claimed) == Reach("http://localhost:8080", "own")


def test_public_url_wins(environment: Environment) -> None:
    environment.set("PUBLIC_URL", "https://mafia.example.com/")
    assert components.room_url(_request("localhost:8080"), "K7QXM") == "https://mafia.example.com/r/K7QXM"
    assert components.room_url(_request("10.0.0.7:8080", peer="10.0.0.9"), "K7QXM") == \
        "https://mafia.example.com/r/K7QXM"
    assert public_address.reach(_request("localhost:8080")).kind == "public"
    assert public_address.start_links(8080) == ["https://mafia.example.com"]
    environment.set("PUBLIC_URL", "mafia.example.com")  # no scheme: refused at start, with what to write
    with pytest.raises(SystemExit, match="PUBLIC_URL must look like"):
        public_address.check_public_url()


def test_no_guess_where_it_would_be_wrong(monkeypatch: pytest.MonkeyPatch, environment: Environment) -> None:
    environment.set("HOST", "127.0.0.1")  # the server listens on loopback only: no phone can reach it
    assert public_address.reach(_request("localhost:8080")) == Reach("http://localhost:8080", "unreachable")
    environment.set("HOST", "192.168.1.5")  # bound to one address: that one
    assert public_address.reach(_request("localhost:8080")).base == "http://192.168.1.5:8080"
    environment.unset("HOST")
    monkeypatch.setattr(public_address, "in_container", lambda: True)  # a container's addresses are its own
    monkeypatch.setattr(public_address, "_CACHE", public_address._Cache())
    assert public_address.reach(_request("localhost:8080")).kind == "unreachable"
    lines = reach_note.lines(translator("en"), Reach("http://localhost:8080", "unreachable"))
    assert lines and "PUBLIC_URL" in lines[0]


def test_scripts_play_prints_the_lan_link_and_its_qr_code() -> None:
    said = public_address.announce(8080)
    assert "Phones join at http://192.168.1.5:8080" in said and "or at http://10.0.0.7:8080" in said
    assert said.count("\n") > 15 and "█" in said  # the QR code, drawn in half blocks


async def test_the_laptops_lobby_tells_the_host_and_its_qr_code_carries_the_lan_link(create_user) -> None:
    create_user()  # the fixture's app and its lifespan; the host's own browser, on the laptop:
    host = User(httpx.AsyncClient(transport=httpx.ASGITransport(core.app, client=("127.0.0.1", 50000)),
                                  base_url="http://localhost:8080"))
    room = await create_room(host, "Aziz")
    link = f"http://192.168.1.5:8080/r/{room.code}"
    shown = texts(host)
    assert "Phones join at http://192.168.1.5:8080: this computer's address on your network." in shown
    assert "If a phone cannot open it, try: http://10.0.0.7:8080" in shown
    assert link in shown and f"{link}/screen" in shown  # the link under the QR code, the TV's link
    share, telegram = node(host, "share"), node(host, "share-telegram")
    assert share is not None and share["url"] == link
    assert telegram is not None and "192.168.1.5%3A8080" in telegram["href"]
    for path, encoded in ((components.qr_path(room.code), link),
                          (components.TV_QR_PATH.format(code=room.code), f"{link}/screen")):
        answer = await host.http_client.get(path)
        assert answer.status_code == 200 and answer.text == components.qr_svg(encoded)
    guest = create_user()  # a phone that came by the LAN link sees no such line, and its links are its own
    guest.http_client.base_url = httpx.URL("http://192.168.1.5:8080")
    await guest.open(f"/r/{room.code}")
    assert not any(text.startswith("Phones join at") for text in texts(guest))
    guest_share = node(guest, "share")
    assert guest_share is not None and guest_share["url"] == link

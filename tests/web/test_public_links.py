"""Behind a TLS front (compose.yaml with ``DOMAIN``, docs/SCALING.md "HTTPS") the game hears plain http from the
proxy, yet the link and QR code a host shares must be the https one, and the session cookie must be ``Secure``;
without ``DOMAIN`` (a LAN) both stay as the request came."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from tests.conftest import Environment
from webgame.browser import transport
from webgame.pages import components


def _request(host: str, scheme: str = "http") -> Request:
    return Request({"type": "http", "scheme": scheme, "method": "GET", "path": "/r/K7QXM", "root_path": "",
                    "query_string": b"", "server": (host, 80), "headers": [(b"host", host.encode())]})


@pytest.fixture(autouse=True)
def _plain(environment: Environment) -> None:
    environment.unset("DOMAIN")
    environment.unset("SECURE_COOKIES")


def test_on_a_lan_the_room_link_is_the_address_the_phone_used() -> None:
    assert components.room_url(_request("192.168.1.20:8080"), "K7QXM") == "http://192.168.1.20:8080/r/K7QXM"
    assert components.tv_url(_request("192.168.1.20:8080"), "K7QXM") == "http://192.168.1.20:8080/r/K7QXM/screen"
    assert transport.session_cookie_kwargs()["https_only"] is False


def test_with_a_domain_the_shared_links_are_https_and_the_cookie_is_secure(environment: Environment) -> None:
    environment.set("DOMAIN", "mafia.example.org")
    assert components.room_url(_request("mafia.example.org"), "K7QXM") == "https://mafia.example.org/r/K7QXM"
    assert components.tv_url(_request("mafia.example.org"), "K7QXM") == "https://mafia.example.org/r/K7QXM/screen"
    assert transport.session_cookie_kwargs()["https_only"] is True


def test_secure_cookies_alone_means_https_too_and_zero_overrides_the_domain(environment: Environment) -> None:
    environment.set("SECURE_COOKIES", "1")  # an HTTPS proxy of one's own, without compose's DOMAIN
    assert components.room_url(_request("mafia.example.org"), "AB234") == "https://mafia.example.org/r/AB234"
    environment.set("DOMAIN", "mafia.example.org")
    environment.set("SECURE_COOKIES", "0")
    assert components.room_url(_request("mafia.example.org"), "AB234") == "http://mafia.example.org/r/AB234"
    assert transport.session_cookie_kwargs()["https_only"] is False


def test_an_empty_domain_is_no_domain(environment: Environment) -> None:
    environment.set("DOMAIN", "")  # compose.yaml passes ${DOMAIN:-}: empty when it is not set
    assert components.room_url(_request("localhost:8080"), "AB234") == "http://localhost:8080/r/AB234"


def test_a_request_that_came_over_https_stays_https() -> None:
    assert components.room_url(_request("mafia.example.org", "https"), "AB234") == "https://mafia.example.org/r/AB234"

"""A new phone's first touch in a real browser (issue 16): a room's link is light the first time and lighter the
next, the page takes the phone's colours, and the connection-lost badge speaks the phone's language (issue 27.4's
badge at the top, where NiceGUI's own popup at the bottom gave way to it).

The time to the first text on a slow network is a benchmark, not a test (``python -m bench.first_text``,
docs/PERFORMANCE.md)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from e2e.harness import Phone, Server, Table

pytestmark = pytest.mark.e2e

FIRST_LOAD_BYTES = 300 * 1024  # a room's link, empty cache, gzip (docs/PERFORMANCE.md)
REPEAT_LOAD_BYTES = 20 * 1024  # the same link again


class Traffic:
    """Every response of one page as it came over the network (CDP's encoded bytes, headers included)."""

    def __init__(self, phone: Phone) -> None:
        self.cdp = phone.context.new_cdp_session(phone.page)
        self.cdp.send("Network.enable")
        self.urls: dict[str, str] = {}
        self.sizes: dict[str, int] = {}
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        self.sizes[event["requestId"]] = int(event["encodedDataLength"])

    def take(self) -> tuple[int, list[str]]:
        """The bytes, and the URLs that came over the network (not out of the cache), since the last take."""
        total = sum(self.sizes.values())
        urls = [self.urls.get(key, "?") for key, size in self.sizes.items() if size]
        self.sizes.clear()
        self.urls.clear()
        return total, urls


def load(phone: Phone, url: str) -> None:
    """Open ``url`` and wait until the page is drawn, connected, and its last picture (the QR code) is in."""
    phone.page.goto(url)
    phone.connected()
    expect(phone.tid("join-name")).to_be_visible()
    phone.page.wait_for_function("() => [...document.images].every((image) => image.complete)")
    with contextlib.suppress(PlaywrightError):  # a busy machine: the page and its picture are in, that is enough
        phone.page.wait_for_load_state("networkidle", timeout=10_000)


def test_a_room_link_is_light_then_lighter(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    table.open_room(phones("Aziz", "en"))
    phone = phones("Dilnoza", "uz")  # a new context: an empty cache
    traffic = Traffic(phone)
    link = f"{server.base}/r/{table.code}"
    load(phone, link)
    first, urls = traffic.take()
    assert not [url for url in urls if re.search(r"\.woff2?|fonts\.css|quasar\.(un)?important", url)], urls
    assert first <= FIRST_LOAD_BYTES, f"first load {first / 1024:.0f} KB: {urls}"
    assert any("quasar.umd" in url for url in urls), "the cache was not empty"
    phone.page.goto("about:blank")
    load(phone, link)
    again, urls = traffic.take()
    assert again <= REPEAT_LOAD_BYTES, f"repeat load {again / 1024:.1f} KB: {urls}"
    assert len(urls) <= 3, urls  # the page, maybe the QR code and the socket's fallback: the rest is cached


def body_is_dark(phone: Phone) -> bool:
    return bool(phone.page.evaluate("() => document.body.classList.contains('body--dark')"))


def test_the_page_takes_the_phones_colours_and_keeps_its_switch(server: Server,
                                                               phones: Callable[..., Phone]) -> None:
    night_owl, early_bird = phones("Олег", "ru", color_scheme="dark"), phones("Ioana", "ro")
    for phone in (night_owl, early_bird):
        phone.goto(server.base + "/")
        phone.connected()
    expect(night_owl.page.locator("body")).to_have_class(re.compile(r"\bbody--dark\b"))
    expect(early_bird.page.locator("body")).to_have_class(re.compile(r"\bbody--light\b"))
    assert night_owl.page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)"

    early_bird.tid("theme").click()  # the switch: dark by day, kept in this browser
    expect(early_bird.page.locator("body")).to_have_class(re.compile(r"\bbody--dark\b"))
    early_bird.page.reload()
    early_bird.connected()
    expect(early_bird.page.locator("body")).to_have_class(re.compile(r"\bbody--dark\b"))
    expect(early_bird.tid("theme")).to_have_attribute("aria-pressed", "true")
    early_bird.tid("theme").click()
    expect(early_bird.page.locator("body")).to_have_class(re.compile(r"\bbody--light\b"))
    assert body_is_dark(night_owl)  # another phone's switch is its own


def test_the_connection_lost_banner_speaks_ukrainian(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uz")
    table.open_room(phones("Aziz", "en"))
    phone = phones("Тарас", "uk")
    load(phone, f"{server.base}/r/{table.code}")
    banner, popup = phone.tid("offline"), phone.page.locator("#popup")
    expect(banner).to_be_hidden()
    phone.offline(True)  # the phone loses its network: the socket drops
    expect(banner).to_be_visible(timeout=30_000)
    expect(banner).to_have_text("Немає зв'язку: чекаємо на сервер")
    # NiceGUI's own popup knows it too, but stays out of sight: it sat over the step's buttons (issue 27.4).
    expect(popup).to_have_attribute("aria-hidden", "false")
    expect(popup).to_be_hidden()
    phone.offline(False)
    expect(banner).to_be_hidden(timeout=30_000)

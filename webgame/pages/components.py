"""Pieces every page uses: the page frame, the language picker, the QR code, refusals as notifications."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import qrcode
import qrcode.image.svg
from nicegui import app, ui
from starlette.requests import Request
from starlette.responses import Response

from engine.errors import RuleError
from webgame import ratelimit
from webgame.errors import Refusal
from webgame.i18n import LANGUAGES, Translator, from_accept_language, translator
from webgame.identity import BrowserIdentity
from webgame.pages.screen import Draft, Screen
from webgame.rooms import Room, refusal_text, registry

E = TypeVar("E", bound=ui.element)

log = logging.getLogger(__name__)

HEAD = '<link rel="stylesheet" href="/static/mafia.css"><script src="/static/phone.js" defer></script>'


def testid(element: E, name: str) -> E:
    """A stable handle on an element for tests: NiceGUI's marker (the simulated phones of tests/web) and a
    ``data-testid`` attribute (the real browsers of e2e/). ``name`` says what the element is (``confirm``,
    ``target-3``), never a role, a team or anything secret: the attribute reaches every browser it is sent to."""
    element.mark(name)
    element.props["data-testid"] = name
    return element


def read_identity(request: Request) -> BrowserIdentity:
    """This browser's storage and language, read once in a page builder (see ``webgame.identity``)."""
    storage = app.storage.user
    language = storage.get("lang")
    if language not in LANGUAGES:
        language = from_accept_language(request.headers.get("accept-language"))
    return BrowserIdentity(storage=storage, language=str(language))


def page_head() -> None:
    ui.add_head_html(HEAD)  # static: no player text ever goes into the head


def header(_: Translator, identity: BrowserIdentity, title: str | None = None,
           dark: Callable[[], bool] | None = None) -> Screen:
    """The top bar as a screen part of its own (pages other than a room's phone page, which draws it in its
    first part: ``header_nodes``)."""
    return Screen(lambda d: header_nodes(d, _, identity, title, None if dark is None else dark()))


def header_nodes(d: Draft, _: Translator, identity: BrowserIdentity, title: str | None = None,
                 dark: bool | None = None) -> None:
    """The top bar: the game's name (or ``title``) and the language picker. ``dark``: whether the page has the
    night's colours (None: the page leaves them alone)."""

    def change(value: Any) -> None:
        if value in LANGUAGES and value != identity.language:
            identity.storage["lang"] = value
            ui.navigate.reload()

    with d.row("w-full items-center justify-between no-wrap"):
        d.label(title or _("Mafia"), "text-lg font-bold mafia-header-title")
        d.select(LANGUAGES, identity.language, change, "language", cls="mafia-lang", aria_label=_("Language"))
    if dark is not None:
        d.dark(dark)


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an SVG string we generate ourselves (no player text in it). Made once per
    link: a lobby shown again after a game draws it on every phone of the room at once."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    svg = image.to_string(encoding="unicode")
    return svg if isinstance(svg, str) else svg.decode("utf-8")


def room_qr(url: str) -> None:
    ui.html(qr_svg(url)).classes("mafia-qr")


QR_PATH = "/qr/{code}"  # a room's QR code as an image of its own (the phones' lobby; the TV inlines it)


def qr_path(code: str) -> str:
    return QR_PATH.format(code=code)


def qr_image(request: Request, code: str) -> Response:
    """``/qr/CODE``: the QR code of a room that this server has in memory (a phone's lobby has just loaded
    it), cached by the browser. Other codes: 404, without a database lookup."""
    room = registry.get(code)
    if room is None:
        return Response(status_code=404)
    return Response(qr_svg(room_url(request, room.code)), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})


def room_url(request: Request, code: str) -> str:
    """The link people open to join: this server's base URL and the room's code (from our alphabet)."""
    return f"{str(request.base_url).rstrip('/')}/r/{code}"


def refuse(_: Translator, error: Exception) -> None:
    """A refusal in the reader's language; anything else (the database down, a bug) is logged and the reader
    is told that it did not work, never shown the error itself."""
    if isinstance(error, Refusal | RuleError):
        ui.notify(refusal_text(error, _.gettext), type="warning", position="top")
        return
    log.error("a request failed", exc_info=error)
    ui.notify(_("Something went wrong; please try again."), type="negative", position="top")


async def guarded(_: Translator, work: Callable[[], Awaitable[Any]]) -> bool:
    """Run a room request; a refusal (or a failure) becomes a notification in the reader's language. True if
    accepted."""
    try:
        await work()
    except Exception as error:
        refuse(_, error)
        return False
    return True


async def find_room(request: Request, code: str) -> Room | None:
    """The room of a ``/r/CODE`` link, or None. Wrong codes are rate-limited per address (``WRONG_CODE``): an
    address out of attempts gets None at once, without a lookup, until its bucket refills."""
    address = ratelimit.client_address(request)
    if ratelimit.WRONG_CODE.blocked(address):
        return None
    room = await registry.find(code)
    if room is None:
        ratelimit.WRONG_CODE.spend(address)
    return room


def no_room(_: Translator, identity: BrowserIdentity) -> None:
    """The page of a code that leads nowhere (or of an address that guessed too many)."""
    with ui.column().classes("mafia-page"):
        header(_, identity)
        ui.label(_("There is no room with this code.")).classes("mafia-big")
        ui.label(_("Check the code, or wait a minute if you tried many.")).classes("mafia-muted")
        ui.link(_("Back to the start page"), "/")


def presence_dot(connected: bool) -> ui.element:
    return ui.element("span").classes("mafia-dot " + ("mafia-dot-on" if connected else "mafia-dot-off"))


def tr(language: str) -> Translator:
    return translator(language)


def countdown_text(_: Translator, room: Room) -> str:
    """What a countdown label shows: the time left in the room's step, marked when paused."""
    remaining = room.remaining()
    if remaining is None:
        return ""
    if room.paused:
        return _("{time} (paused)").format(time=_.countdown(remaining))
    return _.countdown(remaining)

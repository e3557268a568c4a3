"""Pieces every page uses: the page frame, the language picker, the QR code, refusals as notifications."""

from __future__ import annotations

import functools
import html
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import qrcode
import qrcode.image.svg
from nicegui import Client, app, ui
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from engine.errors import RuleError
from webgame.browser import heartbeat, language_cookie, public_address, storage_expiry, transport
from webgame.browser.identity import BrowserIdentity
from webgame.errors import Refusal
from webgame.framework import page_template
from webgame.guard import page_limits, ratelimit
from webgame.language.i18n import LANGUAGES, N_, Translator, from_accept_language, translator
from webgame.pages.screen import Draft, Screen
from webgame.room import lookup as room_lookup
from webgame.room.rooms import Room, refusal_text, registry
from webgame.store import leases, queries as store

E = TypeVar("E", bound=ui.element)

log = logging.getLogger(__name__)


def testid(element: E, name: str) -> E:
    """A stable handle on an element for tests: NiceGUI's marker (the simulated phones of tests/web) and a
    ``data-testid`` attribute (the real browsers of e2e/). ``name`` says what the element is (``confirm``,
    ``target-3``), never a role, a team or anything secret: the attribute reaches every browser it is sent to."""
    element.mark(name)
    element.props["data-testid"] = name
    return element


def read_identity(request: Request) -> BrowserIdentity:
    """This browser's storage and language, read once in a page builder (see ``webgame.browser.identity``)."""
    storage = app.storage.user
    storage_expiry.touch(storage)  # in use: its age counts from now (at most one write a day)
    language = language_cookie.cookie_language(request) or storage.get("lang")  # (an older version kept it there)
    if language not in LANGUAGES:
        language = from_accept_language(request.headers.get("accept-language"))
    page = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return BrowserIdentity(storage=storage, language=str(language), browser=browser_of(request), page=page)


def browser_of(request: Request) -> str:
    """The browser's storage id (NiceGUI's session id, in the signed session cookie), or "" without one."""
    try:
        return str(request.session.get("id") or "")
    except AssertionError:  # no session middleware (no storage secret)
        return ""


def page_head(_: Translator, request: Request) -> None:
    """Our head (stylesheet, scripts, manifest: ``page_template.HEAD``, static, no player text ever), NiceGUI's
    own texts in the reader's language (the connection-lost banner), and the words a phone shows while the
    scripts are still coming (``page_template.prelude``)."""
    ui.add_head_html(page_template.HEAD)
    ui.add_head_html(heartbeat.texts_head(_))  # the offline badge's words (static/phone.js, webgame.browser.heartbeat)
    page_template.framework_texts(_, request)
    ui.add_body_html(page_template.prelude(_))


def page_language(language: str) -> None:
    """``<html lang>``: the reader's language (screen readers pick their voice by it). NiceGUI sets the attribute
    per ``@ui.page``, not per request, so a tiny script sets it before the page is drawn; the value is one of
    our five codes, never text from a request. The same script names Quasar's loading bar (a progress bar
    without a name is an accessibility error) in that language."""
    if language not in LANGUAGES:
        return
    loading = json.dumps(tr(language)(LOADING)).replace("<", "\\u003c")
    ui.add_head_html(f'<script>document.documentElement.lang="{language}";addEventListener("DOMContentLoaded",'
                     f'()=>{{try{{Quasar.LoadingBar.setDefaults({{"aria-label":{loading}}})}}catch(e){{}}}});</script>')


LOADING = N_("Loading")


def header(_: Translator, identity: BrowserIdentity, title: str | None = None,
           dark: Callable[[], bool] | None = None) -> Screen:
    """The top bar as a screen part of its own (pages other than a room's phone page, which draws it in its
    ``heading`` part: ``header_nodes``)."""
    return Screen(lambda d: header_nodes(d, _, identity, title, None if dark is None else dark()))


def header_nodes(d: Draft, _: Translator, identity: BrowserIdentity, title: str | None = None,
                 dark: bool | None = None) -> None:
    """The top bar: the game's name (or ``title``), the language picker, and (the home page) the day's colours
    switch. ``dark``: whether the page has the night's colours (None: the page leaves them alone)."""

    def change(value: Any) -> None:
        if value in LANGUAGES and value != identity.language:  # a cookie, never the server's storage
            ui.navigate.to(language_cookie.switch_path(str(value), identity.page))

    with d.row("w-full items-center justify-between no-wrap"):
        d.heading(title or _("Mafia"), 1, "text-lg font-bold mafia-header-title")
        if title is None and dark is not True:  # a room's longer title keeps the line: its lobby has the switch
            theme_switch(d, _)
        d.select(LANGUAGES, identity.language, change, "language", cls="mafia-lang", aria_label=_("Language"))
    if dark is not None:
        d.dark(dark)


def theme_switch(d: Draft, _: Translator, cls: str = "mafia-theme") -> None:
    """The switch between the day's dark and light colours, kept in the browser (the home page's header, a room's
    lobby); the night's colours are everybody's, so a game has none."""
    d.theme(_("Dark colours"), cls=cls)


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
    """``/qr/CODE``: the QR code of a room, for a browser that has opened that room's page (its lobby has just
    asked for it): anything else gets 404 without a lookup, so the route tells nobody whether a code exists."""
    return _room_qr(request, code, room_url)


TV_QR_PATH = "/qr/{code}/tv"  # the QR code of the room's TV screen (the host's lobby: "Open the room on a TV")


def tv_qr_image(request: Request, code: str) -> Response:
    """``/qr/CODE/tv``: the QR code of the room's TV link, with the same guard as ``qr_image``."""
    return _room_qr(request, code, tv_url)


def _room_qr(request: Request, code: str, link: Callable[[Request, str], str]) -> Response:
    """The QR code of ``link(request, code)``, only for a browser that has opened that room (else 404)."""
    typed = store.normalize_code(code)
    room = registry.get(typed) if ratelimit.VISITS.has(browser_of(request), typed) else None
    if room is None:
        return Response(status_code=404)
    return Response(qr_svg(link(request, room.code)), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})


def tv_url(request: Request, code: str) -> str:
    """The room's TV screen (``/r/CODE/screen``): the spectators' view, the narrator, the QR code for the phones."""
    return room_url(request, code) + "/screen"


def room_url(request: Request, code: str) -> str:
    """The link people open to join: this server's address as the phones reach it (``webgame.browser.public_address``:
    ``PUBLIC_URL``, this machine's LAN address for a page opened on localhost) and the room's code."""
    return f"{transport.public_base(public_address.base_url(request))}/r/{code}"


def telegram_link(url: str, text: str) -> str:
    """Telegram's share link (the chat picker, then the message with the link): ``t.me/share/url``."""
    return "https://t.me/share/url?" + urlencode({"url": url, "text": text}, quote_via=quote)


def refuse(_: Translator, error: Exception) -> None:
    """A refusal in the reader's language; anything else (the database down, a bug) is logged and the reader
    is told that it did not work, never shown the error itself."""
    if isinstance(error, Refusal | RuleError):
        ui.notify(refusal_text(error, _.gettext), type="warning", position="top")
        return
    if isinstance(error, leases.LeaseLost):  # a cluster's room that another process runs now: written nowhere
        log.warning("a write was refused: %s", error)  # (the page reloads there once this process drops it)
        ui.notify(_(LEASE_LOST), type="warning", position="top")
        return
    log.error("a request failed", exc_info=error)
    ui.notify(_("Something went wrong; please try again."), type="negative", position="top")


LEASE_LOST = N_("Something went wrong; please try again.")  # the same words as a refused action's (table_game)


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
    """The room of a ``/r/CODE`` link, or None; no limit (the pages use ``open_room``)."""
    return await registry.find(code)


WAIT_TITLE = N_("Please wait")
WAIT_GUESSES = N_("Too many wrong room codes from this browser or network. This page tries again by itself in "
                  "{seconds} seconds.")
WAIT_PAGES = N_("Too many pages opened from this browser or network. This page tries again by itself in "
                "{seconds} seconds.")
WAIT_FULL = N_("This room has as many watchers as it can take. This page tries again by itself in {seconds} "
               "seconds.")
FULL_RETRY = 30  # seconds before a page refused for a full room asks again
WAIT_MOVING = N_("This room is moving to another server. This page tries again by itself in {seconds} seconds.")
MOVING_RETRY = 2  # seconds: a hand-over between processes takes one or two (docs/SCALING.md)


def light_page(_: Translator, language: str, message: str, seconds: int) -> HTMLResponse:
    """A small page instead of a room page: no NiceGUI client, no subscription, a few hundred bytes; it reloads
    itself after ``seconds`` (the browser's own retry, at the pace the limit allows). No player text in it."""
    seconds = max(1, min(int(seconds), 600))
    text = html.escape(_(message).format(seconds=seconds))
    title = html.escape(_(WAIT_TITLE))
    body = (f'<!DOCTYPE html><html lang="{html.escape(language)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="refresh" content="{seconds}"><title>{title}</title>'
            f'<link rel="stylesheet" href="{page_template.MAFIA_CSS}"></head>'
            f'<body><main class="mafia-page"><p class="mafia-big">{title}</p>'
            f'<p data-testid="wait">{text}</p></main></body></html>')
    return HTMLResponse(body, status_code=429, headers={"Retry-After": str(seconds), "Cache-Control": "no-store"})


async def open_room(request: Request, code: str, identity: BrowserIdentity,
                    moving_page: bool = True) -> Room | Response | None:
    """The room of a ``/r/CODE`` (or ``/r/CODE/screen``) link for this browser: the room, None (no such room:
    the caller shows ``no_room``), or a light page that asks the browser to come back later: also when the
    room exists but another process of a cluster holds it now (``leases.RoomMoving``: a hand-over under way),
    which is no wrong code and counts as none.

    Never refused: a browser that holds a seat in that room (``page_limits`` keeps his own tabs few; a burst of
    more than a dozen reloads waits a few seconds, ``ratelimit.SEAT_PAGE``). A browser
    that has opened the room before is not counted as guessing (its code is known to be right). Otherwise wrong
    codes are counted per browser and, loosely, per address (``ratelimit.WRONG_CODES``);
    out of attempts, every code gets the same light page (a right one is delayed, never refused, and a guesser
    learns nothing until his attempts come back; no lookup is made). A right code then builds a page only if
    the browser and the address may build one more (``ratelimit.PAGES``) and the room has room for another page
    without a seat (``page_limits``). ``moving_page=False``: a room moving raises ``leases.RoomMoving`` instead
    (a page built again in place for a socket, ``webgame.framework.page_adoption``, then tells the socket to come back).
    In a cluster a lookup waits at most ``room_lookup.LOOKUP_SECONDS`` (then the room is moving), and a code
    typed with a look-alike is redirected to the room's own spelling, which the proxy sends to its process."""
    try:
        return await _open_room(request, code, identity)
    except leases.RoomMoving:
        if not moving_page:
            raise
        return light_page(tr(identity.language), identity.language, WAIT_MOVING, MOVING_RETRY)
    except leases.RoomElsewhere as elsewhere:
        path = request.url.path.replace(f"/r/{store.normalize_code(code)}", f"/r/{elsewhere.code}", 1)
        return RedirectResponse(path if path.startswith(f"/r/{elsewhere.code}") else f"/r/{elsewhere.code}", 307)


async def _open_room(request: Request, code: str, identity: BrowserIdentity) -> Room | Response | None:
    _ = tr(identity.language)
    typed = store.normalize_code(code)
    browser, address = identity.browser, ratelimit.client_address(request)
    token_hash = identity.token_hash_for(typed)
    if token_hash is not None:  # a seated player's return: never refused (page_limits caps his tabs)
        if not ratelimit.SEAT_PAGE.spend("seat:" + token_hash):  # a burst of reloads waits a few seconds
            return light_page(_, identity.language, WAIT_PAGES, ratelimit.SEAT_PAGE.wait_seconds("seat:" + token_hash))
        room = await room_lookup.find_within(registry, typed)
        if room is not None:
            ratelimit.VISITS.add(browser, room.code)
        return room
    if ratelimit.PAGES.blocked(browser, address):  # before any lookup: in a cluster a lookup may claim the room
        return light_page(_, identity.language, WAIT_PAGES, ratelimit.PAGES.wait_seconds(browser, address))
    if ratelimit.VISITS.has(browser, typed):  # opened before: the code is right, no guess to count
        room = await room_lookup.find_within(registry, typed)
    else:
        if ratelimit.WRONG_CODES.blocked(browser, address):
            return light_page(_, identity.language, WAIT_GUESSES,
                              ratelimit.WRONG_CODES.wait_seconds(browser, address))
        room = await room_lookup.find_within(registry, typed)
        if room is None:
            ratelimit.WRONG_CODES.spend(browser, address)
    if room is None:
        return None
    if not ratelimit.PAGES.spend(browser, address):
        return light_page(_, identity.language, WAIT_PAGES, ratelimit.PAGES.wait_seconds(browser, address))
    if not page_limits.has_room_for_watcher(room.code, address):
        return light_page(_, identity.language, WAIT_FULL, FULL_RETRY)
    ratelimit.VISITS.add(browser, room.code)
    return room


def hold_page(room: Room, identity: BrowserIdentity, request: Request, seat: bool = True) -> None:
    """Count the page just built for this request in its room's pages (``page_limits``); ``seat``: whether the
    browser's seat counts (False: the TV's page, a watcher whoever opens it)."""
    token_hash = identity.token_hash_for(room.code) if seat else None
    page_limits.hold(room.code, ui.context.client, token_hash, ratelimit.client_address(request))


def not_a_page(client: Client, response: Response) -> Response:
    """Answer with ``response`` instead of the page NiceGUI started for this request (and drop that page)."""
    if not client.is_deleted and client.id in Client.instances:
        client.delete()
    return response


def no_room(_: Translator, identity: BrowserIdentity) -> None:
    """The page of a code that leads nowhere; it is deleted unless its browser connects (``page_limits``)."""
    page_limits.expire_unconnected(ui.context.client)
    with ui.column().classes("mafia-page"):
        header(_, identity)
        ui.label(_("There is no room with this code.")).classes("mafia-big")
        ui.label(_("Check the code, or wait a minute if you tried many.")).classes("mafia-muted")
        # A plain anchor: NiceGUI would put the page's prefix before a ui.link's "/" (in a cluster /r/CODE/,
        # which is the room again: webgame.cluster.process.Routing).
        back = html.escape(_("Back to the start page"))
        ui.html(f'<a class="nicegui-link" href="/">{back}</a>')


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

"""A seat moved to another phone (``webgame.room.seat_moves``), as the phones draw it, and the room's notices.

- The owner asks for a code on his own phone: in the game it is drawn behind the reveal only (a glance at the
  covered screen must not be able to take the seat), with its QR code (``/qr/CODE/move/MOVE``, served only to the
  browser whose seat the code moves).
- The host asks for a code for a person's seat whose phone is dead: in the lobby for anyone, once roles are dealt
  only for a seat whose phone has been gone for the hand-over delay (``webgame.room.seat_moves``: the room refuses
  any other, with why); he reads it to the person in front of him. Every phone and the TV are told who asked;
  the old phone, back, is told that its seat moved (``notices``).
- A phone without a seat types the code (the lobby's join card, a spectator's game screen), or opens the QR
  code's link (``/r/CODE?move=MOVE``: taken when the page's socket connects, never on a plain GET, so a link
  preview cannot use it up). A wrong code counts against the browser's and the address's wrong-code attempts,
  like a wrong room code (``ratelimit.WRONG_CODES``); out of attempts, nothing is tried.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from nicegui import ui
from starlette.requests import Request
from starlette.responses import Response

from webgame.errors import Refusal
from webgame.guard import page_limits, ratelimit
from webgame.pages import components, wording
from webgame.room import moderator_presence
from webgame.room.rooms import registry
from webgame.room.seat_moves import MOVE_CODE_SECONDS, WRONG_CODE, normalize
from webgame.store import queries as store

if TYPE_CHECKING:
    from webgame.pages.page_protocols import PhonePage
    from webgame.pages.screen import Draft, ScreenSection

MOVE_QR_PATH = "/qr/{code}/move/{move}"


def notices(d: Draft, page: PhonePage) -> None:
    """What the room told everyone (a seat moved and who asked for it, a new host): the same lines on every phone;
    first, on the old phone of a moved seat that holds no seat now, that its seat was moved and by whom."""
    room = page.room
    away = room.moves.away_notice(page.token_hash)
    if away is not None and room.seat_by_hash(page.token_hash) is None:
        with d.card("mafia-card"):
            d.label(away.text(page.t), "font-bold", "moved-away")
    for text in room.notices.texts(page.t):
        d.label(text, "mafia-muted", "notice")
    if moderator_presence.moderator_gone(room):  # until his phone is back (or a player took his controls)
        d.label(page.t(moderator_presence.MODERATOR_GONE), "font-bold", "moderator-gone")


def take_form(d: Draft, page: PhonePage) -> None:
    """Where a phone without a seat types the code that moves a seat to it."""
    _ = page.t
    with d.card("mafia-card"):
        d.label(_("Your seat on another phone?"), "font-bold")
        d.label(_("Ask that phone (behind its Show button) or the host for a code, and type it here."),
                "text-sm mafia-muted")
        d.form(_("Code"), _("Move my seat to this phone"), lambda value: take(page, value), "move-code",
               "move-take", maxlength=20, autofocus=False)


async def take(page: PhonePage, value: Any) -> bool:
    """The form's ``{text}`` (or the link's code): this browser takes the seat the code moves. True if it did."""
    _, room = page.t, page.room
    text = value.get("text") if isinstance(value, dict) else value
    code = normalize(text)
    if page.busy or room.seat_by_hash(page.token_hash) is not None:
        return False
    browser, address = page.identity.browser, page.address
    if ratelimit.WRONG_CODES.blocked(browser, address):  # guessing codes: a few tries, then a wait
        ui.notify(_(ratelimit.TOO_MANY), type="warning", position="top")
        return False
    token = store.new_seat_token()
    page.busy = True
    try:
        _seat, old_hash = await room.take_seat(code, token)
    except Exception as error:
        if isinstance(error, Refusal) and error.msgid == WRONG_CODE:
            ratelimit.WRONG_CODES.spend(browser, address)
        components.refuse(_, error)
        return False
    finally:
        page.busy = False
    new_hash = store.hash_token(token)
    page.identity.keep_token(room.code, token)
    page_limits.seated(room.code, page.client, new_hash)
    page.moved_here(old_hash, new_hash)
    ui.notify(_("This phone has your seat now."), type="positive", position="top")
    return True


def owner_offer(d: Draft, page: PhonePage, part: ScreenSection, behind_reveal: bool) -> None:
    """The owner's way to move his own seat: a button, then the code and its QR code (behind the reveal in the
    game: only this phone's owner may see them)."""
    _, room = page.t, page.room
    seat = room.seat_by_hash(page.token_hash)
    if seat is None:
        return
    code = room.live_code(seat.id)

    async def offer() -> None:
        if await components.guarded(_, lambda: room.offer_move(page.token_hash)):
            part.refresh()

    with d.revealed() if behind_reveal else nullcontext(), d.card("mafia-card"):
        d.label(_("Another phone"), "font-bold")
        if code is None:
            d.button(_("Move my seat to another phone"), offer, "move-offer", icon="phonelink_setup", outline=True,
                     no_caps=True)
            return
        d.label(spaced(code), "mafia-big tracking-widest", "move-own-code")
        d.image(MOVE_QR_PATH.format(code=room.code, move=code), "mafia-qr", _("QR code"))
        d.label(valid_text(page) + " " + _("Scan it with the new phone, or type it there in this room's page. This "
                                           "phone then only watches."), "text-sm mafia-muted")


def host_codes(d: Draft, page: PhonePage, part: ScreenSection, behind_reveal: bool) -> None:
    """The host's way to move someone's seat when that phone is dead: a code for the person in front of him."""
    _, room = page.t, page.room
    if not room.is_host(page.token_hash):
        return
    people = [seat for seat in room.seats if not seat.is_bot]
    with d.div("w-full", "host-moves"), d.expansion(_("Move a seat to another phone"), False, "w-full"):
        d.label(_("For a player whose phone has been gone for {seconds} s (a phone at the table moves its seat "
                  "itself): give the code only to the person you see in front of you.").format(
                    seconds=_.number(room.handover_seconds)), "text-sm mafia-muted")
        for seat in people:
            live, number = room.live_code(seat.id), room.game_seat(seat.token_hash)
            name = wording.seat_label(_, number, seat.name) if number else seat.name  # 0: the moderator
            with d.row("w-full items-center no-wrap gap-2"):
                d.label(name, "grow mafia-name")

                async def offer(seat_id: int = seat.id) -> None:
                    if await components.guarded(_, lambda: room.offer_move(page.token_hash, seat_id)):
                        part.refresh()

                d.button(_("Code"), offer, f"move-for-seat-{number}", icon="key", flat=True, no_caps=True)
            if live is not None:
                with d.revealed() if behind_reveal else nullcontext():
                    d.label(_("Code for {name}: {code}").format(name=name, code=spaced(live)), "font-bold",
                            f"move-code-seat-{number}")
                    d.label(valid_text(page), "text-sm mafia-muted")


def host_move_button(d: Draft, page: PhonePage, seat_id: int) -> None:
    """In the lobby, on a seat's row of the host's controls: a code for that person's new phone."""
    _, room = page.t, page.room

    async def offer() -> None:
        if await components.guarded(_, lambda: room.offer_move(page.token_hash, seat_id)):
            page.seats_or_panel.refresh()

    d.button("", offer, f"move-for-{seat_id}", icon="phonelink_setup", flat=True,
             tip=_("A code to move this seat to another phone"))


def host_code_line(d: Draft, page: PhonePage, seat_id: int, name: str) -> None:
    """In the lobby, under a seat's row: the code the host asked for, for that person's new phone."""
    _ = page.t
    live = page.room.live_code(seat_id)
    if live is not None:
        d.label(_("Code for {name}: {code}").format(name=name, code=spaced(live)) + " · " + valid_text(page),
                "text-sm", f"move-code-{seat_id}")


def valid_text(page: PhonePage) -> str:
    _ = page.t
    return _("It works once, for {minutes} minutes.").format(minutes=_.number(MOVE_CODE_SECONDS // 60))


def spaced(code: str) -> str:
    """A code as it is read out: two groups of four."""
    return f"{code[:4]} {code[4:]}"


def move_qr_image(request: Request, code: str, move: str) -> Response:
    """``/qr/CODE/move/MOVE``: the QR code of the link that moves a seat, only for the browser whose seat the code
    moves (anything else gets 404, so the route confirms nothing)."""
    room = registry.get(store.normalize_code(code))
    try:
        token_hash = components.read_identity(request).token_hash_for(room.code) if room is not None else None
    except (RuntimeError, AssertionError, KeyError):  # no session: not a browser that opened the room
        return Response(status_code=404)
    seat = room.seat_by_hash(token_hash) if room is not None else None
    if room is None or seat is None or room.live_code(seat.id) != normalize(move):
        return Response(status_code=404)
    url = f"{components.room_url(request, room.code)}?move={normalize(move)}"
    return Response(components.qr_svg(url), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

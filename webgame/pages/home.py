"""``/``: create a room (your name, the rule set, the language) or join one by its code."""

from __future__ import annotations

from nicegui import ui
from starlette.requests import Request

from webgame.browser import language_cookie
from webgame.framework import page_sockets
from webgame.guard import page_limits, ratelimit
from webgame.language.i18n import LANGUAGES, Translator
from webgame.pages import components, wording
from webgame.pages.components import testid
from webgame.room.rooms import RULE_SETS, registry
from webgame.store import queries as store, room_codes


def register() -> None:
    @ui.page("/")
    def home(request: Request) -> None:
        identity = components.read_identity(request)
        _ = components.tr(identity.language)
        components.page_head(_, request)
        components.page_language(identity.language)
        page_limits.expire_unconnected(ui.context.client)  # a GET that never connects is not kept for a minute
        busy = {"now": False}

        address = ratelimit.client_address(request)

        def limited(limiter: ratelimit.Limiter) -> bool:
            if limiter.spend(address):
                return False
            ui.notify(_(ratelimit.TOO_MANY), type="warning", position="top")
            return True

        async def create() -> None:
            if busy["now"] or limited(ratelimit.CREATE):
                return
            busy["now"] = True
            try:
                token = store.new_seat_token()
                language = str(language_select.value or identity.language)
                try:
                    room = await registry.create(token=token, name=name.value or "", rules=str(rules.value),
                                                 language=language)
                except Exception as error:  # a refusal, or the database failing
                    components.refuse(_, error)
                    return
                identity.keep_token(room.code, token)
                await identity.saved()  # a cluster: the room's page may be built by another process
                if language != identity.language:  # the phone speaks the room's language, kept in its cookie
                    go_to(language_cookie.switch_path(language, f"/r/{room.code}"))
                else:
                    go_to(f"/r/{room.code}")
            finally:
                busy["now"] = False

        async def join() -> None:
            typed = store.normalize_code(code.value or "")
            if not room_codes.plausible(typed):  # our alphabet and its look-alikes (0 for D, 1 for L: room_codes)
                ui.notify(_("A room code has 5 letters and digits, like K7QXM."), type="warning", position="top")
                return
            # No limit on a right code: only wrong ones are counted, per browser (and loosely per address); out
            # of attempts, the browser waits before any lookup (webgame/guard/ratelimit.py).
            known = identity.token_for(typed) is not None or ratelimit.VISITS.has(identity.browser, typed)
            if not known and ratelimit.WRONG_CODES.blocked(identity.browser, address):
                seconds = ratelimit.WRONG_CODES.wait_seconds(identity.browser, address)
                ui.notify(_(components.WAIT_GUESSES).format(seconds=seconds), type="warning", position="top")
                return
            # Looked up, not run here: in a cluster the room's own process takes it when the browser gets there
            # (a claim from the start page's process would move the room here and back: docs/SCALING.md).
            room = await room_codes.lookup(typed, store.get_room_by_code)
            if room is None:
                if not known:
                    ratelimit.WRONG_CODES.spend(identity.browser, address)
                ui.notify(_("There is no room with this code."), type="warning", position="top")
                return
            if room.status is store.RoomStatus.FINISHED and identity.token_for(room.code) is None:
                ui.notify(_("The game in this room is over."), type="warning", position="top")
                return
            go_to(f"/r/{room.code}")

        with ui.column().classes("mafia-page"):
            components.header(_, identity)
            with ui.card().classes("mafia-card"):
                heading(_("Start a new room"))
                name = testid(ui.input(_("Your name")).props("maxlength=40").classes("w-full"), "create-name")
                rules = testid(ui.select({key: _(wording.RULE_SET_NAMES[key]) for key in RULE_SETS}, value="uz",
                                         label=_("Rule set")).classes("w-full"), "create-rules")
                language_select = testid(ui.select(LANGUAGES, value=identity.language, label=_("Language")).classes(
                    "w-full"), "create-language")
                testid(ui.button(_("Create the room"), on_click=create).classes("w-full mafia-target"), "create")
            with ui.card().classes("mafia-card"):
                heading(_("Join a room"))
                code = testid(ui.input(_("Room code")).props("maxlength=12 autocapitalize=characters").classes(
                    "w-full"), "join-code")
                code.on("keydown.enter", join)
                testid(ui.button(_("Join"), on_click=join).classes("w-full mafia-target"), "join-room")
            how_to_play(_)


def go_to(path: str) -> None:
    """The browser sent to its room; this page, left, is not kept for a return (``page_sockets.delete_once_left``)."""
    ui.navigate.to(path)
    page_sockets.delete_once_left(ui.context.client)


def heading(text: str) -> ui.label:
    """A card's title as an ``<h2>`` (screen readers move between headings), looking as before."""
    label = ui.label(text).classes("mafia-h text-lg font-bold")
    label.tag = "h2"
    return label


def how_to_play(_: Translator) -> None:
    """The game in five lines, under the forms: the create and join forms keep the first screenful of a phone."""
    with testid(ui.card().classes("mafia-card"), "how-to-play"):
        heading(_("How to play"))
        with ui.element("ol").classes("mafia-steps"):
            for line in wording.HOW_TO_PLAY:
                with ui.element("li"):
                    ui.label(_(line))

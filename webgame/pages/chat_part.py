"""The ``start_or_chat`` part of a phone's game screen: the chat this viewer may read, and the box to write in.

Covered, every living phone shows the room's chat alike; the mafia's channel (its lines, its box) is behind
the reveal (``Draft.revealed``).

**A line costs a line** (issue 26). The part's model holds the card, its buttons and the box; each shown line is
an element of its own (``LineElement``, drawn by the same ``screen.js``) in the column ``chat`` in the part's
slot. A new line sends that line's element and the column's list of children, not the chat's last 20 lines
again: at the chat's allowed rate (11 writers, 5 lines in 10 s each) every phone got 27 KB per line of 300
Cyrillic letters, padding included (the padding evens every living phone out to the largest update); now
under 2 KB (tests/security/test_chat_traffic.py). The padding is unchanged: every living phone still receives
the same number of messages of the same size at the same moments, now the size of one line.

**The box empties itself.** The browser empties the writer's box when he sends (``screen.js``), so a line that is
taken sends his phone the same as every other phone (his whole part again, to empty the box, made every phone's
padded line 560 bytes bigger). A refused line comes back: the part's ``refused`` counter grows and the browser
puts the text back in the box, if the box is still empty and still writes to that line's channel.

A mafia member's phone shows, covered, the room's last ``chat_limits.SHOWN`` lines like every other phone,
and revealed those and his channel's last ``SHOWN`` lines between them: one set of line elements, those of
the hidden channel drawn only while revealed (so a room line reaches his phone once, as it reaches the town).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from nicegui import ui

from webgame.pages import components, evenness
from webgame.pages.screen import Draft, Screen
from webgame.room import chat_limits
from webgame.room.chat import ChatLine

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen


CHAT_PAGE_BYTES = 16384  # a tap for older (or the latest) chat lines is answered with this many bytes (or more)


class ChatPart:
    """One page's chat: drawn from its projection; how many of its lines were refused (to fill its box again)."""

    def __init__(self, view: GameScreen) -> None:
        self.view = view
        self.refused = 0  # lines of this page the room refused (the browser then puts the text back in its box)
        self.chat_last: ChatLine | None = None  # the last chat line shown (None: the latest ones)
        self.wanted: list[tuple[ChatLine, bool]] = []  # the lines to show, in order, and whether behind the reveal
        self.shown: dict[int, tuple[ChatLine, LineElement]] = {}  # id of a line -> (it, its element), in order
        self.column: ui.element | None = None  # the lines' column, in the part's slot
        self.carded = False  # the part draws the chat's card (and so the column, with or without lines)

    def draw(self, d: Draft) -> None:
        """The ``start_or_chat`` part: the chat this viewer may read (its lines: ``sync``), and the box where he
        writes to the channels he may write to."""
        _ = self.view.page.t
        chat = self.view.p.get("chat", {"read": [], "write": []})
        readable, writable = chat["read"], list(chat.get("write", []))
        self.wanted, self.carded = [], False
        if readable:
            secret = self.view.viewer_kind == "seat" and self.view.p["phase"] != "ended"
            # The mafia's channel (its lines, its box) is behind the reveal: covered, every living phone's chat is
            # the room's, the same for all.
            hidden = {"mafia"} if secret and "mafia" in readable else set()
            self._chat_card(d, readable, writable, hidden)
        self.sync()

    def _chat_card(self, d: Draft, readable: list[str], writable: list[str], hidden: set[str]) -> None:
        _ = self.view.page.t
        proj = self.view.proj
        lines = [line for line in (proj.chat if proj is not None else []) if line.channel in readable]
        if not lines and not writable:
            return
        end = len(lines)
        if self.chat_last is not None:  # a page of older lines, ending at the line it ended at when asked for
            end = next((index + 1 for index, line in enumerate(lines) if line is self.chat_last), end)
        before = lines[:end]
        shown_open = [line for line in before if line.channel not in hidden][-chat_limits.SHOWN:]
        shown_hidden = [line for line in before if line.channel in hidden][-chat_limits.SHOWN:]
        keep = {id(line) for line in (*shown_open, *shown_hidden)}
        self.wanted = [(line, line.channel in hidden) for line in before if id(line) in keep]
        first_open = next((index for index, line in enumerate(before) if line is shown_open[0]), 0) \
            if shown_open else end
        first_hidden = next((index for index, line in enumerate(before) if line is shown_hidden[0]), 0) \
            if shown_hidden else end
        open_earlier = any(line.channel not in hidden for line in before[:first_open])
        hidden_earlier = any(line.channel in hidden for line in before[:first_hidden])
        start = min(first_open, first_hidden)
        open_writable = [channel for channel in writable if channel not in hidden]
        # Covered, the card is there only if the town's phone has one too (a line of the room or its box):
        # otherwise the whole card is behind the reveal (its lines with it: they are in its slot).
        town_has_one = bool(shown_open) or bool(open_writable)
        self.carded = True  # the card's slot holds the lines' column, even an empty one (the same boxes for all)
        with d.revealed() if not town_has_one else contextlib.nullcontext(), d.card("mafia-card"):
            d.label(_("Chat"), "font-bold")
            if open_earlier or hidden_earlier:
                with (d.revealed() if not open_earlier else contextlib.nullcontext()):
                    d.button(_("Earlier messages"), lambda: self._chat_page(lines[start - 1]), "chat-earlier",
                             flat=True, no_caps=True)
            d.slot()  # the lines: elements of their own, in their column (``sync``)
            if end < len(lines):
                d.button(_("Latest messages"), lambda: self._chat_page(None), "chat-latest", flat=True,
                         no_caps=True)
            if hidden and writable != open_writable:
                with d.revealed():
                    self._box(d, writable)
                if open_writable:
                    with d.covered():
                        self._box(d, open_writable)
            elif writable:
                self._box(d, writable)

    def _box(self, d: Draft, writable: list[str]) -> None:
        _ = self.view.page.t
        d.chat_box(self.channel_names(writable), self.say, "chat-input", "chat-send", _("Message"), _("Send"),
                   self.refused)

    def sync(self) -> None:
        """Make the page's line elements those of ``wanted``: a new line is one new element at the end, a line
        out of the window one element gone; any other change (a page of older lines) draws them all again."""
        screen = getattr(self.view.page.start_or_chat, "screen", None)
        if screen is None or screen.is_deleted or (not self.carded and not self.shown):
            return
        if self.column is None or self.column.is_deleted:
            with screen:
                self.column = components.testid(ui.column().classes("mafia-chat gap-1"), "chat")
            self.shown = {}
        column = self.column
        keep = {id(line) for line, _hidden in self.wanted}
        for key in [key for key in self.shown if key not in keep]:
            column.remove(self.shown.pop(key)[1])
        if [id(line) for line, _hidden in self.wanted[:len(self.shown)]] != list(self.shown):
            column.clear()
            self.shown = {}
        with column:
            for line, hidden in self.wanted:
                if id(line) not in self.shown:
                    self.shown[id(line)] = (line, LineElement(functools.partial(self._line, line=line,
                                                                                hidden=hidden)))

    def drop(self) -> None:
        """The page is back in the lobby: the last game's line elements and their column go (the lobby's
        ``start_or_chat`` part has no slot to show them in; kept, every phone would hold them, unseen, until the
        next game)."""
        if self.column is not None and not self.column.is_deleted:
            self.column.delete()
        self.column, self.shown, self.wanted, self.carded, self.chat_last = None, {}, [], False, None

    def _line(self, d: Draft, line: ChatLine, hidden: bool) -> None:
        _ = self.view.page.t
        with d.revealed() if hidden else contextlib.nullcontext(), d.row("gap-1 no-wrap items-baseline"):
            if line.channel == "mafia":
                d.badge(_("mafia"), "negative")
            elif line.channel == "dead":
                d.badge(_("dead"), "grey-8")
            author = self.view.name_of(line.seat) if line.seat else _("Moderator")
            d.label(author + ":", "font-bold whitespace-nowrap")
            d.label(line.text, "mafia-wrap")

    def _chat_page(self, last: ChatLine | None) -> None:
        """Show the lines up to ``last`` (None: the latest). The chat part draws ``chat_limits.SHOWN`` lines at
        most, so a new line costs every reader (and, padded, every phone) a few kilobytes, not the whole chat; the
        answer to this tap has a fixed size, whatever the chat holds (``evenness.pad_alone``)."""
        self.chat_last = last
        self.view.page.start_or_chat.refresh()
        evenness.pad_alone(self.view.page, CHAT_PAGE_BYTES)

    async def say(self, value: Any) -> None:
        """The chat box's message: ``{channel, text}`` as the browser sends it (anything else does nothing). The
        browser has emptied its box; a refusal is said and gives the text back (``refused``)."""
        if not isinstance(value, dict):
            return
        page, writable = self.view.page, list(self.view.p.get("chat", {"write": []}).get("write", []))
        channel, text = value.get("channel"), value.get("text")
        if not isinstance(text, str):
            return
        text = text[: chat_limits.INPUT_CUT + 1]  # a megabyte is refused for its length, not walked through
        if not isinstance(channel, str):
            channel = writable[0] if writable else "room"  # none writable: the room says why (a line sent late)
        if not await components.guarded(page.t, lambda: page.room.say(page.token_hash, channel, text)):
            self.refused += 1
            self.view.page.start_or_chat.refresh()

    def channel_names(self, channels: list[str]) -> dict[str, str]:
        _ = self.view.page.t
        names = {"room": _("Everyone"), "mafia": _("Mafia team"), "dead": _("The dead")}
        return {channel: names.get(channel, channel) for channel in channels}

    def added(self, line: ChatLine) -> None:
        """A new line: the chat is drawn again if this viewer reads its channel (the writer's page like every
        other: his box emptied itself when he sent it)."""
        if self.view.proj is not None and line.channel in self.view.p.get("chat", {"read": []})["read"]:
            page = self.view.page  # the projection again, with the new line
            self.view.proj = page.room.projection(page.token_hash) or self.view.proj
            page.start_or_chat.refresh()


class LineElement(Screen):
    """One chat line of one page: drawn once, never redrawn, never tapped (no listener is sent with it)."""

    def __init__(self, build: Callable[[Draft], None]) -> None:
        super().__init__(build)
        self.stop_listening()

"""The fourth part of a phone's game screen: the chat this viewer may read, and the box to write in.

Covered, every living phone shows the room's chat alike; the mafia's channel (its lines, its box) is behind
the reveal (``Draft.revealed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webgame import chat_limits
from webgame.chat import ChatLine
from webgame.pages import components, evenness

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen
    from webgame.pages.screen import Draft


CHAT_PAGE_BYTES = 16384  # a tap for older (or the latest) chat lines is answered with this many bytes (or more)


class ChatPart:
    """One page's chat: drawn from its projection; what it sent and is sending (to empty its box)."""

    def __init__(self, view: GameScreen) -> None:
        self.view = view
        self.chat_sent = 0  # messages this page wrote that the room took (the browser then empties its box)
        self.saying = False  # a message of this page is on its way to the room
        self.chat_last: ChatLine | None = None  # the last chat line shown (None: the latest ones)

    def draw(self, d: Draft) -> None:
        """The fourth part: the chat this viewer may read, and the box where he writes to the channels he may
        write to."""
        _ = self.view.page.t
        chat = self.view.p.get("chat", {"read": [], "write": []})
        readable, writable = chat["read"], list(chat.get("write", []))
        if not readable:
            return
        secret = self.view.viewer_kind == "seat" and self.view.p["phase"] != "ended"
        # The mafia's channel (its lines, its box) is behind the reveal: covered, every living phone's chat is
        # the room's, the same for all.
        hidden = {"mafia"} if secret else set()
        if secret and "mafia" in readable:
            with d.revealed():
                self._chat_card(d, readable, writable, "chat")
            with d.covered():
                self._chat_card(d, [c for c in readable if c not in hidden], [c for c in writable if c not in hidden],
                                "chat")
        else:
            self._chat_card(d, readable, writable, "chat")

    def _chat_card(self, d: Draft, readable: list[str], writable: list[str], tid: str) -> None:
        _ = self.view.page.t
        proj = self.view.proj
        lines = [line for line in (proj.chat if proj is not None else []) if line.channel in readable]
        if not lines and not writable:
            return
        end = len(lines)
        if self.chat_last is not None:  # a page of older lines, ending at the line it ended at when asked for
            end = next((index + 1 for index, line in enumerate(lines) if line is self.chat_last), end)
        start = max(0, end - chat_limits.SHOWN)
        with d.card("mafia-card"):
            d.label(_("Chat"), "font-bold")
            if start > 0:
                d.button(_("Earlier messages"), lambda: self._chat_page(lines[start - 1]), "chat-earlier",
                         flat=True, no_caps=True)
            with d.column("mafia-chat gap-1", tid):
                for line in lines[start:end]:
                    with d.row("gap-1 no-wrap items-baseline"):
                        if line.channel == "mafia":
                            d.badge(_("mafia"), "negative")
                        elif line.channel == "dead":
                            d.badge(_("dead"), "grey-8")
                        author = self.view.name_of(line.seat) if line.seat else _("Moderator")
                        d.label(author + ":", "font-bold whitespace-nowrap")
                        d.label(line.text, "mafia-wrap")
            if end < len(lines):
                d.button(_("Latest messages"), lambda: self._chat_page(None), "chat-latest", flat=True,
                         no_caps=True)
            if writable:
                d.chat_box(self.channel_names(writable), self.say, "chat-input", "chat-send", _("Message"), _("Send"),
                           self.chat_sent)

    def _chat_page(self, last: ChatLine | None) -> None:
        """Show the lines up to ``last`` (None: the latest). The chat part draws ``chat_limits.SHOWN`` lines at
        most, so a new line costs every reader (and, padded, every phone) a few kilobytes, not the whole chat; the
        answer to this tap has a fixed size, whatever the chat holds (``evenness.pad_alone``)."""
        self.chat_last = last
        self.view.page.fourth.refresh()
        evenness.pad_alone(self.view.page, CHAT_PAGE_BYTES)

    async def say(self, value: Any) -> None:
        """The chat box's message: ``{channel, text}`` as the browser sends it (anything else does nothing)."""
        if not isinstance(value, dict):
            return
        page, writable = self.view.page, list(self.view.p.get("chat", {"write": []}).get("write", []))
        channel, text = value.get("channel"), value.get("text")
        if not isinstance(text, str) or not writable:
            return
        text = text[: chat_limits.INPUT_CUT + 1]  # a megabyte is refused for its length, not walked through
        if not isinstance(channel, str):
            channel = writable[0]
        self.saying = True
        try:
            await components.guarded(page.t, lambda: page.room.say(page.token_hash, channel, text))
        finally:
            self.saying = False

    def channel_names(self, channels: list[str]) -> dict[str, str]:
        _ = self.view.page.t
        names = {"room": _("Everyone"), "mafia": _("Mafia team"), "dead": _("The dead")}
        return {channel: names.get(channel, channel) for channel in channels}

    def added(self, line: ChatLine) -> None:
        """A new line: the chat is drawn again if this viewer reads its channel. The line this page has just
        written empties its box in the same redraw (a refused message stays in the box)."""
        if self.view.proj is not None and line.channel in self.view.p.get("chat", {"read": []})["read"]:
            page = self.view.page  # the projection again, with the new line
            self.view.proj = page.room.projection(page.token_hash) or self.view.proj
        if self.saying and line.seat == (self.view.viewer_seat if self.view.viewer_kind == "seat" else 0):
            self.saying = False
            self.chat_sent += 1
            self.view.page.fourth.refresh()
        elif line.channel in self.view.p.get("chat", {"read": []})["read"]:
            self.view.page.fourth.refresh()

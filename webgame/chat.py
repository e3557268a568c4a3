"""The chat of a room's game: its lines (the last ``CHAT_KEPT``), the rules a message must pass, flood control.

Which channels a person may read or write is the engine's to say (``engine.view.chat_channels``); the room asks
the game and hands the answer in, so this module (like ``webgame.projection``) imports nothing of the engine.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field

from webgame import store
from webgame.errors import Refusal
from webgame.i18n import N_

log = logging.getLogger(__name__)

CHAT_MAX_LENGTH = 300
CHAT_KEPT = 500
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # flood control: at most this many messages per writer in this many seconds


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One message as every reader sees it."""

    channel: str  # room, mafia, dead
    seat: int  # engine seat of the writer (0: the moderator)
    name: str
    text: str


def clean_chat(text: str) -> str:
    """The message without surrounding blanks and control or format characters; refused when empty or too long."""
    clean = "".join(char for char in (text or "").strip() if unicodedata.category(char) not in {"Cc", "Cf"})
    if not clean:
        raise Refusal(N_("Write something first."))
    if len(clean) > CHAT_MAX_LENGTH:
        raise Refusal(N_("A message can have at most {count} characters."), count=CHAT_MAX_LENGTH)
    return clean


@dataclass(eq=False)
class Chat:
    """The running game's chat lines (a new game starts with none), and when each writer last wrote."""

    code: str  # the room's, for the log
    lines: list[ChatLine] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # writer's token hash -> his last messages

    def admit(self, writer: str, text: str, now: float) -> str:
        """The message as it will be kept, if this writer may send one now (else ``Refusal``)."""
        clean = clean_chat(text)
        if len(self._recent(writer, now)) >= CHAT_BURST:
            raise Refusal(N_("You are writing too fast. Wait a few seconds."))
        return clean

    async def keep(self, room_id: int, game_id: int | None, writer: str, line: ChatLine, now: float) -> None:
        """Save an admitted line, then keep it (the oldest beyond ``CHAT_KEPT`` go); a line the database did not
        take is refused and not kept."""
        try:
            await store.append_chat(room_id, channel=line.channel, seat_position=line.seat, text=line.text,
                                    game_id=game_id)
        except Exception:
            log.exception("room %s: a chat message could not be saved", self.code)
            raise Refusal(N_("The message could not be saved. Please try again.")) from None
        self.times[writer] = [*self._recent(writer, now), now]
        self.lines.append(line)
        del self.lines[:-CHAT_KEPT]

    def readable(self, channels: Collection[str]) -> list[ChatLine]:
        """The lines on these channels, in order."""
        return [line for line in self.lines if line.channel in channels]

    def clear(self) -> None:
        self.lines = []

    def _recent(self, writer: str, now: float) -> list[float]:
        return [t for t in self.times.get(writer, []) if now - CHAT_WINDOW < t <= now]

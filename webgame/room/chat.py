"""The chat of a room's game: its lines (the last ``CHAT_KEPT``), the rules a message must pass, flood control.

Which channels a person may read or write is the engine's to say (``engine.view.chat_channels``); the room asks
the game and hands the answer in, so this module (like ``webgame.room.projection``) imports nothing of the engine.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field

from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room import chat_limits
from webgame.room.chat_limits import CHAT_BURST, CHAT_MAX_LENGTH, CHAT_WINDOW
from webgame.store import queries as store

log = logging.getLogger(__name__)

__all__ = ["CHAT_BURST", "CHAT_KEPT", "CHAT_MAX_LENGTH", "CHAT_WINDOW", "Chat", "ChatLine"]

CHAT_KEPT = 500


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One message as every reader sees it."""

    channel: str  # room, mafia, dead
    seat: int  # engine seat of the writer (0: the moderator)
    name: str
    text: str


@dataclass(eq=False)
class Chat:
    """The running game's chat lines (a new game starts with none), and when each writer last wrote."""

    code: str  # the room's, for the log
    lines: list[ChatLine] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # writer's token hash -> his last messages
    said: int = 0  # every line ever kept: it grows at each line even once the oldest go (``Room.version``)

    def admit(self, writer: str, text: str, now: float) -> str:
        """The message as it will be kept, if this writer may send one now (else ``Refusal``); every attempt
        counts against his flood control, the refused ones too (``webgame.room.chat_limits``)."""
        return chat_limits.admit(self.times, writer, text, now)

    async def keep(self, room_id: int, game_id: int | None, writer: str, line: ChatLine, now: float) -> None:
        """Save an admitted line, then keep it (the oldest beyond ``CHAT_KEPT`` go); a line the database did not
        take is refused and not kept."""
        try:
            await store.append_chat(room_id, channel=line.channel, seat_position=line.seat, text=line.text,
                                    game_id=game_id)
        except Exception:
            log.exception("room %s: a chat message could not be saved", self.code)
            raise Refusal(N_("The message could not be saved. Please try again.")) from None
        self.lines.append(line)
        self.said += 1
        del self.lines[:-CHAT_KEPT]

    def readable(self, channels: Collection[str]) -> list[ChatLine]:
        """The lines on these channels, in order."""
        return [line for line in self.lines if line.channel in channels]

    def clear(self) -> None:
        self.lines = []

"""What the room itself tells everyone, apart from the game's own news: a seat moved to another phone (and who
asked for it), the host role passed on. Shown on every phone (the same lines on every screen: nothing secret)
and on the TV.

Each notice is a message id and its parameters, translated by each reader; only the last few are kept, in
memory (a restart forgets them; what they told, the seat's new token and the new host, is in the database).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from webgame.language.i18n import N_, Translator

KEPT = 3

# A seat moved to another phone (webgame.room.seat_moves), with who asked for it: its owner, or the host (by name).
MOVED_BY_OWNER = N_("{number}. {name} moved to another phone by himself.")
MOVED_BY_OWNER_IN_LOBBY = N_("{name} moved to another phone by himself.")
MOVED_BY_HOST = N_("{number}. {name} was moved to another phone by the host, {host}.")
MOVED_BY_HOST_IN_LOBBY = N_("{name} was moved to another phone by the host, {host}.")
# ... and what the old phone of that seat is told, alone, when it looks again (not a room's notice: a Notice kept
# by the seat moves for that phone's old token).
AWAY_BY_OWNER = N_("Your seat ({name}) was moved to another phone with a code from this phone. This phone has no "
                   "seat here any more.")
AWAY_BY_HOST = N_("Your seat ({name}) was moved to another phone by the host, {host}. This phone has no seat here "
                  "any more.")
NEW_HOST = N_("{name}'s phone was gone, so {new} is the host now.")
NEW_MODERATOR = N_("The moderator's phone was gone, so {new} holds the moderator's controls now (without the "
                   "roles).")


@dataclass(frozen=True, slots=True)
class Notice:
    """One line the room told everyone: a message id (``N_``) and what fills it."""

    msgid: str
    params: dict[str, object] = field(default_factory=dict)

    def text(self, _: Translator) -> str:
        return _(self.msgid).format(**self.params)


class Notices:
    """The room's last few notices, oldest first; ``count`` grows with every one (a page redraws when it does)."""

    def __init__(self) -> None:
        self.lines: list[Notice] = []
        self.count = 0

    def add(self, msgid: str, **params: object) -> None:
        self.lines = [*self.lines, Notice(msgid, params)][-KEPT:]
        self.count += 1

    def texts(self, _: Translator) -> list[str]:
        return [notice.text(_) for notice in self.lines]

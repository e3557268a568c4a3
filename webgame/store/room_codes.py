"""Room codes as people type them: the look-alikes of the code alphabet, read both ways.

A code is made of ``tokens.CODE_ALPHABET`` (no 0, O, 1 or I: said aloud or read off a screen they are easily
confused). People still type them: a 0 or an O for the D or the Q they saw, a 1 or an I for an L (a lower-case
l looks like both). A typed code then stands for each of its readings, and it finds a room only when exactly one
of them is a room's (an exact match always wins: codes made before a change of the alphabet stay valid). The
readings are few (at most ``MAX_READINGS``), so a guesser learns no more per attempt than a few codes' worth.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import TypeVar

from webgame.store.tokens import CODE_ALPHABET, normalize_code

T = TypeVar("T")

LOOK_ALIKES: dict[str, str] = {"0": "DQ", "O": "DQ", "1": "L", "I": "L"}
MAX_READINGS = 4
MAX_LENGTH = 12


def plausible(code: str) -> bool:
    """Whether a typed code could be a room's: our alphabet and its look-alikes only, in any case."""
    code = normalize_code(code)
    return bool(code) and len(code) <= MAX_LENGTH and all(c in CODE_ALPHABET or c in LOOK_ALIKES for c in code)


def readings(code: str) -> list[str]:
    """The codes a typed one may stand for: itself first, then each reading of its look-alikes (none when there
    would be more than ``MAX_READINGS``)."""
    typed = normalize_code(code)
    if not any(char in LOOK_ALIKES for char in typed):
        return [typed]
    others = ["".join(chars) for chars in itertools.product(*(LOOK_ALIKES.get(char, char) for char in typed))]
    if len(others) > MAX_READINGS:
        return [typed]
    return [typed, *(other for other in others if other != typed)]


async def lookup(code: str, find: Callable[[str], Awaitable[T | None]]) -> T | None:
    """The room (``find`` of one exact code) a typed code stands for: the exact one, else the only reading that
    is a room's; None when none is, or when several are (ambiguous)."""
    exact, *others = readings(code)
    found = await find(exact)
    if found is not None or not others:
        return found
    rooms = [room for other in others if (room := await find(other)) is not None]
    return rooms[0] if len(rooms) == 1 else None

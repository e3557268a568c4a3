"""The game's random state, kept small.

``random.Random.getstate()`` is a tuple holding a tuple of 625 Python ints (the Mersenne Twister's 624 words and
its index): about 24 KB per game, and the server keeps one live game per room plus its copies. A game keeps it
packed instead: the same 625 numbers as 32-bit words in one ``bytes`` (2.5 KB), immutable like the tuple, and
unpacked only for the draw. The draws are those of the unpacked state, bit for bit.
"""

from __future__ import annotations

import random
import sys
from array import array
from typing import Any

PackedRng = tuple[int, bytes, float | None]
"""``(version, the 625 words as little-endian uint32 bytes, gauss_next)``: ``getstate()``'s three parts."""

WORDS = 625  # the Mersenne Twister's 624 words and its index, as getstate() gives them

_TYPECODE = next(code for code in "IL" if array(code).itemsize == 4)  # 'I' wherever an int is 32 bits


def pack(state: tuple[Any, ...]) -> PackedRng:
    """The compact form of ``random.Random.getstate()``."""
    version, internal, gauss_next = state
    if len(internal) != WORDS:
        raise ValueError(f"a random state holds {WORDS} words, not {len(internal)}")
    words = array(_TYPECODE, internal)  # OverflowError for anything that is not a 32-bit word
    if sys.byteorder == "big":
        words.byteswap()
    return int(version), words.tobytes(), gauss_next


def unpack(packed: PackedRng) -> tuple[Any, ...]:
    """The ``random.Random.getstate()`` tuple that ``pack`` made ``packed`` from, equal to it."""
    version, raw, gauss_next = packed
    words = array(_TYPECODE)
    words.frombytes(raw)
    if sys.byteorder == "big":
        words.byteswap()
    return version, tuple(words), gauss_next


def packed_state(rng: random.Random) -> PackedRng:
    """``rng``'s state, packed."""
    return pack(rng.getstate())


def restored(packed: PackedRng) -> random.Random:
    """A generator in the packed state: its draws are those of the generator the state was taken from."""
    rng = random.Random()
    rng.setstate(unpack(packed))
    return rng

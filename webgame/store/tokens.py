"""Seat tokens and room codes: made at random, and the forms they are stored and typed in.

A seat token is the browser's proof of its seat (the database keeps only its hash); a room code is what people
read aloud and type (``webgame.store.room_codes`` reads the look-alikes people type for its letters).
"""

from __future__ import annotations

import hashlib
import secrets

# Room codes are read aloud and typed on phones: no 0/O, 1/I. 32**5 is about 33 million codes.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def new_seat_token() -> str:
    """A fresh seat token (192 random bits, URL-safe). Give it to the browser; store only its hash."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex of a seat token: what the database keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """What people type (any case, stray spaces) to the stored form."""
    return "".join(code.split()).upper()

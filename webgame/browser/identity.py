"""Who is who: seat tokens kept in the browser, the storage secret, and the rules for names.

A seat token is a bearer secret of 192 random bits (``store.new_seat_token``). The browser keeps it in
``app.storage.user['seats'][ROOM_CODE]`` (NiceGUI's file of that browser, or its row in PostgreSQL when the game
runs as a cluster: ``webgame.framework.browser_storage``); the server keeps only its SHA-256. Seats are all the storage
holds: the phone's language is a cookie (``webgame.browser.language_cookie``), and a storage without a seat expires
(``webgame.browser.storage_expiry``). A page reads the browser's
storage once, in its builder, and passes what it found on: ``app.storage.user`` resolves to whoever's
event is running, which, when another player's tap re-renders this page, is someone else.
"""

from __future__ import annotations

import logging
import secrets
import unicodedata
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webgame import settings
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.store import queries as store
from webgame.store.db import data_dir

log = logging.getLogger(__name__)

NAME_MAX_LENGTH = 24
SECRET_FILE_NAME = "storage_secret"
# Control, format (bidi overrides, zero-width), surrogate, private-use, unassigned, line/paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def storage_secret() -> str:
    """``STORAGE_SECRET`` from the environment, else one generated once and kept in the data folder."""
    from_env = settings.current().storage_secret
    if from_env:
        return from_env
    path: Path = data_dir() / SECRET_FILE_NAME
    if path.exists():
        kept = path.read_text(encoding="utf-8").strip()
        if kept:
            return kept
    secret = secrets.token_urlsafe(32)
    path.write_text(secret, encoding="utf-8")
    path.chmod(0o600)
    return secret


@dataclass(frozen=True, slots=True)
class BrowserIdentity:
    """What one browser holds, read once when its page is built.

    ``storage`` is that browser's own ``app.storage.user`` dict, captured in the page builder, so handlers
    that run later write to this browser's storage whatever task they run in.
    """

    storage: MutableMapping[str, Any]
    language: str
    browser: str = ""  # the browser's storage id (its session): what per-browser rate limits key on
    page: str = "/"  # the page's path and query: where the language picker brings the phone back

    def token_for(self, code: str) -> str | None:
        seats = self.storage.get("seats")
        if isinstance(seats, dict):
            token = seats.get(code)
            if isinstance(token, str) and token:
                return token
        return None

    def keep_token(self, code: str, token: str) -> None:
        seats = self.storage.get("seats")
        seats = dict(seats) if isinstance(seats, dict) else {}
        seats[code] = token
        self.storage["seats"] = seats  # assign (not mutate) so the persistent dict saves it

    async def saved(self) -> None:
        """Wait until this browser's storage is written where every process reads it (a cluster's PostgreSQL,
        ``webgame.framework.browser_storage``); at once with NiceGUI's files. Before sending the phone to a page that
        another process may build (a room just created), which must find the token kept here."""
        flushed = getattr(self.storage, "flushed", None)
        if flushed is not None:
            await flushed()

    def token_hash_for(self, code: str) -> str | None:
        token = self.token_for(code)
        return store.hash_token(token) if token else None


# Letters that draw nothing (fillers, blank patterns): a name made of them is invisible on every phone.
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u2028\u2029\u00ad")
MAX_MARKS = 2  # combining marks on one letter; more stack up and spill over the rows around the name
_RIGHT_TO_LEFT = frozenset({"R", "AL"})


def clean_name(raw: str | None, taken: list[str]) -> str:
    """The name as it will be shown, or a Refusal: 1-24 characters after trimming, no control characters,
    nothing invisible (and something to see), at most two combining marks on a letter, no digits with
    right-to-left letters (the browser would move them to the front: "אבג .1" shows as a seat number), not
    already used in the room (ignoring case). Markup is allowed and stays inert text (``ui.label``)."""
    raw = (raw or "")[: NAME_MAX_LENGTH * 8]  # anything longer is refused below; cut before the work
    name = unicodedata.normalize("NFC", raw.strip())
    if any(unicodedata.category(char) in _REFUSED_CATEGORIES for char in name):
        raise Refusal(N_("A name cannot contain control characters."))
    name = " ".join(name.split())
    if not name:
        raise Refusal(N_("Please enter your name."))
    if len(name) > NAME_MAX_LENGTH:
        raise Refusal(N_("A name can have at most {count} characters."), count=NAME_MAX_LENGTH)
    if any(char in _BLANK_CHARACTERS for char in name) or not any(_visible(char) for char in name):
        raise Refusal(N_("A name needs letters or digits that can be seen."))
    if _too_many_marks(name):
        raise Refusal(N_("A name can have at most two accents on a letter."))
    if any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in name) and any(
            unicodedata.category(char) == "Nd" for char in name):
        raise Refusal(N_("A name written right to left cannot contain digits."))
    folded = name.casefold()
    if any(other.casefold() == folded for other in taken):
        raise Refusal(N_("The name {name} is already taken in this room."), name=name)
    return name


def _visible(char: str) -> bool:
    """A letter, digit, symbol or punctuation (blanks are refused before)."""
    return unicodedata.category(char)[0] in "LNSP"


def _too_many_marks(name: str) -> bool:
    """More than ``MAX_MARKS`` combining marks in a row, or a mark with no letter before it."""
    run = 0
    name = unicodedata.normalize("NFD", name)  # a precomposed letter counts its accents too
    for index, char in enumerate(name):
        if unicodedata.category(char) in ("Mn", "Me"):
            run += 1
            if run > MAX_MARKS or index == 0 or name[index - 1] == " ":
                return True
        else:
            run = 0
    return False

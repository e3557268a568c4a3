"""Shared by the catalog tests: the catalogs on disk, and the message ids the code uses right now."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from webgame.language.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"
POT = LOCALES / "messages.pot"
# The same keywords as scripts/i18n (pybabel extract --no-default-keywords -k _ -k N_ -k gettext -k ngettext:1,2).
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / "messages.po"


def mo_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / "messages.mo"


@cache
def catalog(language: str) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language)


def messages(language: str) -> list[Message]:
    """The catalog's entries, without the header."""
    return [message for message in catalog(language) if message.id]


def key(message_id: str | tuple[str, ...]) -> str:
    """A message's identity in a catalog: its (singular) msgid."""
    return message_id if isinstance(message_id, str) else message_id[0]


def strings(message: Message) -> tuple[str, ...]:
    """The translation's forms (one, or one per plural form)."""
    return tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)


@cache
def code_message_ids() -> dict[str, str | tuple[str, ...]]:
    """Every message id marked in engine/ and webgame/ now, extracted with Babel's API and babel.cfg."""
    with (ROOT / "babel.cfg").open() as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: dict[str, str | tuple[str, ...]] = {}
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        found[key(message)] = message
    return found


ALL_LANGUAGES = sorted(LANGUAGES)
TRANSLATED = [language for language in ALL_LANGUAGES if language != "en"]

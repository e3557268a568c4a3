"""Translations for the web pages: one cached ``Translator`` per language.

Catalogs are Babel's compiled ``locales/<lang>/LC_MESSAGES/messages.mo`` (built from the ``.po`` files by
``pybabel compile``). A language without a catalog shows the English message ids, which are the source
text. Pages keep their translator on the viewer object: a ContextVar set in a page builder is not visible
when the room's clock re-renders that page.

Conventions for ``pybabel extract``: call ``_("literal English")``, ``ngettext("one", "many", n)`` and mark
strings translated later with ``N_("...")``; fill placeholders by name (``.format(name=...)``), never glue
sentences from pieces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

from webgame.language.locale_tables import TABLES

LANGUAGES: dict[str, str] = {"uz": "O'zbekcha", "uk": "Українська", "ro": "Română", "ru": "Русский", "en": "English"}
DEFAULT_LANGUAGE = "en"
NUMBER_CACHE = 4096  # formatted numbers kept per language (seat numbers, counts, fouls, minutes)
MESSAGE_CACHE = 4096  # translated messages kept per language (the catalogs hold some 620)
LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"


def N_(msgid: str) -> str:  # noqa: N802 - gettext's conventional marker name
    """Mark a message id for extraction; returns it unchanged (translate it later with ``_``)."""
    return msgid


class Translator:
    """Everything a page needs to speak one language: messages, plural forms, numbers, lists."""

    def __init__(self, language: str, translations: NullTranslations) -> None:
        self.language = language
        self._translations = translations
        self._numbers: dict[float, str] = {}  # pages format the same few numbers again and again
        self._messages: dict[str, str] = {}  # message id -> its translation (``gettext``)
        # Not Babel's Locale, whose data would hold 4 MB (issue 32); a language without a table writes English.
        self.table = TABLES.get(language, TABLES[DEFAULT_LANGUAGE])

    def gettext(self, msgid: str) -> str:
        """The message in this language, kept once looked up: a change of a room draws a few hundred labels on its
        phones, each a look-up through gettext's catalog and its fallbacks (issue 32)."""
        text = self._messages.get(msgid)
        if text is None:
            if len(self._messages) >= MESSAGE_CACHE:  # message ids are the program's own: a bound all the same
                self._messages.clear()
            text = self._messages[msgid] = self._translations.gettext(msgid)
        return text

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def number(self, value: float) -> str:
        """A number as this language writes it (``0.5`` is ``0,5`` in Ukrainian)."""
        text = self._numbers.get(value)
        if text is None:
            if len(self._numbers) >= NUMBER_CACHE:
                self._numbers.clear()
            text = self._numbers[value] = self.table.number(value)
        return text

    def countdown(self, seconds: float) -> str:
        """Remaining time as ``m:ss`` with this language's digits."""
        whole = max(0, int(seconds + 0.999))
        minutes, rest = divmod(whole, 60)
        return f"{self.number(minutes)}:{rest:02d}"

    def seconds(self, value: int) -> str:
        return self.ngettext("{count} second", "{count} seconds", value).format(count=self.number(value))

    def join(self, items: Sequence[str] | Iterable[str]) -> str:
        """``a, b and c`` in this language."""
        return self.table.join(list(items))


@cache
def translator(language: str) -> Translator:
    """The translator of ``language`` (any unknown code gives English). Loaded once, then cached."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    translations = Translations.load(str(LOCALES_DIR), [language], "messages")
    return Translator(language, translations)


def from_accept_language(header: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header, else English."""
    if not header:
        return DEFAULT_LANGUAGE
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()
        quality = 1.0
        for piece in pieces[1:]:
            key, _, value = piece.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag:
            weighted.append((-quality, index, tag))
    for _quality, _index, tag in sorted(weighted):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE

"""The compiled catalogs (``locales/<lang>/LC_MESSAGES/messages.mo``), made at start when missing or older than their
``.po`` file.

Babel's ``Translations.load`` falls back to the English message ids, silently, when a ``.mo`` file is missing: a
server started from a fresh checkout with ``python -m webgame`` (not ``bash scripts/play``, which compiles) showed
every screen in English while the picker said "O'zbekcha". So the app compiles what is missing with Babel's own
compiler before any page is drawn, and refuses to start, saying why, when it cannot (a read-only folder).
"""

from __future__ import annotations

import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from webgame.language.i18n import LANGUAGES, LOCALES_DIR

log = logging.getLogger(__name__)


def stale(locales: Path = LOCALES_DIR) -> list[Path]:
    """The ``.po`` files of our languages whose ``.mo`` is missing or older."""
    found = []
    for language in LANGUAGES:
        po = locales / language / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
            found.append(po)
    return found


def compile_missing(locales: Path = LOCALES_DIR) -> list[str]:
    """Compile every stale catalog (the languages done); ``SystemExit`` with the reason when one cannot be."""
    done = []
    for po in stale(locales):
        mo = po.with_suffix(".mo")
        try:
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as target:
                write_mo(target, catalog)
        except OSError as error:
            raise SystemExit(f"The {po.parent.parent.name} catalog is not compiled and could not be ({error}). Run "
                             f"`bash scripts/i18n compile` (or `pybabel compile -d {locales} -D messages`), or give "
                             f"the server a writable {locales}: without it every screen would be in English.") from None
        done.append(po.parent.parent.name)
    if done:
        log.info("compiled the catalogs of %s", ", ".join(done))
    return done

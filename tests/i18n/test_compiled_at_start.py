"""A server started without compiled catalogs (``python -m webgame`` from a fresh checkout) compiles them before any
page is drawn, or refuses to start saying why: never every screen in English while the picker says "O'zbekcha"
(issue 27.11)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from babel.support import Translations

from webgame.language import catalogs
from webgame.language.i18n import LOCALES_DIR


def _copy(tmp_path: Path) -> Path:
    locales = tmp_path / "locales"
    for po in LOCALES_DIR.glob("*/LC_MESSAGES/messages.po"):
        target = locales / po.relative_to(LOCALES_DIR)
        target.parent.mkdir(parents=True)
        shutil.copy(po, target)  # the .po files only, as in a checkout that was never compiled
    return locales


def test_missing_catalogs_are_compiled_and_speak_the_language(tmp_path: Path) -> None:
    locales = _copy(tmp_path)
    assert Translations.load(str(locales), ["uz"], "messages").gettext("Join") == "Join"  # English, silently
    assert sorted(catalogs.compile_missing(locales)) == ["en", "ro", "ru", "uk", "uz"]
    assert Translations.load(str(locales), ["uz"], "messages").gettext("Join") != "Join"
    assert catalogs.stale(locales) == [] and catalogs.compile_missing(locales) == []  # once only


def test_a_catalog_that_cannot_be_compiled_stops_the_start_with_the_reason(tmp_path: Path) -> None:
    locales = _copy(tmp_path)
    blocked = locales / "uz" / "LC_MESSAGES" / "messages.mo"
    blocked.mkdir()  # a folder where the file should be: it cannot be written
    os.utime(blocked, (0, 0))
    with pytest.raises(SystemExit, match="uz catalog is not compiled"):
        catalogs.compile_missing(locales)

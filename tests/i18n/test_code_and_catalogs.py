"""The catalogs match the code: every id the code marks is translated, no catalog keeps an id the code
dropped, the template and the compiled .mo files are current, and every id is visible to Babel."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .catalogs import ALL_LANGUAGES, POT, ROOT, catalog, code_message_ids, key, messages, mo_path, po_path

SOURCES = sorted(p for folder in ("engine", "webgame") for p in (ROOT / folder).rglob("*.py")
                 if "migrations" not in p.parts)
MARKERS = ("_(", "N_(", "gettext(", "ngettext(")


def test_the_code_marks_messages() -> None:
    assert len(code_message_ids()) > 100


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_every_id_in_the_code_is_in_the_catalog(language: str) -> None:
    in_catalog = {key(message.id) for message in messages(language)}
    missing = sorted(set(code_message_ids()) - in_catalog)
    assert not missing, f"{language}: not in the catalog (run scripts/i18n update, then translate): {missing}"


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_no_catalog_entry_is_unused(language: str) -> None:
    in_catalog = {key(message.id) for message in messages(language)}
    unused = sorted(in_catalog - set(code_message_ids()))
    assert not unused, f"{language}: ids no longer in the code (run scripts/i18n update): {unused}"


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_plural_ids_match_the_code(language: str) -> None:
    code = code_message_ids()
    for message in messages(language):
        assert message.id == code.get(key(message.id), message.id), f"{language}: {message.id} vs the code"


def test_the_template_is_current() -> None:
    with POT.open("rb") as handle:
        template = read_po(handle)
    assert {key(message.id): message.id for message in template if message.id} == code_message_ids(), (
        "locales/messages.pot is stale: run scripts/i18n update")


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_compiled_catalog_is_current(language: str) -> None:
    """The .mo the app loads is what the .po compiles to (scripts/i18n compile; scripts/test does it)."""
    compiled = io.BytesIO()
    with po_path(language).open("rb") as handle:
        write_mo(compiled, read_po(handle, locale=language))
    assert mo_path(language).is_file(), f"{mo_path(language)} is missing: run scripts/i18n compile"
    assert mo_path(language).read_bytes() == compiled.getvalue(), (
        f"{mo_path(language)} is older than its .po: run scripts/i18n compile")
    assert catalog(language)  # parsed without errors


def _fstrings_with_markers(path: Path) -> list[str]:
    """f-strings that call a marker inside: Babel (on Python 3.11) does not look inside f-strings."""
    found = []
    with path.open("rb") as handle:
        for token in tokenize.tokenize(handle.readline):
            if token.type == tokenize.STRING:
                prefix = token.string[: token.string.index(token.string[-1])].lower()
                if "f" in prefix and any(marker in token.string for marker in MARKERS):
                    found.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    return found


def test_no_message_is_marked_inside_an_f_string() -> None:
    found = [where for path in SOURCES for where in _fstrings_with_markers(path)]
    assert not found, f"move these _() calls out of the f-string, or Babel never sees them: {found}"


def _non_literal_marks(path: Path) -> list[str]:
    """N_() and ngettext() calls whose ids are not string literals (Babel cannot extract those)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        wanted = {"N_": 1, "ngettext": 2}.get(name)
        if wanted is None or path.name == "i18n.py":  # the translators' own wrappers pass variables on
            continue
        args = node.args[:wanted]
        if len(args) < wanted or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_marked_ids_are_literals() -> None:
    found = [where for path in SOURCES for where in _non_literal_marks(path)]
    assert not found, f"a message id must be a literal string for Babel: {found}"

"""Every catalog is complete, well-formed and says the same things as the code: no empty, fuzzy or
obsolete entries, every plural form filled, placeholders and option ids kept as they are."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.plurals import get_plural

from webgame.language.i18n import LANGUAGES

from .catalogs import ALL_LANGUAGES, LOCALES, catalog, key, messages, po_path, strings

BRACE_FIELDS = string.Formatter()
PERCENT = re.compile(r"%(?:\([A-Za-z_]\w*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")
OPTION_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # option choice ids quoted in help texts, e.g. lowest_mafia


def brace_names(text: str) -> list[str]:
    """The ``{named}`` fields of a str.format template, in order (raises on a malformed template)."""
    return [field for _literal, field, _spec, _conv in BRACE_FIELDS.parse(text) if field is not None]


def test_a_catalog_for_every_language_and_no_other() -> None:
    on_disk = sorted(path.parent.parent.name for path in LOCALES.glob("*/LC_MESSAGES/messages.po"))
    assert on_disk == sorted(LANGUAGES)


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_catalog_header_has_the_language_and_its_plural_rule(language: str) -> None:
    cat = catalog(language)
    assert str(cat.locale) == language
    expected = get_plural(language)
    assert cat.num_plurals == expected.num_plurals
    assert cat.plural_expr == expected.plural_expr
    assert f"Language: {language}\\n" in po_path(language).read_text(encoding="utf-8").replace("\n", "\\n")


def test_plural_form_counts() -> None:
    """Three forms for Ukrainian, Russian and Romanian, two for Uzbek and English (Babel's rules)."""
    assert {language: catalog(language).num_plurals for language in ALL_LANGUAGES} == {
        "en": 2, "ro": 3, "ru": 3, "uk": 3, "uz": 2}


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_every_entry_is_translated_and_not_fuzzy(language: str) -> None:
    cat = catalog(language)
    problems = []
    for message in messages(language):
        forms = strings(message)
        if message.fuzzy:
            problems.append(f"fuzzy: {key(message.id)!r}")
        if isinstance(message.id, tuple) and len(forms) != cat.num_plurals:
            problems.append(f"{len(forms)} plural forms instead of {cat.num_plurals}: {key(message.id)!r}")
        if not all(form.strip() for form in forms):
            problems.append(f"empty: {key(message.id)!r}")
    assert not problems, f"{language}: " + "; ".join(problems) + " (run scripts/i18n todo)"


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_no_obsolete_entries(language: str) -> None:
    cat = catalog(language)
    assert not cat.obsolete, f"{language}: obsolete #~ entries {list(cat.obsolete)} (scripts/i18n update drops them)"
    assert "#~" not in po_path(language).read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_placeholders_are_the_same_as_in_the_message_id(language: str) -> None:
    problems = []
    for message in messages(language):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = sorted(set(brace_names(ids[-1])))
        wanted_percent = sorted(PERCENT.findall(ids[-1]))
        for form in strings(message):
            try:
                got = sorted(set(brace_names(form)))
            except ValueError as error:
                problems.append(f"{form!r}: {error}")
                continue
            if got != wanted:
                problems.append(f"{form!r} has {got}, {key(message.id)!r} has {wanted}")
            if sorted(PERCENT.findall(form)) != wanted_percent:
                problems.append(f"{form!r}: % placeholders differ from {key(message.id)!r}")
            # The filled-in sentence must format with exactly the fields the code passes.
            form.format(**{name: "x" for name in wanted})
    assert not problems, f"{language}: " + "; ".join(problems)


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_singular_and_plural_ids_have_the_same_placeholders(language: str) -> None:
    for message in messages(language):
        if isinstance(message.id, tuple):
            assert set(brace_names(message.id[0])) == set(brace_names(message.id[1])), message.id


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_option_ids_in_help_texts_are_kept(language: str) -> None:
    """Help texts name option values by their ids (``lowest_mafia: ...``); a translation keeps them verbatim."""
    for message in messages(language):
        wanted = sorted(OPTION_ID.findall(key(message.id)))
        for form in strings(message):
            assert sorted(OPTION_ID.findall(form)) == wanted, (key(message.id), form)


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_no_straight_double_quotes_added(language: str) -> None:
    """Labels may land in HTML attributes; each language uses its own quotation marks instead."""
    for message in messages(language):
        if '"' not in key(message.id):
            assert not any('"' in form for form in strings(message)), key(message.id)


def test_romanian_uses_comma_below_letters() -> None:
    """ș and ț (comma below), not the cedilla look-alikes ş and ţ."""
    for message in messages("ro"):
        for form in strings(message):
            assert not re.search("[şţŞŢ]", form), form


def test_english_catalog_is_the_source_text() -> None:
    for message in messages("en"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        assert strings(message) == ids

"""The pages write numbers and lists from small tables (``webgame.language.locale_tables``, issue 32), not from
Babel's locale data: the tables give Babel's own output in every language of the app, and formatting no longer
loads that data into the server (about 4 MB of memory for a few separators and list patterns).

Babel is asked here, in the tests, so an upgrade that changes a separator or a list pattern, or a language added
to ``LANGUAGES`` without its table, fails here rather than showing different text.
"""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from babel import Locale, lists, numbers
from babel.support import NullTranslations

from webgame.language.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, translator
from webgame.language.locale_tables import TABLES

ROOT = Path(__file__).resolve().parents[2]
# What the pages format (seats, counts, fouls, minutes, points such as 0.5 or -0.25) and the edges Babel decides
# for them: grouping, rounding half to even past three decimals, minus zero, the infinities and NaN.
NUMBERS: list[float | Decimal] = [
    0, 1, 7, 59, 999, 1000, 12345, 99999, 123456, 1234567, 10**12, -5, -1000, -1234567,
    0.5, -0.5, 0.25, -0.4, 1.5, 2.75, 0.1, 0.3, 1234.5, -9876.25, 1.2345, 2.0005, 2.0015, 0.0004, -0.0004, 0.0,
    -0.0, 1e-7, 1e20, 99999.9999, float("inf"), float("-inf"), float("nan"), Decimal("3.5"), Decimal("-1234.567"),
]
NAMES = ["Alisher", "Оксана", "Ștefan", "Дмитрий", "Bob {0}"]  # a brace in a name is text, not a placeholder


def test_every_language_of_the_app_has_its_table() -> None:
    assert set(TABLES) == set(LANGUAGES)
    assert DEFAULT_LANGUAGE in TABLES


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_holds_babels_facts(language: str) -> None:
    """The facts one by one, so a failure says which one moved (the outputs below are what counts)."""
    locale = Locale.parse(language)
    table = TABLES[language]
    pattern = numbers.parse_pattern(locale.decimal_formats[None])
    assert pattern.pattern == "#,##0.###"
    assert pattern.grouping == (table.grouping, table.grouping)
    assert pattern.frac_prec == (0, table.fraction_digits)
    assert pattern.prefix == ("", table.minus) and pattern.suffix == ("", "")
    assert (numbers.get_group_symbol(locale), numbers.get_decimal_symbol(locale)) == (table.group, table.decimal)
    assert numbers.get_infinity_symbol(locale) == table.infinity
    assert dict(locale.list_patterns["standard"]) == {"start": table.start, "middle": table.middle,
                                                      "end": table.end, "2": table.pair}


@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_read_as_babel_writes_them(language: str) -> None:
    table = TABLES[language]
    for value in NUMBERS:
        assert (value, table.number(value)) == (value, numbers.format_decimal(value, locale=language))
    # Through the page's translator too. Its cache holds 0 and -0.0 as one key (they are equal), as it did when it
    # cached Babel's text: the edge cases above are asked of the table itself.
    _ = Translator(language, NullTranslations())
    for whole in (0, 1, 7, 999, 1000, 12345, 1234567, -5, 0.5, -0.25):
        assert _.number(whole) == numbers.format_decimal(whole, locale=language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_lists_read_as_babel_writes_them(language: str) -> None:
    _ = translator(language)
    for count in range(len(NAMES) + 1):
        names = NAMES[:count]
        assert _.join(names) == lists.format_list(names, locale=language)
        assert _.join(iter(names)) == _.join(names)  # the pages pass generators
    assert _.countdown(75) == "1:15"


def test_a_language_without_a_table_writes_as_english_does() -> None:
    unknown = Translator("xx", NullTranslations())
    assert unknown.number(-1234.5) == "-1,234.5"
    assert unknown.join(["a", "b", "c"]) == "a, b, and c"
    assert translator("de").table is TABLES[DEFAULT_LANGUAGE]


def test_formatting_loads_no_babel_locale_data() -> None:
    """In a fresh interpreter (other tests here load Babel's data into this one): Babel keeps what it loads in
    ``babel.localedata._cache`` and ``babel.core._global_data``; both stay empty after every language wrote
    numbers, lists, seconds and a countdown."""
    code = (
        "import babel.core, babel.localedata\n"
        "from webgame.language.i18n import LANGUAGES, translator\n"
        "for language in LANGUAGES:\n"
        "    _ = translator(language)\n"
        "    _.number(1234567), _.number(-0.5), _.join(['a', 'b', 'c']), _.seconds(30), _.countdown(75)\n"
        "print(sorted(babel.localedata._cache), babel.core._global_data is None)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[]", "True"]

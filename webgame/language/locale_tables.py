"""How each language of the pages writes numbers and lists: the few facts of Babel's locale data that they use.

Babel's ``Locale`` would load its global data and each language's own (about 4 MB of the server's memory, issue
32) for two separators and four list patterns. Copied from Babel 2.19 (CLDR 49): ``tests/web/test_locale_tables.py``
holds them to Babel's own output, so an upgrade that changes them, or a language added without its table, fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple


class LocaleTable(NamedTuple):
    """One language's numbers (Babel's decimal pattern ``#,##0.###``) and lists (CLDR's ``standard`` patterns)."""

    group: str  # between groups of ``grouping`` digits
    decimal: str  # before the fraction
    end: str  # the pattern that adds the last of three or more items: ``{0}, and {1}``
    pair: str  # CLDR's pattern "2", a list of two: ``{0} and {1}``
    start: str = "{0}, {1}"  # the first two of three or more
    middle: str = "{0}, {1}"  # each further item but the last
    minus: str = "-"  # Babel writes the pattern's ASCII minus, not the language's own minus sign
    grouping: int = 3
    fraction_digits: int = 3  # further digits are rounded half to even, as Babel's Decimal quantize does
    infinity: str = "∞"

    def number(self, value: float | Decimal) -> str:
        """``value`` as Babel's ``format_decimal`` writes it: its ``NumberPattern.apply``, step by step."""
        exact = value if isinstance(value, Decimal) else Decimal(str(value))
        sign = self.minus if exact.is_signed() else ""  # -0.0 is "-0" in Babel too
        exact = abs(exact).normalize()
        if exact.is_infinite():
            return sign + self.infinity
        whole, _, fraction = f"{exact.quantize(Decimal(10) ** -self.fraction_digits):f}".partition(".")
        groups = [whole[max(0, end - self.grouping):end] for end in range(len(whole), 0, -self.grouping)]
        fraction = fraction.rstrip("0")
        return sign + self.group.join(reversed(groups)) + (self.decimal + fraction if fraction else "")

    def join(self, items: Sequence[str]) -> str:
        """``items`` as Babel's ``format_list`` joins them."""
        if len(items) <= 2:  # no item gives "", one gives itself
            return self.pair.format(*items) if len(items) == 2 else "".join(items)
        text = self.start.format(items[0], items[1])
        for item in items[2:-1]:
            text = self.middle.format(text, item)
        return self.end.format(text, items[-1])


TABLES: dict[str, LocaleTable] = {
    "uz": LocaleTable("\xa0", ",", "{0} va {1}", "{0} va {1}"),  # Uzbek in Latin script, Babel's "uz"
    "uk": LocaleTable("\xa0", ",", "{0} і {1}", "{0} і {1}"),
    "ro": LocaleTable(".", ",", "{0} și {1}", "{0} și {1}"),
    "ru": LocaleTable("\xa0", ",", "{0} и {1}", "{0} и {1}"),
    "en": LocaleTable(",", ".", "{0}, and {1}", "{0} and {1}"),
}

"""What players read: plural forms through the Translator, role names of both rule sets in every
language (the seeds' names), and one word per game term in each language."""

from __future__ import annotations

import re

import pytest

from engine.roles import ROLE_TABLES, Role
from webgame.language.i18n import LANGUAGES, translator

from .catalogs import TRANSLATED, key, messages, strings

NOT_VOTED = ("{count} has not voted yet.", "{count} have not voted yet.")  # webgame/pages/day.py


def test_ukrainian_has_three_plural_forms_through_the_translator() -> None:
    _ = translator("uk")
    one, few, many = (_.ngettext(*NOT_VOTED, n).format(count=n) for n in (1, 3, 5))
    assert len({one.replace("1", "#"), few.replace("3", "#"), many.replace("5", "#")}) == 3
    assert (one, few, many) == ("1 гравець ще не проголосував.", "3 гравці ще не проголосували.",
                                "5 гравців ще не проголосували.")
    assert _.ngettext(*NOT_VOTED, 21).format(count=21) == "21 гравець ще не проголосував."
    assert _.ngettext(*NOT_VOTED, 12).format(count=12) == "12 гравців ще не проголосували."
    assert [_.seconds(n) for n in (1, 2, 5, 0)] == ["1 секунда", "2 секунди", "5 секунд", "0 секунд"]


@pytest.mark.parametrize(("language", "expected"), [
    ("ru", ("1 игрок ещё не проголосовал.", "3 игрока ещё не проголосовали.", "5 игроков ещё не проголосовали.")),
    ("ro", ("1 jucător nu a votat încă.", "3 jucători nu au votat încă.", "25 de jucători nu au votat încă.")),
    ("uz", ("1 o'yinchi hali ovoz bermadi.", "3 o'yinchi hali ovoz bermadi.", "5 o'yinchi hali ovoz bermadi.")),
    ("en", ("1 has not voted yet.", "3 have not voted yet.", "5 have not voted yet.")),
])
def test_plural_forms_of_the_other_languages(language: str, expected: tuple[str, str, str]) -> None:
    _ = translator(language)
    counts = (1, 3, 25) if language == "ro" else (1, 3, 5)
    assert tuple(_.ngettext(*NOT_VOTED, n).format(count=n) for n in counts) == expected


ROLE_NAMES: dict[str, dict[str, dict[Role, str]]] = {
    "en": {
        "uz": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.LAWYER: "Lawyer", Role.DOCTOR: "Doctor",
               Role.COMMISSAR: "Commissar Cattani", Role.SERGEANT: "Sergeant", Role.LOVER: "Lover",
               Role.HOBO: "Hobo", Role.KAMIKAZE: "Kamikaze", Role.WEREWOLF: "Werewolf", Role.KILLER: "Killer",
               Role.CIVILIAN: "Civilian"},
        "uk": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.COURTESAN: "Courtesan", Role.COMMISSAR: "Commissar",
               Role.DOCTOR: "Doctor", Role.MANIAC: "Maniac", Role.CIVILIAN: "Civilian"},
    },
    "uz": {  # seed 000 for its own rule set
        "uz": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.LAWYER: "Advokat", Role.DOCTOR: "Doktor",
               Role.COMMISSAR: "Komissar Katani", Role.SERGEANT: "Serjant", Role.LOVER: "Kezuvchi",
               Role.HOBO: "Daydi", Role.KAMIKAZE: "Afsungar", Role.WEREWOLF: "Bo'ri", Role.KILLER: "Qotil",
               Role.CIVILIAN: "Aholi"},
        "uk": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.COURTESAN: "Putana", Role.COMMISSAR: "Komissar",
               Role.DOCTOR: "Doktor", Role.MANIAC: "Manyak", Role.CIVILIAN: "Aholi"},
    },
    "uk": {  # seed 002 for its own rule set
        "uz": {Role.DON: "Дон", Role.MAFIA: "Мафія", Role.LAWYER: "Адвокат", Role.DOCTOR: "Доктор",
               Role.COMMISSAR: "Комісар Каттані", Role.SERGEANT: "Сержант", Role.LOVER: "Коханка",
               Role.HOBO: "Бомж", Role.KAMIKAZE: "Камікадзе", Role.WEREWOLF: "Перевертень", Role.KILLER: "Вбивця",
               Role.CIVILIAN: "Мирний житель"},
        "uk": {Role.DON: "Дон", Role.MAFIA: "Мафія", Role.COURTESAN: "Путана", Role.COMMISSAR: "Комісар",
               Role.DOCTOR: "Доктор", Role.MANIAC: "Маніяк", Role.CIVILIAN: "Мирний житель"},
    },
    "ru": {
        "uz": {Role.DON: "Дон", Role.MAFIA: "Мафия", Role.LAWYER: "Адвокат", Role.DOCTOR: "Доктор",
               Role.COMMISSAR: "Комиссар Каттани", Role.SERGEANT: "Сержант", Role.LOVER: "Любовница",
               Role.HOBO: "Бомж", Role.KAMIKAZE: "Камикадзе", Role.WEREWOLF: "Оборотень", Role.KILLER: "Убийца",
               Role.CIVILIAN: "Мирный житель"},
        "uk": {Role.DON: "Дон", Role.MAFIA: "Мафия", Role.COURTESAN: "Путана", Role.COMMISSAR: "Комиссар",
               Role.DOCTOR: "Доктор", Role.MANIAC: "Маньяк", Role.CIVILIAN: "Мирный житель"},
    },
    "ro": {  # seed 003, corrected
        "uz": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.LAWYER: "Avocat", Role.DOCTOR: "Doctor",
               Role.COMMISSAR: "Comisar Cattani", Role.SERGEANT: "Sergent", Role.LOVER: "Amantă",
               Role.HOBO: "Vagabond", Role.KAMIKAZE: "Kamikaze", Role.WEREWOLF: "Vârcolac", Role.KILLER: "Ucigaș",
               Role.CIVILIAN: "Civil"},
        "uk": {Role.DON: "Don", Role.MAFIA: "Mafia", Role.COURTESAN: "Putana", Role.COMMISSAR: "Comisar",
               Role.DOCTOR: "Doctor", Role.MANIAC: "Maniac", Role.CIVILIAN: "Civil"},
    },
}


def test_every_language_has_its_role_names_and_glossary_here() -> None:
    assert set(ROLE_NAMES) == set(LANGUAGES)
    assert all(set(words) == set(LANGUAGES) - {"en"} for words in GLOSSARY.values())


@pytest.mark.parametrize("language", sorted(ROLE_NAMES))
@pytest.mark.parametrize("rules", sorted(ROLE_TABLES))
def test_role_names_of_both_rule_sets_in_every_language(language: str, rules: str) -> None:
    _ = translator(language)
    shown = {role: _(info.name) for role, info in ROLE_TABLES[rules].items()}
    assert shown == ROLE_NAMES[language][rules]
    descriptions = [_(info.description) for info in ROLE_TABLES[rules].values()]
    if language != "en":
        assert not set(descriptions) & {info.description for info in ROLE_TABLES[rules].values()}


# One word per game term and language: a message id that uses the term gets a translation that uses
# the chosen word (a stem, matched case-insensitively).
GLOSSARY: dict[str, dict[str, str]] = {
    r"\bnominat": {"uk": "вистав", "ru": "выстав", "ro": "nominaliz", "uz": "nomzod"},
    r"\bfouls?\b": {"uk": "фол", "ru": "фол", "ro": "fault", "uz": "fol"},
    r"\bvot(e|es|ed|ing|er)\b": {"uk": "голос", "ru": "голос", "ro": "vot", "uz": "ovoz"},
    r"night": {"uk": "ніч|ноч", "ru": "ноч", "ro": "noapt|nopț", "uz": "tun"},
    r"\bspeech": {"uk": "промов", "ru": "реч", "ro": "discurs", "uz": "nutq"},
    r"\bcommissar": {"uk": "коміс", "ru": "комисс", "ro": "comisar", "uz": "komissar"},
    r"\beliminat": {"uk": "вибу", "ru": "выб", "ro": "elimin", "uz": "chiqar"},
    r"\bhost\b": {"uk": "організатор", "ru": "организатор", "ro": "organizator", "uz": "tashkilotchi"},
    r"\bmoderat": {"uk": "ведуч|веду|веде", "ru": "ведущ|веду|ведёт", "ro": "moder", "uz": "boshlov|olib bor"},
    r"\babstain": {"uk": "утрим", "ru": "воздерж", "ro": "abți", "uz": "betaraf"},
    r"\bcheck": {"uk": "перевір", "ru": "провер", "ro": "verific", "uz": "tekshir"},
    r"\bheal": {"uk": "лік", "ru": "леч", "ro": "vindec", "uz": "davol"},
    r"\bfr(ee|o)z": {"uk": "замор", "ru": "замор", "ro": "îngh", "uz": "muzlat"},
    r"\bnote\b": {"uk": "записк", "ru": "записк", "ro": "bilet", "uz": "xat"},
    r"\blast words\b": {"uk": "останнє слово", "ru": "последнее слово", "ro": "ultimele cuvinte",
                        "uz": "so'nggi so'z"},
    r"\bdefence\b": {"uk": "виправдувальн", "ru": "оправдательн", "ro": "apărare", "uz": "oqlanish"},
    r"\bdiscussion\b": {"uk": "обговор", "ru": "обсужд", "ro": "discuți", "uz": "muhokama"},
    r"\bdraw\b": {"uk": "нічи", "ru": "ничь", "ro": "remiz", "uz": "durang"},
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_one_word_per_game_term(language: str) -> None:
    problems = []
    for message in messages(language):
        source = key(message.id)
        for term, words in GLOSSARY.items():
            if re.search(term, source, re.IGNORECASE):
                word = words[language]
                problems += [f"{source!r} -> {form!r} lacks {word!r}" for form in strings(message)
                             if not re.search(word, form, re.IGNORECASE)]
    assert not problems, "\n".join(problems)


def test_a_points_option_reads_as_the_phones_language_writes_numbers() -> None:
    """Issue 30: the points options are decimal strings ("0.5", "-0.25"); the lobby shows them as Babel writes that
    number in the phone's language, and every choice of them is the option's value."""
    from engine.options import UK_OPTIONS
    from webgame.pages.wording import choice_label

    assert choice_label(translator("ru"), "0.5") == "0,5"
    assert choice_label(translator("uk"), "-0.25") in ("-0,25", "\u22120,25")
    assert choice_label(translator("en"), "1.5") == "1.5"
    points = [spec for spec in UK_OPTIONS if spec.name.startswith("points_")]
    assert len(points) == 5 and all(spec.default in spec.choices for spec in points)

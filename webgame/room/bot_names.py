"""The names the lobby gives bots, per room language: ordinary first names of that language.

A bot's name is kept in its seat record when the host adds it (in the room's language), like a person's; what
marks it as a bot on every screen is the seat's ``is_bot`` flag, drawn as a translated badge.
"""

from __future__ import annotations

BOT_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Alice", "Ben", "Clara", "David", "Emma", "Frank", "Grace", "Henry", "Ivy", "Jack", "Kate", "Leo",
           "Mia", "Noah"),
    "uz": ("Aziz", "Bobur", "Dilnoza", "Farrux", "Gulnora", "Jasur", "Kamola", "Laylo", "Madina", "Nodir",
           "Otabek", "Sardor", "Shahlo", "Zarina"),
    "uk": ("Андрій", "Богдан", "Дарина", "Ірина", "Катерина", "Максим", "Микола", "Оксана", "Олена", "Петро",
           "Роман", "Софія", "Тарас", "Юлія"),
    "ro": ("Andrei", "Bianca", "Cristi", "Diana", "Elena", "Florin", "Gabriela", "Ioana", "Mihai", "Radu",
           "Sorin", "Teodora", "Vlad", "Ana"),
    "ru": ("Алексей", "Борис", "Вера", "Галина", "Дмитрий", "Елена", "Иван", "Ирина", "Мария", "Никита",
           "Ольга", "Павел", "Светлана", "Юрий"),
}


def bot_names(language: str, start: int = 0) -> list[str]:
    """The language's bot names (English if it has none), starting at ``start`` so bots differ from the first,
    then each with a number after it if a table has used them all."""
    names = BOT_NAMES.get(language, BOT_NAMES["en"])
    turned = [*names[start % len(names):], *names[:start % len(names)]]
    return [*turned, *(f"{name} {n}" for n in range(2, 4) for name in turned)]

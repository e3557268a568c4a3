"""Dealing tables: which roles a table of n players gets, and the seeded deal."""

from __future__ import annotations

import random
from collections.abc import Mapping

from engine.options import OptionValue
from engine.roles import Role

PLAYER_RANGE: dict[str, tuple[int, int]] = {"uz": (4, 30), "uk": (8, 14)}

_UZ_TOWN_LADDER: tuple[tuple[int, Role], ...] = (
    (4, Role.DOCTOR),
    (5, Role.COMMISSAR),
    (8, Role.SERGEANT),
    (9, Role.LOVER),
    (11, Role.KILLER),
    (14, Role.HOBO),
    (18, Role.KAMIKAZE),
    (22, Role.WEREWOLF),
)


def _uz_mafia(n: int, divisor: int) -> list[Role]:
    if n <= 5:
        return [Role.MAFIA]
    if n == 6:
        return [Role.MAFIA, Role.MAFIA]
    plain = 1 if n <= 9 else 2 if n <= 14 else 3 if n <= 19 else 4 if n <= 21 else n // divisor
    team = [Role.DON] + [Role.MAFIA] * plain
    if n >= 12:
        team.append(Role.LAWYER)
    return team


def uz_table(n: int, options: Mapping[str, OptionValue]) -> list[Role]:
    roles = _uz_mafia(n, int(options.get("big_game_mafia_divisor", 5)))
    roles += [role for threshold, role in _UZ_TOWN_LADDER if n >= threshold]
    if n == 13 and options.get("thirteen_players", "civilian") == "hobo":
        roles.append(Role.HOBO)
    return roles + [Role.CIVILIAN] * (n - len(roles))


def uk_table(n: int, options: Mapping[str, OptionValue]) -> list[Role]:
    plain = 0 if n == 8 else 1 if n <= 11 else 2
    roles = [Role.DON] + [Role.MAFIA] * plain + [Role.COURTESAN, Role.COMMISSAR, Role.DOCTOR, Role.MANIAC]
    return roles + [Role.CIVILIAN] * (n - len(roles))


TABLES = {"uz": uz_table, "uk": uk_table}


def table(rules: str, n: int, options: Mapping[str, OptionValue]) -> list[Role]:
    return TABLES[rules](n, options)


def deal(rules: str, n: int, options: Mapping[str, OptionValue], rng: random.Random) -> list[Role]:
    """The table for n players, shuffled by the game's own RNG (sorted first, so it replays)."""
    roles = sorted(table(rules, n, options))
    rng.shuffle(roles)
    return roles

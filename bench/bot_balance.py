"""Prints the table bots' section of docs/BALANCE.md: the bots a room seats, team against team.

``python -m bench.bot_balance [--games N]``: for each rule set and a range of table sizes, the win rates of
``engine.seat_bots`` at every seat (each deciding from its own view only), then the strong level against
the simple one, side by side (strong town vs simple mafia, and the reverse).
"""

from __future__ import annotations

import argparse

from bench.balance import SIDES, cell
from engine.simulate import simulate

SIZES = {"uz": (4, 5, 6, 8, 10, 12, 16, 20), "uk": (8, 10, 12, 14)}
LEVEL_SIZES = {"uz": (6, 10, 12), "uk": (10, 12)}


INTRO = [
    "## The bots a room seats",
    "",
    "`engine/seat_bots.py`, the bots a host adds to his table: each decides from its own seat's view only (its "
    "card, the roles it may know, its own checks, the public record), with no stand-in for table talk, so the "
    "town knows only what its commissar finds. The mafia knows its team and never votes for it. "
    "Reproduce with `python -m bench.bot_balance --games 400`, a row with "
    "`python -m engine.simulate --bot table --rules uz --players 8 --games 400` "
    "(`--town strong` or `--mafia strong` for the strong level on one side).",
    "",
]


def sections(games: int) -> list[str]:
    """The markdown lines: simple bots at every seat per table size, then the strong level against the simple."""
    lines = list(INTRO)
    for rules, sizes in SIZES.items():
        sides = SIDES[rules]
        lines += [f"### {rules}: simple bots at every seat ({games} games a row)", "",
                  "| players | " + " | ".join(sides) + " | average days |", "|---|" + "---|" * len(sides) + "---|"]
        for players in sizes:
            summary = simulate(rules, players, games, 1, "table")
            lines.append(f"| {players} | " + " | ".join(cell(summary, s) for s in sides) + f" | {summary.days:.2f} |")
            print(lines[-1], flush=True)
        lines.append("")
    lines += [f"### The strong level against the simple one ({games} games a cell)", "",
              "| rules | players | town, both simple | town strong vs mafia simple | mafia, both simple "
              "| mafia strong vs town simple |", "|---|---|---|---|---|---|"]
    for rules, sizes in LEVEL_SIZES.items():
        town, mafia = SIDES[rules][:2]  # uk: red and black
        for players in sizes:
            base = simulate(rules, players, games, 1, "table")
            strong_town = simulate(rules, players, games, 1, "table", town="strong")
            strong_mafia = simulate(rules, players, games, 1, "table", mafia="strong")
            lines.append(f"| {rules} | {players} | {cell(base, town)} | {cell(strong_town, town)} "
                         f"| {cell(base, mafia)} | {cell(strong_mafia, mafia)} |")
            print(lines[-1], flush=True)
    lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    print("\n".join(sections(args.games)))


if __name__ == "__main__":
    main()

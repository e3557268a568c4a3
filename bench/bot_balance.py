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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    for rules, sizes in SIZES.items():
        sides = SIDES[rules]
        print(f"### {rules}: simple bots at every seat\n")
        print("| players | " + " | ".join(sides) + " | average days |")
        print("|---|" + "---|" * len(sides) + "---|")
        for players in sizes:
            summary = simulate(rules, players, args.games, 1, "table")
            print(f"| {players} | " + " | ".join(cell(summary, s) for s in sides) + f" | {summary.days:.2f} |",
                  flush=True)
        print()
    for rules, sizes in LEVEL_SIZES.items():
        town, mafia = SIDES[rules][:2]
        print(f"### {rules}: the strong level against the simple one\n")
        print(f"| players | {town} wins, both simple | {town} strong, {mafia} simple | {mafia} strong, {town} simple |")
        print("|---|---|---|---|")
        for players in sizes:
            base = simulate(rules, players, args.games, 1, "table")
            strong_town = simulate(rules, players, args.games, 1, "table", town="strong")
            strong_mafia = simulate(rules, players, args.games, 1, "table", mafia="strong")
            print(f"| {players} | {cell(base, town)} | {town}: {cell(strong_town, town)} | "
                  f"{mafia}: {cell(strong_mafia, mafia)} |", flush=True)
        print()


if __name__ == "__main__":
    main()

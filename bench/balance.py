"""Writes docs/BALANCE.md: heuristic-bot win rates for every player count of both rule sets.

``python -m bench.balance [--games N]`` (the committed table used 2,000 games a row).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.dealing import PLAYER_RANGE, table
from engine.simulate import Summary, simulate

SIDES = {"uz": ("town", "mafia", "killer", "draw"), "uk": ("red", "black", "draw")}


def cell(summary: Summary, side: str) -> str:
    p, low, high = summary.interval(side)
    return f"{p:.1%} ({low:.1%}-{high:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--out", default="docs/BALANCE.md")
    parser.add_argument("--bot-games", type=int, default=400, help="games a row of the table bots' section")
    args = parser.parse_args()
    lines = [
        "# Balance: who wins, by player count",
        "",
        f"Heuristic bots (`engine/bots.py`), {args.games} games a row, seed 1, default options; "
        "95% Wilson intervals in brackets. Reproduce a row with "
        "`python -m engine.simulate --rules uz --players 12 --games 10000 --seed 1`, the table with "
        f"`python -m bench.balance --games {args.games}`.",
        "",
        "The bots are a model, not people: the mafia knows its team and votes together half the time; "
        "the commissar acts on his checks; every other town player reads the table right with a "
        "probability of 0.35 (the stand-in for table talk) and otherwise votes at random. "
        "So read the table for trends between player counts, not as a verdict on the rules.",
        "",
    ]
    for rules in ("uz", "uk"):
        low, high = PLAYER_RANGE[rules]
        sides = SIDES[rules]
        lines += [f"## {rules}", "", "| players | roles | " + " | ".join(sides) + " | average days |",
                  "|---|---|" + "---|" * len(sides) + "---|"]
        for players in range(low, high + 1):
            summary = simulate(rules, players, args.games, 1)
            roles = table(rules, players, {})
            special = ", ".join(sorted({str(r) for r in roles} - {"civilian"}))
            lines.append(f"| {players} | {special} | " + " | ".join(cell(summary, s) for s in sides)
                         + f" | {summary.days:.2f} |")
            print(lines[-1], flush=True)
        lines.append("")
    from bench.bot_balance import sections  # here: that module takes SIDES and cell from this one

    lines += sections(args.bot_games)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

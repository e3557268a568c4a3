"""``python -m engine.simulate --rules uz --players 12 --games 10000 --seed 1``: win rates by bots.

Prints each side's win rate with a 95% Wilson interval and the average number of days.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from dataclasses import dataclass

from engine.bots import POLICIES, Memory, play
from engine.dealing import PLAYER_RANGE
from engine.game import new_game


@dataclass(frozen=True, slots=True)
class Summary:
    rules: str
    players: int
    games: int
    wins: dict[str, int]
    days: float

    def interval(self, side: str) -> tuple[float, float, float]:
        n, k, z = self.games, self.wins.get(side, 0), 1.96
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return p, max(0.0, centre - half), min(1.0, centre + half)


def simulate(rules: str, players: int, games: int, seed: int, bot: str = "heuristic") -> Summary:
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    days = 0
    for _ in range(games):
        state = new_game(rules, players, rng.getrandbits(32))
        memory = Memory()
        play(state, POLICIES[bot](rng, memory), memory)
        wins[state.winner or "unfinished"] += 1
        days += state.day
    return Summary(rules, players, games, dict(wins), days / games)


def format_summary(summary: Summary) -> str:
    lines = [f"{summary.rules} rules, {summary.players} players, {summary.games} games"]
    for side in sorted(summary.wins, key=lambda s: -summary.wins[s]):
        p, low, high = summary.interval(side)
        lines.append(f"  {side:<8} {p:6.1%}  (95% CI {low:.1%} - {high:.1%})")
    lines.append(f"  average days: {summary.days:.2f}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--rules", choices=sorted(PLAYER_RANGE), default="uz")
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=sorted(POLICIES), default="heuristic")
    args = parser.parse_args(argv)
    low, high = PLAYER_RANGE[args.rules]
    if not low <= args.players <= high:
        parser.error(f"{args.rules} plays with {low}-{high} players")
    print(format_summary(simulate(args.rules, args.players, args.games, args.seed, args.bot)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

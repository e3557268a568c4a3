"""``python -m engine.simulate --rules uz --players 12 --games 10000 --seed 1``: win rates by bots.

Prints each side's win rate with a 95% Wilson interval and the average number of days. ``--bot table`` plays
the bots a room seats (``engine.seat_bots``: each seat from its own view only); ``--town strong`` (or
``--mafia strong``) gives one side the stronger level.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from dataclasses import dataclass

from engine.actions import Deadline
from engine.bots import POLICIES, Memory, play
from engine.common import in_mafia_team
from engine.dealing import PLAYER_RANGE
from engine.game import apply, new_game
from engine.knowledge import Viewer
from engine.seat_bots import decide
from engine.state import GameState, Phase
from engine.view import view

BOTS = (*POLICIES, "table")


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


def play_seats(state: GameState, rng: random.Random, town: str = "simple", mafia: str = "simple",
               max_actions: int = 20_000) -> GameState:
    """Play ``state`` to its end with a table bot at every seat, each deciding from its own view (the level of
    its side as dealt); the clock ends a step nobody has anything left to do in."""
    levels = {seat: mafia if in_mafia_team(state, seat) else town for seat in range(1, state.n + 1)}
    count = 0
    while state.phase is not Phase.ENDED and count < max_actions:
        step, acted = state.step, False
        for seat in range(1, state.n + 1):
            action = decide(view(state, Viewer.of_seat(seat)), rng, levels[seat])
            if action is not None:
                apply(state, action)
                acted, count = True, count + 1
                if state.step != step:
                    break
        if not acted and state.step == step and not _ended(state):
            apply(state, Deadline(step))
            count += 1
    return state


def _ended(state: GameState) -> bool:
    """A call, so that type narrowing does not outlive the actions applied in between."""
    return state.phase is Phase.ENDED


def simulate(rules: str, players: int, games: int, seed: int, bot: str = "heuristic", town: str = "simple",
             mafia: str = "simple") -> Summary:
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    days = 0
    for _ in range(games):
        state = new_game(rules, players, rng.getrandbits(32))
        if bot == "table":
            play_seats(state, rng, town, mafia)
        else:
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
    parser.add_argument("--bot", choices=sorted(BOTS), default="heuristic")
    parser.add_argument("--town", choices=("simple", "strong"), default="simple", help="table bots' town level")
    parser.add_argument("--mafia", choices=("simple", "strong"), default="simple", help="table bots' mafia level")
    args = parser.parse_args(argv)
    low, high = PLAYER_RANGE[args.rules]
    if not low <= args.players <= high:
        parser.error(f"{args.rules} plays with {low}-{high} players")
    print(format_summary(simulate(args.rules, args.players, args.games, args.seed, args.bot, args.town,
                                            args.mafia)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

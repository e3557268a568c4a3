"""Engine benchmarks (figures go to docs/PERFORMANCE.md): ``python -m bench.engine_bench``.

1. 10,000 random-bot 12-player uz games, one core.
2. One action applied, then every view of a 30-player room projected (30 seats, the moderator,
   a spectator), at every step of seeded games; median, p95 and worst.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.actions import Deadline
from engine.bots import Memory, Policy, next_actions, play
from engine.game import apply, new_game
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.state import Phase
from engine.view import public_view, view


def games(count: int, players: int = 12, seed: int = 1) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(count):
        state = new_game("uz", players, rng.getrandbits(32))
        memory = Memory()
        play(state, Policy(rng, memory), memory)
    return time.perf_counter() - start


def action_and_views(players: int = 30, games_count: int = 5) -> list[float]:
    viewers = [Viewer.of_seat(s) for s in range(1, players + 1)] + [MODERATOR, SPECTATOR]
    samples: list[float] = []
    for seed in range(games_count):
        state = new_game("uz", players, seed)
        rng = random.Random(seed)
        policy = Policy(rng, Memory())
        while state.phase is not Phase.ENDED:
            step = state.step
            pending = next_actions(state, policy) or [Deadline(step)]
            for action in pending:
                start = time.perf_counter()
                apply(state, action)
                shared = public_view(state)
                for viewer in viewers:
                    view(state, viewer, shared)
                samples.append(time.perf_counter() - start)
                if state.step != step or state.phase is Phase.ENDED:
                    break
            if state.step == step and state.phase is not Phase.ENDED:
                apply(state, Deadline(step))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    seconds = games(args.games)
    print(f"{args.games} random 12-player uz games: {seconds:.2f} s ({seconds / args.games * 1000:.3f} ms/game)")
    samples = sorted(action_and_views())
    ms = [s * 1000 for s in samples]
    print(f"one action + 32 views of a 30-player room ({len(ms)} samples): median {statistics.median(ms):.3f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.3f} ms, worst {ms[-1]:.3f} ms")


if __name__ == "__main__":
    main()

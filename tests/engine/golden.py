"""Golden playthroughs: a seeded game's per-viewer views, step by step, as text.

Regenerate after a deliberate rules change with ``python -m tests.engine.golden --update`` and
read the diff line by line before committing it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from engine.actions import to_dict
from engine.bots import Heuristic
from engine.game import new_game
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.view import view
from tests.engine.play_helpers import steps

GOLDEN_DIR = Path(__file__).parent.parent / "golden"
GAMES = {"uz": [(12, 2024), (16, 7)], "uk": [(12, 2024), (10, 5)]}


def _line(name: str, v: dict[str, object], seen: int) -> tuple[str, int]:
    events = v["events"]
    assert isinstance(events, list)
    shown = {key: v[key] for key in ("phase", "day", "speaker", "roles", "team_night", "chat")}
    shown["actions"] = [
        {k: a[k] for k in ("type", "act", "targets") if k in a} for a in v["actions"]  # type: ignore[union-attr]
    ]
    shown["new_events"] = events[seen:]
    return f"  {name}: {json.dumps(shown, ensure_ascii=False, sort_keys=True)}", len(events)


def playthrough(rules: str, players: int, seed: int) -> list[str]:
    state = new_game(rules, players, seed, {"day_limit": 40})
    viewers = [(f"seat {s}", Viewer.of_seat(s)) for s in range(1, players + 1)]
    viewers += [("moderator", MODERATOR), ("spectator", SPECTATOR)]
    seen = {name: 0 for name, _ in viewers}
    lines = [f"# {rules} {players} players seed {seed}: roles {[str(r) for r in state.roles]}"]

    def snapshot(header: str) -> None:
        lines.append(header)
        for name, viewer in viewers:
            line, seen[name] = _line(name, view(state, viewer), seen[name])
            lines.append(line)

    snapshot("start")
    for action in steps(state, random.Random(seed), fouls=True, policy=Heuristic):
        snapshot(f"after {json.dumps(to_dict(action), sort_keys=True)}")
    lines.append(f"winner {state.winner}")
    return lines


def path_for(rules: str, players: int, seed: int) -> Path:
    return GOLDEN_DIR / f"{rules}-{players}-seed{seed}.txt"


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print("usage: python -m tests.engine.golden --update", file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(exist_ok=True)
    for rules, games in GAMES.items():
        for players, seed in games:
            path_for(rules, players, seed).write_text("\n".join(playthrough(rules, players, seed)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

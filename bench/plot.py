"""The web figures as one SVG (written by hand, no plotting library): ``python -m bench.plot OUT.svg RESULT.json...``

Left: server CPU (share of one core) against connected phones, the game and the floor, for every run in
the JSON files of ``bench.load --json``; right: tap-to-every-screen p95 against phones. Runs with other
phones-per-room counts are drawn as their own series, so both growths show: with rooms, and with players
per room.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

WIDTH, HEIGHT, PAD = 1200, 380, 55
COLOURS = {"game": "#c2410c", "floor": "#2563eb"}
DASHES = ["", "6,4", "2,3", "10,3,2,3"]


def series(results: list[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for result in results:
        if result.get("kind") in COLOURS:
            out.setdefault((result["kind"], result["players"]), []).append(result)
    for runs in out.values():
        runs.sort(key=lambda r: r["phones"])
    return out


def panel(x0: int, title: str, key: str, unit: str, data: dict[tuple[str, int], list[dict[str, Any]]],
          players: list[int]) -> list[str]:
    w, h = WIDTH // 3 - PAD - 20, HEIGHT - 2 * PAD
    points = [r for runs in data.values() for r in runs if r.get(key) is not None]
    if not points:
        return []
    xkey = "players" if key == "server_cpu_ms_per_action" else "phones"
    xmax = max(r[xkey] for r in points) * 1.05
    ymax = max(r[key] for r in points) * 1.1 or 1
    parts = [f'<text x="{x0 + w / 2}" y="{PAD - 20}" text-anchor="middle" font-weight="bold">{title}</text>',
             f'<line x1="{x0}" y1="{PAD + h}" x2="{x0 + w}" y2="{PAD + h}" stroke="#333"/>',
             f'<line x1="{x0}" y1="{PAD}" x2="{x0}" y2="{PAD + h}" stroke="#333"/>',
             f'<text x="{x0 + w / 2}" y="{PAD + h + 35}" text-anchor="middle">'
             f'{"players per room" if xkey == "players" else "connected phones"}</text>']
    for i in range(5):
        value = ymax * i / 4
        y = PAD + h - h * i / 4
        parts.append(f'<text x="{x0 - 6}" y="{y + 4}" text-anchor="end" font-size="11">{value:.0f}{unit}</text>')
        parts.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + w}" y2="{y}" stroke="#ddd"/>')
        phones = xmax * i / 4
        parts.append(f'<text x="{x0 + w * i / 4}" y="{PAD + h + 16}" text-anchor="middle" font-size="11">'
                     f'{phones:.0f}</text>')
    for (kind, count), runs in sorted(data.items()):
        coords = [(x0 + w * r[xkey] / xmax, PAD + h - h * r[key] / ymax) for r in runs if r.get(key) is not None]
        if not coords:
            continue
        dash = DASHES[players.index(count) % len(DASHES)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[kind]}" stroke-width="2"'
                     f' stroke-dasharray="{dash}"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLOURS[kind]}"/>' for x, y in coords]
    return parts


def render(results: list[dict[str, Any]]) -> str:
    data = series(results)
    players = sorted({count for _, count in data})
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT + 30}" '
             f'font-family="sans-serif" font-size="13"><rect width="100%" height="100%" fill="white"/>']
    parts += panel(PAD + 10, "server CPU (% of one core)", "server_cpu_pct", "%", data, players)
    parts += panel(WIDTH // 3 + PAD, "tap to every screen, p95 (ms)", "p95_ms", "", data, players)
    by_rooms: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for runs in data.values():
        for r in runs:
            by_rooms.setdefault((r["kind"], r["rooms"]), []).append(r)
    for runs in by_rooms.values():
        runs.sort(key=lambda r: r["players"])
    rooms = sorted({count for _, count in by_rooms})
    parts += panel(2 * WIDTH // 3 + PAD, "server CPU per action (ms)", "server_cpu_ms_per_action", "", by_rooms,
                   rooms)
    x = PAD
    for kind, count in sorted(data):
        dash = DASHES[players.index(count) % len(DASHES)]
        parts.append(f'<line x1="{x}" y1="{HEIGHT + 12}" x2="{x + 30}" y2="{HEIGHT + 12}" stroke="{COLOURS[kind]}" '
                     f'stroke-width="2" stroke-dasharray="{dash}"/>')
        parts.append(f'<text x="{x + 36}" y="{HEIGHT + 16}">{kind}, {count} players per room</text>')
        x += 280
    parts.append("</svg>")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    out, inputs = Path(argv[0]), argv[1:]
    results = [r for name in inputs for r in json.loads(Path(name).read_text())]
    out.write_text(render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

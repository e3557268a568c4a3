"""The load of ``bench.load`` through the cluster's proxy: nginx in front of N game processes on PostgreSQL.

``python -m bench.cluster_load --rooms 80 --players 12 --processes 1,2``

For each N: a fresh PostgreSQL database (one throwaway server, ``bench.services``), N game processes
(``MAFIA_PROCESS=p1..pN``), nginx with the shipped configuration (``bench.services.nginx_config``); the same
simulated phones as ``bench.load`` (``--workers`` load-generator processes) create, join and play every room
through the proxy. Measured: tap to every screen p50/p95/p99; CPU of the game processes together, of nginx and
of PostgreSQL, per action; then the failover: with one process, it is killed (SIGKILL) and started again (the
reconnect storm of ``bench.load``, through the proxy); with more, the process holding the most rooms is killed
and not restarted: the time until every phone of its rooms is seated again on another process, and one more
action per room must reach every screen. ``--restart-all``: with more processes, all of them are killed and
started again instead (the storm of a whole cluster: every phone re-seated).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.load import Workers, cpu_seconds, machine_busy, percentile, storm_phases
from bench.services import Nginx, Postgres, game_process, start_all


def _children(pid: int) -> list[int]:
    """A process and every process whose parent it is (PostgreSQL's backends), now."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            continue
    return total


def _owners(postgres: Postgres, database: str) -> dict[str, int]:
    """Process name -> rooms whose lease it holds."""
    rows = postgres.sql(database, "SELECT split_part(owner, ':', 1), count(*) FROM room_lease WHERE owner IS NOT "
                                  "NULL GROUP BY 1")
    return {name: int(count) for name, count in (line.split("\t") for line in rows.splitlines() if line)}


def run_cluster(postgres: Postgres, processes: int, rooms: int, players: int, duration: float, think: float,
                workers: int, folder: Path, log: Any, direct: bool = False,
                restart_all: bool = False) -> dict[str, Any]:
    """One run; ``direct``: one process on PostgreSQL without the proxy (what the proxy itself costs);
    ``restart_all``: every process killed and started again (a deploy, a reboot: every phone re-seated) instead
    of the failover."""
    database = f"bench_{processes}_{int(time.time())}"
    url = postgres.create_database(database)
    data = folder / f"cluster-{processes}"
    data.mkdir()
    servers = {f"p{n}": game_process(f"p{n}", data, url) for n in range(1, processes + 1)}
    nginx = Nginx(data / "nginx", {name: f"127.0.0.1:{server.port}" for name, server in servers.items()})
    kind = "PostgreSQL, direct" if direct else f"proxy, {processes} process{'es' if processes > 1 else ''}"
    result: dict[str, Any] = {"kind": kind,
                              "processes": processes, "rooms": rooms, "players": players, "phones": rooms * players}
    start_all(list(servers.values()))
    nginx.start()
    base = next(iter(servers.values())).base if direct else nginx.base
    pool = Workers(workers, "game", base, rooms, players, think)
    try:
        log(f"[{result['kind']}] {rooms} rooms x {players} phones: setting up")
        setup = pool.ask("setup", max(4, 40 // workers))
        result["setup_s"] = round(max(r["seconds"] for r in setup), 1)
        result["setup_failed_rooms"] = sum(r["failed"] for r in setup)
        result["rooms_per_process"] = _owners(postgres, database)
        game_pids = [server.pid for server in servers.values()]
        assert nginx.process is not None and postgres.process is not None
        pg_pids = _children(postgres.process.pid) + [child for pid in _children(postgres.process.pid)
                                                     for child in _children(pid)[1:]]
        before = (_cpu(game_pids), _cpu([nginx.process.pid, *_children(nginx.process.pid)]), _cpu(pg_pids),
                  pool.cpu(), machine_busy(), time.time())
        log(f"[{result['kind']}] playing for {duration:.0f} s")
        pool.ask("play")
        time.sleep(duration)
        stats_list = pool.ask("pause", timeout=120)
        pg_pids = list(set(pg_pids) | set(_children(postgres.process.pid)))
        after = (_cpu(game_pids), _cpu([nginx.process.pid, *_children(nginx.process.pid)]), _cpu(pg_pids),
                 pool.cpu(), machine_busy(), time.time())
        elapsed = after[5] - before[5]
        all_ms = [ms for stats in stats_list for ms in stats["all_ms"]]
        actions = sum(stats["actions"] for stats in stats_list)
        result.update(
            actions=actions, actions_per_s=round(actions / elapsed, 1), missed=sum(s["missed"] for s in stats_list),
            refused=sum(s["refused"] for s in stats_list), errors=sum(s["errors"] for s in stats_list),
            p50_ms=percentile(all_ms, 50), p95_ms=percentile(all_ms, 95), p99_ms=percentile(all_ms, 99),
            game_cpu_pct=round(100 * (after[0] - before[0]) / elapsed, 1),
            nginx_cpu_pct=round(100 * (after[1] - before[1]) / elapsed, 1),
            postgres_cpu_pct=round(100 * (after[2] - before[2]) / elapsed, 1),
            generator_cpu_pct=round(100 * (after[3] - before[3]) / elapsed, 1),
            machine_cpu_pct=round(100 * (after[4][0] - before[4][0]) / max(1, after[4][1] - before[4][1]), 1),
            server_cpu_ms_per_action=round(1000 * (after[0] - before[0]) / max(1, actions), 1),
            all_cpu_ms_per_action=round(1000 * sum(after[i] - before[i] for i in range(3)) / max(1, actions), 1),
        )
        log(f"[{result['kind']}] p50 {result['p50_ms']} p95 {result['p95_ms']} ms, game CPU {result['game_cpu_pct']} %"
            f", nginx {result['nginx_cpu_pct']} %, PostgreSQL {result['postgres_cpu_pct']} %, "
            f"{result['actions_per_s']} actions/s")
        time.sleep(2.0)
        give_up = time.time() + 120
        owners = result["rooms_per_process"]
        victim = max(owners, key=lambda name: owners[name]) if owners else "p1"
        if processes == 1:
            pool.ask("arm", give_up)
            log(f"[{result['kind']}] storm: killing and restarting {victim}")
            servers[victim].kill()
            killed = time.time()
            servers[victim].start()
        elif restart_all:
            pool.ask("arm", give_up)
            log(f"[{result['kind']}] storm: killing and restarting every process")
            for server in servers.values():
                server.kill()
            killed = time.time()
            start_all(list(servers.values()))
            victim, result["kind"] = "every process", result["kind"] + ", all restarted"
        else:
            pool.ask("failover", (give_up, 5.0))
            log(f"[{result['kind']}] failover: killing {victim} ({owners.get(victim)} rooms)")
            servers[victim].kill()
            killed = time.time()
        recovered = pool.ask("recovered", timeout=give_up - time.time() + 120)
        times = [t for r in recovered for t in r["times"]]
        result["failover_phones"] = len(times)
        result["failover_s"] = round(max(times) - killed, 1) if times else None
        result["failover_p50_s"] = round(statistics.median(times) - killed, 1) if times else None
        result["failover_failed_rooms"] = sum(r["failed"] for r in recovered)
        result["failover_phases"] = storm_phases([t for r in recovered for t in r["traces"]], killed)
        result["failover_load_average"] = os.getloadavg()[0]
        log(f"[{result['kind']}] phases: {result['failover_phases']}")
        checked = pool.ask("check", timeout=300)
        result["after_failover_ok_rooms"] = sum(r["ok"] for r in checked)
        result["after_failover_failures"] = [f for r in checked for f in r["failures"]][:5]
        log(f"[{result['kind']}] {victim} killed: {len(times)} phones re-seated in {result['failover_s']} s, "
            f"{result['after_failover_ok_rooms']}/{rooms} rooms receive again")
    finally:
        pool.close()
        for server in servers.values():
            server.kill()
        nginx.stop()
    return result


ROWS = [("phones", "phones"), ("rooms per process", "rooms_per_process"),
        ("actions played per second", "actions_per_s"),
        ("tap to every screen p50 (ms)", "p50_ms"), ("p95 (ms)", "p95_ms"), ("p99 (ms)", "p99_ms"),
        ("game processes' CPU (% of one core)", "game_cpu_pct"), ("nginx CPU (%)", "nginx_cpu_pct"),
        ("PostgreSQL CPU (%)", "postgres_cpu_pct"), ("game CPU per action (ms)", "server_cpu_ms_per_action"),
        ("game + nginx + PostgreSQL CPU per action (ms)", "all_cpu_ms_per_action"),
        ("killed: phones re-seated", "failover_phones"), ("... all of them within (s)", "failover_s"),
        ("... the median phone (s)", "failover_p50_s"), ("rooms receiving again after it", "after_failover_ok_rooms"),
        ("missed updates", "missed"), ("machine CPU (% of 2 cores)", "machine_cpu_pct")]
DIRECT = {"p50_ms": "p50_ms", "p95_ms": "p95_ms", "p99_ms": "p99_ms", "actions_per_s": "actions_per_s",
          "game_cpu_pct": "server_cpu_pct", "server_cpu_ms_per_action": "server_cpu_ms_per_action",
          "failover_s": "storm_s", "failover_p50_s": "storm_p50_s", "failover_phones": "storm_reseated",
          "after_failover_ok_rooms": "storm_check_ok_rooms", "missed": "missed", "phones": "phones",
          "machine_cpu_pct": "machine_cpu_pct"}


def table(results: list[dict[str, Any]], direct: dict[str, Any] | None = None) -> str:
    """A markdown table: the runs side by side (``direct``: a ``bench.load`` game run, SQLite, no proxy)."""
    columns = ([("SQLite, direct", {key: direct.get(source) for key, source in DIRECT.items()})] if direct else [])
    columns += [(result["kind"], result) for result in results]
    lines = ["| | " + " | ".join(title for title, _ in columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for title, key in ROWS:
        cells = []
        for _, result in columns:
            value = result.get(key)
            if isinstance(value, dict):
                value = ", ".join(f"{name} {count}" for name, count in sorted(value.items()))
            cells.append("" if value is None else str(value))
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster_load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=80)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--processes", default="1,2", help="comma-separated process counts, one run each")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--direct", action="store_true", help="also one process on PostgreSQL without the proxy")
    parser.add_argument("--restart-all", action="store_true",
                        help="with several processes: kill and restart them all (the storm) instead of the failover")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--table", nargs="+", type=Path, default=None,
                        help="only print the table of these JSON files (this script's, then bench.load's)")
    args = parser.parse_args(argv)
    if args.table:
        loaded = [json.loads(path.read_text()) for path in args.table]
        game = [run for run in (loaded[1] if len(loaded) > 1 else []) if run.get("kind") == "game"]
        print(table(loaded[0], game[0] if game else None))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="mafia-cluster-bench-"))
    postgres = Postgres()
    postgres.start()
    results: list[dict[str, Any]] = []
    runs = [(1, True)] if args.direct else []
    runs += [(int(n), False) for n in args.processes.split(",") if n]
    try:
        for count, direct in runs:
            results.append(run_cluster(postgres, count, args.rooms, args.players, args.duration, args.think,
                                       args.workers, folder, lambda text: print(text, flush=True), direct,
                                       args.restart_all))
            if args.json:
                args.json.write_text(json.dumps(results, indent=1))
    finally:
        postgres.stop()
        if os.environ.get("BENCH_KEEP") != "1":
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main(sys.argv[1:]))

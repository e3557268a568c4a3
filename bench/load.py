"""How many people can play at once, and how fast a tap reaches every screen.

``python -m bench.load --rooms 80 --players 12``

Starts the game (``python -m bench.serve``: the game plus the bench's routes, ``bench.hook``; a temp data
folder, its own port, ``MAFIA_BENCH=1``) and plays ROOMS rooms of PLAYERS phones on it from separate
load-generator processes (``--workers``), over the real HTTP pages and NiceGUI's socket.io protocol
(``bench/phone.py``, ``bench/drivers.py``). Then it does the same with the same number of phones on the
framework's floor (``bench/floor_app.py``) so that every figure is also a ratio. For each of the two:

1. setup: every phone loads its page (the game: the host creates the room on ``/``, the others join on
   ``/r/CODE``, the host starts);
2. ``--duration`` seconds of play (one action at a time per room, ``--think`` seconds apart on average, a room's
   first one at a moment within the first ``--think`` seconds, not every room's at once):
   tap -> every affected screen p50/p95/p99, the server's CPU (share of one core) and RSS, the load
   generator's CPU, the whole machine's CPU;
3. memory per connected phone: (RSS with every phone connected - RSS of the fresh server) / phones;
4. the reconnect storm (``--storm``): the server is killed (SIGKILL) and started again on the same data;
   every phone reconnects like a browser (socket.io backoff, then a page reload when the server no
   longer knows its client): the time from the restart until every phone is re-seated on its page and
   connected, then one more action per room must reach every screen.

``--json FILE`` writes every figure; ``--sizes 10,40,80`` runs several sizes one after the other (with
``--stop-p95 500`` an app is not run at a larger size once its p95 passed 500 ms; the table then gives the knee:
the most phones each app served at p95 <= 200 ms, one server process being one core). ``--repeat N`` runs the
floor and the game N times, one after the other (interleaved, so that a machine's drift hits both alike).
``--compete`` runs a second process burning one core beside each run, setup to end: a shared machine.
``BENCH_TV=1`` opens each game room's TV screen too (``/r/CODE/screen``), as at a real table: it is not one of the
screens an action's time waits for, and it is not reconnected after the storm (use it with ``--no-storm``).
``BENCH_RESULT_HOLD=N`` makes each game room's host type N into the lobby's "The day's result on screen" (unset: the
table's default, 5 s): no seat acts while the day's result is held, so at the same think time a table with the hold
plays fewer actions a second than the floor (docs/PERFORMANCE.md, "The day's result's hold in the bench").
The network stays on 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import asdict
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- processes and /proc


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """user + system CPU seconds of a process (and its waited-for children)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine."""
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    return total - idle, total


class Server:
    """The app under test as a subprocess: the game, or the floor app."""

    def __init__(self, kind: str, data: Path, port: int, env: dict[str, str] | None = None) -> None:
        self.kind = kind
        self.env = dict(env or {})  # more of the server's environment (bench.attack: TRUST_PROXY)
        self.data = data
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data / f"{kind}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> float:
        env = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
        env.update(MAFIA_BENCH="1", MAFIA_DATA_DIR=str(self.data), NICEGUI_STORAGE_PATH=str(self.data / "nicegui"),
                   PORT=str(self.port), HOST="127.0.0.1", STORAGE_SECRET="bench secret", PYTHONUNBUFFERED="1",
                   PYTHONPATH=str(REPO))
        env.update(self.env)
        module = "bench.serve" if self.kind == "game" else "bench.floor_app"
        if self.kind == "game" and os.environ.get("BENCH_GC_LOG") == "1":
            module = "bench.gc_log"  # the game, its garbage collections logged (BENCH_GC_FILE)
        started = time.time()
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", module], cwd=str(self.data), env=env,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            preexec_fn=os.setsid)  # noqa: PLW1509 - its own group, killed as one
        deadline = started + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} server exited: see {self.log}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return time.time() - started
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(f"{self.kind} server did not start: see {self.log}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


# ---------------------------------------------------------------- the load-generator processes


def worker_main(conn: Connection, kind: str, base: str, rooms: list[int], players: int, think: float,
                bots: int = 0) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(_worker(conn, kind, base, rooms, players, think, bots))


async def _worker(conn: Connection, kind: str, base: str, indexes: list[int], players: int, think: float,
                  bots: int) -> None:
    from bench.drivers import FloorRoom, GameRoom, Stats

    room_class = GameRoom if kind == "game" else FloorRoom
    rooms = [room_class(base, index, players, think, seed=index, bots=bots) for index in indexes]
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received_before: dict[str, tuple[int, int]] = {}
    playing: list[asyncio.Task[Any]] = []
    recovering: list[asyncio.Task[Any]] = []

    async def guarded(coroutine: Any) -> Any:
        try:
            return await coroutine
        except Exception as error:  # noqa: BLE001 - reported, the other rooms go on
            return error

    while True:
        command, argument = await loop.run_in_executor(None, conn.recv)
        reply: dict[str, Any] = {}
        if command == "setup":
            started = time.time()
            limit = asyncio.Semaphore(int(argument))

            async def one(room: Any, limit: asyncio.Semaphore = limit) -> Any:
                async with limit:
                    return await guarded(room.setup())

            results = await asyncio.gather(*(one(room) for room in rooms))
            failures = [repr(r) for r in results if isinstance(r, Exception)]
            reply = {"seconds": time.time() - started, "failures": failures[:5], "failed": len(failures),
                     "page_bytes": sum(p.page_bytes for room in rooms for p in room.phones)}
        elif command == "play":
            for room in rooms:
                room.stats = Stats()
            received_before = received(rooms)
            stop.clear()
            playing = [asyncio.create_task(guarded(room.play(stop))) for room in rooms]
            reply = {"ok": True}
        elif command == "pause":
            stop.set()
            await asyncio.wait_for(asyncio.gather(*playing), timeout=60)
            total = Stats()
            for room in rooms:
                total.merge(room.stats)
            reply = asdict(total)
            now = received(rooms)
            reply["received"] = {name: [count - received_before.get(name, (0, 0))[0],
                                        size - received_before.get(name, (0, 0))[1]]
                                 for name, (count, size) in now.items()}
        elif command == "arm":
            give_up = float(argument)
            recovering = [asyncio.create_task(guarded(room.recover_all(give_up))) for room in rooms]
            reply = {"ok": True}
        elif command == "failover":  # one process of a cluster killed: only its phones drop, and recover
            give_up, grace = argument

            async def dropped(room: Any, phone: Any, give_up: float = give_up, grace: float = grace) -> Any:
                try:
                    await asyncio.wait_for(phone.closed.wait(), timeout=grace)
                except TimeoutError:
                    return None  # its room lives on another process: nothing happened to it
                return await room.recover(phone, give_up)

            recovering = [asyncio.create_task(guarded(asyncio.gather(*(dropped(room, phone) for phone in room.phones))))
                          for room in rooms]
            reply = {"ok": True}
        elif command == "recovered":
            results = await asyncio.gather(*recovering)
            times = [t for r in results if not isinstance(r, Exception) for t in r if t is not None]
            failures = [repr(r) for r in results if isinstance(r, Exception)]
            seated = sum(1 for room in rooms for phone in room.phones if phone.connected and room.seated(phone))
            reply = {"times": times, "failed": len(failures), "failures": failures[:5], "seated": seated,
                     "traces": [phone.trace for room in rooms for phone in room.phones if phone.trace]}
        elif command == "check":
            for room in rooms:
                room.stats = Stats()
            results = await asyncio.gather(*(guarded(room.check()) for room in rooms))
            reply = {"ok": sum(1 for r in results if r is True), "rooms": len(rooms),
                     "failures": [repr(r) for r in results if r is not True][:5]}
        elif command == "connected":
            reply = {"connected": sum(1 for room in rooms for p in room.phones if p.connected)}
        elif command == "stop":
            await asyncio.gather(*(room.close() for room in rooms), return_exceptions=True)
            conn.send({"ok": True})
            return
        conn.send(reply)


def received(rooms: list[Any]) -> dict[str, tuple[int, int]]:
    """Every phone's socket.io messages so far, by event name: (messages, bytes) (``bench.phone.Phone.count``)."""
    totals: dict[str, tuple[int, int]] = {}
    for room in rooms:
        for phone in room.phones:
            for name, count in phone.received.items():
                messages, size = totals.get(name, (0, 0))
                totals[name] = (messages + count, size + phone.received_bytes[name])
    return totals


def per_action(received: dict[str, list[int]], actions: int, players: int) -> dict[str, Any]:
    """Messages and bytes a phone received per action of its room, in all and by event name (heartbeat and
    countdown included: what the phone's socket carried while its room played)."""
    divisor = max(1, actions) * players
    total = [sum(v[0] for v in received.values()), sum(v[1] for v in received.values())]
    return {"messages": round(total[0] / divisor, 2), "bytes": round(total[1] / divisor),
            "by_event": {name: {"messages": round(count / divisor, 2), "bytes": round(size / divisor)}
                         for name, (count, size) in sorted(received.items(), key=lambda kv: -kv[1][1])}}


class Workers:
    def __init__(self, count: int, kind: str, base: str, rooms: int, players: int, think: float,
                 bots: int = 0) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes: list[Any] = []
        for number in range(count):
            indexes = list(range(number, rooms, count))
            if not indexes:
                continue
            mine, theirs = context.Pipe()
            process = context.Process(target=worker_main, args=(theirs, kind, base, indexes, players, think, bots),
                                      daemon=True)
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    def ask(self, command: str, argument: Any = None, timeout: float = 600.0) -> list[dict[str, Any]]:
        for pipe in self.pipes:
            pipe.send((command, argument))
        replies = []
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise TimeoutError(f"a load generator did not answer {command}")
            replies.append(pipe.recv())
        return replies

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes if p.is_alive())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ask("stop", timeout=60)
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()


# ---------------------------------------------------------------- one run


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[index], 1)


def by_kind(kind_ms: list[Any], p95: float | None) -> dict[str, dict[str, Any]]:
    """Tap -> every screen by kind of action (its type, and whether it ended the step): how many, p50, p95, and how
    many of the actions slower than the run's p95 it holds (what the tail is made of)."""
    groups: dict[str, list[float]] = {}
    for kind, ms in kind_ms:
        groups.setdefault(str(kind), []).append(float(ms))
    return {kind: {"actions": len(values), "p50_ms": percentile(values, 50), "p95_ms": percentile(values, 95),
                   "over_p95": sum(1 for ms in values if p95 is not None and ms > p95)}
            for kind, values in sorted(groups.items(), key=lambda item: -len(item[1]))}


def run_one(kind: str, rooms: int, players: int, duration: float, think: float, workers: int, storm: bool,
            data: Path, log: Any, bots: int = 0) -> dict[str, Any]:
    """One app under load; ``bots``: seats per room the server's bots play besides the ``players`` phones."""
    server = Server(kind, data, free_port())
    bots = bots if kind == "game" else 0
    result: dict[str, Any] = {"kind": kind, "rooms": rooms, "players": players, "phones": rooms * players,
                              "bots": bots, "think_s": think, "duration_s": duration}
    result["startup_s"] = round(server.start(), 2)
    time.sleep(1.0)
    result["rss_idle_mb"] = round(rss_mb(server.pid), 1)
    if os.environ.get("PYTHONTRACEMALLOC"):  # the baseline of the memory diff (the floor has the route too)
        with contextlib.suppress(OSError, ValueError), \
                urllib.request.urlopen(f"{server.base}/_bench/memory", timeout=30) as response:
            response.read()
    pool = Workers(workers, kind, server.base, rooms, players, think, bots)
    try:
        log(f"[{kind}] {rooms} rooms x {players} phones" + (f" + {bots} bots" if bots else "") + ": setting up")
        setup = pool.ask("setup", max(4, 40 // workers))
        result["setup_s"] = round(max(r["seconds"] for r in setup), 1)
        result["setup_failed_rooms"] = sum(r["failed"] for r in setup)
        result["setup_failures"] = [f for r in setup for f in r["failures"]][:5]
        result["rss_connected_mb"] = round(rss_mb(server.pid), 1)
        result["kb_per_phone"] = round((result["rss_connected_mb"] - result["rss_idle_mb"]) * 1024 / (rooms * players))
        # what the memory is made of (the route exists only on the bench's own servers)
        with contextlib.suppress(OSError, ValueError):
            with urllib.request.urlopen(f"{server.base}/_bench/memory", timeout=30) as response:
                result["memory"] = json.loads(response.read())
            result["rss_after_collect_mb"] = round(rss_mb(server.pid), 1)
        log(f"[{kind}] playing for {duration:.0f} s")
        cpu0, gen0, (busy0, total0), t0 = cpu_seconds(server.pid), pool.cpu(), machine_busy(), time.time()
        pool.ask("play")
        peak = 0.0
        end = time.time() + duration
        while time.time() < end:
            time.sleep(min(1.0, max(0.0, end - time.time())))
            peak = max(peak, rss_mb(server.pid))
        stats_list = pool.ask("pause", timeout=120)
        elapsed = time.time() - t0
        if os.environ.get("BENCH_MEMORY_AFTER"):  # what the memory is made of after the play too (PYTHONTRACEMALLOC)
            with contextlib.suppress(OSError, ValueError), \
                    urllib.request.urlopen(f"{server.base}/_bench/memory", timeout=60) as response:
                result["memory_after"] = json.loads(response.read())
        cpu1, gen1, (busy1, total1) = cpu_seconds(server.pid), pool.cpu(), machine_busy()
        merged: dict[str, Any] = {"all_ms": [], "each_ms": [], "own_ms": [], "kind_ms": [], "error_text": [],
                                  "slow": []}
        counted: dict[str, list[int]] = {}
        for stats in stats_list:
            for name, (count, size) in stats.pop("received", {}).items():
                counted[name] = [counted.get(name, [0, 0])[0] + count, counted.get(name, [0, 0])[1] + size]
            for key, value in stats.items():
                if isinstance(value, list):
                    merged[key].extend(value)
                else:
                    merged[key] = merged.get(key, 0) + value
        result.update(
            actions=merged["actions"], actions_per_s=round(merged["actions"] / elapsed, 1),
            games_finished=merged["games"], missed=merged["missed"], refused=merged["refused"],
            errors=merged["errors"], error_text=merged["error_text"][:5], slowest=sorted(
                merged["slow"], key=lambda text: -float(text.split()[0]))[:10],
            p50_ms=percentile(merged["all_ms"], 50), p95_ms=percentile(merged["all_ms"], 95),
            p99_ms=percentile(merged["all_ms"], 99), max_ms=percentile(merged["all_ms"], 100),
            each_p95_ms=percentile(merged["each_ms"], 95), own_p95_ms=percentile(merged["own_ms"], 95),
            server_cpu_pct=round(100 * (cpu1 - cpu0) / elapsed, 1),
            generator_cpu_pct=round(100 * (gen1 - gen0) / elapsed, 1),
            machine_cpu_pct=round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
            rss_peak_mb=round(peak, 1),
        )
        result["by_kind"] = by_kind(merged["kind_ms"], result["p95_ms"])
        if os.environ.get("BENCH_SLOW_MS"):  # every slow action, not only the ten slowest
            result["slow"] = merged["slow"]
        result["server_cpu_ms_per_action"] = round(1000 * (cpu1 - cpu0) / max(1, merged["actions"]), 1)
        result["received_per_action_per_phone"] = per_action(counted, merged["actions"], players)
        result["messages_per_action_per_phone"] = result["received_per_action_per_phone"]["messages"]
        result["bytes_per_action_per_phone"] = result["received_per_action_per_phone"]["bytes"]
        if bots:  # every action the server took, the bots' too: what an action costs, whoever made it
            result.update(bot_actions=merged["bot_actions"], bench_polls=merged["polls"], raced=merged["raced"],
                          server_cpu_ms_per_any_action=round(
                              1000 * (cpu1 - cpu0) / max(1, merged["actions"] + merged["bot_actions"]), 1))
        received_now = result["received_per_action_per_phone"]
        log(f"[{kind}] a phone received per action: {received_now['messages']} messages, "
            f"{received_now['bytes']} bytes; by event: {received_now['by_event']}")
        log(f"[{kind}] p50 {result['p50_ms']} p95 {result['p95_ms']} p99 {result['p99_ms']} ms, "
            f"server CPU {result['server_cpu_pct']} %, RSS {result['rss_peak_mb']} MB, "
            f"{result['actions_per_s']} actions/s")
        if storm:
            time.sleep(2.0)
            give_up = time.time() + 120
            pool.ask("arm", give_up)
            log(f"[{kind}] storm: killing and restarting the server")
            server.kill()
            restarted = time.time()
            result["restart_s"] = round(server.start(), 2)
            spy = profile(server.pid, 40, data / "storm.pyspy.txt")
            cpu_restarted = cpu_seconds(server.pid)
            recovered = pool.ask("recovered", timeout=give_up - time.time() + 120)
            result["storm_server_cpu_s"] = round(cpu_seconds(server.pid) - cpu_restarted, 1)
            result["storm_load_average"] = os.getloadavg()[0]
            times = [t for r in recovered for t in r["times"]]
            result["storm_phases"] = storm_phases([t for r in recovered for t in r["traces"]], restarted)
            log(f"[{kind}] storm phases: {result['storm_phases']}, server CPU {result['storm_server_cpu_s']} s")
            if spy is not None:
                spy.wait(timeout=120)
            result["storm_reseated"] = sum(r["seated"] for r in recovered)
            result["storm_failed_rooms"] = sum(r["failed"] for r in recovered)
            result["storm_failures"] = [f for r in recovered for f in r["failures"]][:5]
            result["storm_s"] = round(max(times) - restarted, 1) if times else None
            result["storm_p50_s"] = round(statistics.median(times) - restarted, 1) if times else None
            checked = pool.ask("check", timeout=300)
            result["storm_check_ok_rooms"] = sum(r["ok"] for r in checked)
            result["storm_check_failures"] = [f for r in checked for f in r["failures"]][:5]
            result["storm_until_receiving_s"] = round(time.time() - restarted, 1)
            result["rss_after_storm_mb"] = round(rss_mb(server.pid), 1)
            log(f"[{kind}] storm: {result['storm_reseated']}/{rooms * players} re-seated in {result['storm_s']} s, "
                f"{result['storm_check_ok_rooms']}/{rooms} rooms receive again")
    finally:
        pool.close()
        server.stop()
    return result


def storm_phases(traces: list[list[tuple[str, float]]], start: float) -> dict[str, Any]:
    """Where a storm's time went, from every phone's steps (``Phone.trace``): when the server first answered
    it (its socket refused: reload; or accepted), how long its page took to load, then its socket to connect,
    or how long its page took to come whole after its socket was accepted (built in place), and how many
    attempts it made (p50 / p90 / max; seconds after the kill, or durations)."""
    answered, loads, connects, attempts, waits, rebuilds = [], [], [], [], [], []
    for trace in traces:
        steps = [(str(name), float(moment)) for name, moment in trace]
        first = next((t for name, t in steps if name in ("refused", "connected")), None)
        if first is not None:
            answered.append(first - start)
            before = [t for name, t in steps if name == "attempt" and t <= first]
            failed = [t for name, t in steps if name.startswith("failed") and t <= first]
            if before and failed:  # from its last failed attempt to the next one: the backoff it sat out
                waits.append(before[-1] - failed[-1])
        attempts.append(sum(1 for name, _ in steps if name == "attempt"))
        for (name, moment), (after, later) in zip(steps, steps[1:], strict=False):
            if name == "refused" and after == "loaded":
                loads.append(later - moment)
            if name == "loaded" and after == "connected":
                connects.append(later - moment)
            if name == "connected" and after == "rebuilt":
                rebuilds.append(later - moment)

    def spread(values: list[float]) -> list[float | None]:
        return [percentile(values, 50), percentile(values, 90), percentile(values, 100)]

    return {"phones": len(traces), "first_answer_s": spread(answered), "page_load_s": spread(loads),
            "connect_after_load_s": spread(connects), "rebuilt_after_connect_s": spread(rebuilds),
            "rebuilt": len(rebuilds), "attempts": spread([float(a) for a in attempts]),
            "last_backoff_s": spread(waits),
            "failures": dict(Counter(str(name) for trace in traces for name, _ in trace if "failed" in str(name)))}


def profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """``BENCH_PYSPY=/path/to/py-spy``: sample the restarted server for ``seconds`` (py-spy's raw format)."""
    spy = os.environ.get("BENCH_PYSPY")
    if not spy:
        return None
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
                             "--format", "raw", "--output", str(out), "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def first_load(data: Path) -> dict[str, Any]:
    """A phone's first page load: bytes on the wire with gzip (see bench/first_load.py)."""
    from bench.first_load import measure

    server = Server("game", data, free_port())
    server.start()
    try:
        return measure(server.base)
    finally:
        server.stop()


@contextlib.contextmanager
def competing_load(on: bool) -> Any:
    """A second process burning one core for as long as the block runs (``--compete``): a shared machine."""
    if not on:
        yield
        return
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        burner.kill()
        burner.wait(timeout=10)


def knee(results: list[dict[str, Any]], good_ms: float = 200.0) -> dict[str, int | None]:
    """Per app, the most phones one server process (one core) served with tap -> every screen p95 <= ``good_ms``
    in a sweep (None: not at the smallest size)."""
    best: dict[str, int | None] = {}
    for result in results:
        if result.get("kind") not in ("game", "floor"):
            continue
        p95 = result.get("p95_ms")
        fine = p95 is not None and p95 <= good_ms and not result.get("setup_failed_rooms")
        best.setdefault(result["kind"], None)
        if fine and (best[result["kind"]] or 0) < result["phones"]:
            best[result["kind"]] = result["phones"]
    return best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=80)
    parser.add_argument("--players", type=int, default=12, help="phones per room")
    parser.add_argument("--bots", type=int, default=0, help="seats per room the server's bots play (game only)")
    parser.add_argument("--sizes", default="", help="comma-separated room counts, run one after the other")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play to measure")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between two actions of a room")
    parser.add_argument("--workers", type=int, default=2, help="load-generator processes")
    parser.add_argument("--only", choices=("game", "floor"), default=None, help="skip the other app")
    parser.add_argument("--no-storm", dest="storm", action="store_false")
    parser.add_argument("--first-load", action="store_true", help="also measure a phone's first page load")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the temp data folder (server logs)")
    parser.add_argument("--repeat", type=int, default=1, help="run the floor and the game this many times, alternated")
    parser.add_argument("--compete", action="store_true", help="a process burning one core beside every run")
    parser.add_argument("--stop-p95", type=float, default=None,
                        help="in a --sizes sweep, no larger size for an app whose p95 (ms) passed this")
    args = parser.parse_args(argv)

    sizes = [int(s) for s in args.sizes.split(",") if s] or [args.rooms]
    kinds = [args.only] if args.only else ["floor", "game"]
    data_root = Path(tempfile.mkdtemp(prefix="mafia-bench-"))
    results: list[dict[str, Any]] = []

    def log(text: str) -> None:
        print(text, flush=True)

    passed: set[str] = set()  # apps whose p95 passed --stop-p95 at some size
    try:
        for rooms in sizes:
            for repetition in range(1, args.repeat + 1):
                for kind in [k for k in kinds if k not in passed]:
                    data = data_root / f"{kind}-{rooms}x{args.players}-{repetition}"
                    data.mkdir()
                    with competing_load(args.compete):
                        result = run_one(kind, rooms, args.players, args.duration, args.think, args.workers,
                                         args.storm, data, log, bots=args.bots)
                    result.update(repetition=repetition, competing_load=args.compete)
                    results.append(result)
                    if args.json:  # after every run, so that a long sweep keeps what it measured
                        args.json.write_text(json.dumps(results, indent=1))
            for result in results:
                if args.stop_p95 is not None and result["rooms"] == rooms and (result.get("p95_ms") is None
                                                                                or result["p95_ms"] > args.stop_p95):
                    passed.add(result["kind"])
        if args.first_load:
            data = data_root / "first-load"
            data.mkdir()
            results.append({"kind": "first_load", **first_load(data)})
    finally:
        if args.keep:
            log(f"data and server logs kept in {data_root}")
        else:
            shutil.rmtree(data_root, ignore_errors=True)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


ROWS = [("phones", "phones"), ("bots per room", "bots"), ("bot actions (not measured)", "bot_actions"),
        ("server CPU per action, the bots' too (ms)", "server_cpu_ms_per_any_action"),
        ("actions/s", "actions_per_s"), ("tap to every screen p50 (ms)", "p50_ms"),
        ("p95 (ms)", "p95_ms"), ("p99 (ms)", "p99_ms"), ("server CPU (% of one core)", "server_cpu_pct"),
        ("server CPU per action (ms)", "server_cpu_ms_per_action"),
        ("messages a phone received per action", "messages_per_action_per_phone"),
        ("bytes a phone received per action", "bytes_per_action_per_phone"), ("RSS, playing (MB)", "rss_peak_mb"),
        ("RSS per connected phone (KB)", "kb_per_phone"), ("reconnect storm: all re-seated (s)", "storm_s"),
        ("missed updates", "missed"), ("load generator CPU (%)", "generator_cpu_pct"),
        ("machine CPU (% of 2 cores)", "machine_cpu_pct")]


def table(results: list[dict[str, Any]]) -> str:
    """A markdown table: per size, the game, the floor, and their ratio."""
    lines = []
    by_size: dict[tuple[int, int, int], dict[str, dict[str, Any]]] = {}
    for result in results:
        if result["kind"] in ("game", "floor"):
            size = (result["rooms"], result["players"], result.get("repetition", 1))
            by_size.setdefault(size, {})[result["kind"]] = result
    for (rooms, players, repetition), pair in by_size.items():
        again = f", run {repetition}" if repetition > 1 else ""
        competing = ", beside a process burning one core" if any(r.get("competing_load") for r in pair.values()) \
            else ""
        lines += [f"\n{rooms} rooms x {players} phones{again}{competing}", "", "| | game | floor | ratio |",
                  "|---|---|---|---|"]
        game, floor = pair.get("game", {}), pair.get("floor", {})
        for title, key in ROWS:
            ours, base = game.get(key), floor.get(key)
            ratio = f"{ours / base:.2f}" if isinstance(ours, int | float) and isinstance(base, int | float) \
                and base else ""
            lines.append(f"| {title} | {_cell(ours)} | {_cell(base)} | {ratio} |")
    if len({(r["rooms"], r["players"]) for r in results if r["kind"] in ("game", "floor")}) > 1:
        best = knee(results)
        lines.append("\nthe knee: most phones at p95 <= 200 ms (one process, one core): "
                     + ", ".join(f"{kind} {phones}" for kind, phones in sorted(best.items())))
    for result in results:
        if result["kind"] == "first_load":
            lines.append(f"\nfirst load of /r/CODE: {result['requests']} requests, "
                         f"{result['transferred_kb']} KB transferred, {result['decoded_kb']} KB decoded")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

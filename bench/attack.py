"""A table keeps playing while one phone of its own network and a stranger with the room link attack it.

``python -m bench.attack --players 8 --baseline 30 --duration 60 --settle 60 --json attack.json``

Starts the game (``python -m webgame``, its own port and temp data folder, ``MAFIA_BENCH=1``, ``TRUST_PROXY=1``
so that each simulated phone's ``X-Forwarded-For`` is its address, as behind the documented proxy) and plays one
room of PLAYERS simulated phones (``bench/phone.py``, ``bench/drivers.py``), all on the table's address.

1. baseline: ``--baseline`` seconds of play; tap -> every screen p50/p95/max;
2. attack: the same play for ``--duration`` seconds while two attacker processes run, each bounded in requests
   and time and stopping by itself:
   - the insider, another browser on the table's address: wrong room codes, page loads of the room (its
     cookies kept), spectator sockets, log events and malformed messages on those sockets;
   - the stranger, another address, a new browser (no cookie) for every request: the same, and ``/qr/`` probes;
   - and one seated player of the table floods the chat from a second tab (lines as fast as he can, every tenth
     one 60 KB).
   Meanwhile the table checks what must never be refused: a seated player's second tab (every 5 s), the TV's
   reload and a late spectator from the table's network (every 10 s);
3. after: ``--settle`` seconds without the attack, play going on; the server's memory again;
4. ``--flood`` plain GETs of the room's link, a new browser each, from one address: memory right after and 20 s
   later.

Figures: taps per phase (p50/p95/max of tap -> every screen, missed screens, refusals), the server's RSS (before,
peak, after), the server log's growth, what the attackers sent and how it was answered, the table's checks.
Everything goes to 127.0.0.1 only. The attacker processes run niced (``NICE``): on one machine their own CPU
would otherwise slow the server as no attacker on another machine can.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

from bench.drivers import GameRoom, Stats, in_game
from bench.load import Server, cpu_seconds, free_port, percentile, rss_mb
from bench.phone import Phone

TABLE = "192.0.2.10"  # the table's Wi-Fi as the proxy sees it
STRANGER = "198.51.100.7"
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
NICE = 10  # the attacker processes' niceness
BIG_LINE = "x" * 60_000  # under the socket's message cap, far over the chat's length limit


# ---------------------------------------------------------------- the attackers (their own processes)


class Attacker:
    """One attacker: an address, a browser (or a new one per request) and budgets. Stops at its deadline."""

    def __init__(self, base: str, code: str, address: str, fresh_browser: bool, seconds: float,
                 requests: int, sockets: int) -> None:
        self.base, self.code, self.address, self.fresh = base, code, address, fresh_browser
        self.deadline = time.monotonic() + seconds
        self.requests, self.sockets = requests, sockets
        self.answers: Counter[str] = Counter()
        self.phones: list[Phone] = []
        self.jar = aiohttp.CookieJar(unsafe=True)
        self.errors: list[str] = []  # the end of the first server errors' pages (there should be none)

    def going(self) -> bool:
        return time.monotonic() < self.deadline and sum(self.answers.values()) < self.requests

    async def get(self, session: aiohttp.ClientSession, kind: str, path: str) -> None:
        if self.fresh:
            session.cookie_jar.clear()
        try:
            async with session.get(self.base + path, timeout=aiohttp.ClientTimeout(total=30)) as response:
                body = await response.read()
                self.answers[f"{kind} {response.status}"] += 1
                if response.status >= 500 and len(self.errors) < 3:
                    found = [m for m in ("was deleted", "took longer", "Traceback", "Error") if m.encode() in body]
                    self.errors.append(",".join(found) or body[:300].decode(errors="replace"))
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            self.answers[f"{kind} {type(error).__name__}"] += 1

    async def http(self, kind: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=self.jar if not self.fresh else aiohttp.CookieJar(unsafe=True),
                                         headers={"X-Forwarded-For": self.address}) as session:
            while self.going():
                if kind == "wrong code":
                    await self.get(session, kind, "/r/" + "".join(random.choices(ALPHABET, k=5)))
                elif kind == "page":
                    await self.get(session, kind, f"/r/{self.code}")
                else:  # the QR code: the room's and random ones
                    code = self.code if random.random() < 0.5 else "".join(random.choices(ALPHABET, k=5))
                    await self.get(session, kind, f"/qr/{code}")

    async def spectators(self) -> None:
        while self.going() and len(self.phones) < self.sockets:
            phone = Phone(self.base, f"{self.address} watcher {len(self.phones)}")
            phone.headers = {"X-Forwarded-For": self.address}
            if not self.fresh:
                phone.jar = self.jar
            try:
                await phone.load(f"/r/{self.code}")
                await phone.connect()
                self.phones.append(phone)
                self.answers["spectator socket connected"] += 1
            except Exception as error:  # noqa: BLE001 - a refused page (429) or socket is what we expect
                self.answers[f"spectator socket refused ({type(error).__name__})"] += 1
                await phone.close()
                await asyncio.sleep(0.05)

    async def log_writes(self) -> None:
        line = "log line written by a browser " * 300  # 9 KB
        while self.going():
            live = [phone for phone in self.phones if phone.connected]
            if not live:
                await asyncio.sleep(0.1)
                continue
            phone = random.choice(live)
            try:
                await phone._send("log", {"client_id": phone.client_id, "level": "error", "message": line})  # noqa: SLF001
                await phone._send("event", {"client_id": phone.client_id, "id": "x", "args": "not a list"})  # noqa: SLF001
                self.answers["log and malformed messages sent"] += 2
            except ConnectionError:
                self.answers["log writes on a closed socket"] += 1
            await asyncio.sleep(0.005)

    async def run(self) -> dict[str, Any]:
        kinds = ["wrong code", "wrong code", "page", "page"] + (["qr"] if self.fresh else [])
        await asyncio.gather(*(self.http(kind) for kind in kinds), self.spectators(), self.log_writes())
        await asyncio.gather(*(phone.close() for phone in self.phones), return_exceptions=True)
        return {**self.answers, **{f"server error page: {text}": 1 for text in self.errors}}


def attacker_main(conn: Connection, base: str, code: str, address: str, fresh: bool, seconds: float,
                  requests: int, sockets: int) -> None:
    async def attack() -> dict[str, Any]:
        return await Attacker(base, code, address, fresh, seconds, requests, sockets).run()

    # On one machine the attackers' own CPU would slow the server as no remote attacker can; niced, they take what
    # the server and the table leave (the server's CPU share during the attack is the figure that tells its cost).
    os.nice(NICE)
    try:
        conn.send(asyncio.run(attack()))
    except Exception as error:  # noqa: BLE001 - reported, not raised in a child nobody reads
        conn.send({f"attacker failed: {error!r}": 1})
    conn.close()


# ---------------------------------------------------------------- the table


class Table:
    def __init__(self, base: str, players: int, think: float, seed: int) -> None:
        self.room = GameRoom(base, 0, players, think, seed)
        for phone in self.room.phones:
            phone.headers = {"X-Forwarded-For": TABLE}
        self.base = base
        self.checks: Counter[str] = Counter()
        self.tv = Phone(base, "tv")
        self.tv.headers = {"X-Forwarded-For": TABLE}

    async def second_tab(self) -> None:
        """A seated player opens his room again in a second tab of the same browser: his game page, never a
        refusal."""
        phone = random.choice(self.room.phones[1:-1])
        assert phone.session is not None
        tab = Phone(self.base, phone.label + " tab")
        tab.headers, tab.jar = dict(phone.headers), phone.session.cookie_jar
        try:
            await tab.load(self.room.path)
            # His own page (lobby, game or results), not a stranger's: no join form, not a spectator's heading.
            seated = tab.node_key("join-name") is None and not tab.has_text("You are watching this game.") \
                and (in_game(tab)
                     or tab.has_text("Players:") or tab.has_text("News"))
            self.checks["seated returns ok" if seated else "seated returns without the game"] += 1
        except Exception as error:  # noqa: BLE001 - counted, the figure says it
            self.checks[f"seated returns refused ({type(error).__name__})"] += 1
        finally:
            await tab.close()

    async def newcomers(self) -> None:
        """The TV reloads, and a new phone of the table's network opens the room."""
        try:
            await self.tv.load(self.room.path + "/screen")
            self.checks["TV reloads ok"] += 1
        except Exception as error:  # noqa: BLE001
            self.checks[f"TV reloads refused ({type(error).__name__})"] += 1
        late = Phone(self.base, "late")
        late.headers = {"X-Forwarded-For": TABLE}
        try:
            await late.load(self.room.path)
            self.checks["late spectators ok"] += 1
        except Exception as error:  # noqa: BLE001
            self.checks[f"late spectators refused ({type(error).__name__})"] += 1
        finally:
            await late.close()

    async def checks_loop(self, stop: asyncio.Event, every: float) -> None:
        count = 0
        while not stop.is_set():
            await self.second_tab()
            if count % 2 == 0:
                await self.newcomers()
            count += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)

    async def chat_flood(self, stop: asyncio.Event) -> None:
        """The table's last player floods the chat from a second tab of his browser (his seat writes from any of
        his pages): lines as fast as he can, every tenth one 60 KB; his own flood control refuses most. When the
        server closes that tab's socket (too many messages, or its own backlog), he opens the tab again."""
        seated = self.room.phones[-1]
        assert seated.session is not None
        tab = Phone(self.base, seated.label + " chat tab")
        tab.headers, tab.jar = dict(seated.headers), seated.session.cookie_jar
        number = 0
        try:
            while not stop.is_set():
                if not tab.connected:
                    try:
                        await tab.visit(self.room.path, attempts=3)
                        self.checks["chat flood tab (re)opened"] += 1
                    except Exception:  # noqa: BLE001 - its page may wait (a burst of reloads); try again later
                        await asyncio.sleep(1.0)
                        continue
                key = tab.node_key("chat-input")
                if key is not None:
                    number += 1
                    text = BIG_LINE if number % 10 == 0 else f"spam {number}"
                    try:
                        await tab.tap(key, {"channel": "room", "text": text})
                        self.checks["chat flood lines sent"] += 1
                    except (LookupError, ConnectionError):
                        pass
                await asyncio.sleep(0.05)
        finally:
            await tab.close()


async def get_flood(server: Server, path: str, count: int, settle: float) -> dict[str, Any]:
    """``count`` plain GETs of the room's link from one address, a new browser each (8 at a time): the server's
    RSS before, right after, and ``settle`` seconds later (pages that never connect are deleted after 15 s)."""
    if count <= 0:
        return {}
    answers: Counter[int] = Counter()
    before, started = rss_mb(server.pid), time.monotonic()
    queue = iter(range(count))

    async def one_at_a_time() -> None:
        async with aiohttp.ClientSession(headers={"X-Forwarded-For": STRANGER}) as session:
            for _ in queue:
                session.cookie_jar.clear()
                async with session.get(server.base + path) as response:
                    await response.read()
                    answers[response.status] += 1

    await asyncio.gather(*(one_at_a_time() for _ in range(8)))
    seconds, peak = time.monotonic() - started, rss_mb(server.pid)
    await asyncio.sleep(settle)
    return {"gets": count, "seconds": round(seconds, 1), "answers": dict(answers), "rss_before_mb": before,
            "rss_right_after_mb": peak, f"rss_{int(settle)}s_later_mb": rss_mb(server.pid)}


def phase_figures(stats: Stats) -> dict[str, Any]:
    return {"actions": stats.actions, "missed": stats.missed, "refused": stats.refused, "errors": stats.errors,
            "p50_ms": percentile(stats.all_ms, 50), "p95_ms": percentile(stats.all_ms, 95),
            "max_ms": max(stats.all_ms, default=None), "error_text": stats.error_text[:5],
            "server_cpu": round(getattr(stats, "server_cpu", 0.0), 2)}


async def play_phase(table: Table, seconds: float, attack: bool, server: Server, samples: list[float]) -> Stats:
    """Play for ``seconds`` (with the table's checks and its chat flood if ``attack``); the server's RSS each
    second into ``samples``, and its CPU (share of one core) as the last sample's ``cpu`` attribute."""
    table.room.stats = Stats()
    cpu_before, started = cpu_seconds(server.pid), time.monotonic()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(table.room.play(stop))]
    if attack:
        tasks += [asyncio.create_task(table.checks_loop(stop, 5.0)), asyncio.create_task(table.chat_flood(stop))]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        samples.append(rss_mb(server.pid))
        await asyncio.sleep(min(1.0, max(0.0, end - time.monotonic())))
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    table.room.stats.server_cpu = (cpu_seconds(server.pid) - cpu_before) / (time.monotonic() - started)  # type: ignore[attr-defined]
    return table.room.stats


async def run_table(server: Server, players: int, think: float, baseline: float, duration: float, settle: float,
                    requests: int, sockets: int, flood: int, log: Any) -> dict[str, Any]:
    table = Table(server.base, players, think, seed=7)
    await table.room.setup()
    await table.tv.visit(table.room.path + "/screen")
    log(f"room {table.room.code}: {players} phones seated, the TV on")
    result: dict[str, Any] = {"players": players, "think": think, "load_average": os.getloadavg()[0]}
    quiet: list[float] = []
    result["baseline"] = phase_figures(await play_phase(table, baseline, False, server, quiet))
    result["rss_before_mb"] = rss_mb(server.pid)
    log_size = server.log.stat().st_size
    context = multiprocessing.get_context("spawn")
    pipes, processes = [], []
    for address, fresh in ((TABLE, False), (STRANGER, True)):
        mine, theirs = context.Pipe()
        process = context.Process(target=attacker_main, args=(theirs, server.base, table.room.code, address, fresh,
                                                              duration, requests, sockets), daemon=True)
        process.start()
        pipes.append(mine)
        processes.append(process)
    during: list[float] = []
    result["attack"] = phase_figures(await play_phase(table, duration, True, server, during))
    result["attackers"] = {}
    for name, pipe, process in zip(("insider", "stranger"), pipes, processes, strict=True):
        try:
            result["attackers"][name] = pipe.recv() if pipe.poll(60) else {"no report": 1}
        except EOFError:
            result["attackers"][name] = {"no report": 1}
        process.join(timeout=30)
        if process.is_alive():
            process.kill()
    result["rss_peak_mb"] = max(during, default=0.0)
    result["log_growth_kb"] = (server.log.stat().st_size - log_size) / 1024
    result["table_checks"] = dict(table.checks)
    result["table_phones_dropped"] = {phone.label: phone.drop_reason for phone in table.room.phones
                                      if not phone.connected}
    after: list[float] = []
    result["after"] = phase_figures(await play_phase(table, settle, False, server, after))
    result["rss_after_mb"] = rss_mb(server.pid)
    result["get_flood"] = await get_flood(server, table.room.path, flood, settle=20.0)
    result["load_average_after"] = os.getloadavg()[0]
    await table.tv.close()
    await table.room.close()
    return result


def run(players: int = 8, think: float = 1.0, baseline: float = 30.0, duration: float = 60.0, settle: float = 60.0,
        requests: int = 20_000, sockets: int = 150, flood: int = 2000, data: Path | None = None,
        log: Any = print) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="mafia-attack-") as temp:
        folder = data or Path(temp)
        server = Server("game", folder, free_port(), env={"TRUST_PROXY": "1"})
        server.start()
        try:
            return asyncio.run(run_table(server, players, think, baseline, duration, settle, requests, sockets, flood,
                                         log))
        finally:
            server.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--think", type=float, default=1.0, help="seconds between two taps of the table")
    parser.add_argument("--baseline", type=float, default=30.0)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of attack")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds of play after the attack")
    parser.add_argument("--requests", type=int, default=20_000, help="at most this many requests per attacker")
    parser.add_argument("--sockets", type=int, default=150, help="at most this many spectator sockets per attacker")
    parser.add_argument("--flood", type=int, default=2000, help="plain GETs of the room's link at the end")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.players, args.think, args.baseline, args.duration, args.settle, args.requests, args.sockets,
                 args.flood, log=lambda text: print(text, file=sys.stderr))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

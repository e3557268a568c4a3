"""The parts of a local cluster, started on loopback in a temp folder: PostgreSQL, nginx, game processes.

Used by the cluster tests (``tests/cluster``) and the cluster bench (``bench/load.py --cluster``). Everything
listens on 127.0.0.1 on free ports and is stopped by ``stop``. PostgreSQL refuses to run as root: as root its
folder is given to the ``postgres`` user (Debian's package creates it; else ``nobody``) and its programs run
as that user (``runuser``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from bench.load import Server, free_port


def _pg_bin() -> Path:
    """Debian keeps PostgreSQL's server programs in /usr/lib/postgresql/VERSION/bin (the newest wins)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parts[-3])
                   if path.parts[-3].isdigit() else 0)
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
NGINX = os.environ.get("NGINX", shutil.which("nginx") or "/usr/sbin/nginx")


def postgres_available() -> bool:
    return (PG_BIN / "initdb").exists() or shutil.which("initdb") is not None


def nginx_available() -> bool:
    return Path(NGINX).exists()


def _pg(program: str) -> str:
    local = PG_BIN / program
    return str(local) if local.exists() else (shutil.which(program) or program)


class Postgres:
    """A throwaway PostgreSQL server: ``initdb`` in ``folder``, trust authentication on loopback only."""

    def __init__(self) -> None:
        # Its own folder in the system's temp folder: a test's tmp_path is closed to other users (mode 700).
        self.folder = Path(tempfile.mkdtemp(prefix="mafia-pg-"))
        self.data = self.folder / "pgdata"
        self.port = free_port()
        self.user = "mafia"
        self.process: subprocess.Popen[bytes] | None = None
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            account = "postgres"
            try:
                pwd.getpwnam(account)
            except KeyError:
                account = "nobody"
            self.as_user = ["runuser", "-u", account, "--"]
            self.account = account

    def _own(self, path: Path) -> None:
        if self.as_user:
            entry = pwd.getpwnam(self.account)
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def start(self, timeout: float = 30.0) -> None:
        self._own(self.folder)
        subprocess.run([*self.as_user, _pg("initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
                        "-E", "UTF8", "--no-sync", "--locale=C"], check=True, capture_output=True)
        log = open(self.folder / "postgres.log", "ab")  # noqa: SIM115 - open for the server's life
        self.process = subprocess.Popen(
            [*self.as_user, _pg("postgres"), "-D", str(self.data), "-p", str(self.port), "-h", "127.0.0.1",
             "-k", str(self.folder), "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off", "-c", "max_connections=200"],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=os.setsid)  # noqa: PLW1509
        deadline = time.time() + timeout
        while time.time() < deadline:
            ready = subprocess.run([_pg("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                                   capture_output=True)
            if ready.returncode == 0:
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited: see {self.folder / 'postgres.log'}")
            time.sleep(0.1)
        raise TimeoutError("postgres did not start")

    def url(self, database: str = "postgres") -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A fresh, empty database; its ``DATABASE_URL``."""
        subprocess.run([_pg("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", "postgres",
                        "-q", "-c", f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
        return self.url(name)

    def sql(self, database: str, query: str) -> str:
        done = subprocess.run([_pg("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", database,
                               "-At", "-F", "\t", "-c", query], check=True, capture_output=True, text=True)
        return done.stdout

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


COMPOSE_NETWORKS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fd00::/8")
"""Where the TLS front of compose.yaml may connect from (a container network): deploy/nginx.conf's real_ip."""


def nginx_config(backends: Mapping[str, str], listen: str, *, fail_timeout: int = 10, read_timeout: int = 60,
                 page_timeout: int = 12, include_http: bool = True, real_ip_from: Sequence[str] = ()) -> str:
    """nginx's configuration for game processes ``backends`` (name -> host:port) (docs/SCALING.md).

    A room's requests (its pages, its QR code, and through the page's prefix its socket and NiceGUI's assets)
    are hashed by the room code to one process (``hash ... consistent``: a process that fails is skipped, and
    only its codes move); ``/p/NAME/`` reaches the process NAME (the start page's socket); the rest (the start
    page, static files) any process. A room's page (``/r/CODE``, ``/r/CODE/screen``) not answered within
    ``page_timeout`` (a frozen process) is asked of the code's next process; its socket keeps ``read_timeout``,
    longer than socket.io's ping interval (24 s with NiceGUI's reconnect_timeout of 30 s). ``real_ip_from``: the
    addresses of a proxy in front (the TLS front): the client's address is then the last one it put in
    ``X-Forwarded-For``, so the one nginx passes on last is the client's, not the front's."""
    servers = "\n".join(f"        server {address} max_fails=1 fail_timeout={fail_timeout}s;"
                        for address in backends.values())
    singles = "\n".join(f"    upstream mafia_{name} {{\n        server {address};\n    }}"
                        for name, address in backends.items())
    real_ip = "".join(f"        set_real_ip_from {network};\n" for network in real_ip_from)
    if real_ip:
        real_ip = ("        # The client as the TLS front saw it (its X-Forwarded-For), not the front itself.\n"
                   + real_ip + "        real_ip_header X-Forwarded-For;\n")
    body = f"""    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    # The room code of a request: /r/CODE..., /qr/CODE, /_bench/game/CODE (the load bench's route).
    map $uri $mafia_room {{
        ~^/(?:r|qr|_bench/game)/(?<code>[A-Za-z0-9]+) $code;
        default "";
    }}
    upstream mafia_rooms {{
        hash $mafia_room consistent;
{servers}
    }}
    upstream mafia_any {{
{servers}
    }}
{singles}
    server {{
        listen {listen};
{real_ip}        # Pages and the socket carry padded game state: never compressed (webgame/browser/transport.py;
        # Debian's nginx.conf turns gzip on for text/html). The game compresses its static files itself.
        gzip off;
        client_max_body_size 1m;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Prefix "";
        proxy_connect_timeout 2s;
        proxy_read_timeout {read_timeout}s;
        proxy_send_timeout {read_timeout}s;
        proxy_next_upstream error timeout http_502 http_503;
        proxy_next_upstream_tries 3;
        proxy_buffering off;
        # A room's page, not its socket: a process that has not answered it within {page_timeout} s (frozen: SIGSTOP,
        # a stuck loop; a live one answers within the room's claim, 8 s at most, and its build) is skipped for the
        # code's next process, which takes the room over. Sockets keep {read_timeout} s (pings every 24 s).
        location ~ ^/r/[A-Za-z0-9]+(/screen)?$ {{
            proxy_read_timeout {page_timeout}s;
            proxy_pass http://mafia_rooms;
        }}
        location ~ ^/(r|qr|_bench/game)/ {{
            proxy_pass http://mafia_rooms;
        }}
        location ~ ^/p/(?<process>[A-Za-z0-9_-]+)/ {{
            proxy_pass http://mafia_$process;
        }}
        location / {{
            proxy_pass http://mafia_any;
        }}
    }}
"""
    if not include_http:
        return body
    return ("worker_processes 1;\nerror_log stderr warn;\npid nginx.pid;\nevents {\n    worker_connections 8192;\n}\n"
            "http {\n    access_log off;\n    client_body_temp_path tmp/body;\n    proxy_temp_path tmp/proxy;\n"
            "    fastcgi_temp_path tmp/fastcgi;\n    uwsgi_temp_path tmp/uwsgi;\n    scgi_temp_path tmp/scgi;\n"
            + body + "}\n")


class Nginx:
    """nginx in its own prefix folder, in the foreground, with ``nginx_config``."""

    def __init__(self, folder: Path, backends: Mapping[str, str], **options: int) -> None:
        self.folder = folder
        self.port = free_port()
        self.backends = dict(backends)
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> None:
        (self.folder / "tmp").mkdir(parents=True, exist_ok=True)
        (self.folder / "logs").mkdir(exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(nginx_config(self.backends, f"127.0.0.1:{self.port}", **self.options))
        log = open(self.folder / "nginx.log", "ab")  # noqa: SIM115 - open for the server's life
        self.process = subprocess.Popen([NGINX, "-p", str(self.folder), "-c", str(conf), "-g", "daemon off;"],
                                        stdout=log, stderr=subprocess.STDOUT, preexec_fn=os.setsid)  # noqa: PLW1509
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: see {self.folder / 'nginx.log'}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("nginx did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def game_process(name: str, data: Path, database_url: str, port: int | None = None) -> Server:
    """One game process of the cluster (``bench.serve``, with the bench's routes), named ``name``."""
    server = Server("game", data, port or free_port(), env={
        "MAFIA_PROCESS": name, "DATABASE_URL": database_url, "TRUST_PROXY": "1",
        "NICEGUI_STORAGE_PATH": str(data / "browsers")})
    server.log = data / f"{name}.log"
    return server


def start_all(servers: list[Server], timeout: float = 90.0) -> None:
    """Start the game processes side by side (each takes seconds to import and open the database)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(servers) or 1) as pool:
        list(pool.map(lambda server: server.start(timeout), servers))

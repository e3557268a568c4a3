"""The shipped container files, run (``tests/cluster/containers.py``: each container's command, environment and
configuration files as its image and compose give them, on loopback): the single process behind the TLS front
on a LAN (plain http) and with a domain (HTTPS from Caddy's local CA instead of Let's Encrypt), and the whole
cluster of compose.yaml with a domain: Caddy, Debian's nginx with Debian's nginx.conf, three game processes,
PostgreSQL as compose's environment sets it up."""

from __future__ import annotations

import gzip
import http.client
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench.services import PG_BIN, Postgres
from tests.cluster import containers
from tests.cluster.containers import Container, compose_config, free_port, service_image

DOMAIN = "mafia.test"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game image's /app: the build context as .dockerignore lets it through, catalogs compiled as the
    Dockerfile compiles them."""
    containers.require(containers.CADDY, "caddy (Debian's package: the TLS front)")
    copy = containers.image_app(tmp_path_factory.mktemp("image") / "app")
    assert not (copy / "tests").exists() and (copy / "webgame" / "static" / "phone.js").exists()
    return copy


@pytest.fixture
def running() -> Iterator[list[Container]]:
    started: list[Container] = []
    yield started
    for container in reversed(started):
        container.stop()


def fetch(port: int, path: str, host: str, tls: ssl.SSLContext | None = None, headers: dict[str, str] | None = None,
          source: str = "127.0.0.1") -> tuple[int, http.client.HTTPResponse, bytes]:
    """One request to 127.0.0.1:``port`` for ``host`` (its name in SNI and Host), from the address ``source``."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0))
    connection = http.client.HTTPConnection(host, port, timeout=20)
    connection.sock = tls.wrap_socket(raw, server_hostname=host) if tls is not None else raw
    connection.request("GET", path, headers={"Host": f"{host}:{port}", **(headers or {})})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response, body


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def negotiated(port: int, front: Path) -> str | None:
    """The protocol the front chose by ALPN, offered h2 and http/1.1 (as a browser offers them)."""
    context = ssl.create_default_context(cafile=str(containers.caddy_root(front)))
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, \
            context.wrap_socket(raw, server_hostname=DOMAIN) as wrapped:
        return wrapped.selected_alpn_protocol()


def check_https(http_port: int, https_port: int, front: Path) -> ssl.SSLContext:
    """What a domain gets: https with a certificate for it, http redirected, HTTP/2, HSTS, a Secure cookie,
    static files compressed and pages not."""
    tls = containers.tls_ready(front, DOMAIN, https_port)
    tls.set_alpn_protocols(["http/1.1"])
    status, response, _ = fetch(http_port, "/r/AB234?x=1", DOMAIN)
    # To https on its standard port (Caddy 2.6 names no other port in the redirect: a server has 443).
    assert (status, response.getheader("location")) == (308, f"https://{DOMAIN}/r/AB234?x=1")
    assert negotiated(https_port, front) == "h2"
    status, response, body = fetch(https_port, "/", DOMAIN, tls, {"Accept-Encoding": "gzip, zstd"})
    assert status == 200 and b"create-name" in body  # the start page, not compressed (no Content-Encoding)
    assert response.getheader("content-encoding") is None
    assert "max-age=" in (response.getheader("strict-transport-security") or "")
    cookie = response.getheader("set-cookie") or ""
    assert "secure" in cookie.lower().split("; ") and "httponly" in cookie.lower(), cookie
    status, response, body = fetch(https_port, "/static/phone.js", DOMAIN, tls, {"Accept-Encoding": "gzip"})
    assert (status, response.getheader("content-encoding")) == (200, "gzip")
    assert b"mafiaWakeLock" in gzip.decompress(body)
    return tls


def test_the_single_process_on_a_lan_is_plain_http(app: Path, tmp_path: Path, running: list[Container]) -> None:
    http_port, https_port, _ = containers.start_single(app, tmp_path, {}, running)
    status, response, body = fetch(http_port, "/", "192.168.1.20")
    assert status == 200 and b"create-name" in body
    assert "secure" not in (response.getheader("set-cookie") or "x").lower().split("; ")
    assert refused(https_port)  # no https, no certificate asked for
    assert not (running[0].health is None or not running[0].health())  # the image's HEALTHCHECK


def test_the_single_process_with_a_domain_is_https(app: Path, tmp_path: Path, running: list[Container]) -> None:
    http_port, https_port, front = containers.start_single(app, tmp_path, {"DOMAIN": DOMAIN}, running)
    check_https(http_port, https_port, front)


def test_the_cluster_with_a_domain(app: Path, tmp_path: Path, postgres: Postgres, running: list[Container]) -> None:
    services: dict[str, Any] = compose_config("compose.yaml", {"DOMAIN": DOMAIN})["services"]
    database = services["postgres"]["environment"]
    postgres.sql("postgres", f"ALTER ROLE {database['POSTGRES_USER']} PASSWORD '{database['POSTGRES_PASSWORD']}'")
    postgres.sql("postgres", f'DROP DATABASE IF EXISTS "{database["POSTGRES_DB"]}"')
    postgres.sql("postgres", f'CREATE DATABASE "{database["POSTGRES_DB"]}" OWNER {database["POSTGRES_USER"]}')
    check = [*services["postgres"]["healthcheck"]["test"][1:], "-h", "127.0.0.1", "-p", str(postgres.port)]
    program = PG_BIN / check[0] if (PG_BIN / check[0]).exists() else Path(shutil.which(check[0]) or check[0])
    assert subprocess.run([str(program), *check[1:]], capture_output=True, check=False).returncode == 0

    games = {name: service for name, service in services.items() if "build" in service
             and Path(service["build"]["context"]) == containers.REPO
             and service["build"].get("dockerfile", "Dockerfile") == "Dockerfile"}
    assert sorted(games) == ["p1", "p2", "p3"]
    ports = {name: free_port() for name in games}
    where = {"postgres:5432": f"127.0.0.1:{postgres.port}"}

    def start(name: str) -> Container:
        return containers.game(service_image(games[name]), {**games[name], "container_name": name}, app,
                               tmp_path / name, ports[name], where)

    with ThreadPoolExecutor(max_workers=3) as pool:
        running.extend(pool.map(start, sorted(games)))
    proxy_port = free_port()
    proxy_folder = tmp_path / "proxy"
    running.append(containers.nginx(service_image(services["proxy"]), proxy_folder, {
        **{f"{name}:8080": f"127.0.0.1:{port}" for name, port in ports.items()},
        "listen 80;": f"listen 127.0.0.1:{proxy_port};"}))
    http_port, https_port = free_port(), free_port()
    front = containers.folder_for("caddy", "mafia-caddy-")
    running.append(containers.caddy(service_image(services["https"]), services["https"], front,
                                    {"proxy:80": f"127.0.0.1:{proxy_port}"}, http_port, https_port))
    tls = check_https(http_port, https_port, front)

    # The client's address reaches the game, not the front's nor one the client made up (the rate limits key on
    # it): a phone at 127.0.0.2 claiming 203.0.113.9 is 127.0.0.2 in nginx's log (Debian's access log format).
    status, _, _ = fetch(https_port, "/r/ZZZZZ", DOMAIN, tls, {"X-Forwarded-For": "203.0.113.9"}, "127.0.0.2")
    assert status in (200, 404)  # a room page's answer (no such room) from a game process
    last = _logged_line(proxy_folder / "log" / "access.log", "/r/ZZZZZ")
    assert last.startswith("127.0.0.2 "), last
    for container in running[:3]:
        assert container.health is not None and container.health()


def _logged_line(log: Path, part: str, seconds: float = 10.0) -> str:
    """The last line of nginx's access log holding ``part``: nginx writes a request's line once the response is
    sent, so the client can read the log before it is there; waited for (up to ``seconds``), never skipped."""
    ends = time.monotonic() + seconds
    while True:
        lines = [line for line in log.read_text().splitlines() if part in line] if log.exists() else []
        if lines or time.monotonic() > ends:
            assert lines, f"no line with {part} in {log}"
            return lines[-1]
        time.sleep(0.1)

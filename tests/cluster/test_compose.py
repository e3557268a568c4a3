"""``compose.yaml`` (the one command of a local cluster, ``docker compose up --build``) against the parts the
cluster tests do run: no Docker engine runs on the test machines, so what can drift is checked here. The
game services are the ones nginx proxies to, each one names itself, all share one storage secret and reach
the PostgreSQL service with its own user, password and database; the proxy publishes port 8080 and is built
with the shipped nginx configuration (``tests/cluster/test_routing.py`` checks that configuration is the one
the cluster tests run); the game image serves on the port nginx expects."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent.parent
NGINX = (REPO / "deploy" / "nginx.conf").read_text(encoding="utf-8")


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def game_services() -> dict[str, dict[str, Any]]:
    """The services built from the project's Dockerfile (the game processes)."""
    return {name: service for name, service in compose()["services"].items() if service.get("build") == "."}


def upstream(name: str) -> list[str]:
    """The ``server`` addresses of an nginx upstream block of the shipped configuration."""
    block = re.search(r"upstream " + re.escape(name) + r" \{(.*?)\}", NGINX, flags=re.S)
    assert block is not None, f"deploy/nginx.conf has no upstream {name}"
    return re.findall(r"^\s*server (\S+?)(?:;|\s)", block.group(1), flags=re.M)


def test_docker_compose_reads_the_file() -> None:
    """Compose's own reading of the file (its schema, the ``<<`` merges, the variables): Debian's docker-compose
    (``config`` needs no Docker engine; ``scripts/test`` installs it with the cluster tools)."""
    program = shutil.which("docker-compose")
    if program is None:
        if os.environ.get("MAFIA_REQUIRE_CLUSTER") == "1":
            pytest.fail("docker-compose is needed to check compose.yaml (MAFIA_REQUIRE_CLUSTER=1)")
        pytest.skip("docker-compose is not installed")
    checked = subprocess.run([program, "-f", str(REPO / "compose.yaml"), "config", "-q"], capture_output=True,
                             text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stderr


def test_nginx_proxies_to_exactly_the_game_services_of_compose() -> None:
    games = game_services()
    assert len(games) >= 2, "a cluster needs more than one game process"
    port = dockerfile_port()
    expected = sorted(f"{name}:{port}" for name in games)
    assert sorted(upstream("mafia_rooms")) == expected
    assert sorted(upstream("mafia_any")) == expected
    for name in games:  # /p/NAME/ reaches the process NAME (the start page's socket)
        assert upstream(f"mafia_{name}") == [f"{name}:{port}"]


def test_every_game_process_names_itself_and_shares_the_secret_and_the_database() -> None:
    services = compose()["services"]
    postgres = services["postgres"]["environment"]
    secrets: set[str] = set()
    for name, service in game_services().items():
        environment = service["environment"]
        assert environment["MAFIA_PROCESS"] == name  # its /p/NAME/ links and its lease owner
        assert environment["TRUST_PROXY"] == "1"  # the rate limits key on the address nginx saw
        secrets.add(environment["STORAGE_SECRET"])
        url = urlsplit(environment["DATABASE_URL"])
        assert url.scheme in ("postgres", "postgresql")
        assert (url.hostname, url.username, url.password, url.path.lstrip("/")) == (
            "postgres", postgres["POSTGRES_USER"], postgres["POSTGRES_PASSWORD"], postgres["POSTGRES_DB"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert len(secrets) == 1, "every process must sign the browsers' cookies with the same secret"


def test_the_proxy_is_built_with_the_shipped_configuration_and_published_on_8080() -> None:
    proxy = compose()["services"]["proxy"]
    context = REPO / proxy["build"]["context"]
    dockerfile = (context / proxy["build"]["dockerfile"]).read_text(encoding="utf-8")
    copied = re.search(r"^COPY (\S+) /etc/nginx/conf\.d/\S+\.conf$", dockerfile, flags=re.M)
    assert copied is not None and (context / copied.group(1)).resolve() == REPO / "deploy" / "nginx.conf"
    listen = re.search(r"^\s*listen (\d+);", NGINX, flags=re.M)
    assert listen is not None
    assert f"8080:{listen.group(1)}" in proxy["ports"]
    assert set(proxy["depends_on"]) == set(game_services())


def dockerfile_port() -> str:
    """The port the game image serves on (its ``PORT``)."""
    found = re.search(r"\bPORT=(\d+)", (REPO / "Dockerfile").read_text(encoding="utf-8"))
    assert found is not None, "the Dockerfile sets no PORT"
    return found.group(1)

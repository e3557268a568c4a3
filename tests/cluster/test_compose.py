"""``compose.yaml`` (the one command of a local cluster, ``docker compose up --build``) and ``compose.single.yaml``
against the parts the cluster tests do run: no Docker engine runs on the test machines, so what can drift is
checked here. The game services are the ones nginx proxies to, each one names itself, all share one storage
secret and reach the PostgreSQL service with its own user, password and database; the proxy is built with the
shipped nginx configuration (``tests/cluster/test_routing.py`` checks that configuration is the one the cluster
tests run) and reached only through the TLS front (Caddy), which alone is published (80, 443, 8080); one
setting, ``DOMAIN``, turns HTTPS on in both files; the game image serves on the port nginx expects.
``tests/cluster/test_shipped.py`` runs what every container of them runs."""

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
    for file in ("compose.yaml", "compose.single.yaml"):
        checked = subprocess.run([program, "-f", str(REPO / file), "config", "-q"], capture_output=True,
                                 text=True, timeout=60, check=False)
        assert checked.returncode == 0, (file, checked.stderr)


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


def test_the_proxy_is_built_with_the_shipped_configuration_and_only_the_tls_front_is_published() -> None:
    services = compose()["services"]
    proxy = services["proxy"]
    context = REPO / proxy["build"]["context"]
    dockerfile = (context / proxy["build"]["dockerfile"]).read_text(encoding="utf-8")
    copied = re.search(r"^COPY (\S+) /etc/nginx/conf\.d/\S+\.conf$", dockerfile, flags=re.M)
    assert copied is not None and (context / copied.group(1)).resolve() == REPO / "deploy" / "nginx.conf"
    listen = re.search(r"^\s*listen (\d+);", NGINX, flags=re.M)
    assert listen is not None
    assert set(proxy["depends_on"]) == set(game_services())
    # nginx trusts X-Forwarded-For from the private networks: only the TLS front may reach it.
    assert [name for name, service in services.items() if service.get("ports")] == ["https"]
    assert services["https"]["environment"]["UPSTREAM"] == f"proxy:{listen.group(1)}"


@pytest.mark.parametrize("file", ["compose.yaml", "compose.single.yaml"])
def test_the_tls_front_is_published_on_its_ports_and_8080(file: str) -> None:
    """Host 80, 443 (TCP and UDP: HTTP/3) and 8080 reach the ports Caddy listens on by default (Caddyfile)."""
    loaded = yaml.safe_load((REPO / file).read_text(encoding="utf-8"))
    front = loaded["services"]["https"]
    caddyfile = (REPO / front["build"]["context"] / "Caddyfile").read_text(encoding="utf-8")
    http = re.search(r"http_port \{\$HTTP_PORT:(\d+)\}", caddyfile)
    https = re.search(r"https_port \{\$HTTPS_PORT:(\d+)\}", caddyfile)
    assert http is not None and https is not None
    assert front["ports"] == [f"${{HTTP_PORT:-80}}:{http.group(1)}", f"${{HTTPS_PORT:-443}}:{https.group(1)}",
                              f"${{HTTPS_PORT:-443}}:{https.group(1)}/udp", f"8080:{http.group(1)}"]
    assert "caddy:/data" in front["volumes"]  # the certificates survive a restart (XDG_DATA_HOME=/data)
    assert "XDG_DATA_HOME=/data" in (REPO / front["build"]["context"] / front["build"]["dockerfile"]).read_text()


@pytest.mark.parametrize("file", ["compose.yaml", "compose.single.yaml"])
def test_one_setting_turns_https_on(file: str) -> None:
    """DOMAIN is the front's site (https, a certificate) and tells every game process it is served over HTTPS;
    without it the front serves plain http on any name and the game's cookies stay without Secure."""
    from tests.cluster.containers import compose_config

    for variables, site, domain in (({}, "http://", ""), ({"DOMAIN": "mafia.example.org"}, "mafia.example.org",
                                                             "mafia.example.org")):
        services = compose_config(file, variables)["services"]
        assert services["https"]["environment"]["SITE_ADDRESS"] == site
        games = [service for service in services.values() if service.get("build", {}).get("context") == str(REPO)]
        assert games and all(service["environment"]["DOMAIN"] == domain for service in games)
        assert all(service["environment"]["TRUST_PROXY"] == "1" for service in games)
    single = yaml.safe_load((REPO / "compose.single.yaml").read_text(encoding="utf-8"))["services"]
    assert single["https"]["environment"]["UPSTREAM"] == f"game:{dockerfile_port()}"
    assert "mafia-data:/data" in single["game"]["volumes"]


def dockerfile_port() -> str:
    """The port the game image serves on (its ``PORT``)."""
    found = re.search(r"\bPORT=(\d+)", (REPO / "Dockerfile").read_text(encoding="utf-8"))
    assert found is not None, "the Dockerfile sets no PORT"
    return found.group(1)

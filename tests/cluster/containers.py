"""The shipped containers run as their images would run them, without a container engine: what a ``Dockerfile``
says (``ENV``, ``WORKDIR``, ``COPY``, ``CMD``, ``HEALTHCHECK``) and what ``docker-compose config`` makes of a
compose file (each service's environment, with the variables given), run here with the same programs (Debian's
packages, the project's venv), the same command lines, the same environment and the same configuration files;
only the paths (``/data`` -> a temp folder), the ports (free ones) and the service names (``proxy:80`` ->
``127.0.0.1:PORT``) are mapped. A typo in any of those files fails here, as it would in the container.

Used by ``tests/cluster/test_shipped.py`` and ``e2e/test_https.py``."""

from __future__ import annotations

import fnmatch
import json
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def require(program: str, what: str) -> str:
    """The program's path; else the test is skipped, or fails with ``MAFIA_REQUIRE_CLUSTER=1`` (CI)."""
    found = shutil.which(program) or (program if Path(program).is_file() else None)
    if found is None:
        if os.environ.get("MAFIA_REQUIRE_CLUSTER") == "1":
            pytest.fail(f"{what} is needed (MAFIA_REQUIRE_CLUSTER=1)")
        pytest.skip(f"{what} is not installed")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------- what the files say


@dataclass
class Image:
    """What a Dockerfile gives its container: environment, working folder, copied files, command, health check."""

    context: Path
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    copies: dict[str, Path] = field(default_factory=dict)  # path in the image -> file of the build context
    run: list[str] = field(default_factory=list)  # the RUN lines, as written
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    user: str = "root"


def read_image(dockerfile: Path, context: Path) -> Image:
    text = re.sub(r"\\\n", " ", dockerfile.read_text(encoding="utf-8"))  # continuation lines joined
    image = Image(context)
    for line in text.splitlines():
        keyword, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if keyword == "ENV":
            image.env.update(dict(pair.split("=", 1) for pair in rest.split()))
        elif keyword == "WORKDIR":
            image.workdir = rest
        elif keyword == "COPY":
            source, target = rest.split()
            image.copies[target] = context / source
        elif keyword == "RUN":
            image.run.append(rest)
        elif keyword == "CMD":
            image.cmd = json.loads(rest)
        elif keyword == "USER":
            image.user = rest
        elif keyword == "HEALTHCHECK":
            image.healthcheck = json.loads(rest.split(" CMD ", 1)[1])
    return image


def compose_config(file: str, variables: Mapping[str, str]) -> dict[str, Any]:
    """``docker-compose -f FILE config``: the services as compose reads them, with ``variables`` in its
    environment (``DOMAIN`` or none) and nothing else of ours."""
    program = require("docker-compose", "docker-compose (it reads the compose files)")
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **variables}
    done = subprocess.run([program, "-f", str(REPO / file), "config"], capture_output=True, text=True, timeout=60,
                          env=environment, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    loaded = yaml.safe_load(done.stdout)
    assert isinstance(loaded, dict)
    return loaded


def service_image(service: Mapping[str, Any]) -> Image:
    build = service["build"]
    context = Path(build["context"])
    return read_image(context / build.get("dockerfile", "Dockerfile"), context)


def mapped(value: str, replacements: Mapping[str, str]) -> str:
    """A value of the container with its paths, ports and service addresses replaced (longest first)."""
    for old in sorted(replacements, key=len, reverse=True):
        value = value.replace(old, replacements[old])
    return value


def environment(image: Image, service: Mapping[str, Any], replacements: Mapping[str, str],
                extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The container's environment: a bare PATH whose ``python`` is the project's venv, the image's ``ENV``,
    the service's ``environment`` (compose's), mapped; then ``extra`` (the test's own knobs, named)."""
    env = {"PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    for source in (image.env, service.get("environment") or {}):
        env.update({key: mapped(str(value), replacements) for key, value in source.items()})
    env.update(extra or {})
    return env


# ---------------------------------------------------------------- the build context (.dockerignore)


def build_context_copy(target: Path) -> Path:
    """The game image's /app: the build context without what .dockerignore leaves out."""
    patterns = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]

    def ignored(relative: str) -> bool:
        name = relative.rsplit("/", 1)[-1]
        return any(fnmatch.fnmatch(relative, pattern)
                   or (pattern.startswith("**/") and fnmatch.fnmatch(name, pattern[3:])) for pattern in patterns)

    def skip(folder: str, names: list[str]) -> set[str]:
        relative = Path(folder).relative_to(REPO).as_posix()
        return {name for name in names if ignored(name if relative == "." else f"{relative}/{name}")}

    shutil.copytree(REPO, target, ignore=skip, symlinks=True)
    return target


def image_app(target: Path) -> Path:
    """The game image's /app, built as the Dockerfile builds it: the context copied, the catalogs compiled."""
    copy = build_context_copy(target)
    image = read_image(REPO / "Dockerfile", REPO)
    assert any("pybabel compile -d locales -D messages" in line for line in image.run)
    subprocess.run([str(VENV_BIN / "pybabel"), "compile", "-d", "locales", "-D", "messages"], cwd=copy, check=True,
                   capture_output=True)
    return copy


# ---------------------------------------------------------------- running one container's command


class Container:
    """One container's command as its own process group, output to ``log``."""

    def __init__(self, name: str, command: list[str], env: Mapping[str, str], cwd: Path, log: Path,
                 as_user: str | None = None) -> None:
        self.name, self.command, self.env, self.cwd, self.log = name, command, dict(env), cwd, log
        runuser = shutil.which("runuser") or "/usr/sbin/runuser"
        self.prefix = [runuser, "-u", as_user, "--"] if as_user and os.geteuid() == 0 else []
        self.process: subprocess.Popen[bytes] | None = None
        self.health: Callable[[], bool] | None = None  # the image's HEALTHCHECK, where it has one
        self.folder: Path | None = None  # a folder of its own outside the test's, removed once it stopped

    def start(self, ready: Callable[[], bool], timeout: float = 90.0) -> Container:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([*self.prefix, *self.command], env=self.env, cwd=self.cwd, stdout=out,
                                            stderr=subprocess.STDOUT, preexec_fn=os.setsid)  # noqa: PLW1509
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.output()}")
            if ready():
                return self
            time.sleep(0.2)  # polling a starting process, not waiting on a screen
        raise TimeoutError(f"{self.name} did not start:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def answers(port: int, host: str = "127.0.0.1") -> Callable[[], bool]:
    def check() -> bool:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            return False
    return check


def healthy(image: Image, env: Mapping[str, str], cwd: Path) -> Callable[[], bool]:
    """The image's own HEALTHCHECK command, run with the container's environment."""
    def check() -> bool:
        return subprocess.run(image.healthcheck, env=dict(env), cwd=cwd, capture_output=True, timeout=10,
                              check=False).returncode == 0
    return check


def folder_for(user: str | None, prefix: str) -> Path:
    """A temp folder the container's user may write (as root: given to that user, like a volume of the image)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if user and os.geteuid() == 0:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o755)
    return folder


# ---------------------------------------------------------------- the three kinds of container


def game(image: Image, service: Mapping[str, Any], app: Path, data: Path, port: int,
         replacements: Mapping[str, str]) -> Container:
    """The game image (Dockerfile): ``CMD`` in ``WORKDIR`` (the build context as copied), /data -> ``data``."""
    assert image.workdir == "/app"
    data.mkdir(parents=True, exist_ok=True)  # the image's /data (a volume)
    env = environment(image, service, {"/data": str(data), **replacements}, {"PORT": str(port)})
    container = Container(service.get("container_name", "game"), list(service.get("command") or image.cmd), env,
                          app, data.parent / f"{data.name}.log")
    container.health = healthy(image, env, app)
    return container.start(container.health)


def caddy(image: Image, service: Mapping[str, Any], folder: Path, replacements: Mapping[str, str],
          http_port: int, https_port: int, issuer: str = "internal") -> Container:
    """The TLS front (deploy/caddy.Dockerfile): its ``CMD`` with /etc/caddy/Caddyfile -> deploy/Caddyfile,
    /data and /config -> ``folder``, as its user ``caddy``. The test's own knobs: the ports and, instead of
    Let's Encrypt, Caddy's local CA (``CERT_ISSUER=internal``)."""
    paths = {"/data": str(folder / "data"), "/config": str(folder / "config"),
             **{target: str(source) for target, source in image.copies.items()}}
    for sub in ("data", "config"):
        (folder / sub).mkdir(exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(folder / sub, image.user, image.user)
    env = environment(image, service, {**paths, **replacements},
                      {"HTTP_PORT": str(http_port), "HTTPS_PORT": str(https_port), "CERT_ISSUER": issuer})
    command = [mapped(part, paths) for part in image.cmd]
    assert command[0] == "caddy"
    command[0] = CADDY
    container = Container("https", command, env, folder, folder / "caddy.log", image.user)
    container.folder = folder if folder.parent == Path(tempfile.gettempdir()) else None
    return container.start(answers(http_port))


def caddy_root(folder: Path) -> Path:
    """The local CA's root certificate of a Caddy started by ``caddy``."""
    return folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def tls_ready(folder: Path, name: str, port: int, timeout: float = 30.0) -> ssl.SSLContext:
    """Wait until Caddy serves ``name`` with a certificate of its local CA; a context that trusts that CA."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if caddy_root(folder).exists():
            context = ssl.create_default_context(cafile=str(caddy_root(folder)))
            context.set_alpn_protocols(["h2", "http/1.1"])
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, \
                        context.wrap_socket(raw, server_hostname=name):
                    return context
            except (OSError, ssl.SSLError):
                pass
        time.sleep(0.2)  # polling a certificate being issued
    raise TimeoutError(f"no certificate for {name} on port {port}")


def nginx(image: Image, folder: Path, replacements: Mapping[str, str], front: str = "127.0.0.1") -> Container:
    """The cluster's proxy (deploy/proxy.Dockerfile): Debian's nginx with Debian's own /etc/nginx (copied: the
    same package the image installs) and deploy/nginx.conf as conf.d/mafia.conf, its default site removed as
    the Dockerfile removes it; its ``CMD`` with ``-c`` and ``-e`` for the mapped paths. The private networks it
    trusts as the TLS front are ``front`` here."""
    etc = folder / "etc" / "nginx"
    shutil.copytree("/etc/nginx", etc, symlinks=True)
    assert any("rm -rf" in line and "/etc/nginx/sites-enabled/default" in line for line in image.run)
    (etc / "sites-enabled" / "default").unlink(missing_ok=True)
    (folder / "log").mkdir()
    paths = {"/etc/nginx/": f"{etc}/", "/var/log/nginx/": f"{folder}/log/", "/run/nginx.pid": f"{folder}/nginx.pid"}
    main = etc / "nginx.conf"
    main.write_text(mapped(main.read_text(), paths))
    for target, source in image.copies.items():
        text = mapped(source.read_text(), replacements)
        text = re.sub(r"(        set_real_ip_from \S+;\n)+", f"        set_real_ip_from {front};\n", text)
        Path(mapped(target, paths)).write_text(text)
    assert image.cmd[0] == "nginx"
    command = [NGINX, *image.cmd[1:], "-c", str(main), "-e", str(folder / "log" / "error.log")]
    listen = re.search(r"listen (\S+?):(\d+);", (etc / "conf.d" / "mafia.conf").read_text())
    assert listen is not None, "the listen line was not mapped to a loopback port"
    return Container("proxy", command, {"PATH": "/usr/sbin:/usr/bin:/bin"}, folder, folder / "nginx.log").start(
        answers(int(listen.group(2))))


def start_single(app: Path, folder: Path, variables: dict[str, str],
                 running: list[Container]) -> tuple[int, int, Path]:
    """compose.single.yaml's two containers; the front's http and https ports and its folder."""
    services = compose_config("compose.single.yaml", variables)["services"]
    port = free_port()
    running.append(game(service_image(services["game"]), services["game"], app, folder / "data", port, {}))
    http_port, https_port = free_port(), free_port()
    front = folder_for("caddy", "mafia-caddy-")
    running.append(caddy(service_image(services["https"]), services["https"], front,
                         {"game:8080": f"127.0.0.1:{port}"}, http_port, https_port))
    return http_port, https_port, front

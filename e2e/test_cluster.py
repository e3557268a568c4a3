"""Real browsers through the cluster's nginx (docs/SCALING.md): NiceGUI's own JavaScript puts a page's prefix
before its socket, its assets, its links and its navigations, and each must reach the process of the room.

The host creates a room on the start page (served by any process; its "go to the room" is the start page's
prefix before /r/CODE, redirected to /r/CODE, which nginx sends to the room's process); a guest opens the link
typed in small letters, joins, reloads and keeps his seat; no page logs an error."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.load import Server
from bench.services import Nginx, Postgres, game_process, nginx_available, postgres_available, start_all
from e2e.harness import Phone

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Postgres]]:
    if not (postgres_available() and nginx_available()):
        if os.environ.get("MAFIA_REQUIRE_CLUSTER") == "1":
            pytest.fail("PostgreSQL and nginx are needed (MAFIA_REQUIRE_CLUSTER=1)")
        pytest.skip("PostgreSQL or nginx is not installed")
    folder: Path = tmp_path_factory.mktemp("cluster")
    postgres = Postgres()
    processes: dict[str, Server] = {}
    nginx: Nginx | None = None
    try:
        postgres.start()
        database = postgres.create_database("mafia")
        processes = {name: game_process(name, folder, database) for name in ("p1", "p2")}
        nginx = Nginx(folder / "nginx", {name: f"127.0.0.1:{server.port}" for name, server in processes.items()})
        start_all(list(processes.values()))
        nginx.start()
        yield nginx.base, postgres
    finally:
        for server in processes.values():
            server.kill()
        if nginx is not None:
            nginx.stop()
        postgres.stop()


def test_a_room_is_created_joined_and_reloaded_through_the_proxy(cluster: tuple[str, Postgres],
                                                                 phones: Callable[..., Phone]) -> None:
    base, postgres = cluster
    host, guest = phones("Host"), phones("Guest")
    errors: list[str] = []
    for phone in (host, guest):
        phone.page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

    host.page.goto(base + "/")
    host.connected()
    host.fill("create-name", "Host")
    host.tid("create").click()
    host.page.wait_for_url(re.compile(r".*/r/[A-Z0-9]{5}$"))
    code = host.page.url.rsplit("/", 1)[-1]
    expect(host.tid("start")).to_be_visible()
    owner = postgres.sql("mafia", "SELECT split_part(l.owner, ':', 1) FROM room_lease l JOIN room r "
                                  f"ON r.id = l.room_id WHERE r.code = '{code}'").strip()
    assert owner in ("p1", "p2")

    guest.page.goto(f"{base}/r/{code.lower()}")
    guest.connected()
    assert guest.page.url.endswith(f"/r/{code}")
    guest.fill("join-name", "Guest")
    guest.tid("join").click()
    expect(host.page.get_by_text("Guest").first).to_be_visible()

    guest.page.reload()
    guest.connected()
    expect(guest.page.get_by_text("Guest").first).to_be_visible()
    expect(guest.field("join-name")).to_have_count(0)  # seated again by his browser's token
    assert errors == []

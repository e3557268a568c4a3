"""How a game process of a cluster reads the proxy's URLs (``webgame.cluster.process.Routing``), and the shipped nginx
configuration (``deploy/nginx.conf``) being the one the cluster tests run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.services import COMPOSE_NETWORKS, nginx_config
from webgame.cluster.process import Routing

REPO = Path(__file__).resolve().parents[2]


class Seen:
    """The app behind the middleware: what it was asked for."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)


async def _ask(path: str, kind: str = "http", query: bytes = b"") -> tuple[Seen, list[dict[str, Any]]]:
    seen, sent = Seen(), []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": kind, "path": path, "raw_path": path.encode(), "method": "GET", "query_string": query,
             "headers": [(b"x-forwarded-prefix", b"/evil")]}
    await Routing(seen, name="p2")(scope, None, send)
    return seen, sent


def _prefix(scope: dict[str, Any]) -> list[bytes]:
    return [value for key, value in scope["headers"] if key == b"x-forwarded-prefix"]


async def test_a_room_page_gets_its_code_as_prefix_so_its_socket_carries_the_code() -> None:
    seen, _ = await _ask("/r/K7QXM")
    assert _prefix(seen.scopes[0]) == [b"/r/K7QXM"]  # a client's own prefix is replaced, not kept
    seen, _ = await _ask("/r/K7QXM/screen")
    assert _prefix(seen.scopes[0]) == [b"/r/K7QXM"]


async def test_other_pages_get_the_process_prefix() -> None:
    seen, _ = await _ask("/")
    assert _prefix(seen.scopes[0]) == [b"/p/p2"]


async def test_the_prefixes_are_taken_off_the_socket_and_the_assets() -> None:
    seen, _ = await _ask("/r/K7QXM/_nicegui_ws/socket.io/", kind="websocket")
    assert seen.scopes[0]["path"] == "/_nicegui_ws/socket.io/"
    seen, _ = await _ask("/p/p2/_nicegui/3.18.0/static/nicegui.js")
    assert seen.scopes[0]["path"] == "/_nicegui/3.18.0/static/nicegui.js"


async def test_a_link_or_navigation_under_a_prefix_goes_to_its_own_place() -> None:
    """NiceGUI prefixes a page's links: the start page's navigation to a room is /p/NAME/r/CODE; it is sent to
    the path after the prefix (and the proxy sends that where it belongs: the room's process, not the start
    page's)."""
    for path, target in (("/p/p1/r/ABCDE", b"/r/ABCDE"), ("/p/p1/", b"/"),
                         ("/r/K7QXM/static/mafia.css", b"/static/mafia.css")):
        seen, sent = await _ask(path)
        assert not seen.scopes, path
        assert (sent[0]["status"], dict(sent[0]["headers"])[b"location"]) == (307, target), path


async def test_a_room_link_with_a_slash_at_the_end_is_the_room_not_the_start_page() -> None:
    for path, target in (("/r/K7QXM/", b"/r/K7QXM"), ("/r/K7QXM/screen/", b"/r/K7QXM/screen"),
                         ("/r/k7qxm/", b"/r/K7QXM/")):  # small letters: capitals first, then the slash
        seen, sent = await _ask(path, query=b"move=AB")
        assert not seen.scopes, path
        assert sent[0]["status"] == 307, path
        assert dict(sent[0]["headers"])[b"location"] == target + b"?move=AB", path


async def test_a_code_in_small_letters_is_sent_to_its_capitals_first() -> None:
    """The proxy hashes the code as spelled: k7qxm and K7QXM must reach the same process."""
    seen, sent = await _ask("/r/k7qxm/screen", query=b"x=1")
    assert not seen.scopes
    assert sent[0]["status"] == 307
    assert dict(sent[0]["headers"])[b"location"] == b"/r/K7QXM/screen?x=1"


def test_the_shipped_nginx_configuration_is_the_tested_one() -> None:
    shipped = (REPO / "deploy" / "nginx.conf").read_text()
    body = "\n".join(line for line in shipped.splitlines() if not line.startswith("#")) + "\n"
    assert body == nginx_config({"p1": "p1:8080", "p2": "p2:8080", "p3": "p3:8080"}, "80", include_http=False,
                                real_ip_from=COMPOSE_NETWORKS)

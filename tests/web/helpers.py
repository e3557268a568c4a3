"""Helpers of the simulated-user tests: seating people through the pages, reading what a page holds."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from typing import Any

from nicegui import Client, background_tasks, ui
from nicegui.testing import User

from webgame.pages.screen import Screen
from webgame.pages.screen_model import covered_nodes, model_ids
from webgame.room import rooms
from webgame.room.rooms import Room
from webgame.store import queries as store


def page_dump(user: User) -> str:
    """Everything this user's page holds (texts and props of every element): what reaches his browser."""
    assert user.client is not None
    parts = []
    for element in list(user.client.elements.values()):
        text = getattr(element, "text", None)
        if isinstance(text, str):
            parts.append(text)
        parts.append(json.dumps(element.props, ensure_ascii=False, default=str))
    return "\n".join(parts)


def texts(user: User) -> list[str]:
    """Every text the page shows: element texts and the texts of its game screen parts."""
    assert user.client is not None
    found = []
    for element in list(user.client.elements.values()):
        if isinstance(element, Screen):
            found.extend(element.texts)
        elif isinstance(getattr(element, "text", None), str):
            found.append(element.text)
    return found


def covered_screen(user: User) -> list[Any]:
    """What a glance at this phone sees: every screen part as the covered screen draws it (nothing behind the
    reveal), in page order, with the countdown's time left out (it runs on every phone alike)."""
    assert user.client is not None
    parts: list[Any] = []
    for element in list(user.client.elements.values()):
        if isinstance(element, Screen) and not element.is_deleted:
            parts.append(_without_time(covered_nodes(json.loads(element.props["model"]))))
    return parts


def _without_time(nodes: list[Any]) -> list[Any]:
    return [{key: (_without_time(value) if key == "k" else value) for key, value in node.items()
             if not (node.get("t") == "clock" and key in ("ms", "x"))} for node in nodes]


def covered_ids(user: User) -> set[str]:
    """The node ids a glance at the covered screen can see."""
    return set(model_ids([node for part in covered_screen(user) for node in part]))


def screen_with(user: User, marker: str, enabled_only: bool = True) -> Screen | None:
    """The live game screen part of this page that holds a node ``marker`` (enabled, unless told otherwise)."""
    assert user.client is not None
    for element in list(user.client.elements.values()):
        if isinstance(element, Screen) and not element.is_deleted and marker in element.node_ids \
                and (element.node_ids[marker] or not enabled_only):
            return element
    return None


# Each simulated browser's pick (screen.js: a player tapped in a grid is picked in the browser, nothing is sent; the
# grid's button sends him as its tap's value): user -> {group: seat}.
_PICKS: weakref.WeakKeyDictionary[User, dict[str, int]] = weakref.WeakKeyDictionary()


def picked(user: User, group: str) -> int | None:
    """The player this simulated browser picked in ``group`` (``Draft.pick``), or None."""
    return _PICKS.get(user, {}).get(group)


def browser_tap(user: User, screen: Screen, marker: str, value: Any) -> tuple[bool, Any]:
    """What screen.js does with a tap on ``marker``: a grid's player is picked in the browser alone (False: nothing
    is sent); the grid's button sends the pick as its value (it is disabled until there is one)."""
    item = _find_node(json.loads(screen.props["model"]), marker)
    if item is not None and item.get("t") == "pick":
        _PICKS[user] = {str(item["g"]): int(item["v"])}
        return False, None
    if item is not None and item.get("t") == "button" and "g" in item:
        seat = picked(user, str(item["g"]))
        if seat is None:
            raise AssertionError(f"{marker} is disabled: nobody is picked in {item['g']}")
        return True, seat
    return True, value


def _find_node(nodes: list[dict[str, Any]], marker: str) -> dict[str, Any] | None:
    for item in nodes:
        if item.get("id") == marker:
            return item
        found = _find_node(item.get("k", []), marker)
        if found is not None:
            return found
    return None


def tap(user: User, marker: str, value: Any = None) -> None:
    """A tap on a node of the game screen, as the browser sends it (handled in the background, like a click); a
    pick in a grid stays in the simulated browser, as in screen.js (``browser_tap``)."""
    screen = screen_with(user, marker)
    if screen is None:
        raise AssertionError(f"nothing to tap: {marker}")
    assert user.client is not None
    send, value = browser_tap(user, screen, marker, value)
    if not send:
        return

    async def tapped() -> None:
        with screen:  # as NiceGUI runs an element's handler: in the element's slot (``ui.navigate`` finds its page)
            await screen.tap(marker, value)

    with user.client:
        background_tasks.create(tapped(), name=f"tap {marker}")


def node(user: User, marker: str) -> dict[str, Any] | None:
    """The node ``marker`` of the page's game screen, as the browser receives it (its model), or None."""
    screen = screen_with(user, marker, enabled_only=False)
    if screen is None:
        return None
    return _find_node(json.loads(screen.props["model"]), marker)


def has(user: User, marker: str) -> bool:
    """The page shows an element or a screen node with this marker."""
    assert user.client is not None
    return any(marker in element._markers and not element.is_deleted  # noqa: SLF001
               for element in list(user.client.elements.values()))


async def settle(*users: User) -> None:
    """Let background refreshes and handlers run."""
    for _ in range(3):
        await asyncio.sleep(0.02)


async def create_room(user: User, name: str = "Host", rules: str = "uz") -> Room:
    await user.open("/")
    user.find(marker="create-name").type(name)
    select = next(iter(user.find(marker="create-rules").elements))
    assert isinstance(select, ui.select)
    select.value = rules
    user.find(marker="create").click()
    for _ in range(500):  # up to 10 s on a loaded machine; ends as soon as the phone is sent to the room
        await asyncio.sleep(0.02)
        if rooms.registry.rooms and user.back_history[-1].startswith("/r/"):
            break
    code = user.back_history[-1].split("/")[-1]
    room = rooms.registry.get(code)
    assert room is not None
    await user.should_see(marker="start")
    return room


async def join(user: User, room: Room, name: str) -> None:
    await user.open(f"/r/{room.code}")
    await user.should_see(marker="join-name")
    tap(user, "join", {"text": name})  # the join form: what is typed goes with the button's tap
    await wait_for(lambda: any(seat.name == name for seat in room.seats))
    await user.should_see(content=name)


async def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


async def seat_directly(room: Room, names: list[str]) -> list[str]:
    """Seat people without pages (to fill a table fast); returns their token hashes."""
    hashes = []
    for name in names:
        token = store.new_seat_token()
        await room.join(token, name)
        hashes.append(store.hash_token(token))
    return hashes


def click(user: User, marker: str) -> None:
    user.find(marker=marker).click()


async def click_when_enabled(user: User, marker: str) -> None:
    """Click the (live, enabled) element with this marker once the page shows it."""

    def ready() -> bool:
        assert user.client is not None
        return screen_with(user, marker) is not None or any(
            marker in element._markers and not element.is_deleted and getattr(element, "enabled", True)
            and not isinstance(element, Screen)
            for element in list(user.client.elements.values())
        )

    await wait_for(ready)
    screen = screen_with(user, marker)
    if screen is not None:
        send, value = browser_tap(user, screen, marker, None)
        if send:
            await screen.tap(marker, value)
        return
    user.find(marker=marker).click()


async def start_game(create_user: Callable[[], User], players: int, rules: str = "uz",
                     host_language: str | None = None) -> tuple[Room, list[User]]:
    """A room of ``players`` simulated phones (P1 the host, his browser in ``host_language`` if given), its game
    started."""
    users = [create_user() for _ in range(players)]
    if host_language is not None:
        users[0].http_client.headers["Accept-Language"] = host_language
    room = await create_room(users[0], "P1", rules)
    for number, phone in enumerate(users[1:], 2):
        await join(phone, room, f"P{number}")
    await click_when_enabled(users[0], "start")
    await wait_for(lambda: room.state is not None)
    await settle()
    return room, users


async def labels_page(user: User, path: str, count: int) -> tuple[Client, list[ui.label]]:
    """A page of ``count`` labels ("label 0", ...) opened by ``user`` at ``path``, its first messages sent: its client
    and its labels."""
    labels: list[ui.label] = []

    @ui.page(path)
    def page() -> None:
        labels.extend(ui.label(f"label {n}") for n in range(count))

    await user.open(path)
    client = labels[0].client
    await drained(client)
    return client, labels


async def drained(client: Client) -> None:
    """Until the page's outbox has sent everything it held (at most 2 s), and a little more."""
    for _ in range(200):
        if not client.outbox.updates and not client.outbox.messages:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)

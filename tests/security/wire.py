"""What reaches each browser: every socket.io message NiceGUI emits and every page's first HTML.

``Wire.install(monkeypatch)`` wraps ``nicegui.core.sio.emit`` (which every client's outbox calls for each
message) and ``Client.build_response`` (the HTML of a page load, with its element tree). Nothing in the app
changes; the test reads what was sent, per client id, in order, with its exact size in bytes (the JSON the
socket carries) and the time it left.

``Elements`` turns element dicts (as NiceGUI serializes them) into what a reader of the browser could
see: texts, every string in props (labels, placeholders, aria labels, select options, data-testid), the
classes, and the text of each row (a name label next to a role label is one row).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import nicegui.json as nicegui_json
import pytest
from nicegui import Client, core


@dataclass
class Sent:
    client_id: str
    type: str
    data: Any
    size: int
    at: float


@dataclass(repr=False)
class Wire:
    sent: dict[str, list[Sent]] = field(default_factory=lambda: defaultdict(list))
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)  # client id -> element tree of its first HTML
    html: dict[str, str] = field(default_factory=dict)
    read: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # client id -> messages already inspected
    total: int = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original_emit = core.sio.emit
        wire = self

        async def emit(event: str, data: Any = None, room: str | None = None, **kwargs: Any) -> Any:
            text = nicegui_json.dumps(data)
            if room is not None:
                size = len(text.encode())
                wire.sent[room].append(Sent(room, event, nicegui_json.loads(text), size, time.monotonic()))
                wire.total += 1
            return await original_emit(event, data, room=room, **kwargs)

        monkeypatch.setattr(core.sio, "emit", emit)
        original_build = Client.build_response

        def build_response(client: Client, request: Any, status_code: int = 200) -> Any:
            tree = {str(key): element._to_dict() for key, element in client.elements.items()}
            response = original_build(client, request, status_code)
            wire.pages[client.id] = nicegui_json.loads(nicegui_json.dumps(tree))
            body = getattr(response, "body", b"")
            wire.html[client.id] = body.decode("utf-8", "replace") if isinstance(body, bytes) else ""
            return response

        monkeypatch.setattr(Client, "build_response", build_response)

    def unread(self, client_id: str) -> list[Sent]:
        """The messages sent to this client since the last call."""
        messages = self.sent.get(client_id, [])
        start = self.read[client_id]
        self.read[client_id] = len(messages)
        return messages[start:]

    def mark_read(self, client_id: str) -> None:
        self.read[client_id] = len(self.sent.get(client_id, []))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            if key == "model" and isinstance(item, str) and item.startswith("["):
                yield from _strings(json.loads(item))  # a game screen part: every string of its nodes, one by one
            else:
                yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


class Elements:
    """Readable parts of a set of element dicts (id -> dict, as in an ``update`` message or a page)."""

    def __init__(self, tree: Mapping[str, Any]) -> None:
        self.tree = {str(key): value for key, value in tree.items() if isinstance(value, Mapping)}
        for key, element in list(self.tree.items()):
            model = (element.get("props") or {}).get("model")
            if isinstance(model, str):  # a game screen part: its nodes are what the browser draws
                self._expand(key, element, model)

    def _expand(self, key: str, element: Mapping[str, Any], model: str) -> None:
        """Turn a ``Screen`` element's model (webgame/pages/screen.py) into element dicts of this tree, one per
        node, with the classes NiceGUI's own row, column and card would have: the same checks read them."""
        counter = iter(range(1_000_000))
        kinds = {"row": "nicegui-row", "col": "nicegui-column", "card": "nicegui-card"}

        def add(nodes: Any, parent: str) -> list[str]:
            ids: list[str] = []
            for node in nodes if isinstance(nodes, list) else []:
                if not isinstance(node, Mapping):
                    continue
                node_id = f"{parent}.{next(counter)}"
                texts = [str(node.get("x") or "")] + [str(option[1]) for option in node.get("opts") or []
                                                      if isinstance(option, list) and len(option) > 1]
                props = {name: value for name, value in node.items() if name not in ("k", "x", "c", "t")}
                if "id" in props:
                    props["data-testid"] = props.pop("id")
                classes = str(node.get("c") or "").split() + ([kinds[node["t"]]] if node.get("t") in kinds else [])
                self.tree[node_id] = {"tag": str(node.get("t") or ""), "text": " ".join(t for t in texts if t),
                                      "props": props, "class": classes, "children": add(node.get("k"), node_id)}
                ids.append(node_id)
            return ids

        try:
            nodes = json.loads(model)
        except ValueError:
            nodes = []
        children = add(nodes, key)
        props = {name: value for name, value in (element.get("props") or {}).items() if name != "model"}
        self.tree[key] = {**element, "props": props, "children": [*children, *(element.get("children") or [])]}

    def own_texts(self, element: Mapping[str, Any]) -> list[str]:
        texts = [str(element.get("text") or "")]
        texts += [s for s in _strings(element.get("props") or {}) if s]
        return [t for t in texts if t]

    def texts(self) -> list[str]:
        """Every text and every string in the props, element by element."""
        found: list[str] = []
        for element in self.tree.values():
            found += self.own_texts(element)
        return found

    def attributes(self) -> list[str]:
        """Classes, data-testid and prop names: what a page's structure says (no player text)."""
        found: list[str] = []
        for element in self.tree.values():
            classes = element.get("class") or []
            found += [str(c) for c in (classes if isinstance(classes, list) else str(classes).split())]
            props = element.get("props") or {}
            if isinstance(props, Mapping):
                found += [str(key) for key in props]
                if "data-testid" in props:
                    found.append(str(props["data-testid"]))
            found.append(str(element.get("tag") or ""))
        return found

    def rows(self) -> list[str]:
        """The joined texts of every innermost row (one line of a list: a name, a role, a badge), with its
        descendants that are in this tree. Rows that hold cards, columns or other rows are layout, not a line."""
        blocks: list[str] = []
        for element in self.tree.values():
            classes = element.get("class") or []
            if "nicegui-row" in classes:
                texts = self._descendant_texts(element, 0, top=True)
                if texts is not None:
                    blocks.append(" | ".join(texts))
        return blocks

    def _descendant_texts(self, element: Mapping[str, Any], depth: int, top: bool = False) -> list[str] | None:
        classes = element.get("class") or []
        if not top and any(c in classes for c in LAYOUT_CLASSES):
            return None
        texts = self.own_texts(element)
        if depth > 6:
            return texts
        for child in element.get("children") or []:
            child_element = self.tree.get(str(child))
            if child_element is not None:
                inner = self._descendant_texts(child_element, depth + 1)
                if inner is None:
                    return None
                texts += inner
        return texts


LAYOUT_CLASSES = ("nicegui-row", "nicegui-column", "nicegui-card")


def client_tree(client: Client) -> dict[str, Any]:
    """A live page as its browser has it now."""
    return {str(key): element._to_dict() for key, element in list(client.elements.items())}


def update_trees(messages: list[Sent]) -> list[dict[str, Any]]:
    """The element trees carried by ``update`` messages (other messages are checked as raw strings)."""
    return [m.data for m in messages if m.type == "update" and isinstance(m.data, Mapping)]


def raw_strings(messages: list[Sent]) -> list[str]:
    """Every string of every message (notifications, javascript, updates)."""
    found: list[str] = []
    for message in messages:
        found += list(_strings(message.data))
    return found

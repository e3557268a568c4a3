"""The load generator's phone reads the game screen's parts (one element each, a JSON ``model`` of nodes) as
well as real NiceGUI elements, and taps a node as ``screen.js`` does: the part's ``tap`` listener, {id, value}."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bench.phone import Phone


def _screen(nodes: list[dict[str, Any]], listener: str = "L9") -> dict[str, Any]:
    return {"tag": "nicegui-screen", "props": {"model": json.dumps(nodes)},
            "events": [{"type": "tap", "listener_id": listener}]}


NIGHT = [
    {"t": "card", "k": [
        {"t": "toggle", "opts": [["check", "Check"], ["shoot", "Shoot"]], "v": "check", "id": "night-act"},
        {"t": "label", "x": "Choose a player to check.", "id": "night-prompt"},
        {"t": "div", "k": [
            {"t": "button", "x": "1. R000P00", "id": "target-1", "o": 1, "d": 1},
            {"t": "button", "x": "2. R000P01", "id": "target-2", "o": 1},
            {"t": "button", "x": "3. R000P02", "id": "target-3"},
        ]},
        {"t": "row", "k": [{"t": "button", "x": "Skip", "id": "pass", "o": 1}]},
    ]},
]


def _phone() -> tuple[Phone, list[tuple[str, dict[str, Any]]]]:
    phone = Phone("http://127.0.0.1:1", "test")
    phone.elements = {
        "5": {"tag": "q-btn", "props": {"label": "End now"}, "events": [{"type": "click", "listener_id": "L1"}]},
        "6": {"tag": "q-btn", "props": {"label": "Skip", "disable": True}},
        "7": {"tag": "div", "text": "Waiting for the host"},
        "8": _screen(NIGHT),
    }
    sent: list[tuple[str, dict[str, Any]]] = []

    async def send(name: str, data: dict[str, Any]) -> None:
        sent.append((name, data))

    phone._send = send  # type: ignore[method-assign]
    return phone, sent


def test_buttons_of_screen_parts_and_of_elements() -> None:
    phone, _ = _phone()
    assert phone.button("End now") == "5"
    assert phone.button("Skip") == "8#pass"  # the disabled q-btn is skipped
    assert phone.button(contains="R000P00") is None  # disabled node
    assert phone.button(contains="R000P01") == "8#target-2"
    assert phone.button("Confirm") is None
    assert phone.node("8#target-3") == {"t": "button", "x": "3. R000P02", "id": "target-3"}
    assert phone.node_key("night-act") == "8#night-act"
    assert phone.has_text("Waiting for the host") and phone.has_text("to check") and phone.has_text("Shoot")
    assert not phone.has_text("Heal")


def test_taps_are_sent_as_screen_js_sends_them() -> None:
    phone, sent = _phone()
    phone.client_id = "c"
    asyncio.run(phone.click("8#target-2"))
    asyncio.run(phone.tap("8#night-act", "shoot"))
    asyncio.run(phone.click("5"))

    def event(element: int, listener: str, args: list[str]) -> tuple[str, dict[str, Any]]:
        return "event", {"id": element, "client_id": "c", "listener_id": listener, "args": args}

    assert sent == [
        event(8, "L9", [json.dumps({"id": "target-2", "value": None})]),
        event(8, "L9", [json.dumps({"id": "night-act", "value": "shoot"})]),
        event(5, "L1", []),
    ]


def test_models_are_parsed_lazily_once_per_string() -> None:
    phone, _ = _phone()
    assert phone.screens == {}  # nothing parsed before a look-up needs it
    first = phone.screen_nodes("8")
    assert first is not None and phone.screen_nodes("8") is first
    phone._packet("42" + json.dumps(["update", {"8": _screen(NIGHT), "_id": 1}]))  # the same model again
    assert phone.screen_nodes("8") is first
    changed = [{"t": "button", "x": "Confirm", "id": "confirm"}]
    phone._packet("42" + json.dumps(["update", {"8": _screen(changed), "_id": 2}]))
    assert phone.button("Confirm") == "8#confirm" and phone.button("Skip") is None
    phone._packet("42" + json.dumps(["update", {"8": None, "_id": 3}]))
    assert "8" not in phone.screens and phone.button("Confirm") is None

"""Reading a screen part's model (``webgame.pages.screen``): its texts, its node ids, and what the covered and
the revealed screen draw of it. Used by the parts themselves (``Screen.texts``) and by the tests, which read a
phone's screen the way its browser draws it. What each of a node's one- and two-letter keys holds, and its kinds:
``webgame.pages.screen_keys``.
"""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]  # keys and kinds: webgame.pages.screen_keys


def model_texts(nodes: list[Node]) -> list[str]:
    """The texts a model shows, in order: labels, buttons, badges, titles, tooltips, a form's field, a toggle's
    options, a select's chosen option."""
    found: list[str] = []
    for node in nodes:
        text = node.get("x")
        if node.get("t") == "chosen":  # what it shows before a pick; its text names the pick the browser holds
            text = node.get("y")
        elif "g" in node and node.get("t") == "button" and "{number}" in str(text):
            text = None  # drawn only once a player is picked, with his number
        if isinstance(text, str) and text:
            found.append(text)
        if isinstance(node.get("tip"), str):
            found.append(node["tip"])
        if node.get("t") == "form" and isinstance(node.get("lb"), str):
            found.append(node["lb"])
        if node.get("t") == "reveal":
            found.append(str(node.get("y", "")))
        if node.get("t") == "toggle":
            found.extend(str(option[1]) for option in node.get("opts", ()))
        elif node.get("t") == "select":
            found.extend(str(option[1]) for option in node.get("opts", ()) if option[0] == node.get("v"))
        found.extend(model_texts(node.get("k", ())))
    return found


def covered_nodes(nodes: list[Node]) -> list[Node]:
    """The model as the covered screen draws it: without what only its owner sees (``Draft.revealed``), and the
    reveal toggle as its covered face. What a neighbour's glance can see."""
    shown: list[Node] = []
    for node in nodes:
        kind = node.get("t")
        if kind == "rev":
            continue
        if kind == "cov":
            shown.extend(covered_nodes(node.get("k", [])))
            continue
        if kind == "reveal":
            node = {key: value for key, value in node.items() if key not in ("y", "cid")}
        if "k" in node:
            node = {**node, "k": covered_nodes(node["k"])}
        shown.append(node)
    return shown


def revealed_nodes(nodes: list[Node]) -> list[Node]:
    """The model as the revealed screen draws it (what the phone's owner sees after tapping Show)."""
    shown: list[Node] = []
    for node in nodes:
        kind = node.get("t")
        if kind == "cov":
            continue
        if kind == "rev":
            shown.extend(revealed_nodes(node.get("k", [])))
            continue
        if "k" in node:
            node = {**node, "k": revealed_nodes(node["k"])}
        shown.append(node)
    return shown


def model_ids(nodes: list[Node]) -> dict[str, bool]:
    """The ids of a model's nodes -> enabled (a disabled button has ``d``), with a chat box's or a form's button."""
    found: dict[str, bool] = {}
    for node in nodes:
        if isinstance(node.get("id"), str):
            found[node["id"]] = not node.get("d")
        if isinstance(node.get("sid"), str):
            found[node["sid"]] = True
        if isinstance(node.get("cid"), str):
            found[node["cid"]] = True
        found.update(model_ids(node.get("k", ())))
    return found

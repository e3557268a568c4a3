"""How many elements NiceGUI has deleted, and how many are alive: the measure of the garbage the server's collection
of everything frees (``webgame.app.full_collections``).

The server freezes what survives a full collection (``webgame.app.tune_gc``); an element that dies after it was
frozen (a page closed, a lobby redrawn, a chat line scrolled away) leaves its cycles (element, slots, listeners) to
the collection of everything. Counting the deleted elements tells when there is much of that garbage; the heap's
growth, counted before, also grows with live pages (a table filling up), and called a 0.5-0.8 s collection that
freed next to nothing while 80 rooms played (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from nicegui import Client

_ORIGINAL_REMOVE = Client.remove_elements
deleted = 0  # elements deleted since the process started (``Client.remove_elements``: a page's, or all of them)


def install() -> None:
    Client.remove_elements = _remove_elements  # type: ignore[method-assign]


def _remove_elements(self: Client, elements: Iterable[Any]) -> None:
    global deleted
    element_list = list(elements)
    deleted += len(element_list)
    _ORIGINAL_REMOVE(self, element_list)


def alive() -> int:
    """The elements of every page alive now."""
    return sum(len(client.elements) for client in list(Client.instances.values()))

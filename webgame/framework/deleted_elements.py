"""A deleted element's props, classes and style freed with it by reference counting, not left to a collection.

NiceGUI's ``Props``, ``Classes`` and ``Style`` each hold their own ``_update`` as their change handler: each is a
cycle with itself, which reference counting never frees. The server freezes whatever survives a collection
(``webgame.app.tune_gc``), so the three of an element deleted after it has lived a moment stay until the next
collection of everything (ten minutes, or a quarter's growth of the heap): a game's start deletes every phone's
lobby, a lobby's joins redraw the host's list, a page closed drops all of its elements. At 960 phones made in a
burst, 6,520 elements' three with their lists, dicts and methods were 190,000 objects and some 25 MB the server kept
after its play had begun (docs/PERFORMANCE.md, "The bench's setup at its real pace"). So a deleted element's three
forget their handler (an update of a deleted element is never sent) and go with the element.
"""

from __future__ import annotations

from typing import Any

from nicegui.element import Element

_handle_delete = Element._handle_delete  # noqa: SLF001 - the method this module wraps


def forget_handlers(element: Element) -> None:
    """The element's props, classes and style forget their change handler (a deleted element's, or the three a
    model element replaces as it is made): each then goes by reference counting."""
    for observed in (element._props, element._classes, element._style):  # noqa: SLF001
        handlers: list[Any] | None = getattr(observed, "_change_handlers", None)
        if handlers:
            handlers.clear()


def _delete_and_forget_handlers(element: Element) -> None:
    _handle_delete(element)
    forget_handlers(element)


def install() -> None:
    """Every element's deletion (NiceGUI's subclasses call the base's ``_handle_delete``) frees its three."""
    Element._handle_delete = _delete_and_forget_handlers  # type: ignore[method-assign, assignment]  # noqa: SLF001

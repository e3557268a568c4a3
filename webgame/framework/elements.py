"""A page's elements and the scripts its outbox has sent, as the padding (``webgame.pages.evenness``) reads them.

- ``scripts_came_with_page``: the first HTML of a page imports the script of every element it holds, but NiceGUI's
  outbox does not know it (``Outbox._loaded_components``) and would announce each again (``load_js_components``)
  with the first update that carries such an element: on one phone and not another, a message whose size and
  moment tell an observer of the traffic which phone got a new kind of element (the mafia's chat box at night).
- ``element_dict``: an element as NiceGUI serializes it into the page's HTML and its updates (``_to_dict``): the
  padding weighs a page's first load by it.
"""

from __future__ import annotations

from typing import Any

from nicegui import Client
from nicegui.dependencies import JsComponent


def scripts_came_with_page(client: Client) -> None:
    """Tell the page's outbox that the script of every element the page holds now came with its HTML."""
    client.outbox._loaded_components.update(  # noqa: SLF001
        element.component.name for element in list(client.elements.values())
        if isinstance(element.component, JsComponent))


def element_dict(element: Any) -> dict[str, Any]:
    """The element as NiceGUI sends it to the browser."""
    data: dict[str, Any] = element._to_dict()  # noqa: SLF001
    return data

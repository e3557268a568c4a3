"""The size of a page's next update, as NiceGUI will serialize and send it: what the padding weighs.

The padding (``webgame.pages.evenness``) must know how many bytes each seat's next update weighs before it is
sent. This serializes the outbox's pending elements as NiceGUI's outbox loop will (``_to_dict``, NiceGUI's JSON).
The bytes are not kept for the send (issue 32 step 2 tried it): NiceGUI keeps every sent message for a reconnect's
replay (``Outbox.message_history``, about a minute), and a kept JSON copy there weighs where the element's own
dicts share their strings with the page: 254 -> 305 MB at 960 phones for 0.25 ms of an action the bench could not
see (docs/PERFORMANCE.md, "Where issue 32 stands").
"""

from __future__ import annotations

from typing import Any

import nicegui.json as nicegui_json
import orjson
from nicegui.json import orjson_wrapper
from nicegui.outbox import Deleted, Outbox


def measure(outbox: Outbox) -> int:
    """The size in bytes of the update ``outbox`` will send next (the ``update`` message's element dicts, as
    NiceGUI serializes them, without the message id it adds at the send)."""
    data = {element_id: None if isinstance(element, Deleted) else element._to_dict()  # noqa: SLF001
            for element_id, element in list(outbox.updates.items())}
    return json_bytes(data)


def json_bytes(data: Any) -> int:
    """The length in bytes of ``data`` as NiceGUI serializes it: orjson's bytes counted as they come (NiceGUI's
    ``dumps`` decodes them to a string, which the measure encoded again: two copies of every pending update, at
    every change, for a length)."""
    if nicegui_json.dumps is orjson_wrapper.dumps:
        return len(orjson.dumps(data, option=orjson_wrapper.ORJSON_OPTS,
                                default=orjson_wrapper._orjson_converter))  # noqa: SLF001
    return len(nicegui_json.dumps(data).encode())

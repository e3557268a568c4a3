"""A page's next update serialized once: its size for the padding, and the very bytes its socket then carries.

The padding (``webgame.pages.evenness``) must know how many bytes each seat's next update weighs before it is
sent. ``measure`` serializes the outbox's pending elements as NiceGUI's outbox loop would (``_to_dict``, NiceGUI's
orjson) and keeps each element's bytes on the outbox (``PREPARED``) until its update is sent; the loop
(``webgame.framework.outbox``) then sends those bytes as they are (``orjson.Fragment``, spliced into the packet by the
same encoder) instead of making the element's dict and JSON again: one serialization per element per update (issue
32). An element queued again after the measure (``forget_measure``: changed since) is serialized at the send, as
before. The padding's carrier gets its spaces, set after the measure, put into its measured bytes (``fill_measured``).

The message NiceGUI keeps for a reconnect's replay (``Outbox.message_history``, until the phone acknowledges it)
holds the elements' dicts, as before, not the bytes: they are put back in it once the packet is encoded
(``sent``). A kept JSON copy there weighed where the element's own dicts share their strings with the page: 254 ->
305 MB at 960 phones (docs/PERFORMANCE.md, "Where issue 32 stands").
"""

from __future__ import annotations

from typing import Any

import nicegui.json as nicegui_json
import orjson
from nicegui.json import orjson_wrapper
from nicegui.outbox import Deleted, Outbox

PREPARED = "_mafia_prepared"  # an outbox's measured elements: element id -> (its dict or None, its JSON bytes)
Prepared = dict[int, tuple[dict[str, Any] | None, bytes]]


def measure(outbox: Outbox) -> int:
    """The size in bytes of the update ``outbox`` will send next (the ``update`` message's element dicts, as
    NiceGUI serializes them, without the message id it adds at the send); each element's bytes are kept for the send
    when NiceGUI's JSON is orjson's."""
    keep = nicegui_json.dumps is orjson_wrapper.dumps
    prepared: Prepared = {}
    total = 2  # the braces
    for index, (element_id, element) in enumerate(list(outbox.updates.items())):
        data = None if isinstance(element, Deleted) else element._to_dict()  # noqa: SLF001
        body = _orjson(data) if keep else nicegui_json.dumps(data).encode()
        if keep:
            prepared[element_id] = (data, body)
        total += (1 if index else 0) + len(str(element_id)) + 3 + len(body)  # a comma, then "id": and the element
    if keep:
        outbox.__dict__[PREPARED] = prepared
    return total


def forget_measure(outbox: Outbox, element_id: int) -> None:
    """The element was queued again since it was measured: its kept bytes may be of an older state."""
    prepared: Prepared | None = outbox.__dict__.get(PREPARED)
    if prepared:
        prepared.pop(element_id, None)


def fill_measured(outbox: Outbox, element_id: int, prop: str, count: int) -> bool:
    """A measured element whose string prop ``prop`` was empty when measured, now holding ``count`` spaces (set by the
    caller without queuing it again): the spaces put into its kept bytes (they need no escaping in JSON: the bytes are
    what serializing it again would give). False when it was not measured so (to be queued again, made at the send)."""
    prepared: Prepared | None = outbox.__dict__.get(PREPARED)
    held, empty = prepared.get(element_id) if prepared else None, b'"' + prop.encode() + b'":""'
    if held is None or held[0] is None or held[1].count(empty) != 1:
        return False
    prepared[element_id] = (held[0], held[1].replace(empty, empty[:-1] + b" " * count + b'"'))  # type: ignore[index]
    return True


def take(outbox: Outbox) -> Prepared:
    """The measured elements of the update about to be sent (none when it was not measured): taken off the outbox."""
    prepared: Prepared | None = outbox.__dict__.pop(PREPARED, None)
    return prepared or {}


def update_data(outbox: Outbox, prepared: Prepared) -> tuple[dict[int, Any], list[tuple[int, Any]]]:
    """The ``update`` message's data, as NiceGUI's loop makes it, with each measured element's kept bytes in place of
    its dict; and the dicts to put back once it is encoded (``sent``)."""
    data: dict[int, Any] = {}
    kept: list[tuple[int, Any]] = []
    for element_id, element in outbox.updates.items():
        held = prepared.get(element_id)
        if held is not None:
            data[element_id] = orjson.Fragment(held[1])
            kept.append((element_id, held[0]))
        else:
            data[element_id] = None if isinstance(element, Deleted) else element._to_dict()  # noqa: SLF001
    return data, kept


def sent(data: dict[int, Any], kept: list[tuple[int, Any]]) -> None:
    """The packet is encoded: the message kept for a replay holds the elements' dicts again, not their bytes."""
    for element_id, element_dict in kept:
        data[element_id] = element_dict


def _orjson(data: Any) -> bytes:
    return orjson.dumps(data, option=orjson_wrapper.ORJSON_OPTS,
                        default=orjson_wrapper._orjson_converter)  # noqa: SLF001


def json_bytes(data: Any) -> int:
    """The length in bytes of ``data`` as NiceGUI serializes it: orjson's bytes counted as they come (NiceGUI's
    ``dumps`` decodes them to a string, which the measure encoded again: two copies of every pending update, at
    every change, for a length)."""
    if nicegui_json.dumps is orjson_wrapper.dumps:
        return len(_orjson(data))
    return len(nicegui_json.dumps(data).encode())

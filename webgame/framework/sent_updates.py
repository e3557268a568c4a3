"""A page's pending update serialized once: measured by the padding, then sent as those very bytes.

The padding (``webgame.pages.evenness``) must know how many bytes each seat's next update weighs. NiceGUI
serializes an update when its outbox loop sends it (every pending element's ``_to_dict()``, then socket.io's
JSON), so measuring it beforehand meant serializing everything twice (0.25 ms of an action's 9.2,
docs/PERFORMANCE.md, issue 32). ``measure`` makes each pending element's JSON once and keeps it on the outbox;
the outbox loop (``webgame.framework.outbox``) puts those bytes into the update as they are (``orjson.Fragment``:
copied, not encoded again). An element enqueued again after it was measured (a redraw, the pad set) loses its
kept bytes (``install`` wraps NiceGUI's ``Outbox.enqueue_update`` and ``enqueue_delete``) and is serialized at
the send as NiceGUI would, so what is sent is always the element as it is when sent.
"""

from __future__ import annotations

from typing import Any

import orjson
from nicegui.json.orjson_wrapper import ORJSON_OPTS, _orjson_converter
from nicegui.outbox import Deleted, Outbox

KEPT = "_mafia_serialized"  # an outbox's attribute: element id -> that element's JSON as measured
_ORIGINAL_UPDATE = Outbox.enqueue_update
_ORIGINAL_DELETE = Outbox.enqueue_delete


def to_json(value: Any) -> bytes:
    """``value`` as NiceGUI's JSON module serializes it (orjson, its options and converter), in bytes."""
    return orjson.dumps(value, option=ORJSON_OPTS, default=_orjson_converter)


def measure(outbox: Outbox) -> int:
    """The size in bytes of the update ``outbox`` will send next (the ``update`` message's element dicts, as
    NiceGUI serializes them), each element serialized here once and kept for the send."""
    kept: dict[int, orjson.Fragment] = outbox.__dict__.setdefault(KEPT, {})
    data: dict[int, orjson.Fragment | None] = {}
    for element_id, element in list(outbox.updates.items()):
        if isinstance(element, Deleted):
            data[element_id] = None
            continue
        fragment = kept.get(element_id)
        if fragment is None:
            fragment = kept[element_id] = orjson.Fragment(to_json(element._to_dict()))  # noqa: SLF001
        data[element_id] = fragment
    return len(to_json(data))


def take(outbox: Outbox) -> dict[int, orjson.Fragment]:
    """The kept JSON of the elements about to be sent (then forgotten: the next update is measured again)."""
    kept: dict[int, orjson.Fragment] | None = outbox.__dict__.pop(KEPT, None)
    return kept or {}


def _enqueue_update(self: Outbox, element: Any) -> None:
    kept = self.__dict__.get(KEPT)
    if kept:
        kept.pop(element.id, None)
    _ORIGINAL_UPDATE(self, element)


def _enqueue_delete(self: Outbox, element: Any) -> None:
    kept = self.__dict__.get(KEPT)
    if kept:
        kept.pop(element.id, None)
    _ORIGINAL_DELETE(self, element)


def install() -> None:
    """An element enqueued again forgets the JSON measured for it (idempotent)."""
    Outbox.enqueue_update = _enqueue_update  # type: ignore[method-assign]
    Outbox.enqueue_delete = _enqueue_delete  # type: ignore[method-assign]

"""``webgame.framework.sent_updates``: the padding's measure of a page's update is the size of the update sent, and
what the socket carries is the page as it is when sent (an element changed after it was measured is sent changed)."""

from __future__ import annotations

import contextlib
import gc
import weakref
from typing import Any

import nicegui.json as nicegui_json
import pytest
from nicegui import Client, core, ui
from nicegui.testing import User

from tests.web.helpers import drained, labels_page
from webgame.framework import sent_updates


async def _sent_updates(user: User, monkeypatch: pytest.MonkeyPatch, change: Any) -> tuple[int, dict[str, Any], Client]:
    """A page with three labels, all changed; the update measured, then ``change(labels)``; returns the measured
    size, the update as sent (its JSON, read back) and the page's client."""
    client, labels = await labels_page(user, "/sent", 3)
    sent: list[tuple[str, str]] = []
    original = core.sio.emit

    async def emit(event: str, data: Any = None, room: str | None = None, **kwargs: Any) -> Any:
        if room == client.id:
            sent.append((event, nicegui_json.dumps(data)))
        return await original(event, data, room=room, **kwargs)

    monkeypatch.setattr(core.sio, "emit", emit)
    await drained(client)
    sent.clear()
    for n, label in enumerate(labels):
        label.set_text(f"changed {n} " + "é" * n)  # not ASCII: bytes, not characters
    measured = sent_updates.measure(client.outbox)
    change(labels)
    await drained(client)
    updates = [nicegui_json.loads(text) for event, text in sent if event == "update"]
    assert len(updates) == 1
    return measured, updates[0], client


async def test_the_measured_update_is_the_one_sent(user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    measured, update, _client = await _sent_updates(user, monkeypatch, lambda labels: None)
    message_id = update.pop("_id")  # added by NiceGUI's outbox at the send, after the measure
    assert isinstance(message_id, int)
    assert measured == len(nicegui_json.dumps(update).encode())
    assert sorted(element["text"] for element in update.values()) == ["changed 0 ", "changed 1 é", "changed 2 éé"]


async def test_an_element_changed_after_the_measure_is_sent_as_it_is(user: User,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def change(labels: list[ui.label]) -> None:
        labels[1].set_text("changed again")

    measured, update, client = await _sent_updates(user, monkeypatch, change)
    update.pop("_id")
    texts = sorted(element["text"] for element in update.values())
    assert texts == ["changed 0 ", "changed 2 éé", "changed again"]  # not the measured "changed 1 é"
    assert measured != len(nicegui_json.dumps(update).encode())


def test_the_measure_counts_the_bytes_nicegui_sends_in_every_script() -> None:
    """Counted from orjson's bytes (no string made and encoded again): the same length as NiceGUI's text encoded,
    for Cyrillic, Uzbek's apostrophes, emoji and the padding's spaces."""
    from nicegui.json import dumps

    for data in ({"5": {"props": {"model": "Ніч 1 · Мафія", "data-pad": " " * 300}}}, {"7": None},
                 {"1": {"props": {"model": "Oʻyinchi 🌙 \"quoted\" \\ back\nline"}, "children": [2, 3]}}):
        assert sent_updates.json_bytes(data) == len(dumps(data).encode())


async def test_a_measured_update_is_serialized_once_and_kept_as_dicts(user: User,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes measured for the padding are the ones sent: no element unchanged since is serialized again, one
    changed since is sent as it is now; NiceGUI's history (a reconnect's replay) holds dicts, not the bytes."""
    made: list[int] = []
    changed: list[ui.label] = []

    def change(labels: list[ui.label]) -> None:
        labels[2].set_text("changed after the measure")
        changed.extend(labels)
        original = type(labels[0])._to_dict

        def to_dict(self: ui.label) -> dict[str, Any]:
            made.append(self.id)
            return original(self)

        monkeypatch.setattr(type(labels[0]), "_to_dict", to_dict)

    _measured, _update, client = await _sent_updates(user, monkeypatch, change)
    assert made == [changed[2].id]  # only the element changed after the measure was made into a dict again
    update = next(message[2] for _id, _time, message in reversed(client.outbox.message_history)
                  if message[1] == "update")
    assert {key: value["text"] for key, value in update.items() if key != "_id"} == {
        changed[0].id: "changed 0 ", changed[1].id: "changed 1 é", changed[2].id: "changed after the measure"}
    assert all(isinstance(value, dict) for key, value in update.items() if key != "_id")


async def test_an_element_deleted_before_the_send_goes_as_its_deletion_and_is_not_kept(
        user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pending updates are a plain dict (``webgame.framework.outbox``: no weak reference per queued element): an
    element changed and then deleted before its page's next send is not kept alive by them, and the phone is told it
    is gone."""
    gone: list[Any] = []

    def change(labels: list[ui.label]) -> None:
        with labels[0].parent_slot or contextlib.nullcontext():
            extra = ui.label("for a moment")
        extra.set_text("changed")
        gone.append((extra.id, weakref.ref(extra)))
        extra.delete()
        del extra
        gc.collect()
        assert gone[0][1]() is None, "the pending updates kept a deleted element alive"

    _measured, update, client = await _sent_updates(user, monkeypatch, change)
    assert isinstance(client.outbox.updates, dict)
    assert update[str(gone[0][0])] is None  # the phone removes it



async def test_the_padding_is_put_into_the_measured_bytes_not_serialized_again(
        user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The padding's spaces are set after the measure (``webgame.pages.evenness``): they are put into the carrier's
    measured bytes (``fill_measured``), so the update sent weighs the measure plus the spaces, carries them, and no
    element is made into a dict again. An element that had no empty such prop when measured is refused (the caller then
    queues the element again, and it is made at the send)."""
    made: list[int] = []
    carrier: list[ui.label] = []
    original_measure = sent_updates.measure

    def measure(box: Any) -> int:  # the second label is the carrier: measured with its padding empty
        label = [element for element in box.updates.values() if isinstance(element, ui.label)][1]
        dict.__setitem__(label.props, "data-pad", "")
        carrier.append(label)
        return original_measure(box)

    monkeypatch.setattr(sent_updates, "measure", measure)

    def pad(labels: list[ui.label]) -> None:
        box, other = labels[0].client.outbox, next(label for label in labels if label is not carrier[0])
        assert not sent_updates.fill_measured(box, other.id, "data-pad", 3)  # no such prop when measured
        original = type(labels[0])._to_dict

        def to_dict(self: ui.label) -> dict[str, Any]:
            made.append(self.id)
            return original(self)

        monkeypatch.setattr(type(labels[0]), "_to_dict", to_dict)
        dict.__setitem__(carrier[0].props, "data-pad", " " * 700)
        assert sent_updates.fill_measured(box, carrier[0].id, "data-pad", 700)

    measured, update, _client = await _sent_updates(user, monkeypatch, pad)
    update.pop("_id")
    assert made == []  # nothing serialized again at the send, the carrier neither
    assert update[str(carrier[0].id)]["props"]["data-pad"] == " " * 700
    assert len(nicegui_json.dumps(update).encode()) == measured + 700

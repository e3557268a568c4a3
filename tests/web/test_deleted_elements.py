"""``webgame.framework.deleted_elements``: a deleted element's props, classes and style go with it at once, by
reference counting, with no garbage collection (the server freezes survivors: such cycles stayed for minutes)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from nicegui import ui
from nicegui.testing import User


@pytest.fixture
def no_collections() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_a_deleted_elements_three_are_freed_without_a_collection(user: User, no_collections: None) -> None:
    await user.open("/")
    with user.client:
        box = ui.column()
        with box:
            label = ui.label("Aziz").classes("font-bold").style("color: red").props("dense")
            choice = ui.select({"uz": "O'zbek", "ru": "Русский"}, value="uz")  # nested observables in its props
    parts = [weakref.ref(part) for element in (label, choice)
             for part in (element._props, element._classes, element._style)]  # noqa: SLF001
    assert all(part() is not None for part in parts)
    del label, choice
    box.clear()
    assert [part() for part in parts] == [None] * len(parts)  # gone with their elements, nothing collected


async def test_a_live_element_still_updates_its_page(user: User) -> None:
    await user.open("/")
    with user.client:
        label = ui.label("before")
    label.classes("font-bold")
    label.text = "after"
    await user.should_see("after")
    assert label._classes._change_handlers  # noqa: SLF001 - a live element keeps its own
    assert "font-bold" in label.classes


"""``Screen``: a game screen part sent as one JSON model; taps come back by node id."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from nicegui import ui
from nicegui.testing import User

from webgame.pages.screen import Draft, Screen
from webgame.pages.screen_model import model_ids


def test_a_draft_is_the_nodes_the_browser_draws() -> None:
    draft = Draft()
    with draft.card("mafia-card"):
        draft.label("Night 1", "mafia-big", "phase")
        draft.button("1. Ann", lambda: None, "target-1", outline=True)
        draft.button("2. Bob", lambda: None, "target-2", enabled=False)
    nodes = json.loads(draft.model())
    assert nodes == [{"t": "card", "c": "mafia-card", "k": [
        {"t": "label", "x": "Night 1", "c": "mafia-big", "id": "phase"},
        {"t": "button", "x": "1. Ann", "o": 1, "id": "target-1"},
        {"t": "button", "x": "2. Bob", "d": 1, "id": "target-2"},
    ]}]
    assert model_ids(nodes) == {"phase": True, "target-1": True, "target-2": False}
    assert set(draft.handlers) == {"target-1"}  # a disabled button has nothing to call
    assert draft.texts == ["Night 1", "1. Ann", "2. Bob"]


async def test_taps_reach_only_live_enabled_buttons(user: User) -> None:
    taps: list[Any] = []
    screens: list[Screen] = []

    def build(draft: Draft) -> None:
        draft.button("Confirm", lambda: taps.append("confirm"), "confirm")
        draft.button("Skip", lambda: taps.append("skip"), "pass", enabled=False)
        draft.toggle({"heal": "Heal", "check": "Check"}, "heal", lambda value: taps.append(value), "night-act")

    @ui.page("/screen-test")
    def page() -> None:
        screens.append(Screen(build))

    await user.open("/screen-test")
    screen = screens[0]
    await screen.tap("confirm")
    await screen.tap("pass")  # disabled: nothing happens
    await screen.tap("no-such-button")  # a stale or forged id: nothing happens
    await screen.tap("night-act", "check")
    assert taps == ["confirm", "check"]
    await user.should_see("Confirm")  # the simulated user reads the texts of the model


async def test_a_redraw_sends_only_a_changed_model(user: User) -> None:
    count = {"n": 0}
    screens: list[Screen] = []
    build: Callable[[Draft], None] = lambda draft: draft.label(f"{count['n']} players are still choosing.")  # noqa: E731

    @ui.page("/screen-redraw")
    def page() -> None:
        screens.append(Screen(build))

    await user.open("/screen-redraw")
    screen = screens[0]
    assert screen.draw() is False  # nothing changed: no update goes out
    count["n"] = 3
    assert screen.draw() is True
    assert "3 players are still choosing." in screen.props["model"]


async def test_the_buzz_goes_beside_the_model_and_only_when_it_changes(user: User) -> None:
    """``Draft.buzz``: the step a viewer has a move at is a prop of the part, not in its model; drawn again with the
    same step (or with none, as before) nothing goes out, a new step goes out."""
    step = {"key": ""}
    screens: list[Screen] = []

    def build(draft: Draft) -> None:
        draft.label("Vote")
        if step["key"]:
            draft.buzz(step["key"])

    @ui.page("/screen-buzz")
    def page() -> None:
        screens.append(Screen(build))

    await user.open("/screen-buzz")
    screen = screens[0]
    assert screen.draw() is False and "buzz" not in screen.props
    step["key"] = "1-4"
    assert screen.draw() is True and screen.props["buzz"] == "1-4" and "1-4" not in screen.drawn_model
    assert screen.draw() is False
    step["key"] = ""
    assert screen.draw() is True and "buzz" not in screen.props
    assert screen.draw() is False


async def test_a_tap_from_the_browser_reaches_the_part_it_was_sent_to(user: User) -> None:
    """Every part shares one listener (memory on every phone); the event still goes to the tapped part."""
    taps: list[str] = []
    screens: list[Screen] = []

    @ui.page("/screen-shared")
    def page() -> None:
        for name in ("first", "second"):
            screens.append(Screen(lambda draft, name=name: draft.button(name, lambda: taps.append(name), "go")))

    await user.open("/screen-shared")
    first, second = screens
    assert first._to_dict()["events"] == second._to_dict()["events"]  # noqa: SLF001
    listener_id = first._to_dict()["events"][0]["listener_id"]  # noqa: SLF001
    second._handle_event({"listener_id": listener_id, "args": [{"id": "go", "value": None}]})  # noqa: SLF001
    first._handle_event({"listener_id": listener_id, "args": [{"id": "nothing", "value": None}]})  # noqa: SLF001
    for _ in range(20):
        if taps:
            break
        await asyncio.sleep(0.01)
    assert taps == ["second"]


async def test_parts_share_one_frozen_empty_classes_and_style(user: User) -> None:
    """Every part of every page shares one empty classes list and style (memory on every phone); a call that would
    give one part a class raises instead of changing every part."""
    screens: list[Screen] = []

    @ui.page("/screen-classes")
    def page() -> None:
        screens.extend([Screen(lambda draft: draft.label("a")), Screen(lambda draft: draft.label("b"))])

    await user.open("/screen-classes")
    first, second = screens
    assert first.classes is second.classes and first.style is second.style
    assert not hasattr(first.props, "_element")  # a plain dict of props: no observable machinery on every part
    assert "class" not in first._to_dict() and "style" not in first._to_dict()  # noqa: SLF001
    for change in (lambda: first.classes("text-red"), lambda: first.style("color: red"),
                   lambda: first.classes.append("x"), lambda: first.style.update({"color": "red"})):
        try:
            change()
        except TypeError:
            continue
        raise AssertionError("a part's classes or style changed")
    assert list(second.classes) == [] and dict(second.style) == {}


async def test_equal_models_drawn_in_one_change_are_one_string(user: User) -> None:
    """The town's phones draw the same heading: one string held for all of them, not a copy on each phone."""
    screens: list[Screen] = []
    word = {"x": "Night 1"}

    @ui.page("/screen-pool")
    def page() -> None:
        screens.extend(Screen(lambda draft: draft.label(word["x"])) for _ in range(3))

    await user.open("/screen-pool")
    word["x"] = "Day 1"
    assert all(screen.draw() for screen in screens)  # one change redraws every page's part in one go
    first, *others = screens
    assert all(other.drawn_model is first.drawn_model for other in others)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    from webgame.pages import screen as screen_module
    assert screen_module._POOL == {}  # noqa: SLF001 (held no longer than the change that drew it)


async def test_a_leaf_part_shares_an_empty_slot_until_something_is_put_in_it(user: User) -> None:
    """A part with no element in it (the heading, the counts, the cover) shares one empty slot, one table of listeners
    and no change handlers (memory on every phone); putting an element in a part gives it a slot of its own, and
    nothing put in one part ever shows in another."""
    screens: list[Screen] = []

    @ui.page("/screen-slots")
    def page() -> None:
        screens.extend(Screen(lambda draft: draft.label("x")) for _ in range(3))
        with screens[1]:
            ui.label("inside the second part")

    await user.open("/screen-slots")
    first, second, third = screens
    assert first.default_slot is third.default_slot and list(first.default_slot) == []
    assert second.default_slot is not first.default_slot and len(list(second.default_slot)) == 1
    assert first._event_listeners is second._event_listeners  # noqa: SLF001 (one table for the shared listener)
    assert "children" not in first._to_dict() and len(second._to_dict()["children"]) == 1  # noqa: SLF001
    for change in (lambda: first.default_slot.children.append(second), lambda: first.on("click", lambda: None),
                   lambda: first.props("flat")):
        try:
            change()
        except TypeError:
            continue
        raise AssertionError("a shared table changed")
    assert list(third.default_slot) == [] and set(third._event_listeners) == set(first._event_listeners)  # noqa: SLF001
    first.delete()  # NiceGUI empties a deleted element's slots and listeners: the shared ones stay as they are
    assert list(third.default_slot) == [] and third._event_listeners  # noqa: SLF001

"""``webgame.framework.outbox``: NiceGUI's ``expects_arguments``, remembered for bound methods, answers as before."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from nicegui import helpers, ui
from nicegui.testing import User

from webgame.framework import outbox as framework


class Handlers:
    def none(self) -> None: ...
    def one(self, event: Any) -> None: ...
    def optional(self, event: Any = None) -> None: ...
    def star(self, *args: Any) -> None: ...


def test_the_remembered_answer_is_the_frameworks_answer() -> None:
    framework.install()
    assert helpers.expects_arguments is framework.expects_arguments
    for owner in (Handlers(), Handlers()):  # the second instance is answered from memory
        for name in ("none", "one", "optional", "star"):
            method = getattr(owner, name)
            assert framework.expects_arguments(method) == framework._ORIGINAL(method), name
    assert framework.expects_arguments(lambda event: None) is True
    assert framework.expects_arguments(lambda: None) is False

    def two(first: Any, event: Any) -> None: ...

    for partial in (functools.partial(two, 1), functools.partial(two, 1, 2), functools.partial(two, event=2)):
        assert framework.expects_arguments(partial) == framework._ORIGINAL(partial), partial
    for function in (two, Handlers.none, Handlers.optional):  # plain functions: a bound method's are its own
        assert framework.expects_arguments(function) == framework._ORIGINAL(function), function


def test_a_handler_is_asked_once_then_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen parts' tap handler is one function asked at every tap: its signature is built once."""
    asked: list[Any] = []

    def original(func: Any) -> bool:
        asked.append(func)
        return True

    monkeypatch.setattr(framework, "_ORIGINAL", original)

    def handler(event: Any) -> None: ...

    partial = functools.partial(handler)
    for _ in range(3):
        assert framework.expects_arguments(handler) and framework.expects_arguments(partial)
    assert asked == [handler, partial]


async def test_elements_and_their_handlers_still_work(user: User) -> None:
    clicks: list[str] = []

    @ui.page("/framework")
    def page() -> None:
        ui.button("with", on_click=lambda event: clicks.append(type(event).__name__)).mark("with")
        ui.button("without", on_click=lambda: clicks.append("none")).mark("without")
        ui.label("shown").classes("x").style("color: red").props("data-x=1")

    await user.open("/framework")
    await user.should_see("shown")
    user.find(marker="with").click()
    user.find(marker="without").click()
    assert clicks == ["ClickEventArguments", "none"]

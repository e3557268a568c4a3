"""Refusals the room layer raises: like the engine's ``RuleError``, a message id plus named parameters,
so a page can say it in the player's language (``_(e.msgid).format(**e.params)``) and nothing changes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol


class Refusal(Exception):
    """A request the room does not accept (bad name, full room, not the host, ...)."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params: Mapping[str, object] = params


class Worded(Protocol):
    """A refusal as a message id and its parameters: ``Refusal`` here, the engine's ``RuleError``."""

    msgid: str
    params: Mapping[str, object]


def refusal_text(error: Worded, gettext: Callable[[str], str]) -> str:
    """A refusal (the room's or the engine's) in the reader's language."""
    try:
        return gettext(error.msgid).format(**error.params)
    except (KeyError, IndexError, ValueError):
        return gettext(error.msgid)

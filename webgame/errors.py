"""Refusals the room layer raises: like the engine's ``RuleError``, a message id plus named parameters,
so a page can say it in the player's language (``_(e.msgid).format(**e.params)``) and nothing changes."""

from __future__ import annotations

from collections.abc import Mapping


class Refusal(Exception):
    """A request the room does not accept (bad name, full room, not the host, ...)."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params: Mapping[str, object] = params

"""Typed rejections: an illegal action raises one of these and changes nothing.

Each error carries a message id (English text, marked for Babel extraction) and named
parameters, so the web layer can say it in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.i18n import N_


class RuleError(ValueError):
    """An action the rules do not allow right now."""

    def __init__(self, msgid: str, **params: object) -> None:
        self.msgid = msgid
        self.params: Mapping[str, object] = params
        super().__init__(msgid.format(**params))


class NotYourTurn(RuleError):
    """The action is legal in the game, but not for this player at this moment."""


class IllegalTarget(RuleError):
    """The target is dead, unknown, oneself where that is refused, or out of the role's powers."""


class GameOver(RuleError):
    """The game has ended; nothing more can be done in it."""

    def __init__(self) -> None:
        super().__init__(N_("The game is over."))


class StaleAction(RuleError):
    """Sent for a step that has already ended (an old tab, a late timer)."""

    def __init__(self) -> None:
        super().__init__(N_("That moment of the game has already passed."))

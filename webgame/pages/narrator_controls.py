"""The narrator's controls: its language and the speaker switch (on the TV, and in the host's lobby).

Both change the room's narrator settings (``webgame.pages.narration``) and nothing else: the sound plays only on the TV
page (``static/narrator.js`` is loaded there alone). The host's phone is a player's phone in most games; its switch
turns the TV's voice on or off and never makes the phone itself speak.
"""

from __future__ import annotations

from typing import Any

from nicegui import ui

from webgame.errors import Refusal
from webgame.language.i18n import LANGUAGES, Translator
from webgame.pages import components
from webgame.pages.components import testid
from webgame.pages.narration import NarratorSettings, set_language, set_on


def controls(_: Translator, current: NarratorSettings) -> None:
    """A switch and a language select bound to ``current``; they follow changes made elsewhere (the TV, the host)."""

    def switched(event: Any) -> None:
        set_on(current, bool(event.value))

    def chosen(event: Any) -> None:
        try:
            set_language(current, str(event.value))
        except Refusal as error:
            components.refuse(_, error)

    with ui.row().classes("items-center gap-4"):
        switch = testid(ui.switch(_("Narrator's voice on the TV"), value=current.on, on_change=switched),
                        "narrator-on")
        select = testid(ui.select(LANGUAGES, value=current.language, label=_("Narrator's language"),
                                  on_change=chosen).classes("mafia-narrator-lang"), "narrator-language")

    def follow() -> None:
        if switch.is_deleted or select.is_deleted:
            if follow in current.listeners:
                current.listeners.remove(follow)
            return
        if switch.value != current.on:
            switch.set_value(current.on)
        if select.value != current.language:
            select.set_value(current.language)

    current.listeners.append(follow)

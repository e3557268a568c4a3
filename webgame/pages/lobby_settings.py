"""The host's settings in the lobby (the ``settings_or_record`` part of a room page, ``webgame.pages.lobby``): the
rule set, uk's moderator switch, the allowed player counts, the host's hand-over, the TV narrator, the timers and the
rules' options.

They are NiceGUI elements in the part's slot, built once for the host: a change he makes redraws everyone
else's summary (``webgame.pages.lobby_summary``), never his own inputs, so typing is never interrupted. The
room checks every value and refuses any of them from anyone but the host.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nicegui import ui

from engine.dealing import PLAYER_RANGE
from engine.options import OPTION_TABLES, OptionSpec
from webgame.pages import components, narration, narrator_controls, wording
from webgame.pages.components import testid
from webgame.room.rooms import RULE_SETS
from webgame.room.seating import HANDOVER_RANGE

if TYPE_CHECKING:
    from webgame.pages.page_protocols import PhonePage as RoomPage


def host_settings(page: RoomPage) -> None:
    """The host's inputs (NiceGUI elements, kept while he types: a change redraws everyone else's summary, never
    them): the rule set, uk's moderator, the player counts, the hand-over, the narrator, the timers, the rules'
    options."""
    _, room, token_hash = page.t, page.room, page.token_hash
    with ui.card().classes("mafia-card"):
        ui.label(_("Settings")).classes("text-lg font-bold")

        async def set_rules(event: Any) -> None:
            await components.guarded(_, lambda: room.set_rules(token_hash, str(event.value)))

        testid(ui.select({name: _(wording.RULE_SET_NAMES[name]) for name in RULE_SETS}, value=room.rules,
                         label=_("Rule set"), on_change=set_rules).classes("w-full"), "rules")
        if room.rules == "uk":
            async def set_moderated(event: Any) -> None:
                await components.guarded(_, lambda: room.set_moderated(token_hash, bool(event.value)))

            testid(ui.switch(_("I moderate: I run the game and give fouls instead of playing"),
                             value=room.moderated, on_change=set_moderated), "moderated")
        _player_limits(page)
        handover_inputs(page)
        narrator_inputs(page)
        ui.label(_("Timers")).classes("font-bold mt-2")
        for spec in OPTION_TABLES[room.rules]:
            if spec.timer:
                _option_input(page, spec)
        with ui.expansion(_("Rules options")).classes("w-full"):
            for spec in OPTION_TABLES[room.rules]:
                if not spec.timer:
                    _option_input(page, spec)

def _player_limits(page: RoomPage) -> None:
    _, room, token_hash = page.t, page.room, page.token_hash
    floor, ceiling = PLAYER_RANGE[room.rules]
    low, high = room.player_limits()
    ui.label(_("Allowed player counts ({low}-{high})").format(low=floor, high=ceiling)).classes("font-bold mt-2")
    with ui.row().classes("w-full no-wrap"):
        smallest = testid(ui.number(_("At least"), value=low, min=floor, max=ceiling, precision=0).props(
            "debounce=600").classes("grow"), "min-players")
        largest = testid(ui.number(_("At most"), value=high, min=floor, max=ceiling, precision=0).props(
            "debounce=600").classes("grow"), "max-players")

    async def apply() -> None:
        if smallest.value is None or largest.value is None:
            return
        await components.guarded(_, lambda: room.set_player_limits(
            token_hash, int(smallest.value), int(largest.value)))

    smallest.on_value_change(apply)
    largest.on_value_change(apply)

def _option_input(page: RoomPage, spec: OptionSpec) -> None:
    _, room, token_hash = page.t, page.room, page.token_hash
    value = room.engine_options()[spec.name]
    label = _(spec.label)

    async def save(new: object) -> None:
        await components.guarded(_, lambda: room.set_option(token_hash, spec.name, new))

    if isinstance(spec.default, bool):
        testid(ui.switch(label, value=bool(value), on_change=lambda e: save(bool(e.value))),
               f"option-{spec.name}")
    elif isinstance(spec.default, int):
        def in_range(v: float | None) -> bool:
            return v is not None and spec.minimum <= v <= spec.maximum

        async def save_number(event: Any) -> None:
            if in_range(event.value):
                await save(int(event.value))

        message = _("From {low} to {high}").format(low=_.number(spec.minimum), high=_.number(spec.maximum))
        field = ui.number(label, value=int(value), min=spec.minimum, max=spec.maximum, precision=0,
                          validation={message: in_range}, on_change=save_number)
        testid(field.props("debounce=600").classes("w-full"), f"option-{spec.name}")
        if spec.timer:  # its meaning and default under the field, in the field's own small print
            field.props["suffix"] = _("s")
            field.props["hint"] = wording.option_hint(_, spec)
    else:
        choices = {choice: wording.choice_label(_, choice) for choice in spec.choices}
        testid(ui.select(choices, value=value, label=label, on_change=lambda e: save(str(e.value))).classes(
            "w-full"), f"option-{spec.name}")
    if not spec.timer:
        testid(ui.label(wording.option_hint(_, spec)).classes("text-sm mafia-muted"), "option-hint")


def narrator_inputs(page: RoomPage) -> None:
    """The TV narrator's language and voice (webgame.pages.narrator_controls: nothing plays on this phone)."""
    _, room = page.t, page.room
    ui.label(_("The TV's narrator")).classes("font-bold mt-2")
    narrator_controls.controls(_, narration.settings(room))


def handover_inputs(page: RoomPage) -> None:
    """When the host's phone is gone: after how long his role passes on (webgame.room.host_watch), and, uk, whether
    a player may take a gone moderator's controls mid-game."""
    _, room, token_hash = page.t, page.room, page.token_hash
    low, high = HANDOVER_RANGE

    async def save_seconds(event: Any) -> None:
        if event.value is not None and low <= event.value <= high:
            await components.guarded(_, lambda: room.set_handover(token_hash, int(event.value)))

    message = _("From {low} to {high}").format(low=_.number(low), high=_.number(high))
    ui.label(_("When the host's phone is gone")).classes("font-bold mt-2")
    field = ui.number(_("Hand the host role on after"), value=room.handover_seconds, min=low, max=high,
                      precision=0,
                      validation={message: lambda v: v is not None and low <= v <= high}, on_change=save_seconds)
    testid(field.props("debounce=600").classes("w-full"), "handover-seconds")
    field.props["suffix"] = _("s")
    ui.label(_("To the next connected player in seat order; everyone is told.")).classes("text-sm mafia-muted")
    if room.rules == "uk":
        async def save_takeover(event: Any) -> None:
            await components.guarded(_, lambda: room.set_handover(token_hash, takeover=bool(event.value)))

        testid(ui.switch(_("A player may take a gone moderator's controls"), value=room.moderator_takeover,
                         on_change=save_takeover), "moderator-takeover")
        ui.label(_("Off: without the moderator the game goes on with the clock alone. On: the next connected "
                   "player gets the clock and the fouls, and still sees only his own role.")).classes(
            "text-sm mafia-muted")

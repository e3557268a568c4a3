"""The lobby's read-only parts: the room's settings as text, and the roles a game would deal now."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engine.dealing import table
from engine.options import OPTION_TABLES
from engine.roles import ROLE_TABLES
from webgame.i18n import Translator
from webgame.pages import wording

if TYPE_CHECKING:
    from webgame.pages.screen import Draft
    from webgame.rooms import Room


def settings_summary(d: Draft, _: Translator, room: Room) -> None:
    """The room's settings as text (everyone but the host, whose own inputs show them)."""
    options = room.engine_options()
    with d.card("mafia-card"):
        d.label(_(wording.RULE_SET_NAMES[room.rules]), "text-lg font-bold")
        low, high = room.player_limits()
        d.label(_("Players: {low} to {high}").format(low=_.number(low), high=_.number(high)))
        if room.moderated:
            d.label(_("The host moderates this game."))
        for spec in OPTION_TABLES[room.rules]:
            if spec.timer:
                d.label(_("{label}: {seconds}").format(label=_(spec.label),
                                                       seconds=_.seconds(int(options[spec.name]))))
        with d.expansion(_("Rules options"), opened=False, cls="w-full"):
            for spec in OPTION_TABLES[room.rules]:  # each with what it means and its default
                shown = wording.option_value(_, spec, options[spec.name])
                d.label(_("{label}: {value}").format(label=_(spec.label), value=shown), "font-bold")
                d.label(wording.option_hint(_, spec), "mafia-hint")


def role_help(d: Draft, _: Translator, rules: str) -> None:
    """What every role of the rule set does (the engine's role table, as docs/RULES.md states it): public, the
    same on every phone of the lobby."""
    with d.column("w-full", "lobby-roles"), d.expansion(_("What each role does"), opened=False, cls="w-full"):
        for role, info in ROLE_TABLES[rules].items():
            d.label(wording.role_heading(_, rules, str(role)), "font-bold mt-2")
            d.label(_(info.description), "text-sm")


def role_preview(d: Draft, _: Translator, room: Room) -> None:
    """The roles a game would deal now (the players in the lobby, within the room's limits)."""
    low, high = room.player_limits()
    count = min(max(len(room.players()), low), high)
    roles = Counter(str(role) for role in table(room.rules, count, room.engine_options()))
    with d.card("mafia-card"):
        d.label(_("Roles dealt with {count} players").format(count=_.number(count)), "font-bold")
        for role, number in sorted(roles.items(), key=lambda item: -item[1]):
            d.label(_("{count} × {role}").format(count=_.number(number),
                                                 role=wording.role_name(_, room.rules, role)))
        role_help(d, _, room.rules)

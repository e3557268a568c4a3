"""The lobby's read-only parts: the room's settings as text, and the roles a game would deal now."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from engine.dealing import table
from engine.options import OPTION_TABLES
from engine.roles import ROLE_TABLES
from webgame.language.i18n import Translator
from webgame.pages import wording

if TYPE_CHECKING:
    from webgame.pages.screen import Draft
    from webgame.room.rooms import Room


class Folds:
    """The folds of one page's lobby that its player has opened. What a fold holds (the rules' options, what each
    role does: 5 KB in Uzbek) is sent only once he opens it: most phones never do, and a room link's page is sent
    uncompressed (``webgame.browser.transport``) on every visit (docs/PERFORMANCE.md: 20 KB again,
    e2e/test_first_load)."""

    def __init__(self) -> None:
        self.opened: set[str] = set()

    @contextmanager
    def fold(self, d: Draft, title: str, tid: str, redraw: Callable[[], None]) -> Iterator[bool]:
        """``with folds.fold(...) as opened:`` draw the content only if ``opened``; ``redraw`` draws the page's part
        that holds the fold again (its content in or out) when the player opens or folds it."""
        opened = tid in self.opened

        def toggle(value: object) -> None:
            if bool(value) != (tid in self.opened):
                (self.opened.add if value else self.opened.discard)(tid)
                redraw()

        with d.expansion(title, opened, "w-full", tid):
            d.handlers[tid] = toggle
            yield opened


def settings_summary(d: Draft, _: Translator, room: Room, folds: Folds, redraw: Callable[[], None]) -> None:
    """The room's settings as text (everyone but the host, whose own inputs show them); the options with what each
    means in a fold (``redraw``: this part)."""
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
        with folds.fold(d, _("Rules options"), "fold-options", redraw) as opened:
            for spec in OPTION_TABLES[room.rules] if opened else ():  # each with what it means and its default
                shown = wording.option_value(_, spec, options[spec.name])
                d.label(_("{label}: {value}").format(label=_(spec.label), value=shown), "font-bold")
                d.label(wording.option_hint(_, spec), "mafia-hint")


def role_help(d: Draft, _: Translator, rules: str, folds: Folds, redraw: Callable[[], None]) -> None:
    """What every role of the rule set does (the engine's role table, as docs/RULES.md states it): public, the
    same on every phone of the lobby, in a fold (``redraw``: this part)."""
    with d.column("w-full", "lobby-roles"), folds.fold(d, _("What each role does"), "fold-roles", redraw) as opened:
        for role, info in ROLE_TABLES[rules].items() if opened else ():
            d.label(wording.role_heading(_, rules, str(role)), "font-bold mt-2")
            d.label(_(info.description), "text-sm")


def role_preview(d: Draft, _: Translator, room: Room, folds: Folds, redraw: Callable[[], None]) -> None:
    """The roles a game would deal now (the players in the lobby, within the room's limits); what each does in a
    fold (``redraw``: this part)."""
    low, high = room.player_limits()
    count = min(max(len(room.players()), low), high)
    roles = Counter(str(role) for role in table(room.rules, count, room.engine_options()))
    with d.card("mafia-card"):
        d.label(_("Roles dealt with {count} players").format(count=_.number(count)), "font-bold")
        for role, number in sorted(roles.items(), key=lambda item: -item[1]):
            d.label(_("{count} × {role}").format(count=_.number(number),
                                                 role=wording.role_name(_, room.rules, role)))
        role_help(d, _, room.rules, folds, redraw)

"""The best move on the phone (issue 30, uk, option ``best_move``; the rules are ``engine.best_move``): a player
killed on the first night names one to three players he takes for black, once, during the last words of day 2
(before the speeches). His phone shows a grid to tap up to three names and a confirm in the bar; once made, every
phone shows it on the day's panel (and the news, the TV and the narrator say it). Nothing here is secret: who died
on the first night is public, and so is the best move once made; the picking itself is the victim's own.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.actions import BestMove
from webgame.pages import wording

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen as GameView
    from webgame.pages.screen import Draft


@dataclass(slots=True)
class Picked:
    """This phone's names so far (not sent until confirmed), emptied when the step changes."""

    step: int = -1
    seats: list[int] = field(default_factory=list)


_PICKED: weakref.WeakKeyDictionary[GameView, Picked] = weakref.WeakKeyDictionary()


def picked(view: GameView) -> Picked:
    step = int(view.p.get("step", -1))
    choice = _PICKED.setdefault(view, Picked())
    if choice.step != step:
        choice.step, choice.seats = step, []
    return choice


def made(view: GameView, d: Draft) -> None:
    """The best moves made so far, one line each, on every phone (day 2: its last words and speeches)."""
    _ = view.page.t
    for seat, targets in sorted((view.p.get("best_moves") or {}).items(), key=lambda item: int(item[0])):
        d.label(_(wording.BEST_MOVE).format(
            name=view.name_of(int(seat)), named=_.join(view.name_of(int(t)) for t in targets)), "font-bold",
            "best-move")


def draw(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
    """The day panel's best move: the lines of those made; the victim's grid and, in the bar, his confirm."""
    p = view.p
    if p.get("rules") != "uk" or int(p.get("day", 0)) != 2 or p.get("phase") not in ("last_words", "speeches"):
        return
    made(view, d)
    action = view.action("best_move")
    me = view.me
    if action is None or me is None:
        return
    _ = view.page.t
    seat, most = int(me["seat"]), int(action.get("most", 3))
    targets = [int(t) for t in action.get("targets", [])]
    choice = picked(view)
    choice.seats = [s for s in choice.seats if s in targets]
    d.label(_("Your best move: tap up to three players you take for black. It is made once, and everyone sees it."),
            "text-lg", "best-move-ask")

    def toggle(target: int) -> None:
        if target in choice.seats:
            choice.seats.remove(target)
        elif len(choice.seats) < most:
            choice.seats.append(target)
        view.page.seats_or_panel.refresh()

    full = len(choice.seats) >= most
    with d.div(view.grid_class()):
        for target in targets:
            d.button(view.name_of(target), lambda t=target: toggle(t), f"best-{target}", cls="mafia-target",
                     outline=target not in choice.seats, enabled=target in choice.seats or not full, no_caps=True)
    chosen = sorted(choice.seats)
    if chosen:
        d.label(_("Your best move: {names}").format(names=_.join(view.name_of(s) for s in chosen)), tid="best-chosen")
    else:
        d.label(_("Tap one to three players, then confirm."), "mafia-muted")

    def bar() -> None:
        if chosen:
            d.button(_("Confirm the best move"), lambda: view.send(BestMove(seat, tuple(chosen))), "best-confirm",
                     cls="mafia-target", icon="check")
        else:
            d.button(_("Confirm the best move"), _nothing, "best-confirm-off", cls="mafia-target", icon="check",
                     enabled=False)

    buttons.insert(0, bar)  # before "End my speech": his last words may end his best move's time


def _nothing() -> None:
    """Confirm before a pick: drawn disabled, so the bar keeps its shape."""

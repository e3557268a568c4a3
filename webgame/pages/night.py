"""The night screen: covered, it is the same on every phone at the table; revealed, it is its owner's move.

Covered (the default, ``Draft.covered``), every living player's phone shows the same words, the same grid of
names (all alike but his own, which the table knows), and the same button to reveal: a neighbour's glance
tells nothing. Revealed (``Draft.revealed``, a tap on that button, in the browser only), it shows the
verb of his role, the legal targets, his pick and Confirm; a civilian's "suspect" pick goes through the same
motions, so watching hands tells nothing either. The mafia team's card and chat are revealed only too. A pick is
the browser's alone (``Draft.pick``): it sends nothing; Confirm sends the picked player.

The covered words and the grid are a part of their own (``cover``: the page's ``cover`` part, in the panel's
``cover`` slot), built once per change of the room for every phone of a kind from the spectator's projection
(issue 32): the grid's model marks no tile, the browser marks its own seat's (``Draft.own_seat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import NightAct
from engine.view_types import Offer
from webgame.pages import evenness, wording
from webgame.pages.news import day_result

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from webgame.pages.page_protocols import GameScreen as GameView
    from webgame.pages.screen import Draft
    from webgame.room.projection import ShownView


def cover_kind(p: ShownView) -> str | None:
    """Which public lines of the night this viewer's panel shows in its ``cover`` slot: a living seat's covered words
    and grid ("living"), a dead seat's words and grid ("dead"), a watcher's (a spectator, the moderator: "sleep"),
    the grid under the held result ("hold"); None when there are none (by day). They are the same on every page of
    a kind, so built once per change of the room for all of them (``GameView.cover``, ``shared_parts``). Whether a
    seat lives is public; nothing here depends on a role."""
    if p.get("result_hold"):
        return "hold"
    if p.get("phase") != "night":
        return None
    me = p.get("me")
    if me is None:
        return "sleep"
    return "living" if me["alive"] else "dead"


def cover(view: GameView, d: Draft, kind: str) -> None:
    """The ``cover`` part (``cover_kind``), drawn from the spectator's projection (``view``): the words and the grid
    of the living, every tile alike (the browser marks the phone's own: ``Draft.own_seat``). A living seat's lines
    are covered: its owner's reveal shows his move in their place."""
    _ = view.page.t
    living = [int(s) for s in view.p.get("alive", [])]
    if kind == "living":
        with d.covered():
            d.label(_("Everyone makes a secret choice. Tap Show, choose, confirm."), "text-lg", "night-cover")
            view.name_tiles(d, living)
        return
    if kind == "sleep":
        d.label(_("The town sleeps."), "text-lg")
    elif kind == "dead":
        d.label(_("You are dead. You watch the night in silence."), "text-lg")
    view.name_tiles(d, living)


def render(view: GameView, d: Draft) -> None:
    """The night's panel: the public lines in the ``cover`` slot (their own part, shared), this seat's card and move
    behind the reveal, the counts in the default slot (the ``status`` part), the buttons."""
    p, me = view.p, view.me
    with d.card("mafia-card"):
        if me is None:
            d.slot("cover")  # "The town sleeps." and the grid
        elif not me["alive"]:
            view.role_card(d)
            d.slot("cover")  # "You are dead..." and the grid
        else:
            d.slot("cover")  # covered: the words and the grid
            view.role_card(d)
            with d.revealed():
                acts = [a for a in p.get("actions", []) if a.get("type") == "night_act" and a.get("act") != "pass"]
                if me["done"] or not acts:
                    _done(view, d)
                else:
                    _choose(view, d, acts)
        d.slot()  # waiting(): the count of those still choosing
    if p.get("team_night"):
        with d.revealed():
            _team_night(view, d)
    if me is not None:
        with d.bar():
            _bar(view, d)


def result(view: GameView, d: Draft) -> None:
    """The day's result, first at the night's start on every phone (public: the same words for every role)."""
    proj = view.proj
    if proj is None:
        return
    lines = day_result(view.page.t, view.p, proj.events, view.name_of)
    if not lines:
        return
    with d.card("mafia-card mafia-result"):
        for line in lines:
            d.label(line, "text-lg font-bold", "day-result")


def held_result(view: GameView, d: Draft) -> None:
    """The day's result held on every screen before the night begins (``webgame.room.result_hold``): the same words
    for every role and no button; the countdown above runs to the night."""
    proj, _ = view.proj, view.page.t
    lines = day_result(_, view.p, proj.events, view.name_of) if proj is not None else []
    with d.card("mafia-card mafia-result"):
        for line in lines or [_("No vote today: nobody is out.")]:
            d.label(line, "text-lg font-bold", "day-result")
        d.label(_("The night begins in a few seconds."), "mafia-muted", "night-soon")
    d.slot("cover")  # the grid of the living (``cover``)


def waiting(view: GameView, d: Draft) -> None:
    _, count = view.page.t, int(view.p.get("waiting", 0))
    d.label(_.ngettext("{count} player is still choosing.", "{count} players are still choosing.",
                       count).format(count=_.number(count)), "mafia-muted", "waiting")


def _done(view: GameView, d: Draft) -> None:
    _, me = view.page.t, view.me
    assert me is not None
    d.label(_("Your choice is made. Waiting for the night to end."), "text-lg", "night-done")
    for choice in me["night_choices"]:
        label, target = wording.ACT_LABELS.get(choice["act"]), choice["target"]
        if label and target:
            d.label(_("{act}: {name}").format(act=_(label), name=view.name_of(target)))


def _current(view: GameView, acts: list[Offer]) -> Offer:
    """The act this phone is choosing for (the first one until the player switches)."""
    choice = view.pending()
    names = [str(a["act"]) for a in acts]
    if choice.act not in names:
        choice.act = names[0]
    return next(a for a in acts if a["act"] == choice.act)


def _group(view: GameView, acts: list[Offer], current: Offer) -> str:
    """The pick group of the act being chosen (``_current``): each act of a seat picks on its own (a switch starts
    with none)."""
    return view.pick_group("target", acts.index(current))


def _choose(view: GameView, d: Draft, acts: list[Offer]) -> None:
    _, p = view.page.t, view.p
    choice = view.pending()
    current = _current(view, acts)
    names = [str(a["act"]) for a in acts]
    targets = [int(t) for t in current.get("targets", [])]

    def switch(value: object) -> None:
        if isinstance(value, str) and value in names:
            choice.act = value
        view.page.seats_or_panel.refresh()
        evenness.pad_alone(view.page, evenness.answer_bytes(view.page))  # the same answer for every role

    def note(value: object) -> None:
        choice.note = bool(value)

    if len(names) > 1:
        d.toggle({name: _(wording.ACT_LABELS.get(name, name)) for name in names}, choice.act, switch, "night-act",
                 "w-full")
    d.label(_(wording.ACT_PROMPTS.get(choice.act, wording.ACT_PROMPTS["suspect"])), "text-lg", "night-prompt")
    reason = current.get("reason")
    if current.get("allowed") is False and isinstance(reason, str):  # the uz commissar's shot on night 1
        d.label(_(reason), "text-lg mafia-refused", "night-refused")
        return
    group = _group(view, acts, current)
    view.pick_grid(d, group, [int(s) for s in p.get("alive", [])], targets)  # picked in the browser
    if current.get("note"):
        d.switch(_("Leave a note with tonight's result"), choice.note, note, "note")
    d.chosen(_("You chose {name}."), group, "chosen")


def _bar(view: GameView, d: Draft) -> None:
    """The night's buttons: covered, the reveal for everyone; revealed, hide, skip and confirm."""
    _, me = view.page.t, view.me
    assert me is not None
    seat = int(me["seat"])
    view.reveal_button(d)
    if not me["alive"]:
        return
    acts = [a for a in view.p.get("actions", []) if a.get("type") == "night_act" and a.get("act") != "pass"]
    if me["done"] or not acts:
        return
    with d.revealed():
        d.button(_("Skip"), lambda: view.send(NightAct(seat, "pass")), "pass", cls="mafia-target", outline=True,
                 covers=True)
        choice = view.pending()
        current = _current(view, acts)
        if current.get("allowed") is False:
            d.button(_("Confirm"), _nothing, "confirm-off", cls="mafia-target", icon="check", enabled=False)
            return
        act, may_note = choice.act, bool(current.get("note"))

        def confirm(target: object) -> Awaitable[bool]:
            # The note switch changes ``choice.note`` without a redraw: read it when Confirm is tapped.
            return view.send_pick(target, lambda picked: NightAct(seat, act, picked, bool(choice.note and may_note)))

        d.button(_("Confirm"), confirm, "confirm", cls="mafia-target", icon="check", covers=True,
                 group=_group(view, acts, current))


def _nothing() -> None:
    """Confirm before a pick: drawn disabled, so the bar keeps its shape."""


def _team_night(view: GameView, d: Draft) -> None:
    _, team = view.page.t, view.p["team_night"]
    if team is None:
        return
    with d.card("mafia-card"):
        d.label(_("The mafia's night"), "font-bold")
        don, kill = team["acting_don"], team["kill"]
        if don:
            d.label(_("{name} chooses the kill.").format(name=view.name_of(don)))
        else:
            d.label(_("Nobody can choose the kill tonight."))
        for seat, target in sorted(team["suggestions"].items()):
            if target:
                d.label(_("{name} suggests {target}.").format(name=view.name_of(int(seat)),
                                                              target=view.name_of(target)))
        if kill:
            d.label(_("The kill tonight: {name}.").format(name=view.name_of(kill)), tid="kill-choice")

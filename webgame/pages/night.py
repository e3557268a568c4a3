"""The night screen: the same layout, size and timing for every role.

Every living player gets a prompt, the grid of living players, a confirmation step and a skip button; a
civilian's "suspect" fills the same screen as the doctor's heal, so nobody learns a role by watching
hands. The mafia team also sees who chooses the kill, the suggestions and the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import NightAct
from webgame.pages import evenness, wording

if TYPE_CHECKING:
    from webgame.pages.game_view import GameView
    from webgame.pages.screen import Draft


def render(view: GameView, d: Draft) -> None:
    _, p, me = view.page.t, view.p, view.me
    with d.card("mafia-card"):
        if me is None:
            d.label(_("The town sleeps."), "text-lg")
        elif not me["alive"]:
            d.label(_("You are dead. You watch the night in silence."), "text-lg")
        else:
            acts = [a for a in p.get("actions", []) if a.get("type") == "night_act" and a.get("act") != "pass"]
            if me["done"] or not acts:
                _done(view, d)
            else:
                _choose(view, d, acts)
        d.slot()  # waiting(): the count of those still choosing
    if p.get("team_night"):
        _team_night(view, d)


def waiting(view: GameView, d: Draft) -> None:
    _, count = view.page.t, int(view.p.get("waiting", 0))
    d.label(_.ngettext("{count} player is still choosing.", "{count} players are still choosing.",
                       count).format(count=_.number(count)), "mafia-muted")


def _done(view: GameView, d: Draft) -> None:
    _, me = view.page.t, view.me
    assert me is not None
    d.label(_("Your choice is made. Waiting for the night to end."), "text-lg", "night-done")
    for choice in me.get("night_choices", []):
        label = wording.ACT_LABELS.get(str(choice.get("act")))
        if label and choice.get("target"):
            d.label(_("{act}: {name}").format(act=_(label), name=view.name_of(int(choice["target"]))))


def _choose(view: GameView, d: Draft, acts: list[dict[str, object]]) -> None:
    _, p, me = view.page.t, view.p, view.me
    assert me is not None
    choice = view.pending()
    names = [str(a["act"]) for a in acts]
    if choice.act not in names:
        choice.act, choice.target = names[0], None
    current = next(a for a in acts if a["act"] == choice.act)
    targets = [int(t) for t in current.get("targets", [])]  # type: ignore[attr-defined]

    def pick(seat: int) -> None:
        choice.target = seat
        view.page.second.refresh()
        evenness.pad_alone(view.page, evenness.answer_bytes(view.page))  # the same answer for every role

    def switch(value: object) -> None:
        if isinstance(value, str) and value in names:
            choice.act, choice.target = value, None
        view.page.second.refresh()
        evenness.pad_alone(view.page, evenness.answer_bytes(view.page))

    def note(value: object) -> None:
        choice.note = bool(value)

    if len(names) > 1:
        d.toggle({name: _(wording.ACT_LABELS.get(name, name)) for name in names}, choice.act, switch, "night-act",
                 "w-full")
    prompt = _(wording.ACT_PROMPTS.get(choice.act, wording.ACT_PROMPTS["suspect"]))
    d.label(prompt, "text-lg", "night-prompt")
    living = [int(s) for s in p.get("alive", [])]
    view.target_grid(d, living, targets, choice.target, pick)
    if current.get("note"):
        d.switch(_("Leave a note with tonight's result"), choice.note, note, "note")
    with d.row("w-full gap-2 mafia-actions"):
        if choice.target is not None and choice.target in targets:
            target, act, may_note = choice.target, choice.act, bool(current.get("note"))
            d.label(_("You chose {name}.").format(name=view.name_of(target)), "grow self-center")
            # The note switch changes ``choice.note`` without a redraw: read it when Confirm is tapped.
            d.button(_("Confirm"), lambda: view.send(NightAct(int(me["seat"]), act, target,
                                                              bool(choice.note and may_note))),
                     "confirm", cls="mafia-target", icon="check")
        else:
            d.label(_("Tap a player, then confirm."), "grow self-center mafia-muted")
        d.button(_("Skip"), lambda: view.send(NightAct(int(me["seat"]), "pass")), "pass", cls="mafia-target",
                 outline=True)


def _team_night(view: GameView, d: Draft) -> None:
    _, team = view.page.t, view.p["team_night"]
    with d.card("mafia-card"):
        d.label(_("The mafia's night"), "font-bold")
        don = team.get("acting_don")
        if don:
            d.label(_("{name} chooses the kill.").format(name=view.name_of(int(don))))
        else:
            d.label(_("Nobody can choose the kill tonight."))
        for seat, target in sorted(team.get("suggestions", {}).items()):
            if target:
                d.label(_("{name} suggests {target}.").format(name=view.name_of(int(seat)),
                                                              target=view.name_of(int(target))))
        if team.get("kill"):
            d.label(_("The kill tonight: {name}.").format(name=view.name_of(int(team["kill"]))), tid="kill-choice")

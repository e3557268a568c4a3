"""The night screen: the same layout, size and timing for every role.

Every living player gets a prompt, the grid of living players, a confirmation step and a skip button; a
civilian's "suspect" fills the same screen as the doctor's heal, so nobody learns a role by watching
hands. The mafia team also sees who chooses the kill, the suggestions and the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nicegui import ui

from engine.actions import NightAct
from webgame.pages import evenness, wording
from webgame.pages.components import testid

if TYPE_CHECKING:
    from webgame.pages.game_view import GameView


def render(view: GameView) -> None:
    _, p, me = view.page.t, view.p, view.me
    with ui.card().classes("mafia-card"):
        if me is None:
            ui.label(_("The town sleeps.")).classes("text-lg")
        elif not me["alive"]:
            ui.label(_("You are dead. You watch the night in silence.")).classes("text-lg")
        else:
            acts = [a for a in p.get("actions", []) if a.get("type") == "night_act" and a.get("act") != "pass"]
            if me["done"] or not acts:
                _done(view)
            else:
                _choose(view, acts)
        view.status()  # waiting()
    if p.get("team_night"):
        _team_night(view)


def waiting(view: GameView) -> None:
    _, count = view.page.t, int(view.p.get("waiting", 0))
    ui.label(_.ngettext("{count} player is still choosing.", "{count} players are still choosing.",
                        count).format(count=_.number(count))).classes("mafia-muted")


def _done(view: GameView) -> None:
    _, me = view.page.t, view.me
    assert me is not None
    testid(ui.label(_("Your choice is made. Waiting for the night to end.")).classes("text-lg"), "night-done")
    for choice in me.get("night_choices", []):
        label = wording.ACT_LABELS.get(str(choice.get("act")))
        if label and choice.get("target"):
            ui.label(_("{act}: {name}").format(act=_(label), name=view.name_of(int(choice["target"]))))


def _choose(view: GameView, acts: list[dict[str, object]]) -> None:
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
        view.panel.refresh()
        evenness.pad_alone(view.page, evenness.answer_bytes(view.page))  # the same answer for every role

    def switch(event: object) -> None:
        choice.act, choice.target = str(getattr(event, "value", choice.act)), None
        view.panel.refresh()
        evenness.pad_alone(view.page, evenness.answer_bytes(view.page))

    if len(names) > 1:
        testid(ui.toggle({name: _(wording.ACT_LABELS.get(name, name)) for name in names}, value=choice.act,
                         on_change=switch).classes("w-full"), "night-act")
    prompt = _(wording.ACT_PROMPTS.get(choice.act, wording.ACT_PROMPTS["suspect"]))
    testid(ui.label(prompt).classes("text-lg"), "night-prompt")
    living = [int(s) for s in p.get("alive", [])]
    view.target_grid(living, targets, choice.target, pick)
    if current.get("note"):
        testid(ui.switch(_("Leave a note with tonight's result"), value=choice.note,
                         on_change=lambda e: setattr(choice, "note", bool(e.value))), "note")
    with ui.row().classes("w-full gap-2 mafia-actions"):
        if choice.target is not None and choice.target in targets:
            target, act, may_note = choice.target, choice.act, bool(current.get("note"))
            ui.label(_("You chose {name}.").format(name=view.name_of(target))).classes("grow self-center")
            # The note switch changes ``choice.note`` without a re-render: read it when Confirm is tapped.
            testid(ui.button(_("Confirm"), icon="check", on_click=lambda: view.send(
                NightAct(int(me["seat"]), act, target, bool(choice.note and may_note)))).classes(
                "mafia-target"), "confirm")
        else:
            ui.label(_("Tap a player, then confirm.")).classes("grow self-center mafia-muted")
        testid(ui.button(_("Skip"), on_click=lambda: view.send(NightAct(int(me["seat"]), "pass"))).props(
            "outline").classes("mafia-target"), "pass")


def _team_night(view: GameView) -> None:
    _, team = view.page.t, view.p["team_night"]
    with ui.card().classes("mafia-card"):
        ui.label(_("The mafia's night")).classes("font-bold")
        don = team.get("acting_don")
        if don:
            ui.label(_("{name} chooses the kill.").format(name=view.name_of(int(don))))
        else:
            ui.label(_("Nobody can choose the kill tonight."))
        for seat, target in sorted(team.get("suggestions", {}).items()):
            if target:
                ui.label(_("{name} suggests {target}.").format(name=view.name_of(int(seat)),
                                                               target=view.name_of(int(target))))
        if team.get("kill"):
            kill = _("The kill tonight: {name}.").format(name=view.name_of(int(team["kill"])))
            testid(ui.label(kill), "kill-choice")

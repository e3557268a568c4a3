"""The day screens: uz discussion and vote (with the kamikaze's pick); uk last words, speeches with
nominations, defence, the vote, the re-vote and the eliminate-all vote; the moderator's fouls."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from nicegui import ui

from engine.actions import EliminateAll, EndSpeech, Foul, KamikazePick, Nominate, Ready, Vote
from webgame.pages.components import testid

if TYPE_CHECKING:
    from webgame.pages.game_view import GameView


def render(view: GameView) -> None:
    _, p, me = view.page.t, view.p, view.me
    phase = p["phase"]
    with ui.card().classes("mafia-card"):
        if me is not None and not me["alive"] and phase != "kamikaze":
            ui.label(_("You are dead: you watch, and talk only with the dead.")).classes("text-lg")
        if phase == "discussion":
            _discussion(view)
        elif phase == "vote":
            _vote(view)
        elif phase == "kamikaze":
            _kamikaze(view)
        elif phase in ("speeches", "defence", "last_words"):
            _speech(view)
        elif phase == "eliminate_all":
            _eliminate_all(view)


def _discussion(view: GameView) -> None:
    _ = view.page.t
    ui.label(_("Talk it over. The vote starts when everyone is ready or the time is up.")).classes("text-lg")
    view.status()  # ready_count()
    if view.action("ready") and view.me is not None:
        seat = int(view.me["seat"])
        testid(ui.button(_("I'm ready to vote"), icon="how_to_vote",
                         on_click=lambda: view.send(Ready(seat))).classes("w-full mafia-target"), "ready")
    elif view.me is not None and view.me["alive"]:
        ui.label(_("You are ready. Waiting for the others.")).classes("mafia-muted")


def ready_count(view: GameView) -> None:
    _, p = view.page.t, view.p
    ready, living = len(p.get("ready", [])), len(p.get("alive", []))
    ready_text = _("{count} of {total} are ready to vote.").format(count=_.number(ready), total=_.number(living))
    testid(ui.label(ready_text), "ready-count")


def _vote(view: GameView) -> None:
    _, p, me = view.page.t, view.p, view.me
    action = view.action("vote")
    if p["rules"] == "uk" and int(p.get("vote_round", 1)) > 1:
        ui.label(_("The re-vote between the tied players.")).classes("font-bold")
    if action is not None and me is not None:
        seat = int(me["seat"])
        targets = [int(t) for t in action.get("targets", [])]
        choice = view.pending()
        choice.act = "vote"
        if p["rules"] == "uz":
            ui.label(_("Vote for the player to eliminate, or abstain.")).classes("text-lg")
            shown = [int(s) for s in p.get("alive", [])]
        else:
            ui.label(_("Vote for one of the nominees.")).classes("text-lg")
            shown = [int(s) for s in p.get("candidates", [])]

        def pick(target: int) -> None:
            choice.target = target
            view.panel.refresh()

        view.target_grid(shown, targets, choice.target, pick, mark="vote")
        with ui.row().classes("w-full gap-2 mafia-actions"):
            if choice.target in targets:
                target = choice.target
                ui.label(_("You chose {name}.").format(name=view.name_of(int(target)))).classes("grow self-center")
                testid(ui.button(_("Confirm"), icon="check", on_click=lambda: view.send(Vote(seat, target))).classes(
                    "mafia-target"), "confirm")
            else:
                ui.label(_("Tap a player, then confirm.")).classes("grow self-center mafia-muted")
            if action.get("none"):
                testid(ui.button(_("Abstain"), on_click=lambda: view.send(Vote(seat, None))).props(
                    "outline").classes("mafia-target"), "abstain")
    elif me is not None and me["alive"]:
        testid(ui.label(_("Your vote is cast.")).classes("text-lg"), "voted")
    view.status()  # tally()


def tally(view: GameView) -> None:
    """The live tally: who votes for whom, and how many have not voted yet."""
    _, p = view.page.t, view.p
    votes: dict[str, Any] = p.get("votes", {})
    by_target: dict[int | None, list[int]] = defaultdict(list)
    for voter, target in votes.items():
        by_target[int(target) if target is not None else None].append(int(voter))
    ui.label(_("Votes")).classes("font-bold mt-2")
    for target, voters in sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0] or 0)):
        names = _.join(view.name_of(v) for v in sorted(voters))
        if target is None:
            ui.label(_("Abstained: {names}").format(names=names))
        else:
            testid(ui.label(_("{name}: {count} ({names})").format(name=view.name_of(target),
                                                                  count=_.number(len(voters)), names=names)), "tally")
    missing = len(p.get("alive", [])) - len(votes)
    ui.label(_.ngettext("{count} has not voted yet.", "{count} have not voted yet.", missing).format(
        count=_.number(missing))).classes("mafia-muted")


def _kamikaze(view: GameView) -> None:
    _, p = view.page.t, view.p
    action = view.action("kamikaze_pick")
    kamikaze = p.get("kamikaze") or {}
    if action is not None and view.me is not None:
        seat = int(view.me["seat"])
        ui.label(_("You were voted out. Pick one of those who voted against you to take along.")).classes("text-lg")
        targets = [int(t) for t in action.get("targets", [])]
        view.target_grid(targets, targets, None, lambda target: view.send(KamikazePick(seat, target)), mark="pick")
        testid(ui.button(_("Nobody"), on_click=lambda: view.send(KamikazePick(seat, None))).props(
            "outline").classes("w-full mafia-target"), "pick-none")
    elif kamikaze.get("seat"):
        ui.label(_("The kamikaze {name} picks one of those who voted against him.").format(
            name=view.name_of(int(kamikaze["seat"])))).classes("text-lg")


def _speech(view: GameView) -> None:
    _, p, me = view.page.t, view.p, view.me
    speaker = int(p.get("speaker") or 0)
    phase = p["phase"]
    if speaker:
        if phase == "last_words":
            text = _("Last words: {name}")
        elif phase == "defence":
            text = _("Defence: {name}")
        else:
            text = _("Now speaking: {name}")
        testid(ui.label(text.format(name=view.name_of(speaker))).classes("mafia-big"), "speaker")
    queue = [int(s) for s in p.get("queue", [])]
    if queue:
        ui.label(_("Next: {names}").format(names=_.join(view.name_of(s) for s in queue))).classes("mafia-muted")
    nominees = [int(target) for _by, target in p.get("nominations", [])]
    if nominees:
        testid(ui.label(_("Nominated: {names}").format(names=_.join(view.name_of(s) for s in nominees))), "nominees")
    if me is None:
        return
    seat = int(me["seat"])
    nominate = view.action("nominate")
    if nominate is not None:
        targets = [int(t) for t in nominate.get("targets", [])]
        choice = view.pending()
        choice.act = "nominate"
        ui.label(_("You may nominate one player for the vote.")).classes("text-lg")

        def pick(target: int) -> None:
            choice.target = target
            view.panel.refresh()

        view.target_grid([int(s) for s in p.get("alive", [])], targets, choice.target, pick, mark="nominate")
        if choice.target in targets:
            target = choice.target
            testid(ui.button(_("Nominate {name}").format(name=view.name_of(int(target))), icon="gavel",
                             on_click=lambda: view.send(Nominate(seat, target))).classes("w-full mafia-target"),
                   "confirm")
    if view.action("end_speech"):
        testid(ui.button(_("End my speech"), icon="stop", on_click=lambda: view.send(EndSpeech(seat))).classes(
            "w-full mafia-target"), "end-speech")


def _eliminate_all(view: GameView) -> None:
    _, p = view.page.t, view.p
    candidates = [int(s) for s in p.get("candidates", [])]
    ui.label(_("Eliminate all of them: {names}?").format(names=_.join(view.name_of(s) for s in candidates))).classes(
        "text-lg")
    if view.action("eliminate_all") and view.me is not None:
        seat = int(view.me["seat"])
        with ui.row().classes("w-full no-wrap gap-2"):
            testid(ui.button(_("Yes"), on_click=lambda: view.send(EliminateAll(seat, True))).classes(
                "grow mafia-target"), "yes")
            testid(ui.button(_("No"), on_click=lambda: view.send(EliminateAll(seat, False))).props(
                "outline").classes("grow mafia-target"), "no")
    view.status()  # yes_count()


def yes_count(view: GameView) -> None:
    _, answers = view.page.t, view.p.get("yes_votes", {})
    yes = sum(1 for value in answers.values() if value)
    yes_text = _("Yes: {yes}, no: {no}").format(yes=_.number(yes), no=_.number(len(answers) - yes))
    testid(ui.label(yes_text), "yes-count")


def moderator_panel(view: GameView) -> None:
    """uk: the moderator gives fouls, 0.5 or 1, to a living player."""
    _, p = view.page.t, view.p
    action = view.action("foul")
    if action is None:
        return
    choice = view.pending()
    targets = [int(t) for t in action.get("targets", [])]
    with ui.card().classes("mafia-card"):
        ui.label(_("Fouls")).classes("font-bold")
        ui.label(_("At 2 fouls the speeches are 10 s shorter; at 3 the next speech is lost and a penalty vote "
                   "counts against him; at 4 he is removed.")).classes("text-sm mafia-muted")

        def pick(target: int) -> None:
            choice.act, choice.target = "foul", target
            view.panel.refresh()

        selected = choice.target if choice.act == "foul" else None
        view.target_grid(targets, targets, selected, pick, mark="foul")
        if selected in targets:
            target = int(selected)
            with ui.row().classes("w-full no-wrap gap-2"):
                for amount in action.get("amounts", [0.5, 1]):
                    testid(ui.button(_("Foul {amount}").format(amount=_.number(amount)),
                                     on_click=lambda _e, a=amount: view.send(Foul(target, a))).classes(
                        "grow mafia-target"), f"foul-amount-{amount}")
        fouls = {int(s): float(v) for s, v in p.get("fouls", {}).items() if v}
        for seat, count in sorted(fouls.items()):
            ui.label(_("{name}: {count}").format(name=view.name_of(seat), count=_.number(count)))

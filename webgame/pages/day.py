"""The day screens: uz discussion and vote (with the kamikaze's pick); uk last words, speeches with
nominations, defence, the vote, the re-vote and the eliminate-all vote; the moderator's fouls."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.actions import (
    Action,
    EliminateAll,
    EndSpeech,
    Foul,
    KamikazePick,
    Nominate,
    Ready,
    SendOff,
    Vote,
    WithdrawFoul,
)
from engine.view_types import Offer
from webgame.pages import best_move_part, wording

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen as GameView, PendingChoice
    from webgame.pages.screen import Draft, ScreenSection


def render(view: GameView, d: Draft) -> None:
    """The day's panel. Nothing on it depends on the role (votes, nominations and speeches are public); the
    step's buttons and the reveal of the role card are in the bar at the bottom of the screen."""
    _, p, me = view.page.t, view.p, view.me
    phase = p["phase"]
    buttons: list[Callable[[], None]] = []  # what goes into the bar, drawn after the panel
    with d.card("mafia-card"):
        view.role_card(d)
        if me is not None and not me["alive"] and phase != "kamikaze":
            d.label(_("You are dead: you watch, and talk only with the dead."), "text-lg")
        if phase == "discussion":
            _discussion(view, d, buttons)
        elif phase == "vote":
            _vote(view, d, buttons)
        elif phase == "kamikaze":
            _kamikaze(view, d, buttons)
        elif phase in ("speeches", "defence", "last_words"):
            _speech(view, d, buttons)
            best_move_part.draw(view, d, buttons)  # uk, day 2: the first night's dead names his black
        elif phase == "eliminate_all":
            _eliminate_all(view, d, buttons)
    if me is not None:
        with d.bar():
            view.reveal_button(d)
            for button in buttons:
                button()


def _discussion(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
    _ = view.page.t
    d.label(_("Talk it over. The vote starts when everyone is ready or the time is up."), "text-lg")
    d.slot()  # ready_count()
    if view.action("ready") and view.me is not None:
        seat = int(view.me["seat"])
        buttons.append(lambda: d.button(_("I'm ready to vote"), lambda: view.send(Ready(seat)), "ready",
                                        cls="mafia-target", icon="how_to_vote"))
    elif view.me is not None and view.me["alive"]:
        d.label(_("You are ready. Waiting for the others."), "mafia-muted")


def ready_count(view: GameView, d: Draft) -> None:
    _, p = view.page.t, view.p
    ready, living = len(p.get("ready", [])), len(p.get("alive", []))
    d.label(_("Ready to vote: {count} of {total}.").format(count=_.number(ready), total=_.number(living)),
            tid="ready-count")


def _vote(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
    _, p, me = view.page.t, view.p, view.me
    action = view.action("vote")
    if p["rules"] == "uk" and int(p.get("vote_round", 1)) > 1:
        d.label(_("The re-vote between the tied players."), "font-bold")
    if action is not None and me is not None:
        seat = int(me["seat"])
        targets = [int(t) for t in action.get("targets", [])]
        if p["rules"] == "uz":
            d.label(_("Vote for the player to eliminate, or abstain."), "text-lg")
            shown = [int(s) for s in p.get("alive", [])]
        else:
            d.label(_("Vote for one of the nominees."), "text-lg")
            shown = [int(s) for s in p.get("candidates", [])]
        group = view.pick_group("vote")
        view.pick_grid(d, group, shown, targets, mark="vote")  # picked in the browser; Confirm sends the pick
        d.chosen(_("You chose {name}."), group, "chosen", before=_("Tap a player, then confirm."))

        def bar() -> None:
            if action.get("none"):
                d.button(_("Abstain"), lambda: view.send(Vote(seat, None)), "abstain", cls="mafia-target",
                         outline=True)
            d.button(_("Confirm"), lambda target: view.send_pick(target, lambda picked: Vote(seat, picked)),
                     "confirm", cls="mafia-target", icon="check", group=group)

        buttons.append(bar)
    elif me is not None and me["alive"]:
        d.label(_("Your vote is cast."), "text-lg", "voted")
    d.slot()  # tally()


def tally(view: GameView, d: Draft) -> None:
    """The live tally: who votes for whom, and how many have not voted yet."""
    _, p = view.page.t, view.p
    votes = p.get("votes", {})
    by_target: dict[int | None, list[int]] = defaultdict(list)
    for voter, target in votes.items():
        by_target[int(target) if target is not None else None].append(int(voter))
    d.label(_("Votes"), "font-bold mt-2")
    for target, voters in sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0] or 0)):
        names = _.join(view.name_of(v) for v in sorted(voters))
        if target is None:
            d.label(_("Abstained: {names}").format(names=names))
        else:
            d.label(_("{name}: {count} ({names})").format(name=view.name_of(target), count=_.number(len(voters)),
                                                          names=names), tid="tally")
    for seat in p.get("penalties", []):  # the 3-foul penalty vote counts in this round
        d.label(wording.penalty_text(_, view.name_of(int(seat))), "font-bold", "penalty")
    missing = len(p.get("alive", [])) - len(votes)
    d.label(_.ngettext("{count} has not voted yet.", "{count} have not voted yet.", missing).format(
        count=_.number(missing)), "mafia-muted")


def _kamikaze(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
    _, p = view.page.t, view.p
    action = view.action("kamikaze_pick")
    kamikaze = p.get("kamikaze")
    if action is not None and view.me is not None:
        seat = int(view.me["seat"])
        d.label(_("You were voted out. Pick one of those who voted against you to take along."), "text-lg")
        targets = [int(t) for t in action.get("targets", [])]
        view.target_grid(d, targets, targets, None, lambda target: view.send(KamikazePick(seat, target)),
                         mark="pick")
        buttons.append(lambda: d.button(_("Nobody"), lambda: view.send(KamikazePick(seat, None)), "pick-none",
                                        cls="mafia-target", outline=True))
    elif kamikaze is not None and kamikaze["seat"]:
        d.label(_("The kamikaze {name} picks one of the players who voted for the elimination.").format(
            name=view.name_of(int(kamikaze["seat"]))), "text-lg")


def _speech(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
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
        d.label(text.format(name=view.name_of(speaker)), "mafia-big", "speaker")
    queue = [int(s) for s in p.get("queue", [])]
    if queue:
        d.label(_("Next: {names}").format(names=_.join(view.name_of(s) for s in queue)), "mafia-muted")
    nominees = [int(target) for _by, target in p.get("nominations", [])]
    if nominees:
        d.label(_("Nominated: {names}").format(names=_.join(view.name_of(s) for s in nominees)), tid="nominees")
    if me is None:
        return
    seat = int(me["seat"])
    nominate = view.action("nominate")
    if nominate is not None:
        targets = [int(t) for t in nominate.get("targets", [])]
        d.label(_("You may nominate one player for the vote."), "text-lg")
        group = view.pick_group("nominate")
        view.pick_grid(d, group, [int(s) for s in p.get("alive", [])], targets, mark="nominate")
        # Drawn once a player is picked, with his number (the browser's, as the pick).
        buttons.append(lambda: d.button(_("Nominate {number}"), lambda target: view.send_pick(
            target, lambda picked: Nominate(seat, picked)), "confirm", cls="mafia-target", icon="gavel", group=group))
    if view.action("end_speech"):
        buttons.append(lambda: d.button(_("End my speech"), lambda: view.send(EndSpeech(seat)), "end-speech",
                                        cls="mafia-target", icon="stop"))


def _eliminate_all(view: GameView, d: Draft, buttons: list[Callable[[], None]]) -> None:
    _, p = view.page.t, view.p
    candidates = [int(s) for s in p.get("candidates", [])]
    d.label(_("Eliminate all of them: {names}?").format(names=_.join(view.name_of(s) for s in candidates)),
            "text-lg")
    if view.action("eliminate_all") and view.me is not None:
        seat = int(view.me["seat"])
        def bar() -> None:
            d.button(_("Yes"), lambda: view.send(EliminateAll(seat, True)), "yes", cls="mafia-target")
            d.button(_("No"), lambda: view.send(EliminateAll(seat, False)), "no", cls="mafia-target", outline=True)

        buttons.append(bar)
    d.slot()  # yes_count()


def yes_count(view: GameView, d: Draft) -> None:
    _, answers = view.page.t, view.p.get("yes_votes", {})
    yes = sum(1 for value in answers.values() if value)
    d.label(_("Yes: {yes}, no: {no}").format(yes=_.number(yes), no=_.number(len(answers) - yes)), tid="yes-count")


def moderator_panel(view: GameView, d: Draft, own_choice: PendingChoice | None = None) -> None:
    """uk: the moderator gives fouls (0.5 or 1; 2 at once at night, for gestures or sounds), takes the last one
    back, or sends a player from the table. The foul that removes a player, and a send-off, ask first.
    ``own_choice``: a player holding a gone moderator's controls (``webgame.room.host_watch``): the card sits in the
    third part, under his own seat's panel, with this choice (not his seat's pick) and no bar of its own."""
    _, p = view.page.t, view.p
    action = view.action("foul")
    if action is None:
        return
    withdraw: Offer = view.action("withdraw_foul") or {"type": "withdraw_foul"}
    send_off: Offer = view.action("send_off") or {"type": "send_off"}
    pinned = own_choice is None
    choice = view.pending() if own_choice is None else own_choice
    part = view.page.seats_or_panel if pinned else view.page.settings_or_record
    targets = [int(t) for t in action.get("targets", [])]
    with d.card("mafia-card"):
        d.label(_("Fouls"), "font-bold")

        def pick(target: int) -> None:
            choice.act, choice.target = "foul", target
            part.refresh()

        selected = choice.target if choice.act.startswith(("foul", "confirm:")) else None
        fouls = {int(s): float(v) for s, v in p.get("fouls", {}).items() if v}
        counts = {seat: _("Fouls: {count}").format(count=_.number(fouls.get(seat, 0))) for seat in targets}
        view.target_grid(d, targets, targets, selected, pick, mark="foul", notes=counts)  # counts on the tiles
        if selected in targets:
            target = int(selected)
            with d.bar() if pinned else d.div("w-full"):  # pinned: in the first screen whatever the table's size
                if choice.act.startswith("confirm:"):
                    _confirm(view, d, choice, target, part)
                else:
                    _foul_buttons(view, d, choice, target, action, withdraw, send_off, part)
        # Under the grid: the grid stays in the moderator's first screenful.
        d.label(_("At 2 fouls a player's speeches are 10 s shorter; at 3 the next speech is lost and a penalty vote "
                  "counts in the next vote; at 4 the player leaves the game."), "text-sm mafia-muted")


async def _give(view: GameView, choice: PendingChoice, part: ScreenSection, action: Action) -> None:
    """The moderator's action; once it is taken, no player is selected any more (a second foul is two taps
    away, never one), and the part shows it."""
    if await view.send(action):
        choice.act, choice.target = "foul", None
        part.refresh()


def _foul_buttons(view: GameView, d: Draft, choice: PendingChoice, target: int, action: Offer,
                  withdraw: Offer, send_off: Offer, part: ScreenSection) -> None:
    _ = view.page.t
    removes = float((action.get("removes") or {}).get(str(target), 4))

    def ask(what: str) -> None:
        choice.act = f"confirm:{what}"
        part.refresh()

    with d.row("w-full no-wrap gap-2"):
        for amount in action.get("amounts", [0.5, 1]):
            label = _("Foul {amount}").format(amount=_.number(amount))
            if float(amount) >= removes:  # this one removes him: asked first
                d.button(label, lambda a=amount: ask(f"foul:{a}"), f"foul-amount-{amount}", cls="grow mafia-target",
                         color="negative")
            else:
                d.button(label, lambda a=amount: _give(view, choice, part, Foul(target, a)),
                         f"foul-amount-{amount}", cls="grow mafia-target")
    last = (withdraw.get("last") or {}).get(str(target))
    with d.row("w-full no-wrap gap-2"):
        if target in withdraw.get("targets", []) and last is not None:
            d.button(_("Withdraw {amount}").format(amount=_.number(float(last))),  # the last foul given
                     lambda: _give(view, choice, part, WithdrawFoul(target)), "withdraw-foul",
                     cls="grow mafia-target", outline=True, icon="undo")
        if target in send_off.get("targets", []):
            d.button(_("Send off"), lambda: ask("send_off"), "send-off", cls="grow mafia-target",
                     outline=True, color="negative", icon="logout")


def _confirm(view: GameView, d: Draft, choice: PendingChoice, target: int, part: ScreenSection) -> None:
    """The question before a player leaves the game: the removing foul, or a send-off."""
    _ = view.page.t
    name = view.name_of(target)
    what = str(choice.act).split(":")
    if what[1] == "foul":
        amount = float(what[2]) if len(what) > 2 else 1.0
        amount_value: float | int = int(amount) if amount.is_integer() else amount
        d.label(_("This foul removes {name} from the game at once, with no last words. Give it?").format(name=name),
                "text-lg", "confirm-text")
        yes: Action = Foul(target, amount_value)
    else:
        d.label(_("Send {name} from the table? The player leaves the game at once, silently.").format(name=name),
                "text-lg", "confirm-text")
        yes = SendOff(target)

    def cancel() -> None:
        choice.act = "foul"
        part.refresh()

    with d.row("w-full no-wrap gap-2"):
        d.button(_("Yes"), lambda: _give(view, choice, part, yes), "confirm-yes", cls="grow mafia-target",
                 color="negative")
        d.button(_("Cancel"), cancel, "confirm-cancel", cls="grow mafia-target", outline=True)

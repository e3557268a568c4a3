"""What the uk moderator sees at night (he knows every role): who has not chosen yet, each choice as it is
made, and what the night would bring if it ended now. Drawn from the moderator's own projection
(``engine.view.moderator_night``); the night screen calls ``moderator_night`` for a moderator's page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.view_types import EventRecord, ModeratorNight, ModeratorPick
from webgame.pages import wording

if TYPE_CHECKING:
    from webgame.pages.page_protocols import GameScreen as GameView
    from webgame.pages.screen import Draft


def moderator_night(view: GameView, d: Draft) -> None:
    """The moderator's night card; nothing for anyone else, or by day."""
    _, p = view.page.t, view.p
    night: ModeratorNight | None = p.get("moderator_night")
    if not night:
        return
    rules = str(p.get("rules", ""))
    with d.card("mafia-card"):
        d.label(_("The night, as the moderator sees it"), "font-bold")
        waiting = [int(s) for s in night.get("waiting", [])]
        if waiting:
            d.label(_("Still choosing: {names}").format(names=_.join(view.name_of(s) for s in waiting)),
                    tid="mod-waiting")
        else:
            d.label(_("Everyone has chosen."), tid="mod-waiting")
        picks = [line for line in (_pick(view, rules, pick) for pick in night.get("picks", [])) if line]
        if picks:
            for line in picks:
                d.label(line, "text-sm", "mod-pick")
        else:
            d.label(_("No choices yet."), "text-sm mafia-muted")
        d.label(_("If the night ended now:"), "font-bold mt-2")
        outcome = [line for line in (_outcome(view, rules, event) for event in night.get("outcome", [])) if line]
        if not any(event.get("type") == "death" for event in night.get("outcome", [])):
            outcome.insert(0, _("Nobody would die tonight."))
        for line in outcome:
            d.label(line, "text-sm", "mod-outcome")


def _pick(view: GameView, rules: str, pick: ModeratorPick) -> str | None:
    _, target = view.page.t, pick["target"]
    if pick["act"] == "suggest" and target:
        return _("{name} suggests {target}.").format(name=view.name_of(pick["seat"]), target=view.name_of(target))
    return wording.timeline_text(_, rules, {**pick, "type": "choice"}, view.name_of)


def _outcome(view: GameView, rules: str, event: EventRecord) -> str | None:
    _ = view.page.t
    if event.get("type") == "frozen":  # told to the frozen player as "you"; the moderator reads a name
        return _("{name} is frozen tonight.").format(name=view.name_of(int(event["seat"])))
    return wording.timeline_text(_, rules, event, view.name_of)

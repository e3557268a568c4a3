"""The news as sentences: what a viewer may read of the game, the last night and day apart from before.

Made only from a projection (``webgame.room.projection.Projection``): its view (rule set, day, phase) and the
events the engine lets this viewer read, in order. Shared by the phones (``game_view``) and the TV.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.view_types import PublicView
from webgame.language.i18n import Translator
from webgame.pages import wording
from webgame.room.projection import DatedEvent

NewsLine = tuple[str, bool]  # a sentence, and whether only some seats were told it (shown behind the reveal)


def half_of(rules: str, day_number: int, phase: str) -> int:
    """Orders nights and days: uz plays night N then day N, uk day N then night N."""
    is_night = phase == "night"
    if rules == "uz":
        return 2 * day_number + (0 if is_night else 1)
    return 2 * day_number + (1 if is_night else 0)


RESULT_EVENTS = ("vote_result", "eliminate_all_result")


def day_result(_: Translator, view: PublicView, events: list[DatedEvent],
               name_of: Callable[[int], str]) -> list[str]:
    """The day's result as the night after it starts (issue 27: the moment that matters, first on every phone):
    the last vote's outcome and who it sent out, his role as the rules say; nothing when the day just before had
    no vote. Public sentences only, the same on every phone."""
    rules, day, phase_now = view["rules"], view["day"], view["phase"]
    if phase_now != "night":
        return []
    now = half_of(rules, day, phase_now)
    last = max((index for index, (_day, _phase, event) in enumerate(events)
                if event.get("type") in RESULT_EVENTS and not event.get("private")), default=None)
    if last is None or half_of(rules, events[last][0], events[last][1]) != now - 1:
        return []
    lines: list[str] = []
    for _day, phase, event in events[last:]:
        if phase == "night" or event.get("private") or event.get("type") not in (*RESULT_EVENTS, "death"):
            continue
        text = wording.event_text(_, rules, event, name_of, 0, phase)
        if text:
            lines.append(text)
    return lines


def news_lines(_: Translator, view: PublicView, events: list[DatedEvent], name_of: Callable[[int], str],
               me: int) -> tuple[list[NewsLine], list[NewsLine]]:
    """What this viewer may read, as sentences: (the last night and day, everything before)."""
    rules, day, phase_now = view["rules"], view["day"], view["phase"]
    now = half_of(rules, day, phase_now)
    recent: list[NewsLine] = []
    older: list[NewsLine] = []
    night_deaths = False
    for event_day, phase, event in events:
        text = wording.event_text(_, rules, event, name_of, me, phase)
        if text is None:
            continue
        is_recent = half_of(rules, event_day, phase) >= now - 1
        night_deaths = night_deaths or (is_recent and phase == "night" and event.get("type") == "death")
        (recent if is_recent else older).append((text, bool(event.get("private"))))
    after_a_night = rules == "uz" or day > 1
    if phase_now not in ("night", "ended") and after_a_night and not night_deaths:
        recent.insert(0, (_("Nobody died last night."), False))
    return recent, older

"""The TV's larger parts, drawn from the spectator's projection: the step's progress without names, the vote as
bars, and after the game the winner, every role and the timeline (each line once, in columns of the screen's
height: the columns past its width are pages that ``static/tv.js`` turns by itself)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby

from nicegui import ui

from engine.view_types import EventRecord, View
from webgame.language.i18n import Translator
from webgame.pages import wording
from webgame.pages.components import testid

Meter = tuple[ui.label, ui.element]  # the progress line and its bar's fill, as drawn (``progress``, ``set_meter``)


def meter(_: Translator, p: View) -> tuple[str, float] | None:
    """The step's progress as a line and a share of the living (None when the step has no count: speeches)."""
    living = len(p.get("alive", []))
    phase = p.get("phase")
    if phase == "night":
        done, text = living - int(p.get("waiting") or 0), _("Chosen: {done} of {living}")
    elif phase == "discussion":
        done, text = len(p.get("ready") or []), _("Ready: {done} of {living}")
    elif phase == "vote":
        done, text = len(p.get("votes") or {}), _("Voted: {done} of {living}")
    elif phase == "eliminate_all":
        done, text = len(p.get("yes_votes") or {}), _("Voted: {done} of {living}")
    else:
        return None
    return text.format(done=_.number(done), living=_.number(living)), done / max(1, living)


def progress(_: Translator, p: View, name_of: Callable[[int], str]) -> Meter | None:
    """The step's progress without names: how many have chosen at night, are ready, have voted; its line and bar
    (``set_meter`` changes them in place), or None (the speaker, the best moves)."""
    shown = meter(_, p)
    if shown is None:
        if p.get("speaker"):
            ui.label(_("Now speaking: {name}").format(name=name_of(int(p["speaker"])))).classes(
                "mafia-tv-progress")
        best_moves(_, p, name_of)
        return None
    with ui.element("div").classes("mafia-tv-meter"):
        line = testid(ui.label(shown[0]).classes("mafia-tv-progress"), "progress")
        with ui.element("div").classes("mafia-bar-track"):
            fill = ui.element("div").classes("mafia-bar-fill").style(_width(shown[1]))
    return line, fill


def set_meter(drawn: Meter, shown: tuple[str, float]) -> None:
    """The progress drawn by ``progress``, its line and bar set to ``shown`` (no element made again)."""
    line, fill = drawn
    line.set_text(shown[0])
    fill.style(replace=_width(shown[1]))


def _width(share: float) -> str:
    return f"width: {100 * share:.0f}%"

def best_moves(_: Translator, p: View, name_of: Callable[[int], str]) -> None:
    """uk, day 2's last words and speeches: the best moves of the first night's dead, once made (issue 30)."""
    if p.get("rules") != "uk" or int(p.get("day") or 0) != 2 or p.get("phase") not in ("last_words", "speeches"):
        return
    for seat, targets in sorted((p.get("best_moves") or {}).items(), key=lambda item: int(item[0])):
        text = _(wording.BEST_MOVE).format(name=name_of(int(seat)), named=_.join(name_of(int(t)) for t in targets))
        testid(ui.label(text).classes("mafia-tv-progress font-bold"), "tv-best-move")


def tally(_: Translator, p: View, name_of: Callable[[int], str]) -> None:
    """The vote as a bar per candidate, with its count (uk: every candidate; uz: whoever has a vote)."""
    votes = p.get("votes") or {}
    if p.get("phase") != "vote" or not isinstance(votes, dict):
        return
    counts: dict[int, int] = {int(c): 0 for c in p.get("candidates") or []}
    for target in votes.values():
        if target is not None:
            counts[int(target)] = counts.get(int(target), 0) + 1
    if not counts:
        return
    living = max(1, len(p.get("alive", [])))
    with ui.element("div").classes("mafia-tally"):
        for target, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            with ui.element("div").classes("mafia-tally-row"):
                line = _("{name}: {count}").format(name=name_of(target), count=_.number(count))
                testid(ui.label(line).classes("mafia-tally-name"), "tally")
                with ui.element("div").classes("mafia-bar-track"):
                    ui.element("div").classes("mafia-bar-fill").style(f"width: {100 * count / living:.0f}%")
    penalties = p.get("penalties") or []
    for seat in penalties if isinstance(penalties, list) else []:  # the 3-foul penalty vote, this round
        testid(ui.label(wording.penalty_text(_, name_of(int(seat)))).classes("mafia-tally-name"), "penalty")


def ended(_: Translator, p: View, name_of: Callable[[int], str]) -> None:
    winner = str(p.get("winner") or "draw")
    testid(ui.label(_(wording.WINNERS.get(winner, wording.WINNERS["draw"]))).classes("mafia-winner"), "winner")
    roles(_, p, name_of)
    timeline(_, p, name_of)

def roles(_: Translator, p: View, name_of: Callable[[int], str]) -> None:
    alive = {int(s) for s in p.get("alive", [])}
    roles = {int(seat): str(role) for seat, role in p.get("roles", {}).items()}
    with ui.element("div").classes("mafia-roles"):
        for seat in sorted(roles):
            with ui.element("div").classes("mafia-role-line" + ("" if seat in alive else " mafia-dead")):
                ui.label(name_of(seat)).classes("mafia-name")
                ui.label(wording.role_name(_, str(p["rules"]), roles[seat])).classes("font-bold")

def timeline(_: Translator, p: View, name_of: Callable[[int], str]) -> None:
    """Night by night, each line once, in type readable from 3 m (at least 24 px on a 1080p TV), in pages."""
    timeline = once(p.get("timeline") or [])
    if not timeline:
        return
    with ui.element("div").classes("mafia-tv-timeline-head"):
        ui.label(_("What happened")).classes("mafia-timeline-title")
        ui.element("div").classes("mafia-tv-dots").props["data-tv-page-dots"] = "1"  # tv.js: which page is shown
    pager = ui.element("div").classes("mafia-tv-pager")
    pager.props["data-tv-pages"] = "1"  # tv.js: the columns past its width are pages, shown in turn
    with pager, ui.element("div").classes("mafia-timeline"):
        for (day, night), items in groupby(timeline, key=lambda item: (int(item["day"]), item["phase"] == "night")):
            title = _("Night {day}") if night else _("Day {day}")
            with ui.element("div").classes("mafia-timeline-part"):
                ui.label(title.format(day=_.number(day))).classes("font-bold")
                seen: set[str] = set()
                for item in items:
                    text = wording.timeline_text(_, str(p["rules"]), item, name_of)
                    if text and text not in seen:
                        seen.add(text)
                        testid(ui.label(text), "timeline")


def once(timeline: list[EventRecord]) -> list[EventRecord]:
    """The timeline without a vote's result when the death by that vote follows ("... was voted out" says it)."""
    voted_out = {(int(i["day"]), int(i["seat"])) for i in timeline
                 if i.get("type") == "death" and i.get("cause") == "vote"}
    return [item for item in timeline if not (item.get("type") == "vote_result" and item.get("eliminated")
                                              and (int(item["day"]), int(item["eliminated"])) in voted_out)]

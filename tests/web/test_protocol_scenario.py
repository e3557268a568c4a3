"""The protocol of a scripted uk game matches its scenario line by line (issue 30): the game of
``tests/scenarios/uk-protocol-twelve-to-the-end.json`` (fouls between steps and inside days, nominations, every
vote, the commissar's note, a best move, red wins) is played through a moderated room's door, each action by its
own seat's token (the fouls by the moderator's, the clock by the host's "End now"); its protocol, read back from
the database, then holds the scenario's lines in its order and its seats, fouls, removals and points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.actions import MODERATOR_ACTIONS, Deadline
from engine.scenario import run
from webgame.evening.protocol import Protocol, lines, load_protocol
from webgame.language.i18n import translator
from webgame.pages import protocol as protocol_page, wording
from webgame.room import rooms
from webgame.room.rooms import Stage
from webgame.store import queries as store

from .conftest import FakeTime
from .helpers import seat_directly

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "uk-protocol-twelve-to-the-end.json"
Line = tuple[Any, ...]


def scenario_lines(data: dict[str, Any]) -> list[list[Line]]:
    """Per step of the scenario, the protocol's lines it must give: what the step says (its fouls, best move,
    nominations and fouls in their places, each voting round; a night's choices, by seat), then what its replay
    says happened (deaths, checks, the note), in that order."""
    said = run(data).as_dict()["steps"]
    out: list[list[Line]] = []
    for step, result in zip(data["steps"], said, strict=True):
        lines: list[Line] = []
        if "foul" in step:
            lines.append(("foul", step["foul"]["seat"], float(step["foul"]["amount"])))
        elif "night" in step:
            lines += sorted(("act", a["seat"], a["act"], a.get("target"), bool(a.get("note")))
                            for a in step["night"])
        else:
            day = step["day"]
            if "best_move" in day:
                lines.append(("best_move", day["best_move"]["seat"], tuple(day["best_move"]["targets"])))
            fouls = day.get("fouls", [])
            for by, target in day.get("nominations", []):
                lines.append(("nomination", by, target))
                lines += [("foul", f["seat"], float(f["amount"])) for f in fouls if f["after"] == by]
            lines += [("foul", f["seat"], float(f["amount"])) for f in fouls if f["after"] == "speeches"]
            for number, votes in enumerate(day.get("votes", [])):
                lines.append(("votes", tuple(sorted((int(v), t) for v, t in votes.items()))))
                if number == 0:
                    lines += [("foul", f["seat"], float(f["amount"])) for f in fouls if f["after"] == "vote"]
        lines += [event_line(event) for event in result["events"]]
        out.append(lines)
    return out


def event_line(event: dict[str, Any]) -> Line:
    kind = event["type"]
    if kind == "death":
        return ("death", event["seat"], event["cause"])
    return (kind, event["seat"], event["target"], event["result"])  # a check, the note


def protocol_lines(protocol: Protocol) -> list[Line]:
    out: list[Line] = []
    for line in protocol.lines:
        p = line.params
        if line.kind == "act":
            out.append(("act", p["seat"], p["act"], p.get("target"), bool(p.get("note"))))
        elif line.kind == "foul":
            out.append(("foul", p["seat"], float(p["amount"])))
        elif line.kind == "nomination":
            out.append(("nomination", p["seat"], p["target"]))
        elif line.kind == "vote_result":
            out.append(("votes", tuple(sorted((int(v), t) for v, t in p["votes"].items()))))
        elif line.kind == "best_move":
            out.append(("best_move", p["seat"], tuple(p["targets"])))
        elif line.kind == "death":
            out.append(("death", p["seat"], p["cause"]))
        else:
            out.append((line.kind, p["seat"], p["target"], p["result"]))
    return out


async def test_the_protocol_of_a_scripted_uk_game_matches_its_scenario_line_by_line(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(SCENARIO.read_text("utf-8"))
    script = run(data)
    assert script.state is not None and script.error is None
    token = store.new_seat_token()
    room = await rooms.registry.create(token=token, name="Moderator", rules="uk", language="uk")
    moderator = store.hash_token(token)
    await room.set_moderated(moderator, True)
    await room.set_option(moderator, "best_move", True)
    await room.set_option(moderator, "result_hold", 0)
    names = ["Оксана", "Богдан", "Ярина", "Тарас", "Марічка", "Остап", "Соломія", "Назар", "Дарина", "Влад",
             "Ірина", "Андрій"]
    await seat_directly(room, names)
    monkeypatch.setattr(rooms.secrets, "randbelow", lambda _n: int(data["seed"]))  # the scenario's deal
    await room.start(moderator)
    state = room.state
    assert state is not None and [str(r) for r in state.roles] == data["roles"]
    hashes = [info.token_hash for info in room.seating]
    for action in script.state.log:  # every action through the room's door, by whoever makes it at a table
        if isinstance(action, Deadline):
            await room.skip(moderator, action.step)
        elif isinstance(action, MODERATOR_ACTIONS):
            await room.act(moderator, action)
        else:
            await room.act(hashes[action.seat - 1], action)
    assert room.stage is Stage.FINISHED and state.winner == "red"

    protocol = await load_protocol(room.id, 1)
    assert protocol is not None
    expected = [line for step in scenario_lines(data) for line in step]
    assert protocol_lines(protocol) == expected
    assert protocol.winner == data["expect"]["winner"]
    assert [(s.seat, s.name, s.role) for s in protocol.seats] == [
        (seat, name, role) for seat, (name, role) in enumerate(zip(names, data["roles"], strict=True), 1)]
    fouls: dict[int, float] = {}
    for step in data["steps"]:
        for foul in [step["foul"]] if "foul" in step else step.get("day", {}).get("fouls", []):
            fouls[foul["seat"]] = fouls.get(foul["seat"], 0.0) + float(foul["amount"])
    assert {s.seat: s.fouls for s in protocol.seats if s.fouls} == fouls
    deaths = {line[1]: line[2] for line in expected if line[0] == "death"}
    assert {s.seat: s.removed for s in protocol.seats if s.removed} == deaths
    black = {"don", "mafia", "courtesan"}
    best = data["steps"][3]["day"]["best_move"]
    named_black = sum(1 for t in best["targets"] if data["roles"][t - 1] in black)
    assert named_black == 2
    assert {s.seat: s.points for s in protocol.seats} == {
        seat: (0.0 if role in black else 1.0) + (0.25 if seat == best["seat"] else 0.0)
        for seat, role in enumerate(data["roles"], 1)}

    _ = translator("uk")  # every line is worded for the reader, none left out
    rows = protocol_page.line_rows(_, protocol)
    assert len(rows) == len(protocol.lines)
    assert not any("вас" in text.split() for _when, text in rows)  # no line worded for one player ("you were ...")
    votes = [text for _when, text in rows if "голосування" in text and "За " in text]
    for text, day in zip(votes, (data["steps"][0]["day"], data["steps"][3]["day"]), strict=True):
        by_target: dict[int, list[int]] = {}
        for voter, target in day["votes"][0].items():
            by_target.setdefault(target, []).append(int(voter))
        for target, voters in by_target.items():  # every vote of the round, by the voters' numbers
            assert f"За {target}. {names[target - 1]}: {', '.join(map(str, sorted(voters)))}." in text


def test_a_freeze_is_told_once_by_its_night_choice_never_as_the_frozen_players_own_line() -> None:
    """The engine tells a frozen player "you were frozen" (his own news); a protocol says it in the frozen act's
    line ("frozen by the courtesan: it did not happen"), in the third person."""
    data = json.loads((SCENARIO.parent / "uk-courtesan-freezes-commissar-note-kept.json").read_text("utf-8"))
    state = run(data).state
    assert state is not None and any(event.type == "frozen" for event in state.events)
    found = lines(state)
    assert not any(line.kind == "frozen" for line in found)
    assert any(line.kind == "act" and line.params.get("blocked") for line in found)
    _ = translator("en")
    texts = [wording.timeline_text(_, "uk", line.params, lambda seat: f"P{seat}") or "" for line in found]
    assert not any("You" in text or "your" in text for text in texts)

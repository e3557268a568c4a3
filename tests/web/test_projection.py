"""``Room.projection``: the one way out of a room to a screen. Each viewer gets his own share and nothing more:
his role and not the others' (a seat), no role (a spectator), every role (the moderator), the events the
engine lets him read, in order, and the chat lines of the channels he may read."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest

from engine.actions import Action, Deadline, NightAct
from engine.bots import Heuristic, Memory, next_actions
from engine.knowledge import MODERATOR, SPECTATOR, Viewer, known_roles, visible_events
from engine.state import Phase
from webgame.errors import Refusal
from webgame.room import rooms
from webgame.room.projection import Projection
from webgame.room.rooms import Room
from webgame.store import queries as store

from .conftest import FakeTime


async def seated_room(players: int, rules: str = "uz", moderated: bool = False,
                      seed: int = 7) -> tuple[Room, list[str]]:
    """A started room; the first token is the host's (the moderator's in a moderated room, else seat 1's)."""
    tokens = [store.new_seat_token() for _ in range(players + (1 if moderated else 0))]
    room = await rooms.registry.create(token=tokens[0], name="Host", rules=rules, language="en")
    host = store.hash_token(tokens[0])
    if rules == "uk":
        await room.set_player_limits(host, 8, 14)
    if moderated:
        await room.set_moderated(host, True)
    for index, token in enumerate(tokens[1:], 1):
        await room.join(token, f"Player {index}")
    randbelow = rooms.secrets.randbelow
    rooms.secrets.randbelow = lambda _n: seed  # one known deal
    try:
        await room.start(host)
    finally:
        rooms.secrets.randbelow = randbelow
    return room, [store.hash_token(token) for token in tokens]


def seat_hash(room: Room, seat: int) -> str:
    return room.seating[seat - 1].token_hash


def projected(room: Room, token_hash: str | None) -> Projection:
    projection = room.projection(token_hash)
    assert projection is not None
    return projection


async def test_there_is_no_projection_without_a_game(db: Path, fake_time: FakeTime) -> None:
    room = await rooms.registry.create(token=store.new_seat_token(), name="Host", rules="uz", language="en")
    assert room.projection(room.host_hash) is None and room.projection(None) is None
    assert room.seat_alive(room.host_hash) is None


async def test_a_seat_sees_its_own_role_and_a_spectator_none(db: Path, fake_time: FakeTime) -> None:
    room, _hashes = await seated_room(6)
    state = room.state
    assert state is not None
    civilians = [seat for seat in range(1, 7) if str(state.role(seat)) == "civilian"]
    mafia = [seat for seat in range(1, 7) if str(state.role(seat)) == "mafia"]
    assert len(civilians) == 2 and len(mafia) == 2
    for seat in range(1, 7):
        p = projected(room, seat_hash(room, seat))
        assert (p.viewer_kind, p.viewer_seat, p.alive_seat, p.seats) == ("seat", seat, True, 6)
        assert p.game_id == room.game_id and p.phase == "night" and p.step == state.step
        assert p.view["me"]["role"] == str(state.role(seat))
        assert p.view["roles"] == {str(s): r for s, r in known_roles(state, Viewer.of_seat(seat)).items()}
    assert projected(room, seat_hash(room, civilians[0])).view["roles"] == {str(civilians[0]): "civilian"}
    assert set(projected(room, seat_hash(room, mafia[0])).view["roles"]) == {str(s) for s in mafia}  # his team

    for outsider in (None, store.hash_token("not at this table")):
        p = projected(room, outsider)
        assert (p.viewer_kind, p.viewer_seat, p.alive_seat) == ("spectator", 0, False)
        assert p.view["roles"] == {} and p.view["me"] is None and p.view["actions"] == []
        assert room.seat_alive(outsider) is None


async def test_the_moderator_sees_every_role(db: Path, fake_time: FakeTime) -> None:
    room, hashes = await seated_room(12, rules="uk", moderated=True)
    assert room.state is not None
    p = projected(room, hashes[0])
    assert (p.viewer_kind, p.viewer_seat, p.alive_seat) == ("moderator", 0, False)
    assert p.view["roles"] == {str(seat): str(role) for seat, role in enumerate(room.state.roles, 1)}


async def test_events_are_the_engines_for_each_viewer_in_order(db: Path, fake_time: FakeTime) -> None:
    """A whole game played by the engine's bots: at every step each viewer's events are exactly what
    ``visible_events`` gives him, dated, in order (a night death without its cause, his own checks only)."""
    room, _hashes = await seated_room(7, seed=3)  # a deal whose commissar lives to read his checks
    memory = Memory()
    bot = Heuristic(random.Random(3), memory)
    seen_private = False
    for _ in range(300):
        state = room.state
        assert state is not None
        viewers = [(seat_hash(room, seat), Viewer.of_seat(seat)) for seat in range(1, state.n + 1)]
        for token_hash, viewer in [*viewers, (None, SPECTATOR)]:
            expected = [(int(e["day"]), str(e["phase"]), e) for e in visible_events(state, viewer)]
            p = projected(room, token_hash)
            assert p.events == expected
            assert p.alive_seat == (viewer.kind == "seat" and bool(state.alive[viewer.seat - 1]))
            playing = viewer.kind == "seat" and state.phase is not Phase.ENDED
            assert room.seat_alive(token_hash) == (p.alive_seat if playing else None)  # pages pad during a game
        seen_private = seen_private or any(
            len(projected(room, token_hash).events) > len(visible_events(state, SPECTATOR))
            for token_hash, _viewer in viewers)
        if state.phase is Phase.ENDED:
            break
        memory.update(state)
        moves: list[Action] = list(next_actions(state, bot)) or [Deadline(state.step)]
        if room.holding():  # the day's result on the screens (webgame.room.result_hold): the host ends it at once
            await room.skip(room.host_hash, state.step)
        for move in moves:
            if isinstance(move, Deadline):
                await room.expire(move.step, room.deadline or room.now())
            else:
                await room.act(seat_hash(room, move.seat), move)
    assert room.state is not None and room.state.phase is Phase.ENDED
    assert seen_private  # some viewer read something the spectator could not (a check, the mafia's choice)
    ended = projected(room, None)
    assert ended.events == [(int(e["day"]), str(e["phase"]), e) for e in visible_events(room.state, MODERATOR)]


async def test_chat_lines_reach_only_the_readers_of_their_channel(db: Path, fake_time: FakeTime) -> None:
    room, _hashes = await seated_room(6)
    state = room.state
    assert state is not None
    mafia = [seat for seat in range(1, 7) if str(state.role(seat)) == "mafia"]
    town = [seat for seat in range(1, 7) if seat not in mafia]
    await room.say(seat_hash(room, mafia[0]), "mafia", "the doctor first")
    with pytest.raises(Refusal):
        await room.say(seat_hash(room, town[0]), "room", "at night?")
    for seat in range(1, 7):
        await room.act(seat_hash(room, seat), NightAct(seat, "pass"))
    assert room.state is not None and room.state.phase is Phase.DISCUSSION
    version = room.version()
    await room.say(seat_hash(room, town[0]), "room", "good morning")
    assert room.version() != version  # what the pages' padding measures once per change

    def texts(token_hash: str | None) -> list[tuple[str, str]]:
        return [(line.channel, line.text) for line in projected(room, token_hash).chat]

    assert texts(seat_hash(room, mafia[1])) == [("mafia", "the doctor first"), ("room", "good morning")]
    for seat in town:
        assert texts(seat_hash(room, seat)) == [("room", "good morning")]
    assert texts(None) == [("room", "good morning")]
    assert [line.text for line in room.chat] == ["the doctor first", "good morning"]  # the room keeps both


async def test_a_projection_is_made_once_per_state_and_viewer_and_never_outlives_a_change(
        db: Path, fake_time: FakeTime) -> None:
    """The pages of one viewer, every spectator and the TV get the very same projection while the room does not
    change; an action, a chat line or the moderator's controls changing hands give a new one."""
    room, _hashes = await seated_room(6)
    state = room.state
    assert state is not None
    first = projected(room, seat_hash(room, 1))
    assert projected(room, seat_hash(room, 1)) is first  # the same state: not made again
    assert projected(room, None) is projected(room, "a token with no seat")  # every spectator shares one
    assert projected(room, seat_hash(room, 2)) is not first  # another viewer: his own
    await room.act(seat_hash(room, 1), NightAct(1, "pass"))
    after = projected(room, seat_hash(room, 1))
    assert after is not first and after.view["me"] is not None and after.view["me"]["done"]
    assert not first.view["me"] or not first.view["me"]["done"]  # what was made before is left as it was


async def test_a_chat_line_beyond_the_kept_ones_still_reaches_the_projection(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the room keeps only its last lines, a new line still changes the room's version, so no page is left
    with a projection made before it."""
    from webgame.room import chat

    monkeypatch.setattr(chat, "CHAT_KEPT", 3)
    room, _hashes = await seated_room(6)
    for seat in range(1, 7):
        await room.act(seat_hash(room, seat), NightAct(seat, "pass"))
    speaker = seat_hash(room, 1)
    for number in range(1, 6):
        version = room.version()
        await room.say(speaker, "room", f"line {number}")
        assert room.version() != version
        assert [line.text for line in projected(room, None).chat][-1] == f"line {number}"
        fake_time.advance(5)  # under the flood control
    assert [line.text for line in projected(room, speaker).chat] == ["line 3", "line 4", "line 5"]


async def test_a_public_value_that_did_not_change_is_the_same_object_in_the_next_state(
        db: Path, fake_time: FakeTime) -> None:
    """What the pages compare (``GameView.section_keys``) is found unchanged by identity; what changed is new,
    and every value is the engine's own (``engine.view.public_view`` of the state)."""
    from engine.view import public_view
    from engine.view_types import PublicView
    from webgame.room.table_game import kept_alike

    room, _hashes = await seated_room(6)
    before = projected(room, None).view
    await room.act(seat_hash(room, 1), NightAct(1, "pass"))
    after = projected(room, None).view
    assert after["alive"] is before["alive"] and after["rules"] is before["rules"]
    assert after["waiting"] == before["waiting"] - 1
    assert room.state is not None
    engine_public = public_view(room.state)
    assert {key: after[key] for key in engine_public} == engine_public  # type: ignore[literal-required]
    made = kept_alike(cast(PublicView, {**engine_public, "day": 1, "alive": [1, 2]}),
                      cast(PublicView, {**engine_public, "day": True}))
    assert made["day"] == 1 and type(made["day"]) is int  # equal but of another type: not kept
    assert made["alive"] == [1, 2] and made["rules"] is engine_public["rules"]


async def test_a_chat_line_makes_no_view_again_and_only_its_readers_get_it(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line in the mafia's channel: the town's seats and the spectators keep the very projection they had (their
    pages find nothing changed); a mafia seat gets the line with the same view (only his chat is new); no
    engine view is made for it. A room line then reaches every reader."""
    from webgame.room import table_game

    room, _hashes = await seated_room(6)
    state = room.state
    assert state is not None
    mafia = [seat for seat in range(1, 7) if str(state.role(seat)) == "mafia"]
    town = [seat for seat in range(1, 7) if seat not in mafia]
    viewers = [seat_hash(room, seat) for seat in range(1, 7)] + [None]
    before = {token: projected(room, token) for token in viewers}
    views = []
    real_view = table_game.view
    monkeypatch.setattr(table_game, "view", lambda *args: views.append(args) or real_view(*args))
    await room.say(seat_hash(room, mafia[0]), "mafia", "the doctor first")
    after = {token: projected(room, token) for token in viewers}
    assert views == []  # no view made again for a chat line
    for seat in town:
        assert after[seat_hash(room, seat)] is before[seat_hash(room, seat)]
    assert after[None] is before[None]
    for seat in mafia:
        mine = after[seat_hash(room, seat)]
        assert mine is not before[seat_hash(room, seat)] and mine.view is before[seat_hash(room, seat)].view
        assert [line.text for line in mine.chat] == ["the doctor first"]
    assert projected(room, seat_hash(room, mafia[0])) is after[seat_hash(room, mafia[0])]  # asked again: the same
    for seat in range(1, 7):
        await room.act(seat_hash(room, seat), NightAct(seat, "pass"))
    views.clear()
    dawn = {token: projected(room, token) for token in viewers}
    assert len(views) == len(viewers)  # a new state: every view made again
    await room.say(seat_hash(room, town[0]), "room", "good morning")
    for token in viewers:
        assert projected(room, token).view is dawn[token].view
        assert [line.text for line in projected(room, token).chat][-1] == "good morning"


async def test_the_panel_is_redrawn_exactly_when_its_part_of_the_view_changed(db: Path, fake_time: FakeTime) -> None:
    """``PanelKey`` compares the view in place (no copy on every page): it finds a change exactly where comparing the
    copies of the panel's part of the views did, over every state of a played game and for every seat."""
    from engine.errors import RuleError
    from webgame.pages.game_view import NOT_PANEL_KEYS, PanelKey

    def copy(view: object) -> dict[str, object]:
        return {key: value for key, value in dict(view).items() if key not in NOT_PANEL_KEYS}  # type: ignore[call-overload]

    room, hashes = await seated_room(6)
    state = room.state
    assert state is not None
    viewers = [seat_hash(room, seat) for seat in range(1, 7)] + [None]
    before = {token: projected(room, token).view for token in viewers}
    compared = changed = 0
    rng = random.Random(5)
    for _ in range(60):
        if state.phase is Phase.ENDED:
            break
        for action in next_actions(state, Heuristic(rng, Memory())):
            try:
                await room.act(seat_hash(room, action.seat), action)
                break
            except RuleError:  # this seat has acted already: the next one
                continue
        else:  # a step that only the clock ends: the host's "End now"
            await room.skip(seat_hash(room, 1), state.step)
        for token in viewers:
            now = projected(room, token).view
            same = copy(now) == copy(before[token])
            assert (PanelKey(now) == PanelKey(before[token])) is same
            assert (PanelKey(now) != PanelKey(before[token])) is not same
            compared, changed = compared + 1, changed + (not same)
            before[token] = now
    assert compared >= 50 and 0 < changed < compared  # both answers were checked
    extra = {**before[None], "an extra key": 1}
    assert PanelKey(extra) != PanelKey(before[None]) and PanelKey(before[None]) != PanelKey(extra)  # type: ignore[arg-type]


async def test_the_seats_share_the_dated_events_they_read(db: Path, fake_time: FakeTime) -> None:
    """An event every seat reads is one (day, phase, event) entry in every seat's projection, not one each (memory on
    every phone); a seat reads only what it read before."""
    room, _hashes = await seated_room(6)
    state = room.state
    assert state is not None
    for _ in range(12):  # the mafia kills a civilian at the first night it may, the others pass; the days run out
        if projected(room, None).events:
            break
        acted = False
        for seat in state.living():
            acts = [a for a in projected(room, seat_hash(room, seat)).view.get("actions", [])
                    if a.get("type") == "night_act"]
            kill = next((a for a in acts if a.get("act") == "kill"), None)
            if kill is not None:
                target = next(t for t in kill["targets"] if str(state.role(int(t))) == "civilian")
                await room.act(seat_hash(room, seat), NightAct(seat, "kill", int(target)))
            elif acts:
                await room.act(seat_hash(room, seat), NightAct(seat, "pass"))
            acted = acted or bool(acts)
        if not acted:
            await room.skip(seat_hash(room, 1), state.step)
    views = [projected(room, seat_hash(room, seat)) for seat in range(1, 7)]
    spectator = projected(room, None)
    assert spectator.events, "no public event after the first night"
    for projection in views:
        assert [entry[2] for entry in projection.events] == projection.view["events"]
        for entry in spectator.events:
            assert any(mine is entry for mine in projection.events), "a public event's entry made again for a seat"


async def test_seats_that_see_the_same_hold_one_value_and_each_sees_the_engines_view(
        db: Path, fake_time: FakeTime) -> None:
    """The mafia's seats share one table of the roles they know and one of their chats; the town's seats share their
    chats; any two equal values of the shared keys are one object; every seat's view still equals the engine's."""
    from engine.view import view

    room, _hashes = await seated_room(12)
    state = room.state
    assert state is not None
    views = {seat: projected(room, seat_hash(room, seat)).view for seat in range(1, 13)}
    mafia = [seat for seat in range(1, 13) if str(state.role(seat)) in ("mafia", "don")]
    town = [seat for seat in range(1, 13) if str(state.role(seat)) == "civilian"]
    assert len(mafia) >= 2 and len(town) >= 2
    first, second = mafia[:2]
    assert views[first]["roles"] is views[second]["roles"] and views[first]["chat"] is views[second]["chat"]
    assert views[town[0]]["chat"] is views[town[1]]["chat"] and views[town[0]]["chat"] != views[first]["chat"]
    for key in ("actions", "chat", "roles", "teams", "team_night"):  # equal values are one object, whoever holds them
        for one in views.values():
            for other in views.values():
                if key in one and one[key] == other.get(key):  # type: ignore[literal-required]
                    assert one[key] is other[key], key  # type: ignore[literal-required]
    for seat, seen in views.items():
        engine_view = view(state, Viewer.of_seat(seat))
        assert {key: seen[key] for key in engine_view} == engine_view  # type: ignore[literal-required]


@pytest.mark.parametrize("rules", ["uz", "uk"])
async def test_a_seat_no_action_reached_gets_the_engines_view_without_it_being_made_again(
        db: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    """A whole game played through the room: after every action each seat, the spectator and the moderator see
    exactly the engine's view of the state (``engine.view.view``), and a vote or a night choice makes the views of
    only the seats it reached (``engine.reach``: the voter's, the mafia team's) and the moderator's again."""
    from engine.actions import MODERATOR_ACTIONS
    from engine.reach import mark, reach
    from webgame.room import table_game

    MODERATOR_OFFERS = {kind.kind for kind in MODERATOR_ACTIONS}

    players, moderated = (12, True) if rules == "uk" else (10, False)
    room, hashes = await seated_room(players, rules, moderated=moderated, seed=3)
    state = room.state
    assert state is not None
    viewers = [(seat_hash(room, seat), Viewer.of_seat(seat)) for seat in range(1, players + 1)] + [(None, SPECTATOR)]
    if moderated:
        viewers.append((hashes[0], MODERATOR))
    made: list[Viewer] = []
    real_view = table_game.view
    monkeypatch.setattr(table_game, "view", lambda state, viewer, public=None: made.append(viewer) or real_view(
        state, viewer, public))
    rng, memory, moves, reached_few = random.Random(5), Memory(), 0, 0

    async def played(action: Action) -> None:
        nonlocal moves, reached_few
        marked = mark(state)
        if isinstance(action, Deadline):
            await room.skip(hashes[0], action.step)
        else:
            await room.act(seat_hash(room, int(getattr(action, "seat", 0))), action)
        moves += 1
        made.clear()
        for token, viewer in viewers:
            seen = projected(room, token).view
            engine_view = dict(real_view(state, viewer))
            if seen.get("result_hold"):  # the day's result on the screens: no seat acts yet (webgame.room.result_hold)
                engine_view["actions"] = [a for a in engine_view["actions"] if a["type"] in MODERATOR_OFFERS]
            assert {key: seen[key] for key in engine_view} == engine_view, (moves, viewer)  # type: ignore[literal-required]
        reached = reach(marked, state, action)
        if moves > 1 and reached is not None:  # a vote, a night choice: only the seats it reached, and the moderator
            assert {viewer.seat for viewer in made if viewer.kind == "seat"} == reached, (action, made)
            assert (MODERATOR in made) == moderated and SPECTATOR not in made
            reached_few += 1

    while state.phase is not Phase.ENDED and moves < 400:
        memory.update(state)
        step = state.step
        if room.game.holding():
            await room.skip(hashes[0], step)  # the host's "End now" of the day's result's hold: the night begins
        for action in next_actions(state, Heuristic(rng, memory)):
            await played(action)
            if state.step != step:
                break
        if state.step == step and state.phase is not Phase.ENDED:
            await played(Deadline(step))
    assert state.phase is Phase.ENDED
    assert reached_few > 5  # the moves that made only a few seats' views again

"""The TV's narrator: what it says, in order; that it says nothing a spectator may not know; its recorded clips;
its settings on the TV page and in the host's lobby."""

from __future__ import annotations

import gc
import json
import random
import time
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from nicegui.testing import User

from engine.actions import Deadline, NightAct, Ready, Vote
from engine.bots import Heuristic, Memory, next_actions
from engine.game import apply, new_game
from engine.knowledge import SPECTATOR
from engine.roles import ROLE_TABLES
from engine.state import GameState, Phase
from engine.view import view
from webgame.errors import Refusal
from webgame.language.i18n import LANGUAGES, translator
from webgame.pages import narration, wording
from webgame.pages.narration import Phrase, clip_texts, phrases, public_events, render
from webgame.room.rooms import Room
from webgame.store.models import RoomStatus
from webgame.store.records import RoomRecord, SeatRecord

from .helpers import click_when_enabled, create_room, join, page_dump, wait_for

NARRATOR = Path(__file__).resolve().parents[2] / "webgame" / "static" / "narrator"


def narrate(state: GameState, previous: dict[str, Any] | None, told: int) -> tuple[list[Phrase], dict[str, Any], int]:
    """What the TV says after a change: the spectator's projection against the one it last told."""
    p = view(state, SPECTATOR)
    events = public_events(p)
    return phrases(previous, p, events[told:]), p, len(events)


Check = Callable[[GameState, dict[str, Any], list[dict[str, Any]], list[Phrase]], None]


def play_narrated(rules: str, players: int, seed: int, check: Check) -> list[Phrase]:
    """A bots' game (``engine.bots.play``'s loop), narrated after every action as the TV does."""
    state = new_game(rules, players, seed)
    memory = Memory()
    policy = Heuristic(random.Random(seed), memory)
    said, previous, told = narrate(state, None, 0)
    everything = list(said)

    def observe() -> None:
        nonlocal previous, told
        events = public_events(view(state, SPECTATOR))[told:]
        said, previous, told = narrate(state, previous, told)
        check(state, previous, events, said)
        everything.extend(said)

    while state.phase is not Phase.ENDED:
        memory.update(state)
        step = state.step
        for action in next_actions(state, policy):
            apply(state, action)
            observe()
            if state.step != step:
                break
        if state.step == step and state.phase is not Phase.ENDED:
            apply(state, Deadline(step))
            observe()
    return everything


def test_a_uz_night_and_day_are_told_in_the_order_of_the_table() -> None:
    state = new_game("uz", 5, 1, roles=["mafia", "doctor", "commissar", "civilian", "civilian"])
    said, p, told = narrate(state, None, 0)
    assert said == [Phrase("night", cue="night")]  # the first night: the city falls asleep
    for action in (NightAct(1, "kill", 4), NightAct(2, "heal", 2), NightAct(3, "check", 1),
                   NightAct(4, "suspect", 1), NightAct(5, "suspect", 1)):
        apply(state, action)
    said, p, told = narrate(state, p, told)
    assert said == [Phrase("wake", cue="day"), Phrase("died-night", 4), Phrase("role", 4, "civilian")]
    for seat in state.living():
        apply(state, Ready(seat))
    said, p, told = narrate(state, p, told)
    assert said == [Phrase("vote-open", cue="day")]
    for seat, target in ((1, 2), (2, 1), (3, 1), (5, 1)):
        apply(state, Vote(seat, target))
    said, p, told = narrate(state, p, told)
    assert said == [Phrase("voted-out", 1), Phrase("role", 1, "mafia"), Phrase("winner", 0, "town")]


def test_a_night_without_deaths_and_a_tied_vote() -> None:
    state = new_game("uz", 5, 1, roles=["mafia", "doctor", "commissar", "civilian", "civilian"])
    said, p, told = narrate(state, None, 0)
    for action in (NightAct(1, "kill", 4), NightAct(2, "heal", 4), NightAct(3, "pass"),
                   NightAct(4, "suspect", 1), NightAct(5, "suspect", 1)):
        apply(state, action)
    said, p, told = narrate(state, p, told)
    assert said == [Phrase("wake", cue="day"), Phrase("nobody-died")]
    for seat in state.living():
        apply(state, Ready(seat))
    said, p, told = narrate(state, p, told)
    for seat, target in ((1, 2), (2, 1), (3, 4), (4, 3), (5, None)):
        apply(state, Vote(seat, target))
    said, p, told = narrate(state, p, told)
    assert said[0] in (Phrase("vote-tied"), Phrase("vote-nobody"))
    assert said[-1] == Phrase("night", cue="night")


def test_the_sentences_and_clips_of_a_phrase() -> None:
    uk = translator("uk")
    name_of = lambda seat: wording.seat_label(uk, seat, "Тарас")  # noqa: E731
    line = render(Phrase("died-night", 3), uk, "uk", name_of)
    assert line.text == uk("{name} died tonight.").format(name="3. Тарас")
    assert line.clips == ("n3", "p-died-night")
    note = render(Phrase("note", 7, "black"), uk, "uk", name_of)
    assert note.clips == ("note", "n7", "is-1") and "7. Тарас" in note.text
    night = render(Phrase("night", cue="night"), uk, "uk", name_of)
    assert (night.text, night.cue) == ("Місто засинає.", "night")


@pytest.mark.parametrize(("rules", "players", "seeds"), [("uz", 7, range(12)), ("uz", 14, range(6)),
                                                          ("uk", 10, range(12))])
def test_random_games_tell_nothing_a_spectator_may_not_know(rules: str, players: int, seeds: range) -> None:
    """Every phrase is made from the public events of that moment: its seat is one they name, a role is one the
    spectator knows, the winner comes only at the end; and no sentence in any language names the role of a
    living player the spectator does not know (the pages' secrecy check)."""
    counts: dict[str, int] = {}

    def check(state: GameState, p: dict[str, Any], events: list[dict[str, Any]], said: list[Phrase]) -> None:
        named = {int(e[key]) for e in events for key in ("seat", "target", "eliminated") if e.get(key)}
        known = {int(seat): role for seat, role in p["roles"].items()}
        for phrase in said:
            counts[phrase.id] = counts.get(phrase.id, 0) + 1
            if phrase.seat:
                assert phrase.seat in named, (phrase, events)
            if phrase.id == "role":
                assert known.get(phrase.seat) == phrase.value, (phrase, known)
            if phrase.id == "winner":
                assert state.phase is Phase.ENDED
        if state.phase is Phase.ENDED:
            return
        hidden = {seat: str(role) for seat, role in enumerate(state.roles, 1)
                  if seat not in known and state.alive[seat - 1]}
        for language in LANGUAGES:
            _ = translator(language)
            allowed = {wording.role_name(_, rules, role) for role in known.values()}
            for phrase in said:
                text = render(phrase, _, rules, lambda seat: f"#{seat}").text
                for role in hidden.values():
                    name = wording.role_name(_, rules, role)
                    assert name in allowed or name not in text, (language, phrase, text)

    for seed in seeds:
        said = play_narrated(rules, players, seed, check)
        assert said[-1].id == "winner"
    assert counts.get("night") and counts.get("wake") and counts.get("vote-open")
    assert counts.get("died-night") and counts.get("voted-out")
    if rules == "uk":
        assert not counts.get("role")  # uk reveals no roles on death


def test_a_clip_for_every_phrase_in_every_language_made_from_its_current_translation() -> None:
    manifest = json.loads((NARRATOR / "manifest.json").read_text("utf-8"))
    assert set(manifest) == set(LANGUAGES)
    for language in LANGUAGES:
        _ = translator(language)
        assert manifest[language] == clip_texts(_), f"{language}: run scripts/narrator_clips.py"
        wanted: set[str] = set()
        for pid in narration.SENTENCES:
            wanted.update(render(Phrase(pid, 0 if "{name}" not in narration.SENTENCES[pid][0] else 30), _, "uz",
                                 str).clips)
        for seat in narration.SEATS:
            wanted.update(render(Phrase("died", seat), _, "uz", str).clips)
        for result in narration.NOTE_RESULTS:
            wanted.update(render(Phrase("note", 1, result), _, "uk", str).clips)
        for rules, table in ROLE_TABLES.items():
            for role in table:
                wanted.update(render(Phrase("role", 1, str(role)), _, rules, str).clips)
        for winner in narration.WINNERS:
            wanted.update(render(Phrase("winner", 0, winner), _, "uz", str).clips)
        assert wanted <= set(manifest[language])
        for clip in manifest[language]:
            data = (NARRATOR / language / f"{clip}.ogg").read_bytes()
            assert data.startswith(b"OggS") and b"OpusHead" in data[:100] and len(data) < 12_000, clip
    for cue in narration.CUES:
        assert (NARRATOR / f"cue-{cue}.ogg").read_bytes().startswith(b"OggS")


def test_clip_ids_name_no_role_or_team() -> None:
    """The clips' ids reach the TV's DOM as data-* attributes, which may not name a role (e2e secrecy check)."""
    words = {str(role) for table in ROLE_TABLES.values() for role in table} | {"town", "mafia", "killer"}
    for clip in clip_texts(translator("en")):
        assert not set(clip.replace("_", "-").split("-")) & words, clip


def _room(code: str, language: str) -> Room:
    """A room as the registry would hold it, made from its records (no database)."""
    record = RoomRecord(id=1, code=code, created_at=datetime.now(UTC), rules="uk", options={}, timers={},
                        language=language, status=RoomStatus.LOBBY, host_token_hash="h", moderated=False, version=0)
    seat = SeatRecord(id=1, room_id=1, token_hash="h", name="P1", position=1, is_moderator=False,
                      joined_at=datetime.now(UTC), left=False)
    return Room(record, [seat], time.time)


def test_the_narrators_settings_live_as_long_as_their_room() -> None:
    """Kept per room, not per code: a room dropped from the registry (moved to another process, gone) takes its
    narrator's settings with it, and a room loaded again under the same code starts from its own language."""
    room = _room("K7QXM", "uk")
    kept = narration.settings(room)
    assert kept is narration.settings(room) and kept.language == "uk" and kept.on
    narration.set_on(kept, False)
    again = _room("K7QXM", "ru")
    assert (narration.settings(again).language, narration.settings(again).on) == ("ru", True)
    gone = weakref.ref(kept)
    del room, kept
    gc.collect()
    assert gone() is None


def test_the_settings_refuse_an_unknown_language() -> None:
    current = narration.NarratorSettings("uz")
    heard: list[str] = []
    current.listeners.append(lambda: heard.append(current.language))
    with pytest.raises(Refusal):
        narration.set_language(current, "xx")
    assert current.language == "uz" and heard == []
    narration.set_language(current, "uk")
    narration.set_on(current, False)
    assert (current.language, current.on, heard) == ("uk", False, ["uk", "uk"])


async def test_the_tv_writes_the_narrators_lines_and_the_hosts_switch_reaches_it(
        create_user: Callable[[], User]) -> None:
    tv, host = create_user(), create_user()
    room = await create_room(host, "P1")
    await tv.open(f"/r/{room.code}/screen")
    others = [create_user() for _ in range(3)]
    for number, phone in enumerate(others, 2):
        await join(phone, room, f"P{number}")
    await host.should_see(marker="narrator-on")
    for phone in others:  # the switch is the host's: no other phone has it
        await phone.should_not_see(marker="narrator-on")
    await click_when_enabled(host, "start")
    await tv.should_see(content="The city falls asleep.")
    dump = page_dump(tv)
    assert '"data-clips": "p-night"' in dump and '"data-on": "1"' in dump and '"data-lang": "en"' in dump

    settings = narration.settings(room)
    narration.set_on(settings, False)
    narration.set_language(settings, "uk")
    await wait_for(lambda: '"data-on": "0"' in page_dump(tv) and '"data-lang": "uk"' in page_dump(tv))
    assert room.state is not None
    hashes = [s.token_hash for s in room.seating]
    for seat in range(1, 5):
        await room.act(hashes[seat - 1], NightAct(seat, "pass"))
    await tv.should_see(content="Місто прокидається.")  # the narrator speaks his own language, not the TV's


def test_phrases_say_nothing_when_nothing_changed() -> None:
    state = new_game("uk", 10, 3)
    p = view(state, SPECTATOR)
    assert phrases(p, p, []) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_narrator_says_a_best_move_and_its_names_by_their_numbers(language: str) -> None:
    """Issue 30: the first night's dead names his black; the TV says who named whom (a recorded clip for each
    seat's number around the words), in the narrator's language."""
    said = narration.event_phrases({"type": "best_move", "seat": 4, "targets": [1, 7, 12]})
    assert said == [Phrase("best-move", 4, "1,7,12")]
    _ = translator(language)
    line = render(said[0], _, "uk", lambda seat: f"P{seat}")
    assert line.text == _(wording.BEST_MOVE).format(name="P4", named=_.join(["P1", "P7", "P12"]))
    assert line.clips == ("n4", "p-best-move", "n1", "n7", "n12")
    assert set(line.clips) <= set(clip_texts(_))

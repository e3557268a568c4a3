"""The TV's narrator: what it says, made only from what a spectator may know, and the room's narrator settings.

A narrator at a real table says "the city falls asleep", who died, the vote and its result, the winner. The TV
(``/r/CODE/screen``) says the same through the browser: ``phrases`` turns two consecutive spectator projections
(``engine.view.view(state, SPECTATOR)``) and the public events between them into ``Phrase`` values (an id and
numbers, never text), so a unit test can check that it never says what a spectator may not know. ``render``
makes each phrase a sentence in the narrator's language (for the browser's speech synthesis) and a list of
recorded clips (for a browser without a voice for that language: a seat's number, then the rest of the
sentence), made at build time by ``scripts/narrator_clips.py`` from ``clip_texts``.

The settings (the narrator's language, the speaker switch) are room-level and kept here, in memory, for as long as
the room object lives (a weak reference: a room dropped from the registry takes its settings with it); they are lost
on a restart (the room's language and "on" come back).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.roles import ROLE_TABLES
from engine.view_types import EventRecord, PublicView, View
from webgame.errors import Refusal
from webgame.language.i18n import LANGUAGES, N_, Translator
from webgame.pages import wording
from webgame.room.rooms import Room

SEATS = range(1, 31)  # the largest table (uz: 30): a recorded number per seat

# A phrase id -> (the sentence for speech synthesis, the rest of the sentence after the seat's number for the
# recorded clips, or the whole sentence when the phrase names nobody). Clip ids never name a role or a team (a
# page's data-* attributes may not: e2e/harness.py checks it). Sentences the phones already show are wording's.
SENTENCES: dict[str, tuple[str, str]] = {
    "night": (N_("The city falls asleep."), N_("The city falls asleep.")),
    "wake": (N_("The city wakes up."), N_("The city wakes up.")),
    "nobody-died": (N_("Nobody died tonight."), N_("Nobody died tonight.")),
    "died-night": ("{name} died tonight.", N_("died tonight.")),
    "died": ("{name} died.", N_("died.")),
    "voted-out": (wording.DEATH_CAUSES["vote"], N_("was voted out.")),
    "removed": (wording.DEATH_CAUSES["fouls"], N_("was removed for four fouls.")),
    "taken-along": (wording.DEATH_CAUSES["kamikaze"], N_("was taken along by the kamikaze.")),
    "foul": (N_("{name} gets a foul."), N_("gets a foul.")),
    "vote-open": (N_("The vote is open."), N_("The vote is open.")),
    "vote-tied": (N_("The vote is tied."), N_("The vote is tied.")),
    "vote-nobody": ("The vote: nobody is eliminated.", "The vote: nobody is eliminated."),
    "all-open": (N_("Do we eliminate them all? Vote."), N_("Do we eliminate them all? Vote.")),
    "all-out": (N_("They are all eliminated."), N_("They are all eliminated.")),
    "all-stay": (N_("Not enough votes: nobody is out."), N_("Not enough votes: nobody is out.")),
    "best-move": (wording.BEST_MOVE, N_("makes the best move:")),  # then the named seats' numbers (issue 30)
}
NOTE_INTRO = N_("The commissar's note is read out:")
NOTE_RESULTS: dict[str, tuple[str, str]] = {  # a check's result -> (speech, the clip after the seat's number)
    "red": (wording.NOTE_RESULTS["red"], N_("is red.")),
    "black": (wording.NOTE_RESULTS["black"], N_("is black.")),
    "peaceful": (wording.NOTE_RESULTS["peaceful"], N_("is peaceful.")),
    "mafia": (wording.NOTE_RESULTS["mafia"], N_("is mafia.")),
}
ROLE_SENTENCE = "Role: {role}."  # marked in wording.py, like the other sentences without N_ here
PLAYER_NUMBER = N_("Player {number}")
WINNERS = wording.WINNERS
CUES = ("night", "day")  # the phase-change sounds: webgame/static/narrator/cue-night.ogg, cue-day.ogg


@dataclass(frozen=True, slots=True)
class Phrase:
    """One thing the narrator says: a phrase id (a key of ``SENTENCES``, or ``note``, ``role``, ``winner``,
    ``phase``), the seat it is about (0: nobody), and a value (a role id, a check's result, the winner, the phase).
    ``phase`` says no words: it is the sound of a phase change that has no sentence of its own (the defence, last
    words...), its caption the phase's title (``day``)."""

    id: str
    seat: int = 0
    value: str = ""
    cue: str = ""  # a phase change: the sound played before the words ("night", "day")
    day: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    """A phrase in one language: the sentence to speak and the recorded clips that say it."""

    text: str
    clips: tuple[str, ...]
    cue: str = ""
    silent: bool = False  # a caption only (the cue is all that is heard)


def public_events(p: View) -> list[EventRecord]:
    """The events of a spectator's projection that everyone was told (after the end the projection holds the
    private ones too, marked ``private``: the narrator never reads those)."""
    return [event for event in p["events"] if not event.get("private")]


def phrases(previous: PublicView | None, current: PublicView, events: Iterable[EventRecord]) -> list[Phrase]:
    """What the narrator says between two spectator projections of one game: the new day's opening, the public
    ``events`` that happened in between (in order), then the new phase's opening. Every phase change has its
    sound cue (on the first phrase of the new phase, or alone). ``previous`` None: the game has just started
    (only the first phase is announced)."""
    said: list[Phrase] = []
    events = list(events)
    phase = current["phase"]
    changed = previous is None or (previous.get("step") != current.get("step") and (
        previous.get("phase") != phase or previous.get("day") != current.get("day")
        or previous.get("vote_round") != current.get("vote_round")))
    if previous is not None and previous.get("phase") == "night" and phase != "night":
        said.append(Phrase("wake", cue="day"))
        if not any(e.get("type") == "death" and e.get("phase") == "night" for e in events):
            said.append(Phrase("nobody-died"))
    woke = bool(said)
    for event in events:
        said.extend(event_phrases(event))
    if changed and phase != "ended":
        if phase == "night":
            said.append(Phrase("night", cue="night"))
        elif phase == "vote":
            said.append(Phrase("vote-open", cue="day"))
        elif phase == "eliminate_all":
            said.append(Phrase("all-open", cue="day"))
        elif not woke:
            said.append(Phrase("phase", value=phase, cue="day", day=current["day"]))
    return said


def event_phrases(event: EventRecord) -> list[Phrase]:
    """A public event as the narrator says it (nothing for what he leaves to the screen: nominations...)."""
    kind = event.get("type")
    if kind == "death":
        seat = int(event["seat"])
        cause = str(event.get("cause", ""))
        if event.get("phase") == "night":  # the table learns who died, not by whose hand
            said = [Phrase("died-night", seat)]
        elif cause == "vote":
            said = [Phrase("voted-out", seat)]
        elif cause == "fouls":
            said = [Phrase("removed", seat)]
        elif cause == "kamikaze":
            said = [Phrase("taken-along", seat)]
        else:
            said = [Phrase("died", seat)]
        if event.get("role"):
            said.append(Phrase("role", seat, str(event["role"])))
        return said
    if kind == "vote_result":
        if event.get("eliminated"):
            return []  # his death follows at once: "... was voted out"
        return [Phrase("vote-tied" if event.get("tied") else "vote-nobody")]
    if kind == "foul":
        return [Phrase("foul", int(event["seat"]))]
    if kind == "note":
        return [Phrase("note", int(event["target"]), str(event["result"]))]
    if kind == "eliminate_all_result":
        return [Phrase("all-out" if event.get("passed") else "all-stay")]
    if kind == "game_over":
        return [Phrase("winner", 0, str(event.get("winner") or "draw"))]
    if kind == "best_move":  # the value: the named seats, "1,2,7"
        return [Phrase("best-move", int(event["seat"]), ",".join(str(int(t)) for t in event.get("targets", [])))]
    return []


# ---------------------------------------------------------------- the words and the clips


def role_clip(rules: str, role: str) -> str:
    """A role's clip by its place in the rule set's table (an id that does not name the role)."""
    return f"role-{rules}-{[str(r) for r in ROLE_TABLES[rules]].index(role)}"


def winner_clip(winner: str) -> str:
    return f"win-{list(WINNERS).index(winner if winner in WINNERS else 'draw')}"


def note_clip(result: str) -> str:
    return f"is-{list(NOTE_RESULTS).index(result if result in NOTE_RESULTS else 'red')}"


def render(phrase: Phrase, _: Translator, rules: str, name_of: Callable[[int], str]) -> Line:
    """``phrase`` in ``_``'s language: the sentence (a player by ``name_of``) and its clips (a player by his
    seat's number)."""
    seat = f"n{phrase.seat}"
    if phrase.id == "phase":
        return Line(wording.phase_title(_, phrase.value, phrase.day), (), phrase.cue, silent=True)
    if phrase.id == "role":
        return Line(_(ROLE_SENTENCE).format(role=wording.role_name(_, rules, phrase.value)),
                    (role_clip(rules, phrase.value),))
    if phrase.id == "winner":
        return Line(_(WINNERS.get(phrase.value, WINNERS["draw"])), (winner_clip(phrase.value),))
    if phrase.id == "note":
        speech, _rest = NOTE_RESULTS.get(phrase.value, NOTE_RESULTS["red"])
        return Line(_(speech).format(target=name_of(phrase.seat)), ("note", seat, note_clip(phrase.value)))
    if phrase.id == "best-move":
        named = [int(t) for t in phrase.value.split(",") if t]
        return Line(_(wording.BEST_MOVE).format(name=name_of(phrase.seat), named=_.join(name_of(t) for t in named)),
                    (seat, "p-best-move", *(f"n{t}" for t in named)))
    speech, _rest = SENTENCES[phrase.id]
    if phrase.seat:
        return Line(_(speech).format(name=name_of(phrase.seat)), (seat, f"p-{phrase.id}"), phrase.cue)
    return Line(_(speech), (f"p-{phrase.id}",), phrase.cue)


def clip_texts(_: Translator) -> dict[str, str]:
    """Every recorded clip's id and what it says in ``_``'s language (the build script records these; a test
    compares them with the manifest of what was recorded)."""
    texts = {f"p-{pid}": _(rest) for pid, (_speech, rest) in SENTENCES.items()}
    texts["note"] = _(NOTE_INTRO)
    texts.update({note_clip(result): _(rest) for result, (_speech, rest) in NOTE_RESULTS.items()})
    texts.update({f"n{seat}": _(PLAYER_NUMBER).format(number=seat) for seat in SEATS})
    for rules, table in ROLE_TABLES.items():
        for role in table:
            texts[role_clip(rules, str(role))] = _(ROLE_SENTENCE).format(role=_(table[role].name))
    texts.update({winner_clip(winner): _(text) for winner, text in WINNERS.items()})
    return texts


# ---------------------------------------------------------------- the room's narrator settings


@dataclass
class NarratorSettings:
    """The narrator of one room: the language it speaks, and whether the TV speaks at all (the speaker switch).
    ``listeners`` (the room's TV pages, the host's lobby) are called after a change."""

    language: str
    on: bool = True
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()


_SETTINGS: weakref.WeakKeyDictionary[Room, NarratorSettings] = weakref.WeakKeyDictionary()


def settings(room: Room) -> NarratorSettings:
    """The narrator settings of ``room`` (made on first use: the room's language, the voice on), gone with it."""
    found = _SETTINGS.get(room)
    if found is None:
        found = _SETTINGS[room] = NarratorSettings(room.language if room.language in LANGUAGES else "en")
    return found


def set_language(current: NarratorSettings, language: str) -> None:
    """The narrator's language; one the app has no catalog for is refused and changes nothing."""
    if language not in LANGUAGES:
        raise Refusal(N_("Unknown language."))
    if language != current.language:
        current.language = language
        current.changed()


def set_on(current: NarratorSettings, on: bool) -> None:
    if bool(on) != current.on:
        current.on = bool(on)
        current.changed()

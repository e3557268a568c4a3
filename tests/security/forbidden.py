"""What one viewer's browser must not receive at one moment, in his language, and the search for it.

Built from the oracle (tests/security/oracle.py), the room's names and the wording module's sentences:

- ``pairs``: a seat's label (``3. Px03``) together with the name of a role (or team) he holds or held that
  the viewer may not know, in one text or one row (a players-list row puts them in two labels);
- ``sentences``: private results the viewer may not read (checks, witness, quiet visit, frozen, role
  changes), the mafia's night (who chooses, suggestions, the kill), who killed at night, and chat lines
  of channels the viewer may not read; sentences he may read are never forbidden;
- ``words``: role names that appear in no other text of the language (``distinctive``), of roles held in
  this game by nobody the viewer may know: such a name on his screen, with or without a player's name,
  tells him the role is in play and more;
- ``tokens``: engine role ids in classes, data-testids or prop names (the structure of a page says nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from babel.messages.pofile import read_po

from engine.knowledge import Viewer
from engine.options import OPTION_TABLES
from engine.roles import ROLE_TABLES, Role, team_of
from engine.state import GameState, Phase
from engine.view import view
from webgame.language.i18n import LOCALES_DIR, Translator, translator
from webgame.pages import wording

from .oracle import MAFIA_ROLES, PRIVATE_TYPES, Oracle

ROLE_IDS = frozenset(str(role) for role in Role) - {"mafia"}  # "mafia-" is the stylesheet's prefix


@cache
def distinctive_names(language: str) -> frozenset[str]:
    """Role names of this language that no other message contains as a word (so their presence means a role)."""
    _ = translator(language)
    names = {_(info.name) for table in ROLE_TABLES.values() for info in table.values()}
    skip = {info.name for table in ROLE_TABLES.values() for info in table.values()}
    skip |= {info.description for table in ROLE_TABLES.values() for info in table.values()}
    skip |= {text for specs in OPTION_TABLES.values() for spec in specs for text in (spec.label, spec.help)}
    with open(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle)
    others: list[str] = []
    for message in catalog:
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        if not msgid or msgid in skip or "{role}" in msgid:
            continue
        strings = message.string if isinstance(message.string, list | tuple) else [message.string]
        others += [s for s in strings if s] or [msgid]
    return frozenset(name for name in names if not any(word(name).search(text) for text in others))


@cache
def word(text: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(text) + r"(?!\w)")


@dataclass
class Forbidden:
    pairs: list[tuple[str, str]] = field(default_factory=list)
    sentences: set[str] = field(default_factory=set)
    words: set[str] = field(default_factory=set)
    neutral: list[str] = field(default_factory=list)  # removed before the word search (his own description)
    tokens: set[str] = field(default_factory=set)

    def find(self, texts: Iterable[str], rows: Iterable[str] = (), attributes: Iterable[str] = (),
             pairs: bool = True) -> list[str]:
        """What of this is forbidden. ``pairs=False`` for one big text (a whole HTML page): sentences and
        distinctive names only, since any name and any word are somewhere in it."""
        found: list[str] = []
        texts = list(texts)
        sentences = _alternation(frozenset(self.sentences))
        words = _alternation(frozenset(self.words), whole_words=True)
        labels = _alternation(frozenset(label for label, _ in self.pairs))
        for text in texts:
            if sentences is not None:
                found += [f"sentence {m.group(0)!r} in {text[:120]!r}" for m in sentences.finditer(text)]
            if words is not None:
                plain = text
                for neutral in self.neutral:
                    plain = plain.replace(neutral, "")
                found += [f"role name {m.group(0)!r} in {text[:120]!r}" for m in words.finditer(plain)]
        if pairs and labels is not None:
            by_label: dict[str, list[str]] = {}
            for label, name in self.pairs:
                by_label.setdefault(label, []).append(name)
            for text in [*texts, *rows]:
                for label in {m.group(0) for m in labels.finditer(text)}:
                    found += [f"{label!r} with {name!r} in {text[:160]!r}" for name in by_label[label]
                              if word(name).search(text)]
        for attribute in attributes:
            for part in re.split(r"[\s_\-]+", attribute.lower()):
                if part in self.tokens:
                    found.append(f"role id {part!r} in {attribute!r}")
        return found


@cache
def _alternation(texts: frozenset[str], whole_words: bool = False) -> re.Pattern[str] | None:
    """One pattern for many literal texts (longest first, so that overlapping ones are all tried)."""
    if not texts:
        return None
    body = "|".join(re.escape(text) for text in sorted(texts, key=len, reverse=True))
    if whole_words:
        body = r"(?<!\w)(?:" + body + r")(?!\w)"
    return re.compile(body)


def forbidden_for(viewer: int, language: str, state: GameState, oracle: Oracle, names: list[str],
                  chat: list[tuple[str, str]]) -> Forbidden:
    """``viewer``: a seat, 0 for a spectator (and the TV), -1 for the moderator. ``names``: by seat.
    ``chat``: (channel, text) of every line written in this game."""
    result = Forbidden()
    if oracle.ended or viewer == -1:
        return result
    _ = translator(language)
    rules = state.rules

    def name_of(seat: int) -> str:
        return _label(language, seat, names[seat - 1])

    known_roles: set[str] = set()
    for seat in range(1, state.n + 1):
        for role in oracle.held[seat]:
            if oracle.may_know(viewer, seat, role):
                known_roles.add(role)
                continue
            result.pairs.append((name_of(seat), wording.role_name(_, rules, role)))
            if not any(oracle.may_know(viewer, seat, r) for r in oracle.held[seat]):
                result.pairs.append((name_of(seat), wording.team_name(_, str(team_of(rules, Role(role))))))
    in_play = {role for seat in range(1, state.n + 1) for role in oracle.held[seat]}
    distinctive = distinctive_names(language)
    for role in in_play - known_roles:
        name = wording.role_name(_, rules, role)
        if name in distinctive:
            result.words.add(name)
        if role in ROLE_IDS:
            result.tokens.add(role)
    if viewer > 0:
        result.neutral = [wording.role_description(_, rules, role) for role in oracle.held[viewer]]

    allowed: set[str] = set()
    banned: set[str] = set()
    for index, event in enumerate(state.events):
        if event.type not in PRIVATE_TYPES:
            continue
        texts = _event_texts(_, rules, event.as_dict(), name_of, viewer, event.phase)
        (allowed if oracle.may_read(viewer, index, event) else banned).update(texts)
    for event in state.events:
        if event.type == "death" and event.phase == "night" and "cause" in event.params:
            template = wording.DEATH_CAUSES.get(str(event.params["cause"]))
            if template:
                banned.add(_(template).format(name=name_of(int(event.params["seat"]))))
    if state.phase is Phase.NIGHT and not oracle.reads_mafia_chat(viewer):
        banned |= _mafia_night(_, state, name_of)
    for channel, text in chat:
        if (channel == "mafia" and not oracle.reads_mafia_chat(viewer)) or (
                channel == "dead" and not oracle.reads_dead_chat(viewer)):
            banned.add(text)
    result.sentences = banned - allowed
    return result


@cache
def _label(language: str, seat: int, name: str) -> str:
    return wording.seat_label(translator(language), seat, name)


def _event_texts(_: Translator, rules: str, event: dict[str, object], name_of: wording.NameOf, viewer: int,
                 phase: str) -> set[str]:
    texts = {wording.event_text(_, rules, event, name_of, viewer, phase)}
    if event["type"] == "check":  # also as a sergeant would read it, unsigned
        texts.add(wording.event_text(_, rules, {k: v for k, v in event.items() if k != "seat"}, name_of, viewer,
                                     phase))
    if event["type"] == "role_change":  # and as the changed player reads it
        texts.add(wording.event_text(_, rules, event, name_of, int(str(event["seat"])), phase))
    return {t for t in texts if t}


def _mafia_night(_: Translator, state: GameState, name_of: wording.NameOf) -> set[str]:
    """What the mafia's night card says now (taken from a living member's projection)."""
    members = [s for s in state.living() if str(state.roles[s - 1]) in MAFIA_ROLES]
    if not members:
        return set()
    team = view(state, Viewer.of_seat(members[0]))["team_night"] or {}
    texts = {_("The mafia's night"), _("Nobody can choose the kill tonight.")}
    if team.get("acting_don"):
        texts.add(_("{name} chooses the kill.").format(name=name_of(int(team["acting_don"]))))
    for seat, target in team.get("suggestions", {}).items():
        if target:
            texts.add(_("{name} suggests {target}.").format(name=name_of(int(seat)), target=name_of(int(target))))
    if team.get("kill"):
        texts.add(_("The kill tonight: {name}.").format(name=name_of(int(team["kill"]))))
    return texts

"""What the game says, in the reader's language: phase titles, role names, announcements, the timeline.

Every sentence is one message id with named placeholders; names come in through ``.format`` (and are
shown by ``ui.label``, which escapes them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.options import OptionSpec
from engine.roles import ROLE_TABLES, TEAM_NAMES, RoleInfo, Team
from webgame.language.i18n import N_, Translator

NameOf = Callable[[int], str]

# Readable labels of the option tables' choice values (the engine's values are ids).
CHOICE_LABELS: dict[str, str] = {
    "lowest_mafia": N_("The lowest-numbered mafia chooses"),
    "none": N_("The mafia stops killing"),
    "acting_don": N_("Only the one who chooses the kill"),
    "any_member": N_("Any mafia-team player"),
    "peaceful": N_("Peaceful"),
    "mafia": N_("Mafia"),
    "killer_mafia_commissar": N_("Killer, then mafia, then commissar"),
    "mafia_commissar_killer": N_("Mafia, then commissar, then killer"),
    "nobody": N_("Nobody"),
    "random": N_("One of them at random"),
    "civilian": N_("A civilian"),
    "hobo": N_("A hobo"),
    "eliminated_except_day_one": N_("Eliminated, except on day 1"),
    "always_eliminated": N_("Always eliminated"),
    "never_eliminated": N_("Never eliminated"),
    "last_nominee": N_("Goes to the last nominee"),
    "not_counted": N_("Is lost"),
    "eliminate_all_vote": N_("A vote on eliminating all of them"),
}

RULE_SET_NAMES: dict[str, str] = {
    "uz": N_("Uzbek rules (4-30 players)"),
    "uk": N_("Ukrainian club rules (8-14 players)"),
}

# The start page's "How to play", in five lines (issue 16); the rules in full are docs/RULES.md.
HOW_TO_PLAY: tuple[str, ...] = (
    N_("Sit together, one phone each. One of you creates a room and shares its code or link."),
    N_("Everyone joins with a name; the host sets the options and starts. Each phone gets a secret role."),
    N_("Keep your screen covered. Tap Show to see your role and make your night move, unseen."),
    N_("By day, talk, find the mafia and vote a player out. The dead no longer speak."),
    N_("The town wins when the mafia is gone; the mafia wins when it is as many as the rest."),
)

WINNERS: dict[str, str] = {
    "town": N_("The town wins!"),
    "mafia": N_("The mafia wins!"),
    "killer": N_("The killer wins!"),
    "red": N_("The red team wins!"),
    "black": N_("The black team wins!"),
    "draw": N_("A draw: nobody wins."),
}

ACT_LABELS: dict[str, str] = {
    "kill": N_("Kill"),
    "check": N_("Check"),
    "shoot": N_("Shoot"),
    "heal": N_("Heal"),
    "block": N_("Block"),
    "cover": N_("Cover"),
    "visit": N_("Visit"),
    "freeze": N_("Freeze"),
    "suggest": N_("Suggest"),
    "suspect": N_("Suspect"),
}

ACT_PROMPTS: dict[str, str] = {
    "kill": N_("Choose whom to kill tonight."),
    "check": N_("Choose whom to check tonight."),
    "shoot": N_("Choose whom to shoot tonight."),
    "heal": N_("Choose whom to heal tonight."),
    "block": N_("Choose whom to visit: his action tonight is cancelled."),
    "cover": N_("Choose whom to cover from the commissar's check."),
    "visit": N_("Choose whose door to visit tonight."),
    "freeze": N_("Choose whom to freeze tonight."),
    "suggest": N_("Suggest a target to the one who chooses the kill."),
    "suspect": N_("Whom do you suspect tonight?"),
}

BLOCKED_BY = {"lover": N_("Blocked by the lover: it did not happen."),
              "courtesan": N_("Frozen by the courtesan: it did not happen.")}
TIMELINE_ACTS: dict[str, str] = {
    "kill": N_("{name} ({role}) chose to kill {target}."),
    "check": N_("{name} ({role}) checked {target}."),
    "shoot": N_("{name} ({role}) shot at {target}."),
    "heal": N_("{name} ({role}) healed {target}."),
    "block": N_("{name} ({role}) blocked {target}."),
    "cover": N_("{name} ({role}) covered {target}."),
    "visit": N_("{name} ({role}) visited {target}."),
    "freeze": N_("{name} ({role}) froze {target}."),
}

DEATH_CAUSES: dict[str, str] = {
    "mafia": N_("{name} was killed by the mafia."),
    "commissar": N_("{name} was shot by the commissar."),
    "killer": N_("{name} was killed by the killer."),
    "maniac": N_("{name} was killed by the maniac."),
    "courtesan": N_("{name} was killed by the courtesan."),
    "kamikaze": N_("{name} was taken along by the kamikaze."),
    "vote": N_("{name} was voted out."),
    "fouls": N_("{name} was removed for four fouls."),
}

CHECK_RESULTS: dict[str, str] = {
    "peaceful": N_("{checker} checked {target}: peaceful."),
    "mafia": N_("{checker} checked {target}: mafia."),
    "red": N_("{checker} checked {target}: red."),
    "black": N_("{checker} checked {target}: black."),
}

# A check as a sergeant reads it when he may not know who the commissar is (commissar_knows_sergeant off).
UNSIGNED_CHECK_RESULTS: dict[str, str] = {
    "peaceful": N_("The commissar checked {target}: peaceful."),
    "mafia": N_("The commissar checked {target}: mafia."),
}

NOTE_RESULTS: dict[str, str] = {
    "red": N_("The commissar's note is read out: {target} is red."),
    "black": N_("The commissar's note is read out: {target} is black."),
    "peaceful": N_("The commissar's note is read out: {target} is peaceful."),
    "mafia": N_("The commissar's note is read out: {target} is mafia."),
}
BEST_MOVE = N_("Best move of {name}: {named}.")  # issue 30: the phones, the TV, the narrator


# A role's table entry by the role's string (the views hold strings): looked up without making the enum first, at
# every role named on every phone's screen.
_ROLE_INFO: dict[str, dict[str, RoleInfo]] = {
    rules: {str(role): info for role, info in table.items()} for rules, table in ROLE_TABLES.items()}


def role_name(_: Translator, rules: str, role: str) -> str:
    try:
        return _(_ROLE_INFO[rules][role].name)
    except KeyError:
        return role


def role_description(_: Translator, rules: str, role: str) -> str:
    try:
        return _(_ROLE_INFO[rules][role].description)
    except KeyError:
        return ""


def role_heading(_: Translator, rules: str, role: str) -> str:
    """A role and its team, as the role help lists them: "Doctor (Town)"."""
    try:
        team = _ROLE_INFO[rules][role].team
    except KeyError:
        return role
    return _("{role} ({team})").format(role=role_name(_, rules, role), team=team_name(_, str(team)))


def option_value(_: Translator, spec: OptionSpec, value: object) -> str:
    """An option's value as the lobby shows it (on/off, a number, seconds, a choice's words)."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if isinstance(value, int):
        return _.seconds(value) if spec.timer else _.number(value)
    return choice_label(_, str(value))


def option_hint(_: Translator, spec: OptionSpec) -> str:
    """What an option means, in one line, and its default (the lobby's explanation of every option)."""
    value = option_value(_, spec, spec.default)
    if spec.timer and spec.help == "Seconds.":  # a step's timer (the result's hold says what it is)
        return _("How long this step lasts. Default: {value}.").format(value=value)
    meaning = _(spec.help)
    return meaning + " " + _("Default: {value}.").format(value=value)


def team_name(_: Translator, team: str) -> str:
    try:
        return _(TEAM_NAMES[Team(team)])
    except ValueError:
        return team


def choice_label(_: Translator, value: str) -> str:
    label = CHOICE_LABELS.get(value)
    if label:
        return _(label)
    try:  # a points option's decimal (issue 30): as the phone's language writes it
        return _.number(float(value))
    except ValueError:
        return value


def phase_title(_: Translator, phase: str, day: int) -> str:
    titles = {
        "night": N_("Night {day}"),
        "discussion": N_("Day {day}: discussion"),
        "vote": N_("Day {day}: the vote"),
        "kamikaze": N_("Day {day}: the kamikaze's pick"),
        "last_words": N_("Day {day}: last words"),
        "speeches": N_("Day {day}: speeches"),
        "defence": N_("Day {day}: defence"),
        "eliminate_all": N_("Day {day}: eliminate them all?"),
        "ended": N_("The game is over"),
    }
    return _(titles.get(phase, N_("Day {day}"))).format(day=_.number(day))


def seat_label(_: Translator, seat: int, name: str, bot: bool = False) -> str:
    """A player as the table knows him: his number and his name, and a bot says it is one (in words, so a screen
    reader says it too)."""
    if bot:
        return _("{number}. {name} (bot)").format(number=_.number(seat), name=name)
    return _("{number}. {name}").format(number=_.number(seat), name=name)


def event_text(_: Translator, rules: str, event: Mapping[str, Any], name_of: NameOf, me: int,
               phase: str = "") -> str | None:
    """One visible event (that happened in ``phase``) as a sentence, or None for events shown elsewhere."""
    kind = event.get("type")
    if kind == "death":
        name = name_of(int(event["seat"]))
        cause = str(event.get("cause", ""))
        role = event.get("role")
        if event.get("sent_off"):
            text = _("{name} was sent from the table.").format(name=name)
        elif cause == "fouls":  # the moderator's doing, seen by all, night or day
            text = _(DEATH_CAUSES[cause]).format(name=name)
        elif phase == "night":  # the table learns who died, not by whose hand
            text = _("{name} died tonight.").format(name=name)
        elif cause in ("vote", "kamikaze"):
            text = _(DEATH_CAUSES[cause]).format(name=name)
        else:
            text = _("{name} died.").format(name=name)
        if role:
            text += " " + _("Role: {role}.").format(role=role_name(_, rules, str(role)))
        return text
    if kind == "check":
        result = str(event["result"])
        if "seat" not in event:
            return _(UNSIGNED_CHECK_RESULTS.get(result, UNSIGNED_CHECK_RESULTS["peaceful"])).format(
                target=name_of(int(event["target"])))
        return _(CHECK_RESULTS.get(result, CHECK_RESULTS["peaceful"])).format(
            checker=name_of(int(event["seat"])), target=name_of(int(event["target"])))
    if kind == "note":
        return _(NOTE_RESULTS.get(str(event["result"]), NOTE_RESULTS["red"])).format(
            target=name_of(int(event["target"])))
    if kind == "witness":
        attackers = _.join(name_of(int(seat)) for seat in event.get("attackers", []))
        return _("At {target}'s door you saw: {attackers}.").format(
            target=name_of(int(event["target"])), attackers=attackers)
    if kind == "quiet_visit":
        return _("Nobody came to {target}'s door tonight.").format(target=name_of(int(event["target"])))
    if kind == "frozen":
        return _("You were frozen tonight: your action had no effect.")
    if kind == "role_change":
        seat = int(event["seat"])
        role = role_name(_, rules, str(event["role"]))
        if seat == me:
            return _("You are now: {role}.").format(role=role)
        return _("{name} is now: {role}.").format(name=name_of(seat), role=role)
    if kind == "nomination":
        return _("{name} nominated {target}.").format(name=name_of(int(event["seat"])),
                                                      target=name_of(int(event["target"])))
    if kind == "vote_result":
        return _vote_result(_, event, name_of)
    if kind == "foul":
        return _("{name} gets a foul ({amount}); {total} in all.").format(
            name=name_of(int(event["seat"])), amount=_.number(float(event["amount"])),
            total=_.number(float(event["total"])))
    if kind == "foul_withdrawn":
        return _("The moderator withdrew a foul from {name}; {total} in all.").format(
            name=name_of(int(event["seat"])), total=_.number(float(event["total"])))
    if kind == "speech_lost":
        return _("{name} loses this speech to fouls.").format(name=name_of(int(event["seat"])))
    if kind == "eliminate_all_result":
        if event.get("passed"):
            return _("{yes} of {living} voted to eliminate them all: they are out.").format(
                yes=_.number(int(event["yes"])), living=_.number(int(event["living"])))
        return _("{yes} of {living} voted to eliminate them all: not enough, nobody is out.").format(
            yes=_.number(int(event["yes"])), living=_.number(int(event["living"])))
    if kind == "game_over":
        return _(WINNERS.get(str(event.get("winner")), WINNERS["draw"]))
    if kind == "best_move":  # issue 30 (engine.best_move)
        return _(BEST_MOVE).format(
            name=name_of(int(event["seat"])), named=_.join(name_of(int(seat)) for seat in event.get("targets", [])))
    if kind == "extra_points":
        return _("The moderator's extra points for {name}: {amount}.").format(
            name=name_of(int(event["seat"])), amount=_.number(float(event["amount"])))
    return None


def penalty_text(_: Translator, name: str) -> str:
    """The 3-foul penalty vote, as the tally and the result show it."""
    return _("+1 penalty vote for {name}.").format(name=name)


def _vote_result(_: Translator, event: Mapping[str, Any], name_of: NameOf) -> str:
    """What the vote did, each outcome in its own words: a re-vote is not the vote, and no vote is no vote."""
    eliminated = event.get("eliminated")
    tied = event.get("tied") or []
    single = event.get("single")
    revote = int(event.get("round") or 1) > 1
    if single:
        if eliminated:
            text = _("{name} was the only nominee: eliminated without a vote.")
        else:
            text = _("{name} was the only nominee: nobody is eliminated today.")
        return text.format(name=name_of(int(single)))
    if eliminated:
        text = _("The re-vote: {name} is eliminated.") if revote else _("The vote: {name} is eliminated.")
        text = text.format(name=name_of(int(eliminated)))
    elif tied:
        names = _.join(name_of(int(s)) for s in tied)
        text = (_("The re-vote is tied again between {names}.") if revote
                else _("The vote is tied between {names}.")).format(names=names)
    elif not any(target is not None for target in (event.get("votes") or {}).values()):
        text = _("Nobody voted: nobody is eliminated.")
    elif "tied" not in event:  # uz: a tie without a re-vote
        text = _("The vote is tied: nobody is eliminated.")
    else:
        text = _("The vote: nobody is eliminated.")
    for seat in event.get("penalties") or []:
        text += " " + penalty_text(_, name_of(int(seat)))
    return text


def timeline_text(_: Translator, rules: str, item: Mapping[str, Any], name_of: NameOf) -> str | None:
    """One line of the after-game timeline: a night choice, or an event with its real cause."""
    if item.get("type") == "choice":
        template = TIMELINE_ACTS.get(str(item.get("act")))
        if template is None or item.get("target") is None:
            return None
        text = _(template).format(name=name_of(int(item["seat"])), role=role_name(_, rules, str(item["role"])),
                                  target=name_of(int(item["target"])))
        if item.get("note"):
            text += " " + _("A note was left with it.")
        blocked = BLOCKED_BY.get(str(item.get("blocked", "")))
        if blocked:  # the lover's block (uz), the courtesan's freeze (uk): the act did not happen
            text += " " + _(blocked)
        return text
    if item.get("type") == "check" and item.get("note"):
        told = event_text(_, rules, item, name_of, 0, "night")
        return told + " " + _("A note was left with it.") if told else None
    if item.get("type") == "death" and not item.get("sent_off"):
        cause = str(item.get("cause", ""))
        template = DEATH_CAUSES.get(cause)
        if template:
            return _(template).format(name=name_of(int(item["seat"])))
    return event_text(_, rules, item, name_of, 0, str(item.get("phase", "")))

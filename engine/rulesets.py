"""The two rule sets as data plus a few hooks, registered by name (``uz``, ``uk``).

Every difference between the rule sets lives here, as a table, an attribute or a hook: the shared core
(``engine.game``, ``engine.view``, ``engine.knowledge``, ``engine.bots``) asks its rule set and never compares
the rule set's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import uk_day, uk_night, uz_day, uz_night
from engine.actions import Act, Action, NightAct
from engine.dealing import PLAYER_RANGE
from engine.errors import RuleError
from engine.i18n import N_
from engine.night import Slots
from engine.options import OPTION_TABLES, OptionSpec
from engine.roles import ROLE_TABLES, Role, RoleInfo
from engine.state import GameState, Phase
from engine.wins import uk_winner, uz_winner


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """One rule set: its tables, what sets it apart (attributes) and the steps it plays its own way (hooks)."""

    name: str
    roles: dict[Role, RoleInfo]
    options: tuple[OptionSpec, ...]
    players: tuple[int, int]
    first_phase: Phase
    # A day number is its night then its day (uz: night 1, day 1, night 2, ...), or its day then its night (uk):
    # the counter moves at the end of the day, or at the end of the night; the timeline sorts the same way.
    night_first: bool
    begin: Callable[[GameState], None]  # what the first phase starts with (uk: the first day's speakers)
    night_slots: Callable[[GameState, int], Slots]
    night_targets: Callable[[GameState, int, Act], list[int]]
    # Why ``act`` is offered to this seat tonight but may not be chosen (shown greyed, with the reason), or None.
    night_refusal: Callable[[GameState, int, Act], str | None]
    validate_night: Callable[[GameState, NightAct], None]
    resolve_night: Callable[[GameState], None]
    start_day: Callable[[GameState, list[int]], None]  # the day after a night, given the night's dead
    apply_day: Callable[[GameState, Action], bool]  # a day action; True when the day is over
    day_deadline: Callable[[GameState], bool]  # the day's clock ran out; True when the day is over
    winner: Callable[[GameState], str | None]
    night_powers: tuple[str, ...]
    # uz: every living player may be voted for, and a voter may abstain; uk: the nominees only, and a voter must
    # choose one of them (a vote in rounds, ballot by ballot).
    open_vote: bool
    fouls: bool  # uk: a moderator gives fouls, takes them back and sends players from the table
    commissar_note: bool  # uk: the commissar may leave one note with a check, read out at dawn
    sergeant: bool  # uz: the commissar has sergeants (who may know him: the option commissar_knows_sergeant)


RULESETS: dict[str, RuleSet] = {
    "uz": RuleSet(name="uz", roles=ROLE_TABLES["uz"], options=OPTION_TABLES["uz"], players=PLAYER_RANGE["uz"],
                  first_phase=Phase.NIGHT, night_first=True, begin=uz_day.begin,
                  night_slots=uz_night.slots, night_targets=uz_night.targets, night_refusal=uz_night.refusal,
                  validate_night=uz_night.validate, resolve_night=uz_night.resolve,
                  start_day=uz_day.start_day, apply_day=uz_day.apply, day_deadline=uz_day.deadline,
                  winner=uz_winner, night_powers=("kill", "check", "shoot", "heal", "block", "cover", "visit"),
                  open_vote=True, fouls=False, commissar_note=False, sergeant=True),
    "uk": RuleSet(name="uk", roles=ROLE_TABLES["uk"], options=OPTION_TABLES["uk"], players=PLAYER_RANGE["uk"],
                  first_phase=Phase.SPEECHES, night_first=False, begin=uk_day.begin,
                  night_slots=uk_night.slots, night_targets=uk_night.targets, night_refusal=uk_night.refusal,
                  validate_night=uk_night.validate, resolve_night=uk_night.resolve,
                  start_day=uk_day.start_day, apply_day=uk_day.apply, day_deadline=uk_day.deadline,
                  winner=uk_winner, night_powers=("kill", "check", "heal", "freeze"),
                  open_vote=False, fouls=True, commissar_note=True, sergeant=False),
}


def ruleset(state_or_name: GameState | str) -> RuleSet:
    """The rule set a game plays (or the one of this name); an unknown name is a ``RuleError``."""
    name = state_or_name if isinstance(state_or_name, str) else state_or_name.rules
    try:
        return RULESETS[name]
    except KeyError:
        raise RuleError(N_("Unknown rule set {name}."), name=str(name)[:20]) from None

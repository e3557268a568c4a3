"""The option table of each rule set: every decided point of the rulebook, and the timers.

The web lobby renders these tables; a scenario's ``options`` names them. Defaults are the
rulebook's decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import RuleError
from engine.i18n import N_

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    default: OptionValue
    label: str
    help: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0
    timer: bool = False

    def check(self, value: object) -> OptionValue:
        """Return the value in its proper type, or raise RuleError."""
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
        elif isinstance(self.default, int):
            if isinstance(value, int) and not isinstance(value, bool) and self.minimum <= value <= self.maximum:
                return value
        elif isinstance(value, str) and value in self.choices:
            return value
        raise RuleError(N_("Option {name} cannot be {value}."), name=self.name, value=repr(value)[:40])


def _timer(name: str, default: int, label: str) -> OptionSpec:
    return OptionSpec(name, default, label, N_("Seconds."), minimum=3, maximum=600, timer=True)


ACTING_DON = OptionSpec(
    "acting_don", "lowest_mafia", N_("When the don is dead"),
    N_("lowest_mafia: the lowest-numbered living mafia chooses the kill; none: the mafia no longer kills."),
    choices=("lowest_mafia", "none"))
DEAD_SEE_ROLES = OptionSpec(
    "dead_see_roles", False, N_("The dead see every role"),
    N_("Off: a dead player keeps only what he knew alive, so he cannot signal roles across the table."))
RESULT_HOLD = OptionSpec(
    "result_hold", 5, N_("The day's result on screen"),
    N_("Seconds every phone and the TV show the day's result (who is out, or nobody) before the night begins; "
       "0: the night begins at once."), minimum=0, maximum=30, timer=True)
DAY_LIMIT = OptionSpec(
    "day_limit", 40, N_("Draw after day"),
    N_("A game with no winner when day N's vote (and what follows from it) is over ends in a draw; N is this "
       "number (a stalemate guard)."), minimum=3, maximum=200)

# Points (issue 30, ``engine.points``): decimal strings, so a lobby offers them as a list and a file keeps them exact.
POINTS_WIN = OptionSpec(
    "points_win", "1", N_("Points for a win"),
    N_("Each player of the winning team gets this many points (a draw gives none)."),
    choices=("0.5", "1", "1.5", "2", "3"))
POINTS_EXTRA_LIMIT = OptionSpec(
    "points_extra_limit", "0.5", N_("The moderator's extra points"),
    N_("After the game the moderator may add or take up to this many points per player, shown to everyone "
       "(0: none). Without a moderator there are none."),
    choices=("0", "0.25", "0.5", "1"))

UZ_OPTIONS: tuple[OptionSpec, ...] = (
    _timer("night_seconds", 20, N_("Night")),
    _timer("discussion_seconds", 30, N_("Discussion")),
    _timer("vote_seconds", 15, N_("Vote")),
    _timer("kamikaze_seconds", 15, N_("Kamikaze's pick")),
    RESULT_HOLD,
    ACTING_DON,
    OptionSpec("commissar_knows_sergeant", True, N_("Commissar and sergeant know each other"),
               N_("They see each other's role from the start.")),
    OptionSpec("sergeant_succession", True, N_("Sergeant takes over"),
               N_("When the commissar dies, the lowest-numbered living sergeant becomes commissar, "
                  "at the end of that night or right after that day death.")),
    OptionSpec("lover_blocks_commissar", False, N_("The lover can block the commissar"),
               N_("Off: blocking the commissar has no effect and nobody is told.")),
    OptionSpec("block_cancels_kill", "acting_don", N_("Which blocked mafia player cancels the kill"),
               N_("acting_don: only blocking the one who chooses the kill cancels it; "
                  "any_member: blocking any mafia-team player cancels it."),
               choices=("acting_don", "any_member")),
    OptionSpec("don_check_result", "peaceful", N_("The don shows to the commissar as"),
               N_("What the commissar's check says about the dealt don."), choices=("peaceful", "mafia")),
    OptionSpec("killer_check_result", "peaceful", N_("The killer shows to the commissar as"),
               N_("What the commissar's check says about the killer."), choices=("peaceful", "mafia")),
    OptionSpec("werewolf_order", "killer_mafia_commissar", N_("Werewolf hit by several"),
               N_("Which attack decides his fate when several hit him in one night."),
               choices=("killer_mafia_commissar", "mafia_commissar_killer")),
    OptionSpec("doctor_self_heals", 1, N_("Doctor's self-heals per game"),
               N_("How many times the doctor may heal himself."), minimum=0, maximum=99),
    OptionSpec("tie_result", "nobody", N_("A tied vote"),
               N_("nobody: nobody is eliminated; random: one of the tied players, drawn by the game."),
               choices=("nobody", "random")),
    OptionSpec("reveal_roles_on_death", True, N_("Reveal roles on death"),
               N_("A dead player's role is announced to everyone.")),
    OptionSpec("kamikaze_pick_before_win_check", False, N_("The kamikaze picks before the win check"),
               N_("Off: if the kamikaze's elimination ends the game, he picks nobody.")),
    OptionSpec("thirteen_players", "civilian", N_("The 13th player"),
               N_("What a 13-player table adds to the 12-player table."), choices=("civilian", "hobo")),
    OptionSpec("big_game_mafia_divisor", 5, N_("Mafia count from 22 players"),
               N_("From 22 players the plain mafia count is the player count divided by this, rounded down."),
               minimum=3, maximum=10),
    DEAD_SEE_ROLES,
    DAY_LIMIT,
    POINTS_WIN,
    POINTS_EXTRA_LIMIT,
)

UK_OPTIONS: tuple[OptionSpec, ...] = (
    _timer("speech_seconds", 60, N_("Speech")),
    _timer("defence_seconds", 30, N_("Defence")),
    _timer("last_words_seconds", 30, N_("Last words")),
    _timer("vote_seconds", 15, N_("Vote")),
    _timer("night_seconds", 30, N_("Night")),
    RESULT_HOLD,
    ACTING_DON,
    OptionSpec("repeat_target_nights", 2, N_("Same target nights in a row"),
               N_("The courtesan and the doctor may choose the same player at most this many nights in a row."),
               minimum=1, maximum=99),
    OptionSpec("repeat_counts_without_effect", True, N_("A choice without effect counts"),
               N_("On: a night counts for the limit above even when the choice did not take effect.")),
    OptionSpec("day_one_votes", True, N_("Nominations on day 1"),
               N_("On: day 1 (introductions) has a vote when players were nominated; off: day 1 has no "
                  "nominations and no vote.")),
    OptionSpec("single_nominee", "eliminated_except_day_one", N_("A single nominee"),
               N_("The one nominee left when the vote begins. eliminated_except_day_one: eliminated without a vote, "
                  "but nobody is eliminated on day 1; always_eliminated; never_eliminated."),
               choices=("eliminated_except_day_one", "always_eliminated", "never_eliminated")),
    OptionSpec("missed_vote", "last_nominee", N_("A vote not cast in time"),
               N_("last_nominee: goes to the last-nominated candidate of the round who is not the voter; "
                  "not_counted: is lost."), choices=("last_nominee", "not_counted")),
    OptionSpec("second_tie", "eliminate_all_vote", N_("A tie in the re-vote"),
               N_("eliminate_all_vote: more than half of the living must vote yes to eliminate all tied; "
                  "nobody: nobody is eliminated."), choices=("eliminate_all_vote", "nobody")),
    OptionSpec("three_fouls_penalty_vote", True, N_("Penalty vote at three fouls"),
               N_("At three fouls a player also gets one vote against him in the next vote in which he is "
                  "a nominee.")),
    OptionSpec("double_foul_by_day", False, N_("Two fouls at once by day"),
               N_("Off: the moderator gives 2 fouls at once only at night, for gestures or sounds.")),
    OptionSpec("withdrawn_foul_restores", True, N_("A withdrawn foul gives back its cost"),
               N_("On: when a withdrawn foul takes a player below 3, a speech still to be lost and a penalty vote "
                  "not yet counted are given back.")),
    OptionSpec("reveal_roles_on_death", False, N_("Reveal roles on death"),
               N_("Off, club style: roles are shown only when the game ends.")),
    OptionSpec("lone_courtesan_kills", True, N_("A lone courtesan shoots"),
               N_("When no don and no mafia are alive, the courtesan also kills each night.")),
    DEAD_SEE_ROLES,
    DAY_LIMIT,
    OptionSpec("best_move", False, N_("Best move"),
               N_("On: a player killed on the first night names up to three players he takes for black, once, "
                  "before the day's speeches; it scores when two or three of them are black.")),
    POINTS_WIN,
    OptionSpec("points_fouls_removed", "-0.5", N_("Points for removal by fouls"),
               N_("Added to the points of a player removed from the table by fouls (a negative number takes "
                  "points away)."), choices=("0", "-0.25", "-0.5", "-0.75", "-1")),
    OptionSpec("points_best_move_two", "0.25", N_("Best move: two black named"),
               N_("Points for a best move that names two black players."),
               choices=("0", "0.1", "0.2", "0.25", "0.3", "0.5")),
    OptionSpec("points_best_move_three", "0.5", N_("Best move: three black named"),
               N_("Points for a best move that names three black players."),
               choices=("0", "0.25", "0.4", "0.5", "0.6", "0.75", "1")),
    POINTS_EXTRA_LIMIT,
)

OPTION_TABLES: dict[str, tuple[OptionSpec, ...]] = {"uz": UZ_OPTIONS, "uk": UK_OPTIONS}


def defaults(rules: str) -> dict[str, OptionValue]:
    return {spec.name: spec.default for spec in OPTION_TABLES[rules]}


def resolve(rules: str, given: Mapping[str, object]) -> dict[str, OptionValue]:
    """The defaults with ``given`` applied; unknown names are ignored by the caller's choice."""
    specs = {spec.name: spec for spec in OPTION_TABLES[rules]}
    result = defaults(rules)
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            raise RuleError(N_("There is no option named {name}."), name=str(name)[:40])
        result[name] = spec.check(value)
    return result

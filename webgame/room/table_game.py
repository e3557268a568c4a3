"""The game of a room, with its clock: who sits where, the engine's state, the step's deadline, the action log.

An action goes ``apply`` -> ``engine.game.validate`` -> ``store.append_action`` -> ``engine.game.apply`` (in place):
refused, or not written, it changes nothing, and no page ever draws an action the log does not hold. A new step
gets a new absolute deadline (or, paused, a new remainder); the end of the game closes it; the clock itself, with
the day's result held before the night, is ``webgame.room.game_clock.GameClock``. The room
(``webgame.room.rooms.Room``) holds the lock, checks who asks, and tells the pages afterwards (``Room.change``):
the game never tells them itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from engine import actions as engine_actions
from engine.actions import Action, Deadline
from engine.game import apply, new_game, replay, step_seconds, validate
from engine.knowledge import MODERATOR, SPECTATOR, Viewer
from engine.options import OptionValue
from engine.reach import mark, reach
from engine.rulesets import ruleset
from engine.state import GameState, Phase
from engine.view import OwnPart, chat_channels, own_part, public_view, view, with_public
from engine.view_types import PublicView, View
from webgame.errors import Refusal
from webgame.language.i18n import N_
from webgame.room.chat import Chat
from webgame.room.game_clock import GameClock, Stage
from webgame.room.projection import DatedEvent, Projection, ShownView
from webgame.room.result_hold import ResultHold
from webgame.room.seating import SeatInfo, seat_info
from webgame.store import leases, queries as store
from webgame.store.queries import GameRecord, RoomStatus, SeatRecord

log = logging.getLogger(__name__)


__all__ = ["Stage", "TableGame"]

# The keys of a seat's view whose values often equal another seat's (``TableGame._alike``); a seat's own ("me",
# "viewer") never do.
ALIKE_KEYS = ("actions", "chat", "roles", "teams", "team_night")
Dated = dict[int, tuple[int, str, Any]]  # id(an event of the engine's) -> (its day, its phase, the event)


class TableGame(GameClock):
    """A room's current game (none in the lobby): its stage, seating, engine state and clock, kept with the log."""

    def __init__(self, room_id: int, code: str, now: Callable[[], float]) -> None:
        self.room_id, self.code, self.now = room_id, code, now
        self.stage = Stage.LOBBY
        self.game_id: int | None = None
        self.seating: list[SeatInfo] = []  # engine seat n is seating[n - 1]
        self.state: GameState | None = None
        self.deadline: float | None = None  # absolute epoch seconds
        self.paused_remaining: float | None = None
        self.hold = ResultHold()  # the day's result held on the screens before the night (webgame.room.result_hold)
        self._public: PublicView | None = None
        self._kept: PublicView | None = None  # the public part made last (``kept_alike``)
        # What the viewers of one state share (``_shared``): that state, its dated events, its views' alike values.
        self._shared_of: tuple[tuple[int, int, int], Dated, dict[str, list[Any]]] | None = None
        self._reached = Reached()  # whose own view each action could change (``own_view``)
        self._moved_at: dict[str, int] = {}  # a key of the public part -> after how many actions it last changed
        self._moved_of: tuple[tuple[int, int], frozenset[str]] | None = None  # the last ``moved_since`` answer

    # ------------------------------------------------------------ who is who

    def game_seat(self, token_hash: str | None) -> int:
        """The engine seat number of this token in the current game, 0 if none."""
        if token_hash is None:
            return 0
        for number, seat in enumerate(self.seating, 1):
            if seat.token_hash == token_hash:
                return number
        return 0

    def viewer(self, token_hash: str | None, moderator: bool) -> Viewer:
        """How this token sees the game: its seat, the moderator (``moderator``: the room says so), a spectator."""
        if self.state is None:
            return SPECTATOR
        seat = self.game_seat(token_hash)
        if seat:
            return Viewer.of_seat(seat)
        if moderator and self.game_id is not None:
            return MODERATOR
        return SPECTATOR

    def name_of(self, seat: int) -> str:
        """The name at engine seat ``seat`` of the current game."""
        if 1 <= seat <= len(self.seating):
            return self.seating[seat - 1].name
        return "?"

    def seat_is_bot(self, seat: int) -> bool:
        """Whether a bot plays engine seat ``seat`` (every screen says so next to its name)."""
        return 1 <= seat <= len(self.seating) and self.seating[seat - 1].is_bot

    def seat_alive(self, seat: int) -> bool:
        return self.state is not None and 1 <= seat <= self.state.n and bool(self.state.alive[seat - 1])

    def write_channels(self, viewer: Viewer) -> list[str]:
        """The chats this viewer may write to now (none without a game)."""
        return [] if self.state is None else chat_channels(self.state, viewer)["write"]

    # ------------------------------------------------------------ the way out

    def public(self) -> PublicView | None:
        """The public part of the projection, computed once per state change and shared by every viewer (None
        without a game)."""
        if self._public is None and self.state is not None:
            before = self._kept
            self._public = self._kept = kept_alike(public_view(self.state), before)
            actions, values = self._reached.actions, cast(dict[str, object], before or {})
            for key, value in self._public.items():
                if values.get(key, _NONE) is not value:  # kept alike: a value that did not change is the same object
                    self._moved_at[key] = actions
        return self._public

    @property
    def applied(self) -> int:
        """How many actions this game applied since it was made or restored (``moved_since`` counts from it)."""
        return self._reached.actions

    def moved_since(self, viewer: Viewer, applied: int) -> frozenset[str] | None:
        """The keys of the public part that changed since this viewer's view was made, ``applied`` actions into the
        game, when nothing since could change his own part (``engine.reach``); None when something could have (or
        for the moderator, whose own view is made at every change). His view now is the one he has with these
        public values changed, the room's own keys aside (the clock, the result's hold, a moderator's controls)."""
        reached = self._reached
        if self.state is None or viewer.kind == "moderator" or not 0 <= applied <= reached.actions \
                or reached.last_reaching(viewer) > applied:
            return None
        self.public()  # the present state's public part: its changed keys noted
        held = self._moved_of
        if held is None or held[0] != (reached.actions, applied):  # the same for most pages of a change
            held = self._moved_of = ((reached.actions, applied),
                                     frozenset(key for key, at in self._moved_at.items() if at > applied))
        return held[1]

    def projection(self, viewer: Viewer, chat: Chat, acting_moderator: bool = False) -> Projection | None:
        """What this viewer may be shown of the game (None when there is none). ``acting_moderator``: a player
        who took a gone moderator's controls (``webgame.room.host_watch``): his seat's view, and the moderator's
        actions (fouls: the living seats, no roles) under a key of their own."""
        state = self.state
        if state is None or self.game_id is None:
            return None
        made, dated, fresh = self._reached.own_view(state, viewer, self.public())
        if fresh:  # a view made anew: its values made alike, and kept so (his next views hold the shared values)
            self._reached.keep(viewer, self._alike(made))
        seen = cast(ShownView, made)  # a View is a ShownView without the room's keys
        shown = self.hold.view(seen, self.left())
        if acting_moderator and viewer.kind == "seat" and ruleset(state).fouls:
            shown = {**shown, "moderator_actions": view(state, MODERATOR, self.public())["actions"]}
        seat = viewer.seat if viewer.kind == "seat" else 0
        return Projection(
            game_id=self.game_id, view=shown, viewer_kind=viewer.kind, viewer_seat=seat,
            events=dated if dated is not None else self._reached.dated(viewer, self._dated(shown["events"])),
            chat=chat.readable(shown["chat"]["read"]), alive_seat=self.seat_alive(seat), seats=state.n,
        )

    def _alike(self, made: Any) -> Any:
        """A seat's view whose values equal another view's of this state (``ALIKE_KEYS``: the mafia's roles, teams
        and night, the chats one reads and writes, the town's one "pass" at night) hold that very value: one object
        for the seats that see the same, not one on every seat (memory on every phone). The view was just made by
        the engine for this call, so it is changed before anyone reads it; every value stays the engine's own. Only
        a view made anew: one made from a kept own part (``Reached``) holds the values its own part was made alike
        with (comparing them again was a dozen seats' values walked against each other at every change, issue 32)."""
        alike = self._shared()[1]
        for key in ALIKE_KEYS:
            value = made.get(key)
            if value is None:
                continue
            known = alike.setdefault(key, [])
            for other in known:
                if other is value or other == value:
                    made[key] = other
                    break
            else:
                known.append(value)
        return made

    def _shared(self) -> tuple[Dated, dict[str, list[Any]]]:
        """The dated events and the alike values of the present state (new ones from its first viewer on)."""
        state = self.state
        now = (id(state), len(state.log), state.step) if state is not None else (0, 0, 0)
        if self._shared_of is None or self._shared_of[0] != now:
            self._shared_of = (now, {}, {})
        return self._shared_of[1], self._shared_of[2]

    def _dated(self, events: list[Any]) -> list[tuple[int, str, Any]]:
        """Each event with its day and phase, one tuple per event of this state for every viewer who reads it (the
        engine shares its event dicts between viewers: the seats' projections share these too, not a tuple per event
        on every seat)."""
        made = self._shared()[0]
        dated = []
        for event in events:
            entry = made.get(id(event))
            if entry is None or entry[2] is not event:
                entry = made[id(event)] = (int(event["day"]), str(event["phase"]), event)
            dated.append(entry)
        return dated

    # ------------------------------------------------------------ a game's life

    def require_running(self) -> GameState:
        if self.stage is Stage.LOBBY or self.state is None:
            raise Refusal(N_("The game has not started yet."))
        if self.stage is Stage.FINISHED:
            raise Refusal(N_("The game is over."))
        return self.state

    async def start(self, rules: str, players: list[SeatInfo], options: dict[str, OptionValue], seed: int) -> None:
        """A new game of these players, dealt from ``seed``, logged, its first step's deadline set."""
        state = new_game(rules, len(players), seed, options)
        seating = [{"seat_id": seat.id, "name": seat.name} for seat in players]
        deadline = self.now() + step_seconds(state)
        game = await store.start_game(self.room_id, rules=rules, seed=seed, seating=seating, options=options,
                                      deadline_at=deadline)  # one write: refused whole if the lease is lost
        self.game_id, self.state, self.seating, self._public = game.id, state, list(players), None
        self._reached, self._moved_at, self._moved_of = Reached(), {}, None
        self.paused_remaining, self.deadline, self.hold = None, deadline, ResultHold()
        self.stage = Stage.PLAYING

    async def close(self) -> None:
        """Back to the lobby after the results: no game any more."""
        await store.set_room_status(self.room_id, RoomStatus.LOBBY)
        self.stage, self.state, self.game_id, self.seating = Stage.LOBBY, None, None, []
        self._reached, self._moved_at, self._moved_of = Reached(), {}, None
        self._public, self.deadline, self.paused_remaining, self.hold = None, None, None, ResultHold()

    async def restore(self, game: GameRecord, seats: list[SeatRecord]) -> None:
        """The game as the database holds it: its log replayed to the same step, the same deadline."""
        actions = [engine_actions.from_dict(payload) for payload in await store.load_actions(game.id)]
        state = replay(game.rules, len(game.seating), game.seed, game.options, actions)
        by_id = {seat.id: seat for seat in seats}
        self.seating = [seat_info(by_id[int(entry["seat_id"])]) for entry in game.seating]
        self.game_id, self.state, self._reached = game.id, state, Reached()
        self._moved_at, self._moved_of = {}, None
        if state.phase is Phase.ENDED:
            self.stage = Stage.FINISHED
            if game.finished_at is None:
                await store.finish_game(game.id, winner=state.winner, room_status=RoomStatus.FINISHED)
            return
        self.stage = Stage.PLAYING
        self.deadline, self.paused_remaining = game.deadline_at, game.paused_remaining
        self.hold = ResultHold(game.night_left)  # a restart during the day's result's hold: the rest of it
        if self.deadline is None and self.paused_remaining is None:
            self.deadline = self.now() + step_seconds(state)
            await store.set_deadline(game.id, deadline_at=self.deadline)

    # ------------------------------------------------------------ one action

    async def apply(self, action: Action) -> None:
        """Validate, write, then apply: a refused or unsaved action changes nothing, and the state (what every page
        draws) holds only actions the log holds. Refused: the engine's ``RuleError``, or a ``Refusal`` saying why
        it was not written."""
        state = self.state
        assert state is not None and self.game_id is not None
        self.hold.check(action, self.left())  # the day's result on the screens: the night waits for it
        validate(state, action)  # the engine's refusal, the state untouched
        before, phase, marked = state.step, state.phase, mark(state)
        await self._write(len(state.log), action)
        apply(state, action)  # validated on the same state: it cannot be refused now
        self._public = None
        self._reached.applied(reach(marked, state, action))
        await self._after_step(before, phase)

    async def _write(self, index: int, action: Action) -> None:
        """The action into the game's log at ``index``, fenced by the room's lease in a cluster; a ``Refusal`` saying
        why when it is not there. A write that reported a failure but landed (the connection lost after the commit)
        counts: the log is read back to tell."""
        assert self.game_id is not None
        try:
            lease = leases.fence(self.room_id)  # None in one process: no lease to check (webgame.store.leases)
            await store.append_action(self.game_id, index, engine_actions.to_dict(action),
                                      **({} if lease is None else {"lease": lease}))
        except leases.LeaseLost:  # another process runs the room now: it has the log
            log.warning("room %s: not written, the room's lease is lost", self.code)
            raise Refusal(N_("Something went wrong; please try again.")) from None
        except store.ActionIndexConflict:
            log.exception("room %s: the action log and the game disagree", self.code)
            raise Refusal(N_("Something went wrong; please try again.")) from None
        except Exception as error:  # the disk is full, the file locked or read-only, the server gone
            if await self._logged(index):
                log.warning("room %s: a write reported %r but the action is in the log", self.code, error)
                return  # it counted after all
            log.exception("room %s: an action could not be saved", self.code)
            raise Refusal(N_("The game could not be saved, so your action did not count. "
                             "Please try again.")) from None

    async def skip(self, step: int) -> None:
        """The host's "End now" of step ``step``: the day's result's hold if it is on (the night begins now), else
        the step (a stale tab's step is refused by the engine)."""
        state = self.require_running()
        if not (self.holding() and state.step == step and await self.release(early=True)):
            await self.apply(Deadline(step))

    async def _after_step(self, before: int, phase: Phase) -> None:
        """The clock (a new step, a new deadline) or the end, saved as well as the database allows: the action
        itself is in the log, and a restart recomputes what these writes would have kept."""
        new_state = self.state
        assert new_state is not None and self.game_id is not None
        try:
            if new_state.phase is Phase.ENDED:
                self.stage, self.deadline, self.paused_remaining = Stage.FINISHED, None, None
                await store.finish_game(self.game_id, winner=new_state.winner, room_status=RoomStatus.FINISHED)
            elif new_state.step != before:  # from a day into the night: the day's result held first
                seconds = float(step_seconds(new_state)) + self.hold.begin(phase, new_state)
                if self.paused_remaining is not None:
                    self.paused_remaining = seconds
                else:
                    self.deadline = self.now() + seconds
                await self._save_clock()
        except Exception:
            log.exception("room %s: the clock or the end of the game could not be saved", self.code)

    async def _logged(self, index: int) -> bool:
        """Whether the database's action log holds an action at ``index`` (False if it cannot be read)."""
        assert self.game_id is not None
        try:
            return len(await store.load_actions(self.game_id)) > index
        except Exception:
            log.exception("room %s: the action log could not be read back", self.code)
            return False


class Reached:
    """Each viewer's own part of his view (``engine.view.own_part``), kept with the number of actions it was made
    after, and whose own view each action since could change (``engine.reach``): a seat no action reached since
    gets his view with the present public part (``engine.view.with_public``), equal to the engine's own ``view``
    (a dozen seats' views made at every tap, issue 32); the moderator's is always made (his night overview changes
    with every choice), and anyone's after an action that could change everyone's (a new step, a death)."""

    __slots__ = ("_everyone", "_made", "_seats", "actions")

    def __init__(self) -> None:
        self.actions = 0  # applied since the game was made or restored
        self._everyone = 0  # the last action that could change anyone's own view
        self._seats: dict[int, int] = {}  # seat -> the last action that could change his own view
        # viewer -> (after how many actions it was made, his own part, his dated events, or None until his projection
        # dated them)
        self._made: dict[Viewer, tuple[int, OwnPart, list[DatedEvent] | None]] = {}

    def applied(self, seats: frozenset[int] | None) -> None:
        """One more action; ``seats``: whose own view it could change (None: anyone's)."""
        self.actions += 1
        if seats is None:
            self._everyone = self.actions
            self._made.clear()
        else:
            for seat in seats:
                self._seats[seat] = self.actions

    def last_reaching(self, viewer: Viewer) -> int:
        """The last action that could change this viewer's own part (0: none since the game was made or restored)."""
        return max(self._everyone, self._seats.get(viewer.seat, 0) if viewer.kind == "seat" else 0)

    def own_view(self, state: GameState, viewer: Viewer,
                 public: PublicView | None) -> tuple[View, list[DatedEvent] | None, bool]:
        """This viewer's view of ``state`` (as ``engine.view.view``), his dated events when they are the ones of the
        view made before (None: to be dated), and whether it was made anew (``keep`` it once made alike)."""
        if viewer.kind != "moderator" and public is not None:
            held = self._made.get(viewer)
            if held is not None and held[0] >= self.last_reaching(viewer):  # no action since it was made reached him
                return with_public(held[1], public), held[2], False
        return view(state, viewer, public), None, True

    def keep(self, viewer: Viewer, made: View) -> None:
        """Keep the own part of the view just made for this viewer by ``own_view`` (once its values were made alike
        to the other seats', ``TableGame._alike``: a view made from it later holds those very objects, so it is found
        alike by identity, not compared again value by value on every seat at every change). The moderator's is made
        at every change (``own_view``), not kept."""
        if viewer.kind != "moderator":
            self._made[viewer] = (self.actions, own_part(made), None)

    def dated(self, viewer: Viewer, events: list[DatedEvent]) -> list[DatedEvent]:
        """Keep the dated events of the view just made for this viewer (its next ones, while no action reaches him)."""
        held = self._made.get(viewer)
        if held is not None and held[2] is None:
            self._made[viewer] = (held[0], held[1], events)
        return events


def kept_alike(made: PublicView, before: PublicView | None) -> PublicView:
    """``made`` with each value equal to the one of the public part made before (same type, ``==``) replaced by
    that very object. Compared once per change of the room here, a value that did not change is then the same
    object in every viewer's view of the new state, so a page comparing what it drew from with what it would draw
    from now (``GameView.section_keys``: the panel's key is most of the view) finds it unchanged by identity,
    without walking it again, once per phone."""
    if before is None:
        return made
    old_values = cast(dict[str, object], before)
    kept: dict[str, object] = {}
    for key, value in made.items():
        old = old_values.get(key, _NONE)
        kept[key] = old if type(old) is type(value) and old == value else value
    return cast(PublicView, kept)


_NONE = object()  # no such key in the public part made before

"""What the simulated phones of one room do: create and join through the real pages, then play.

``GameRoom`` plays the game: the engine's heuristic bots choose every seat's action (from the state the
bench replays out of ``/_bench/game/CODE``), and the bench performs it as the taps a person makes on
that seat's phone (pick a target, then *Confirm*; *Skip*; *I'm ready to vote*; ...). A step nobody can
finish by a tap is ended by the host's *End now*. ``FloorRoom`` does the same on ``bench/floor_app.py``.

One action is measured from the moment its last tap leaves the phone to the first update (not a mere
countdown tick) that reaches each other phone whose projection the action changed: the largest of those
is "tap to every screen".

With ``bots`` (``--bots K``), the host fills the last K seats with the server's bots in the lobby (the
*Add a bot* button): the bench taps only for the phones, and when only bots are left to act it waits for the
server's log to grow (``/_bench/steps/CODE``, polled once a second), then replays the state again. The bots'
actions are counted (``bot_actions``) but not measured: nobody tapped them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bench.phone import Phone
from engine import actions as engine_actions
from engine.actions import (
    Action,
    Deadline,
    EliminateAll,
    EndSpeech,
    KamikazePick,
    NightAct,
    Nominate,
    Ready,
    Vote,
)
from engine.bots import Heuristic, Memory, next_actions
from engine.errors import RuleError
from engine.game import apply, replay
from engine.knowledge import Viewer
from engine.state import GameState, Phase
from engine.view import view

ACT_LABELS = {"kill": "Kill", "check": "Check", "shoot": "Shoot", "heal": "Heal", "block": "Block",
              "cover": "Cover", "visit": "Visit", "freeze": "Freeze", "suggest": "Suggest", "suspect": "Suspect"}
EFFECT_TIMEOUT = 10.0
SLOW_MS = float(os.environ.get("BENCH_SLOW_MS", "500"))
# BENCH_TV=1: each game room's TV screen (/r/CODE/screen) open too, from the game's start, as at a real table; it is not
# one of the screens an action's time waits for, and it is not reconnected after the storm (use it with --no-storm).
WITH_TV = os.environ.get("BENCH_TV") == "1"
# BENCH_RESULT_HOLD=N: the host types N into the lobby's "The day's result on screen" (the table's default, 5 s, when
# unset). During the hold no seat can act, so a table with it plays fewer actions a second than the floor at the same
# think time, and what the server spends in those seconds (the beats, the clock) counts against fewer actions
# (docs/PERFORMANCE.md, "The day's result's hold in the bench").
RESULT_HOLD = int(os.environ["BENCH_RESULT_HOLD"]) if os.environ.get("BENCH_RESULT_HOLD") else None
HOLD_LABEL = "The day's result on screen"
SETUP_TIMEOUT = 120.0  # many rooms join at once: a lobby step may wait behind the others
TIMERS = ("Night", "Discussion", "Vote", "Kamikaze's pick")  # uz, as the host's lobby labels them
ROLE_BUTTON = "reveal"  # the node id of the game screen's reveal toggle (every seat's phone has it in a game)
HELD_RESULT = "night-soon"  # the day's result held on every screen before the night (webgame.room.result_hold)
HOLD_TIMEOUT = 45.0  # the longest hold (30 s, the lobby's maximum) and a busy machine's delays


def in_game(phone: Phone) -> bool:
    """The phone shows a seat's game screen (its reveal toggle)."""
    return phone.node_key(ROLE_BUTTON) is not None


@dataclass
class Stats:
    all_ms: list[float] = field(default_factory=list)  # tap -> every affected screen, one per action
    each_ms: list[float] = field(default_factory=list)  # tap -> one screen
    own_ms: list[float] = field(default_factory=list)  # the night act toggle -> the tapper's own screen
    kind_ms: list[tuple[str, float]] = field(default_factory=list)  # (the action's kind, tap -> every screen)
    actions: int = 0
    bot_actions: int = 0  # the server's bots acted (counted from the log, not measured)
    polls: int = 0  # /_bench/steps requests while waiting for the bots (server CPU the bench itself costs)
    raced: int = 0  # a phone's step ended under its fingers because a server bot acted first (not an error)
    missed: int = 0  # an affected phone saw nothing within EFFECT_TIMEOUT
    refused: int = 0
    errors: int = 0
    games: int = 0
    error_text: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)  # the slowest actions: what they were

    def merge(self, other: Stats) -> None:
        for name in ("all_ms", "each_ms", "own_ms", "kind_ms", "error_text", "slow"):
            getattr(self, name).extend(getattr(other, name))
        for name in ("actions", "bot_actions", "polls", "raced", "missed", "refused", "errors", "games"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_text) < 20:
            self.error_text.append(text)


def phone_actions(state: GameState, policy: Heuristic) -> list[Action]:
    """The bots' actions for this step, plus the taps a table makes that bots leave to the clock."""
    planned = [dataclasses.replace(a, note=False) if isinstance(a, NightAct) else a
               for a in next_actions(state, policy)]
    phase = state.phase
    if phase is Phase.NIGHT:
        acting = {a.seat for a in planned if isinstance(a, NightAct)}
        planned += [NightAct(seat, "pass") for seat in state.living()
                    if seat not in acting and seat not in state.night_done]
    elif phase is Phase.DISCUSSION:
        planned += [Ready(seat) for seat in state.living() if seat not in state.ready]
    elif phase in (Phase.LAST_WORDS, Phase.DEFENCE) and state.speaker:
        planned.append(EndSpeech(state.speaker))
    return planned


class Room:
    def __init__(self, base: str, index: int, players: int, think: float, seed: int, bots: int = 0) -> None:
        self.base = base
        self.bots = bots  # seats the server's bots play (no phone)
        self.index = index
        self.think = think
        self.rng = random.Random(seed)
        self.phones = [Phone(base, f"room{index}-phone{i}") for i in range(players)]
        self.stats = Stats()
        self.path = ""
        self.last_missing: list[Phone] = []  # the phones that saw nothing of the last measured action
        self.watchers: list[Phone] = []  # screens that only watch (the TV: ``WITH_TV``)

    async def pause(self) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def first_pause(self) -> None:
        """Before a room's first tap of the play: a moment within one think time, so that the rooms' first taps come
        spread over it as all their later taps do, not all at the instant the play starts (80 rooms' first taps at
        once were a queue of 80 actions on the server, the game's first night's moves 50-90 ms behind)."""
        await asyncio.sleep(self.think * self.rng.uniform(0.0, 1.0))

    async def measure(self, actor: Phone, affected: list[Phone], tap: str, what: str = "", kind: str = "") -> bool:
        """Tap, then wait for every affected phone's first update. False if the tap was refused."""
        notes = len(actor.notifications)
        start = time.perf_counter()
        await actor.click(tap)
        watchers = affected or [actor]
        moments = await asyncio.gather(*(p.first_update_after(start, EFFECT_TIMEOUT) for p in watchers))
        self.stats.actions += 1
        seen = [m for m in moments if m is not None]
        self.stats.missed += len(moments) - len(seen)
        self.last_missing = [p for p, m in zip(watchers, moments, strict=True) if m is None]
        if len(actor.notifications) > notes:
            self.stats.refused += 1
            return False
        if seen:
            self.stats.each_ms.extend((m - start) * 1000 for m in seen)
            if len(seen) == len(moments):
                self.stats.all_ms.append((max(seen) - start) * 1000)
                self.stats.kind_ms.append((kind or what, self.stats.all_ms[-1]))
                if self.stats.all_ms[-1] > SLOW_MS and len(self.stats.slow) < 200:
                    self.stats.slow.append(f"{self.stats.all_ms[-1]:.0f} ms {what} ({len(watchers)} screens, the "
                                           f"first at {(min(seen) - start) * 1000:.0f} ms) at {time.time():.1f}")
        return True

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in [*self.phones, *self.watchers]), return_exceptions=True)

    async def recover_all(self, give_up: float) -> list[float]:
        """The storm: every phone reconnects (reloading its page when the server forgot it)."""
        return list(await asyncio.gather(*(self.recover(p, give_up) for p in self.phones)))

    async def recover(self, phone: Phone, give_up: float) -> float:
        try:
            await asyncio.wait_for(phone.closed.wait(), timeout=max(1.0, give_up - time.time()))
        except TimeoutError:
            await phone.drop()  # its socket never said it closed: reconnect anyway
        return await phone.recover(give_up)


class GameRoom(Room):
    """A room of the real game, driven through its pages."""

    def __init__(self, base: str, index: int, players: int, think: float, seed: int, bots: int = 0) -> None:
        super().__init__(base, index, players, think, seed, bots)
        self.names = [f"R{index:03d}P{i:02d}" for i in range(players)]
        self.code = ""
        self.state: GameState | None = None
        self.policy = Heuristic(random.Random(seed), Memory())
        self.seat_phone: dict[int, Phone] = {}
        self.seat_names: dict[int, str] = {}
        self.bot_seats: set[int] = set()
        self.bot_counted = (None, 0)  # (game id, bot actions in its log) at the last sync

    @property
    def host(self) -> Phone:
        return self.phones[0]

    # ------------------------------------------------------------ lobby, through the real forms

    async def setup(self) -> None:
        host = self.host
        await host.visit("/")
        await host.type_into(_need(host.find("nicegui-input", label="Your name"), "name input"), self.names[0])
        await host.click(_need(host.button("Create the room"), "create button"))
        for _ in range(100):
            if host.navigate_to:
                break
            await host.wait(0.2)
        self.path = _need(host.navigate_to, "navigation to the room")
        self.code = self.path.rsplit("/", 1)[-1]
        await host.drop()
        await host.visit(self.path)
        self.path = host.path  # the address bar after the redirect (a cluster's /p/NAME/r/CODE is /r/CODE): the link
        for label in TIMERS:  # long timers: the bench's taps end every step, the clock stays out of the way
            await host.type_into(_need(host.find("q-input", label=label), f"timer {label}"), 600)
        if RESULT_HOLD is not None:
            # typed as text, as a browser's field sends it (NiceGUI's number reads a bare 0 as an empty field)
            await host.type_into(_need(host.find("q-input", label=HOLD_LABEL), "the result's hold"), str(RESULT_HOLD))
        if TIMERS:  # the host's own fields are not redrawn by his change: the room's options tell when it is in
            await self._lobby_timers(600)
        for phone, name in zip(self.phones[1:], self.names[1:], strict=True):
            await phone.visit(self.path)
            await phone.tap(_need(phone.node_key("join-name"), "join form"), {"text": name})  # typed, then Enter
            await self._until(phone, lambda p: p.node_key("join-name") is None, "seated", timeout=SETUP_TIMEOUT)
        for _ in range(self.bots):
            start = time.perf_counter()
            await host.click(_need(host.node_key("add-bot"), "Add a bot"))
            if await host.first_update_after(start, SETUP_TIMEOUT) is None:
                raise TimeoutError(f"{host.label}: no bot added")
        await self.start()

    async def _lobby_timers(self, seconds: int) -> None:
        """Until the room's lobby holds ``seconds`` for every timer the host typed, and the result's hold he typed
        (``BENCH_RESULT_HOLD``), if any (``bench.hook``)."""
        deadline = time.perf_counter() + SETUP_TIMEOUT
        while True:
            options = (await self.host.get_json(f"/_bench/game/{self.code}")).get("lobby_options", {})
            held = RESULT_HOLD is None or options.get("result_hold") == RESULT_HOLD
            if held and sum(value == seconds for name, value in options.items()
                            if name.endswith("_seconds")) >= len(TIMERS):
                return
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{self.host.label}: the timers {options}")
            await asyncio.sleep(0.1)

    async def start(self) -> None:
        host = self.host
        deadline = time.perf_counter() + SETUP_TIMEOUT
        # The lobby first: after a game, the ended game's screen may still show the role button.
        await self._until(host, lambda p: p.button("Start the game") is not None, "start enabled",
                          timeout=SETUP_TIMEOUT)
        tapped: str | None = None
        while not in_game(host):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{host.label}: game page")
            key = host.button("Start the game")
            if key is not None and key != tapped:
                # A join redraws the host's lobby: a tap on the button the server has just replaced (its update
                # still on the way) is lost, so the new button is tapped again, as a person would.
                await host.click(key)
                tapped = key
            await host.wait(0.5)
        for phone in self.phones:
            await self._until(phone, in_game, "game page", timeout=SETUP_TIMEOUT)
        if WITH_TV and not self.watchers:
            tv = Phone(self.base, f"room{self.index}-tv")
            await tv.visit(f"{self.path}/screen")
            self.watchers.append(tv)
        await self.sync()

    async def _until(self, phone: Phone, check: Any, what: str, timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while not check(phone):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{phone.label}: {what}")
            await phone.wait(0.5)

    async def sync(self) -> None:
        """The state, replayed from the server's seed and log (the bench hook)."""
        data = await self.host.get_json(f"/_bench/game/{self.code}")
        seating = list(data["seating"])
        actions = [engine_actions.from_dict(item) for item in data["log"]]
        self.state = replay(data["rules"], len(seating), int(data["seed"]), data["options"], actions)
        by_name = dict(zip(self.names, self.phones, strict=True))
        self.seat_names = dict(enumerate(seating, 1))
        self.seat_phone = {seat: by_name[name] for seat, name in self.seat_names.items() if name in by_name}
        self.bot_seats = set(self.seat_names) - set(self.seat_phone)
        bot_moves = sum(getattr(action, "seat", None) in self.bot_seats for action in actions)
        game, counted = self.bot_counted
        self.stats.bot_actions += bot_moves - (counted if game == data["game_id"] else 0)
        self.bot_counted = (data["game_id"], bot_moves)
        self.policy = Heuristic(random.Random(self.rng.random()), Memory())

    def mine(self, planned: list[Action]) -> list[Action]:
        """The actions a phone taps (the host's *End now* included); the bots' are the server's."""
        return [action for action in planned if getattr(action, "seat", None) not in self.bot_seats]

    async def bots_moved_on(self) -> bool:
        """A bot acted on the server since the bench's last replay (so a button may have gone meanwhile)."""
        if not self.bot_seats or self.state is None:
            return False
        data = await self.host.get_json(f"/_bench/steps/{self.code}")
        return bool(data.get("actions", 0) > len(self.state.log) or data.get("game_id") != self.bot_counted[0])

    async def bots_acted(self, timeout: float = 30.0) -> bool:
        """Wait until the server's log holds more than the bench's (a bot acted), then replay it again."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            await asyncio.sleep(1.0)
            self.stats.polls += 1
            if await self.bots_moved_on():
                await self.sync()
                return True
        return False

    # ------------------------------------------------------------ playing

    async def play(self, stop: asyncio.Event) -> None:
        await self.first_pause()
        while not stop.is_set():
            try:
                await self.play_step(stop)
            except (LookupError, TimeoutError, ConnectionError) as error:
                if isinstance(error, LookupError) and await self.bots_moved_on():
                    self.stats.raced += 1
                else:
                    self.stats.error(f"{self.code}: {error!r}")
                await asyncio.sleep(1.0)
                try:
                    await self.sync()
                except Exception as sync_error:  # noqa: BLE001 - a broken room stops, the others go on
                    self.stats.error(f"{self.code}: sync {sync_error!r}")
                    return

    async def play_step(self, stop: asyncio.Event) -> None:
        state = self.state
        assert state is not None
        if state.phase is Phase.ENDED:
            await self.new_game()
            return
        self.policy.memory.update(state)
        step = state.step
        done_any = False
        planned = phone_actions(state, self.policy)
        for action in self.mine(planned):
            if stop.is_set() or state.step != step or _ended(state):  # ``act`` applies the action to ``state``
                return
            if await self.act(action):
                done_any = True
                await self.pause()
        if stop.is_set() or state.step != step or _ended(state) or done_any:
            return
        if len(self.mine(planned)) < len(planned) and await self.bots_acted():
            return  # the server's bots played their part of the step
        await self.act(Deadline(step))
        await self.pause()

    async def new_game(self) -> None:
        self.stats.games += 1
        host = self.host
        await self._until(host, lambda p: p.button("Play again") is not None, "play again")
        await host.click(_need(host.button("Play again"), "play again"))
        await self.start()

    def viewers(self) -> list[tuple[Phone, Viewer]]:
        return [(phone, Viewer.of_seat(seat)) for seat, phone in self.seat_phone.items()]

    async def act(self, action: Action) -> bool:
        """Perform one action as taps on its phone; measure. False if it was not legal (nothing tapped)."""
        state = self.state
        assert state is not None
        actor = self.host if isinstance(action, Deadline) else self.seat_phone[action.seat]
        before = {id(phone): view(state, viewer) for phone, viewer in self.viewers()}
        step_before = state.step
        try:
            apply(state, action)
        except RuleError:
            return False
        affected = [phone for phone, viewer in self.viewers()
                    if phone is not actor and view(state, viewer) != before[id(phone)]]
        await self.after_hold(actor)
        try:
            tap = await self.prepare(actor, action)
        except LookupError as missing:
            if not self.bot_seats:
                raise LookupError(f"{missing} for {action!r} ({state.phase}, step {state.step})") from missing
            # A server bot's action (the bench replayed it already) may still be on its way to this phone's
            # screen: like a person, wait for the screen to change once, then look again.
            await actor.first_update_after(time.perf_counter(), EFFECT_TIMEOUT / 2)
            try:
                tap = await self.prepare(actor, action)
            except LookupError as still:
                raise LookupError(f"{still} for {action!r} ({state.phase}, step {state.step})") from still
        what = f"{type(action).__name__} -> {state.phase}:{state.step}"
        kind = (type(action).__name__ + (f" {action.act}" if isinstance(action, NightAct) else "")
                + (" (a new step)" if state.step != step_before else ""))
        if not await self.measure(actor, affected, tap, what, kind):
            await self.sync()
        return True

    async def after_hold(self, phone: Phone) -> None:
        """After a day its result is held on every screen before the night (``webgame.room.result_hold``: no button
        but the reveal, and the host's *End now* would end the hold, not the night): like a person, the phone
        waits for the night's screen before it taps."""
        if phone.node_key(HELD_RESULT) is not None:
            await self._until(phone, lambda p: p.node_key(HELD_RESULT) is None, "the night after the day's result",
                              timeout=HOLD_TIMEOUT)

    async def pick(self, phone: Phone, key: str, then: Callable[[], str | None]) -> None:
        """A player picked in a grid: in the browser alone (screen.js), nothing is sent; ``then`` (the grid's button)
        is enabled at once."""
        await phone.click(key)
        _need(then(), "the grid's button after a pick")

    async def choose_act(self, phone: Phone, act: str) -> None:
        """The night's act toggle (shown when a seat has more than one act): tap the act's option if another
        one is chosen, and wait for the panel to be redrawn."""
        label = ACT_LABELS.get(act, act)
        toggle = phone.node_key("night-act")
        if toggle is not None:  # a node of the panel's screen part
            node = phone.node(toggle) or {}
            wanted = next((value for value, text in node.get("opts") or () if text == label), act)
            if node.get("v") == wanted:
                return
            start = time.perf_counter()
            await phone.tap(toggle, wanted)
        else:  # a q-btn-toggle element
            toggle = phone.find("q-btn-toggle", prop="options")
            if toggle is None:
                return
            props = phone.elements[toggle]["props"]
            wanted = next((o["value"] for o in props["options"] if o["label"] == label), act)
            if props.get("model-value") == wanted:
                return
            start = time.perf_counter()
            await phone.type_into(toggle, wanted)
        moment = await phone.first_update_after(start, EFFECT_TIMEOUT)
        if moment is None:
            raise TimeoutError(f"{phone.label}: no re-render after the act toggle")
        self.stats.own_ms.append((moment - start) * 1000)

    def target(self, phone: Phone, seat: int | None) -> str:
        """A player in a grid picked in the browser (``pick``), else a button of his name (the kamikaze's)."""
        assert self.state is not None
        name = self.seat_names[seat] if seat else ""
        return _need(phone.pick_key(name) or phone.button(contains=name), f"target button {name}")

    async def prepare(self, phone: Phone, action: Action) -> str:
        """Every tap before the last one; returns the id of the last button to tap."""
        if isinstance(action, Deadline):
            return _need(phone.button("End now"), "End now")
        if isinstance(action, NightAct):
            if action.act == "pass":
                return _need(phone.button("Skip"), "Skip")
            await self.choose_act(phone, action.act)
            await self.pick(phone, self.target(phone, action.target), lambda: phone.button("Confirm"))
            return _need(phone.button("Confirm"), "Confirm")
        if isinstance(action, Vote):
            if action.target is None:
                return _need(phone.button("Abstain"), "Abstain")
            await self.pick(phone, self.target(phone, action.target), lambda: phone.button("Confirm"))
            return _need(phone.button("Confirm"), "Confirm")
        if isinstance(action, Ready):
            return _need(phone.button("I'm ready to vote"), "ready")
        if isinstance(action, Nominate):
            await self.pick(phone, self.target(phone, action.target), lambda: phone.button(contains="Nominate "))
            return _need(phone.button(contains="Nominate "), "Nominate")
        if isinstance(action, EndSpeech):
            return _need(phone.button("End my speech"), "End my speech")
        if isinstance(action, KamikazePick):
            return self.target(phone, action.target) if action.target else _need(phone.button("Nobody"), "Nobody")
        if isinstance(action, EliminateAll):
            return _need(phone.button("Yes" if action.yes else "No"), "yes/no")
        raise LookupError(f"no taps for {action!r}")

    async def check(self) -> bool | str:
        """After the storm: one more action reaches every affected phone (True; else what went wrong)."""
        await self.sync()
        state = self.state
        assert state is not None
        missed, refused = self.stats.missed, self.stats.refused
        if state.phase is Phase.ENDED:
            await self.new_game()
            return True
        self.policy.memory.update(state)
        tried = []
        for action in self.mine(phone_actions(state, self.policy)) + [Deadline(state.step)]:
            tried.append(type(action).__name__)
            if await self.act(action):
                if self.stats.missed == missed:
                    return True
                expected = len(state.log)
                data = await self.host.get_json(f"/_bench/game/{self.code}")
                seen_by_server = [await self.host.get_json(f"/_bench/client/{phone.client_id}")
                                  for phone in self.last_missing]
                missing = ", ".join(f"{p.label} (connected: {p.connected}, dropped: {p.drop_reason or 'no'}, "
                                    f"next message {p.next_message_id}, messages {p.messages})"
                                    for p in self.last_missing)
                return f"{self.code} {state.phase}: nothing of {tried[-1]} reached {missing}; " \
                    f"the server's log holds {len(data.get('log', []))} actions, the bench expected {expected}; " \
                    f"the server's clients of those phones: {seen_by_server}"
        return f"{self.code} {state.phase}: nothing was played ({', '.join(tried)}; " \
            f"{self.stats.refused - refused} refused)"

    def seated(self, phone: Phone) -> bool:
        return in_game(phone) or phone.button("Play again") is not None \
            or phone.has_text("The host can start a new game")


class FloorRoom(Room):
    """The same number of phones on the floor app: one tap changes one label on every phone."""

    async def setup(self) -> None:
        self.path = f"/f/{self.index}"
        for phone in self.phones:
            await phone.visit(self.path)

    async def play(self, stop: asyncio.Event) -> None:
        await self.first_pause()
        while not stop.is_set():
            try:
                await self.check()
            except (LookupError, ConnectionError) as error:
                self.stats.error(repr(error))
                await asyncio.sleep(1.0)
            await self.pause()

    async def check(self) -> bool:
        actor = self.rng.choice(self.phones)
        missed = self.stats.missed
        await self.measure(actor, [p for p in self.phones if p is not actor], _need(actor.button("Tap"), "Tap"))
        return self.stats.missed == missed

    def seated(self, phone: Phone) -> bool:
        return phone.button("Tap") is not None


def _ended(state: GameState) -> bool:
    """The game is over (a function: mypy would take ``state.phase`` as narrowed by an earlier test)."""
    return state.phase is Phase.ENDED


T = TypeVar("T")


def _need(value: T | None, what: str) -> T:
    if value is None:
        raise LookupError(f"not on the page: {what}")
    return value

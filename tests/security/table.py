"""A table of simulated phones around one room, played by the engine's bots through the real pages.

Every seat is a NiceGUI simulated ``User`` in its own language (its own cookies, so its own seat token),
plus a latecomer who watches (a spectator), the room's TV screen, and in moderated uk games the host as
moderator. The bots (``engine.bots.next_actions``) choose each step's actions; an action is applied by
tapping the seat's page (pick a target, confirm; ready; vote; skip) or through ``Room.act`` with the
seat's token, and the room's clock ends the steps nobody finished.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from nicegui.testing import User

from engine.actions import Action, Deadline, Foul, NightAct, Ready, Vote
from engine.bots import Heuristic, Memory, Policy, next_actions
from engine.errors import RuleError
from engine.state import GameState, Phase
from webgame.errors import Refusal
from webgame.pages.room import RoomPage
from webgame.room import rooms
from webgame.room.rooms import Change, Room
from webgame.store import queries as store

from ..web.helpers import node, tap
from .oracle import Oracle

LANGUAGES = ("en", "ru", "uk", "uz", "ro")


@dataclass
class Phone:
    user: User
    viewer: int  # engine seat; 0: spectator or TV; -1: the moderator
    language: str
    what: str  # "seat 3", "spectator", "tv", "moderator"
    token_hash: str | None = None

    @property
    def client_id(self) -> str:
        assert self.user.client is not None
        return self.user.client.id


async def drain(timeout: float = 2.0) -> None:
    """Let handlers, refreshes and every client's outbox run until nothing is pending, a room's coalesced
    presence news included (told ``PRESENCE_DELAY`` after a phone connects). (An outbox that found no socket
    yet sleeps 0.1 s, so a freshly loaded page may need real time.)"""
    from nicegui import Client

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    quiet = 0
    while loop.time() < end:
        await asyncio.sleep(0)
        pending = any(client.outbox.updates or client.outbox.messages for client in list(Client.instances.values())) \
            or any(task.get_name().startswith("presence of room") for task in asyncio.all_tasks())
        if pending:
            quiet = 0
            await asyncio.sleep(0.005)
        else:
            quiet += 1
            if quiet >= 4:
                return


def new_user(create_user: Callable[[], User], language: str) -> User:
    user = create_user()
    user.http_client.headers["Accept-Language"] = language
    return user


@dataclass(repr=False)
class Table:
    room: Room
    phones: list[Phone]  # seat phones first, by engine seat
    watchers: list[Phone]  # spectator, TV, moderator
    rng: random.Random
    tap_share: float = 0.5
    names: list[str] = field(default_factory=list)
    chat: list[tuple[str, str]] = field(default_factory=list)
    taps: int = 0
    acts: int = 0
    actor: int = 0  # the seat whose tap caused the last change (his own answers are compared elsewhere)

    @property
    def state(self) -> GameState:
        assert self.room.state is not None
        return self.room.state

    def everyone(self) -> list[Phone]:
        return [*self.phones, *self.watchers]

    @classmethod
    async def seat(cls, create_user: Callable[[], User], rules: str, players: int, seed: int,
                   moderated: bool = False, languages: tuple[str, ...] = LANGUAGES,
                   host_language: str = "en") -> Table:
        rng = random.Random(seed)
        host_user = new_user(create_user, host_language)
        names = [f"Px{number:02d}" for number in range(1, players + 1)]
        host_name = "Mod" if moderated else names[0]
        token = store.new_seat_token()
        room = await rooms.registry.create(token=token, name=host_name, rules=rules, language=host_language)
        host_hash = store.hash_token(token)
        await _keep_token(host_user, room.code, token)
        if rules == "uk":
            await room.set_player_limits(host_hash, 8, 14)
        if moderated:
            await room.set_moderated(host_hash, True)
        hashes = {host_name: host_hash}
        users = {host_name: host_user}
        for index, name in enumerate(names):
            if name == host_name:
                continue
            user = new_user(create_user, languages[index % len(languages)])
            token = store.new_seat_token()
            await room.join(token, name)
            await _keep_token(user, room.code, token)
            hashes[name], users[name] = store.hash_token(token), user
        for user in users.values():
            await user.open(f"/r/{room.code}")
        randbelow = rooms.secrets.randbelow
        rooms.secrets.randbelow = lambda _n: seed  # the deal of this seed (the module's own, put back below)
        try:
            await room.start(host_hash)
        finally:
            rooms.secrets.randbelow = randbelow
        await drain()
        phones = []
        for seat, info in enumerate(room.seating, 1):
            user = users[info.name]
            phones.append(Phone(user, seat, _language(user), f"seat {seat}", hashes[info.name]))
        watchers = []
        spectator = new_user(create_user, languages[(seed + 1) % len(languages)])
        await spectator.open(f"/r/{room.code}")
        watchers.append(Phone(spectator, 0, _language(spectator), "spectator"))
        tv = new_user(create_user, languages[(seed + 2) % len(languages)])
        await tv.open(f"/r/{room.code}/screen")
        watchers.append(Phone(tv, 0, _language(tv), "tv"))
        if moderated:
            watchers.append(Phone(host_user, -1, host_language, "moderator", host_hash))
        table = cls(room=room, phones=phones, watchers=watchers, rng=rng, names=[s.name for s in room.seating])
        await drain()
        return table

    # ------------------------------------------------------------ playing

    @classmethod
    async def play_checking_pages(cls, create_user: Callable[[], User], rules: str, players: int, seed: int,
                                  check: Callable[[Table, RoomPage], object],
                                  languages: tuple[str, ...] = ("en", "ru")) -> int:
        """A whole game (uk moderated, with fouls), ``check`` called on every game page after every action; how many
        pages were checked."""
        table = await cls.seat(create_user, rules, players, seed, moderated=rules == "uk", languages=languages)
        checked = 0

        def each() -> None:
            nonlocal checked
            for page in table.game_pages():
                check(table, page)
                checked += 1

        await table.play(each, fouls=rules == "uk")
        return checked

    def game_pages(self) -> list[RoomPage]:
        """The room's open phone pages that show its game (a seat's, the moderator's, a spectator's)."""
        return [page for page in self.room.subscribers if isinstance(page, RoomPage) and page.game.proj is not None]

    async def play(self, after_each: Callable[[], object], policy: type[Policy] | None = None,
                   fouls: bool = False, max_actions: int = 3000) -> Oracle:
        """Play to the end; ``after_each`` runs after every applied action, once every page has caught up."""
        oracle = Oracle.start(self.state)
        memory = Memory()
        bot = (policy or (Heuristic if self.rng.random() < 0.5 else Policy))(self.rng, memory)
        night_chat = -1
        applied = 0
        while self.state.phase is not Phase.ENDED and applied < max_actions:
            state = self.state
            memory.update(state)
            step = state.step
            if state.phase is Phase.NIGHT and night_chat != state.day:
                night_chat = state.day
                await self._chat(oracle)
            if self.room.holding():  # the day's result on the screens: the night's actions wait for its end
                await self._end_hold()
                oracle.update(self.state)
                await _call(after_each)
                continue
            if fouls and state.phase is not Phase.NIGHT and self.rng.random() < 0.08:
                moderator = next((w for w in self.watchers if w.viewer == -1), None)
                if moderator is not None:
                    await self._apply(moderator, Foul(self.rng.choice(state.living()), self.rng.choice([0.5, 1.0])))
                    oracle.update(self.state)
                    await _call(after_each)
                    applied += 1
                    continue
            for action in next_actions(state, bot):
                phone = self.phones[action.seat - 1] if not isinstance(action, Foul | Deadline) else None
                if phone is None:
                    continue
                if not await self._apply(phone, action):
                    continue
                applied += 1
                oracle.update(self.state)
                await _call(after_each)
                if self.state.step != step or self.state.phase is Phase.ENDED:
                    break
            if self.state.step == step and self.state.phase is not Phase.ENDED:
                deadline = self.room.deadline or self.room.now()
                await self.room.expire(step, deadline)
                await drain()
                applied += 1
                oracle.update(self.state)
                await _call(after_each)
        assert self.state.phase is Phase.ENDED, "the game did not end"
        oracle.update(self.state)
        return oracle

    async def _end_hold(self) -> None:
        """The day's result's hold ends as the room's clock ends it when its seconds are up (``Room.end_hold``),
        the table's clock standing still: the night then runs its full seconds and the seats act in it. (Expiring
        the step instead would end the whole night with nobody acting: the bots' night moves refused during the
        hold, every night after a day passed without a kill or a check.)"""
        released = await self.room.change(Change.STATE, lambda: self.room.game.release(early=True))
        assert released, "the day's result's hold did not end"
        await drain()

    async def _apply(self, phone: Phone, action: Action) -> bool:
        """Tap it on the phone (sometimes) or send it through the room with the phone's token."""
        before = len(self.state.log)
        self.actor = 0
        tapped = self.rng.random() < self.tap_share and await self._tap(phone, action)
        if tapped:
            self.actor = phone.viewer
        if tapped:
            for _ in range(200):  # the room applies in place, then writes the log, then notifies the pages
                if len(self.state.log) > before and not self.room.lock.locked():
                    break
                await asyncio.sleep(0.002)
            self.taps += 1
        if len(self.state.log) == before:
            try:
                await self.room.act(phone.token_hash, action)
            except (RuleError, Refusal):
                return False
            self.acts += 1
        await drain()
        return len(self.state.log) > before

    async def _tap(self, phone: Phone, action: Action) -> bool:
        user = phone.user
        try:
            if isinstance(action, NightAct):
                if action.target is None:
                    tap(user, "pass")
                    return True
                toggle = node(user, "night-act")
                if toggle is not None and toggle.get("v") != action.act:
                    tap(user, "night-act", str(action.act))
                    await drain()
                if action.note:
                    return False
                tap(user, f"target-{action.target}")
                await drain()
                tap(user, "confirm")
                return True
            if isinstance(action, Vote):
                if action.target is None:
                    tap(user, "abstain")
                    return True
                tap(user, f"vote-{action.target}")
                await drain()
                tap(user, "confirm")
                return True
            if isinstance(action, Ready):
                tap(user, "ready")
                return True
        except AssertionError:
            return False
        return False

    async def _chat(self, oracle: Oracle) -> None:
        """Night: a mafia player writes in the mafia chat, a dead one in the dead chat, through their pages."""
        state = self.state
        mafia = [s for s in state.living() if oracle.reads_mafia_chat(s)]
        dead = [s for s in range(1, state.n + 1) if not state.alive[s - 1]]
        for channel, seats in (("mafia", mafia), ("dead", dead)):
            if not seats:
                continue
            seat = self.rng.choice(seats)
            text = f"zq{channel}{len(self.chat):03d}x"
            self.chat.append((channel, text))
            await self.room.say(self.phones[seat - 1].token_hash, channel, text)
        await drain()


def _language(user: User) -> str:
    return str(user.http_client.headers.get("Accept-Language", "en"))


async def _call(callback: Callable[[], object]) -> None:
    result = callback()
    if asyncio.iscoroutine(result):
        await result


async def _keep_token(user: User, code: str, token: str) -> None:
    """Put a seat token into this browser's storage, as the join form does (its page reads it on load)."""
    from nicegui import app

    await user.open("/")
    assert user.client is not None
    storage = app.storage._users[user.client.request.session["id"]]
    seats = dict(storage.get("seats") or {})
    seats[code] = token
    storage["seats"] = seats

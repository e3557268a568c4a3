"""What the screens need of a phone's page and of the game view, as protocols; and the one record they share, a
pick not confirmed yet (``PendingChoice``).

The screens (``lobby``, ``game_view``, ``night``, ``day``, ``outcome``) and the parts below them name these
types instead of importing ``pages.room`` or ``pages.game_view``: imports run one way, page -> screens ->
parts and wording -> the room's public interface, with no module importing one that imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from nicegui import Client, ui

    from engine.actions import Action
    from engine.view_types import Me, Offer
    from webgame.browser.identity import BrowserIdentity
    from webgame.browser.public_address import Reach
    from webgame.language.i18n import Translator
    from webgame.pages.screen import Draft, ScreenSection
    from webgame.room.projection import Projection, ShownView
    from webgame.room.rooms import Room


@dataclass(slots=True)
class PendingChoice:
    """What this phone chose at one step and has not confirmed yet, kept on the server: a seat's act among his
    night acts and his note switch (``RoomPage.choice``, kept per room and seat, so that a reload or a second tab
    shows them), or the moderator's foul pick (``target``) and question (``act``), also for a player who holds a
    gone moderator's controls (``game_view``: his seat keeps its own). A seat's own pick of a player is the browser's
    (``Draft.pick``). Kept across redraws of the step, emptied when the step changes (``at``)."""

    step: int = -1
    act: str = ""
    target: int | None = None
    note: bool = False

    def at(self, step: int) -> PendingChoice:
        """This choice at ``step``: emptied first if it was made at another step."""
        if self.step != step:
            self.step, self.act, self.target, self.note = step, "", None, False
        return self


class PhonePage(Protocol):
    """One tab's page of one room (``pages.room.RoomPage``): its identity, language and parts."""

    room: Room
    identity: BrowserIdentity
    t: Translator
    token_hash: str | None
    client: Client
    url: str
    reach: Reach
    address: str
    busy: bool
    pad: ui.element | None
    heading: ScreenSection
    seats_or_panel: ScreenSection
    settings_or_record: ScreenSection
    start_or_chat: ScreenSection

    @property
    def choice(self) -> PendingChoice: ...

    def in_game(self, phase: str) -> bool: ...

    def seated(self, token_hash: str) -> None: ...

    def moved_here(self, old_hash: str, new_hash: str) -> None: ...


class GameScreen(Protocol):
    """The game view of a page (``pages.game_view.GameView``) as the phase screens and its parts use it."""

    page: PhonePage
    p: ShownView
    proj: Projection | None

    @property
    def viewer_kind(self) -> str: ...

    @property
    def viewer_seat(self) -> int: ...

    @property
    def me(self) -> Me | None: ...

    def name_of(self, seat: int) -> str: ...

    def action(self, kind: str) -> Offer | None: ...

    def pending(self) -> PendingChoice: ...

    async def send(self, action: Action) -> bool: ...

    def target_grid(self, d: Draft, seats: list[int], enabled: list[int], selected: int | None,
                    on_pick: Callable[[int], Any], mark: str = "target",
                    notes: dict[int, str] | None = None) -> None: ...

    async def send_pick(self, value: object, make: Callable[[int], Action]) -> bool: ...

    def pick_grid(self, d: Draft, group: str, seats: list[int], enabled: list[int], mark: str = "target") -> None: ...

    def pick_group(self, mark: str, index: int = 0) -> str: ...

    def grid_class(self) -> str: ...

    def name_tiles(self, d: Draft, seats: list[int]) -> None: ...

    def reveal_button(self, d: Draft) -> None: ...

    def role_card(self, d: Draft) -> None: ...

    def public(self) -> GameScreen | None: ...

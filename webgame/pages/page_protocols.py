"""What the screens need of a phone's page and of the game view, as protocols.

The screens (``lobby``, ``game_view``, ``night``, ``day``, ``outcome``) and the parts below them name these
types instead of importing ``pages.room`` or ``pages.game_view``: imports run one way, page -> screens ->
parts and wording -> the room's public interface, with no module importing one that imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from nicegui import Client, ui

    from engine.actions import Action
    from webgame.browser.identity import BrowserIdentity
    from webgame.browser.public_address import Reach
    from webgame.language.i18n import Translator
    from webgame.pages.screen import Draft, ScreenSection
    from webgame.room.projection import Projection
    from webgame.room.rooms import Room


class PendingChoice(Protocol):
    """This phone's unconfirmed pick of the current step (kept across redraws)."""

    step: int
    act: str
    target: int | None
    note: bool


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
    first: ScreenSection
    second: ScreenSection
    third: ScreenSection
    fourth: ScreenSection

    @property
    def choice(self) -> PendingChoice: ...

    def buzz(self, step: int) -> None: ...

    def in_game(self, phase: str) -> bool: ...

    def seated(self, token_hash: str) -> None: ...

    def moved_here(self, old_hash: str, new_hash: str) -> None: ...


class GameScreen(Protocol):
    """The game view of a page (``pages.game_view.GameView``) as the phase screens and its parts use it."""

    page: PhonePage
    p: dict[str, Any]
    proj: Projection | None

    @property
    def viewer_kind(self) -> str: ...

    @property
    def viewer_seat(self) -> int: ...

    @property
    def me(self) -> dict[str, Any] | None: ...

    def name_of(self, seat: int) -> str: ...

    def action(self, kind: str) -> dict[str, Any] | None: ...

    def pending(self) -> PendingChoice: ...

    async def send(self, action: Action) -> bool: ...

    def target_grid(self, d: Draft, seats: list[int], enabled: list[int], selected: int | None,
                    on_pick: Callable[[int], Any], mark: str = "target",
                    notes: dict[int, str] | None = None) -> None: ...

    def grid_class(self) -> str: ...

    def name_tiles(self, d: Draft, seats: list[int]) -> None: ...

    def reveal_button(self, d: Draft) -> None: ...

    def role_card(self, d: Draft) -> None: ...

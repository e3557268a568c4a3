"""Everything a player, the moderator or the clock can do, as plain data.

The action log of a game is a list of these; ``to_dict``/``from_dict`` give the JSON the web
layer stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from engine.errors import RuleError
from engine.i18n import N_


class Act(StrEnum):
    """Night acts. ``suggest`` and ``suspect`` change nothing: they keep every phone equally busy."""

    KILL = "kill"
    CHECK = "check"
    SHOOT = "shoot"
    HEAL = "heal"
    BLOCK = "block"
    COVER = "cover"
    VISIT = "visit"
    FREEZE = "freeze"
    SUGGEST = "suggest"
    SUSPECT = "suspect"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class NightAct:
    kind: ClassVar[str] = "night_act"
    seat: int
    act: str
    target: int | None = None
    note: bool = False


@dataclass(frozen=True, slots=True)
class Vote:
    """A day vote; ``target`` None is an explicit abstention (uz only)."""

    kind: ClassVar[str] = "vote"
    seat: int
    target: int | None


@dataclass(frozen=True, slots=True)
class Ready:
    """uz: done with the discussion; when every living player is ready the vote starts."""

    kind: ClassVar[str] = "ready"
    seat: int


@dataclass(frozen=True, slots=True)
class Nominate:
    kind: ClassVar[str] = "nominate"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class EndSpeech:
    kind: ClassVar[str] = "end_speech"
    seat: int


@dataclass(frozen=True, slots=True)
class EliminateAll:
    kind: ClassVar[str] = "eliminate_all"
    seat: int
    yes: bool


@dataclass(frozen=True, slots=True)
class KamikazePick:
    kind: ClassVar[str] = "kamikaze_pick"
    seat: int
    target: int | None


@dataclass(frozen=True, slots=True)
class Foul:
    """Given by the moderator (uk), in 0.5 or 1 steps; 2 at once at night, for gestures or sounds."""

    kind: ClassVar[str] = "foul"
    seat: int
    amount: float


@dataclass(frozen=True, slots=True)
class WithdrawFoul:
    """The moderator takes back the last foul he gave this player (club judges do)."""

    kind: ClassVar[str] = "withdraw_foul"
    seat: int


@dataclass(frozen=True, slots=True)
class SendOff:
    """The moderator sends a player from the table: he leaves silently, as at 4 fouls (uk)."""

    kind: ClassVar[str] = "send_off"
    seat: int


@dataclass(frozen=True, slots=True)
class BestMove:
    """uk, option ``best_move``: a player killed on the first night names up to three players he takes for black
    (``engine.best_move``)."""

    kind: ClassVar[str] = "best_move"
    seat: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExtraPoints:
    """After the game, the moderator's extra points for a player (a club's "extra"), within the rule set's limit;
    the latest for a player counts (``engine.points``)."""

    kind: ClassVar[str] = "extra_points"
    seat: int
    amount: float


@dataclass(frozen=True, slots=True)
class Deadline:
    """The timer of ``step`` ran out (or the host skipped it): the clock as an action."""

    kind: ClassVar[str] = "deadline"
    step: int


Action = (NightAct | Vote | Ready | Nominate | EndSpeech | EliminateAll | KamikazePick | Foul | WithdrawFoul | SendOff
          | BestMove | ExtraPoints | Deadline)

MODERATOR_ACTIONS = (Foul, WithdrawFoul, SendOff)
"""What only the moderator does (uk): a room accepts these from him alone, the engine at any phase."""

ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (NightAct, Vote, Ready, Nominate, EndSpeech, EliminateAll, KamikazePick, Foul, WithdrawFoul, SendOff,
                BestMove, ExtraPoints, Deadline)
}


def to_dict(action: Action) -> dict[str, Any]:
    return {"type": action.kind, **asdict(action)}


def from_dict(data: Mapping[str, Any]) -> Action:
    """Parse stored or submitted JSON; anything malformed is a RuleError, never a crash."""
    cls = ACTION_TYPES.get(str(data.get("type")))
    if cls is None:
        raise RuleError(N_("Unknown action."))
    kwargs: dict[str, Any] = {}
    for field in fields(cls):
        value = data.get(field.name, field.default)
        if field.name in ("seat", "step") and not _is_int(value):
            raise RuleError(N_("Unknown action."))
        if field.name == "target" and value is not None and not _is_int(value):
            raise RuleError(N_("Unknown action."))
        if field.name in ("note", "yes") and not isinstance(value, bool):
            raise RuleError(N_("Unknown action."))
        if field.name == "act" and (not isinstance(value, str) or value not in set(Act)):
            raise RuleError(N_("Unknown action."))
        if field.name == "amount" and (not isinstance(value, int | float) or isinstance(value, bool)):
            raise RuleError(N_("Unknown action."))
        if field.name == "targets":
            if not isinstance(value, list | tuple) or len(value) > 3 or not all(_is_int(t) for t in value):
                raise RuleError(N_("Unknown action."))
            value = tuple(value)
        kwargs[field.name] = value
    return cls(**kwargs)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

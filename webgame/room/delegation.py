"""``Held``: an attribute of an object that one of its parts holds, read through the object.

A room is one door to its parts (``webgame.room.rooms.Room``): ``room.rules`` is ``room.lobby.rules``, and
``room.is_host`` is ``room.lobby.is_host``. Declaring that as ``rules = Held[str]("lobby")`` keeps the door's
list of what it answers one line per name, typed, instead of a property or a forwarding method for each.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Held(Generic[T]):
    """Reads ``obj.<part>.<name>`` as ``obj.<name>``, where ``name`` is the attribute this is assigned to."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> Held[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object, owner: type | None = None) -> Held[T] | T:
        if obj is None:
            return self  # the class's own attribute: the declaration
        value: Any = getattr(getattr(obj, self.part), self.name)
        return value  # type: ignore[no-any-return]

"""``Held``: an attribute of an object that one of its parts holds, read through the object.

A room is one door to its parts (``webgame.room.rooms.Room``): ``room.rules`` is ``room.lobby.rules``, and
``room.is_host`` is ``room.lobby.is_host``. Declaring that as ``rules = Held[str]("lobby")`` keeps the door's
list of what it answers one line per name, typed, instead of a property or a forwarding method for each.
"""

from __future__ import annotations

import operator
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Held(Generic[T]):
    """Reads ``obj.<part>.<name>`` as ``obj.<name>``, where ``name`` is the attribute this is assigned to."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        """The class gets, in this declaration's place, a ``property`` reading ``obj.<part>.<name>`` with
        ``operator.attrgetter``: both are the interpreter's own (no Python call at each read: a few hundred reads of
        the room at every change of it, issue 32). It reads as ``__get__`` below says, which is what the type checker
        is told; as a property, it cannot be assigned on an instance (nothing does)."""
        self.name = name
        setattr(owner, name, property(operator.attrgetter(f"{self.part}.{name}"), doc=f"``{self.part}.{name}``"))

    @overload
    def __get__(self, obj: None, owner: type) -> Held[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object, owner: type | None = None) -> Held[T] | T:
        if obj is None:
            return self  # the class's own attribute: the declaration
        value: Any = getattr(getattr(obj, self.part), self.name)
        return value  # type: ignore[no-any-return]

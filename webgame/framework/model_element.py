"""An element drawn in the browser from one JSON string (``model``) with one event listener shared by every element of
its kind: what NiceGUI's ``Element`` keeps and serializes per element, cut to what such an element needs.

The game's screen parts (``webgame.pages.screen.Screen``) are of this kind: a part's props are its model, its one
listener (``tap``) is the same for every part of every page. NiceGUI's ``Element`` keeps a listener per element and
serializes it again at every update (``_to_dict`` remakes the listener's dict): every element costs about 4 KB on
every phone, and the shared listener took memory on every phone down (docs/PERFORMANCE.md, "every screen part
shares one tap listener"). What NiceGUI's simulated user looks for in an element (its markers, what it displays:
``_markers``, ``_displayed_contents``) is read from the model, not kept beside it (every text would be held twice on
every page). A subclass says what its model holds (``texts``, ``node_ids``).
"""

from __future__ import annotations

from typing import Any, NoReturn

from nicegui import binding, ui
from nicegui.classes import Classes
from nicegui.event_listener import EventListener
from nicegui.slot import Slot
from nicegui.style import Style

from webgame.framework import deleted_elements


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError("a model element shares this with every other one (its classes, style, listeners, empty slot): "
                    "it cannot change")


class _NoClasses(Classes):  # type: ignore[type-arg]
    """The empty classes every model element shares: reading works, any change raises."""

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class _NoStyle(Style):  # type: ignore[type-arg]
    """The empty style every model element shares: reading works, any change raises."""

    pop = popitem = update = clear = setdefault = _refuse
    __setitem__ = __delitem__ = __ior__ = _refuse


class _Owner:
    """What the shared pair names as its element (NiceGUI's classes and style hold their element weakly)."""


_OWNER = _Owner()
NO_CLASSES: Classes[Any] = _NoClasses([], element=_OWNER)
NO_STYLE: Style[Any] = _NoStyle({}, element=_OWNER)


class _Frozen(list[Any]):
    """An empty list that stays empty: the props' change handlers and observers, a leaf's children."""

    append = extend = insert = __setitem__ = __iadd__ = __imul__ = _refuse

    def clear(self) -> None:  # NiceGUI clears an element's slots when it is deleted or emptied: nothing to clear
        pass


class _FrozenTable(dict[Any, Any]):
    """A table shared by many elements (the listeners of a kind of element, a leaf's slots): reading works, any
    change raises."""

    __setitem__ = __delitem__ = pop = popitem = update = setdefault = __ior__ = _refuse

    def clear(self) -> None:  # NiceGUI clears a deleted element's listeners: the element drops its reference instead
        pass


class _PlainProps(dict[str, Any]):
    """A model element's props: a plain dict (its model and its seat, set directly and sent by the caller's
    ``update``) instead of NiceGUI's observable one, with its change handler, its element's reference, its tables of
    renamed props and warnings (400 bytes of every part of every phone). What NiceGUI reads of an element's props
    works; its way of changing them (``element.props("...")``) raises."""

    _suspend_count = 0  # NiceGUI's event handling asks whether the props' updates are suspended: never

    def __call__(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        _refuse()

    def add_rename(self, old: str, new: str) -> None:
        """NiceGUI's deprecated prop names: none is set on a model element."""


_LEAF_SLOT = Slot(_OWNER, "default")  # type: ignore[arg-type]
_LEAF_SLOT.children = _Frozen()
_LEAF_SLOTS: dict[str, Slot] = _FrozenTable(default=_LEAF_SLOT)
_NO_LISTENERS: dict[str, EventListener] = _FrozenTable()
_LISTENERS: dict[str, dict[str, EventListener]] = {}  # a listener's id -> the table every element of it shares


class ModelElement(ui.element):
    """An element whose props are its ``model`` (a JSON string) and whose listener is ``listener`` (shared: its dict
    made once, ``events``)."""

    def __init__(self, listener: EventListener | None, events: list[dict[str, Any]]) -> None:
        super().__init__()
        deleted_elements.forget_handlers(self)  # NiceGUI's three, replaced below: not left as cycles
        self._classes, self._style = NO_CLASSES, NO_STYLE  # shared and frozen (see the module's docstring)
        self._props = _PlainProps(self._props)  # type: ignore[assignment]  # its model and its seat, set directly
        self._props["model"] = "[]"
        if listener is None:
            self._event_listeners = _NO_LISTENERS
        else:
            listeners = _LISTENERS.get(listener.id)
            if listeners is None:
                listeners = _LISTENERS[listener.id] = _FrozenTable({listener.id: listener})
            self._event_listeners = listeners
        self._events = events
        self.slots, self.default_slot = _LEAF_SLOTS, _LEAF_SLOT  # its own when something is put in it (``_thaw``)
        binding.bindable_properties.pop((id(self), ("visible",)), None)  # NiceGUI's marker of a bindable visibility:
        # a binding to it (none is made) would be watched by NiceGUI's polling instead

    def _thaw(self) -> None:
        """A slot of its own, for elements put in this one."""
        if self.slots is _LEAF_SLOTS:
            self.slots = {}
            self.default_slot = super().add_slot("default")

    def add_slot(self, name: str, template: str | None = None) -> Slot:
        self._thaw()
        return super().add_slot(name, template)

    def __enter__(self) -> ModelElement:
        self._thaw()
        super().__enter__()
        return self

    def _handle_delete(self) -> None:
        self._event_listeners = _NO_LISTENERS
        super()._handle_delete()

    @property
    def drawn_model(self) -> str:
        """The model the browser has (or is about to get)."""
        model: str = self._props.get("model", "[]")
        return model

    def set_model(self, model: str) -> None:
        """Set the model without the props' change handler, which would queue the update a second time: the caller
        sends it (``update``) when it is done."""
        dict.__setitem__(self._props, "model", model)

    def set_plain_prop(self, name: str, value: Any) -> bool:
        """Set (or, for a falsy ``value``, drop) a small prop beside the model, as ``set_model`` does: without the
        props' change handler, sent with the model by the caller's ``update``. True if it changed."""
        if (value or None) == (self._props.get(name) or None):  # a falsy value is no prop at all
            return False
        if value:
            dict.__setitem__(self._props, name, value)
        else:
            dict.pop(self._props, name, None)
        return True

    def stop_listening(self) -> None:
        """No listener at all (an element never tapped): none is sent with it."""
        self._event_listeners = _NO_LISTENERS
        self._events = []

    @property
    def texts(self) -> list[str]:
        """What the element displays, read from its model."""
        raise NotImplementedError

    @property
    def node_ids(self) -> dict[str, bool]:
        """The ids in its model -> enabled."""
        raise NotImplementedError

    def _to_dict(self) -> dict[str, Any]:
        """As NiceGUI's, with the one listener's dict made once for all elements of the kind (NiceGUI remakes it for
        every update of every element)."""
        data: dict[str, Any] = {"tag": self.tag, "props": self._props, "events": self._events}
        if self._classes:
            data["class"] = self._classes
        if self._style:
            data["style"] = self._style
        if self.slots is not _LEAF_SLOTS:  # a leaf (most parts) has no slot and no child to list
            if slots := self._collect_slot_dict():
                data["slots"] = slots
            if children := [child.id for child in self.default_slot.children]:
                data["children"] = children
        if self._update_method:
            data["update_method"] = self._update_method
        return data

    @property
    def _markers(self) -> list[str]:
        """The node ids, as NiceGUI's markers (``ElementFilter(marker=...)`` in the simulated-user tests)."""
        return list(self.node_ids) if "model" in self.__dict__.get("_props", ()) else []

    @_markers.setter
    def _markers(self, value: list[str]) -> None:
        pass  # Element.__init__ sets an empty list; the markers are the node ids

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        return self.texts

"""Small speed-ups of NiceGUI internals that every element pays for (found with ``py-spy``, see
docs/PERFORMANCE.md). Each keeps the framework's behaviour exactly; ``install()`` is idempotent.

- ``expects_arguments(func)``: NiceGUI asks it for the change handler of every element's props, classes and
  style (three bound methods per element) and for every event handler (``events.handle_event``: every tap), and
  it builds an ``inspect`` signature each time: 4 % of the server's CPU when lobbies turn into games, 1.2 % of
  the samples of a game's play (issue 32). For a bound method the answer depends only on the function behind it,
  for a function or a partial only on that object, so it is remembered per function (a function whose signature
  is changed after it was asked, by ``__signature__`` or ``__defaults__``, would be answered as before: none is).
- ``Outbox.loop``: every page's loop woke once a second to find nothing to send (``_outbox_loop``), and
  looked every 0.1 s for its socket until it came (``_until_connected``).
- ``Outbox.enqueue_update`` and ``enqueue_delete``: NiceGUI's, forgetting what the padding measured of the element
  (``webgame.framework.sent_updates``: a measured element is sent as the bytes it was measured as, unless it was
  queued again since); the loop sends the measured bytes and keeps the dicts in its history. The pending updates
  are a plain dict, not NiceGUI's ``WeakValueDictionary``: a weak reference made and dropped for every queued element
  of every page at every change was 2-3 % of a game's main thread (issue 32). It holds nothing longer: a deleted
  element's entry is the ``deleted`` mark (``enqueue_delete``), the others' elements are alive in their page anyway,
  and the loop empties it at every send.
- ``forget_after_send(prop)``: a prop that matters only in the update that carries it (the padding's spaces,
  ``webgame.pages.evenness``) is emptied once that update has gone: every phone kept its last padding, a few
  kilobytes each, until the next change (issue 32: 3.6 KB a phone).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import types
import weakref
from collections.abc import Callable
from typing import Any

from nicegui import Client, core, helpers, outbox
from nicegui.dependencies import JsComponent
from nicegui.helpers import functions
from nicegui.outbox import Deleted, Outbox

from webgame.framework import sent_updates

_ORIGINAL: Callable[[Callable[..., Any]], bool] = functions.expects_arguments
_ORIGINAL_LOOP = Outbox.loop
_ORIGINAL_HANDSHAKE = Client.handle_handshake
_ORIGINAL_ENQUEUE_UPDATE = Outbox.enqueue_update
_ORIGINAL_ENQUEUE_DELETE = Outbox.enqueue_delete
_ORIGINAL_INIT = Outbox.__init__
_BY_FUNCTION: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
_BY_CALLABLE: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()  # functions, partials


def expects_arguments(func: Callable[..., Any]) -> bool:
    """NiceGUI's ``expects_arguments``, remembered per function: for a bound method, per the function behind it; for
    a function or a ``functools.partial``, per that object (an event's handler: the screen parts' one tap handler
    was asked at every tap). Anything else (an object with ``__call__``) is asked each time."""
    if isinstance(func, types.MethodType):  # its ``self`` is bound: remembered apart from the function itself
        key: Any = func.__func__
        memory = _BY_FUNCTION
    elif isinstance(func, types.FunctionType | functools.partial):
        key, memory = func, _BY_CALLABLE
    else:
        return _ORIGINAL(func)
    known = memory.get(key)
    if known is None:
        known = memory[key] = _ORIGINAL(func)
    return known


def install() -> None:
    helpers.expects_arguments = expects_arguments
    functions.expects_arguments = expects_arguments
    Outbox.__init__ = _outbox_init  # type: ignore[method-assign]
    outbox.Outbox.enqueue_update = _enqueue_update  # type: ignore[method-assign]
    outbox.Outbox.enqueue_delete = _enqueue_delete  # type: ignore[method-assign]
    if inspect.getsource(_ORIGINAL_LOOP).count("timeout=1.0") != 1:
        raise RuntimeError("NiceGUI's Outbox.loop changed: see webgame/framework/outbox.py _outbox_loop")
    outbox.Outbox.loop = _outbox_loop  # type: ignore[method-assign]
    Client.handle_handshake = _handle_handshake  # type: ignore[method-assign]


def _outbox_init(self: Outbox, client: Client) -> None:
    """NiceGUI's, with the pending updates in a plain dict (see the module's help)."""
    _ORIGINAL_INIT(self, client)
    self.updates = {}  # type: ignore[assignment]


def _enqueue_update(self: Outbox, element: Any) -> None:
    """NiceGUI's, forgetting the element's measured bytes (``sent_updates``): it changed since it was measured."""
    sent_updates.forget_measure(self, element.id)
    _ORIGINAL_ENQUEUE_UPDATE(self, element)


def queue_alive(box: Outbox, element: Any) -> None:
    """Put ``element`` in its page's next update, as ``Element.update`` does, for a caller that has just found the
    page's client and the element alive: without NiceGUI's checks of one update, and keeping the measured bytes of
    the others (``sent_updates``: the caller measures the update next). The padding's carrier, on every seat page at
    every change of a room (``webgame.pages.evenness``)."""
    box.updates[element.id] = element
    box._set_enqueue_event()  # noqa: SLF001 (NiceGUI's own way to wake the page's send loop)


def _enqueue_delete(self: Outbox, element: Any) -> None:
    sent_updates.forget_measure(self, element.id)
    _ORIGINAL_ENQUEUE_DELETE(self, element)


_TRANSIENT: set[str] = set()  # props emptied once the update that carries them is sent (``forget_after_send``)


def forget_after_send(prop: str) -> None:
    """Empty ``prop`` of every element once an update carrying it has been sent. The value is serialized at the send
    (the socket's packet is encoded before ``_emit`` returns), so the phone gets it whole; the server keeps ``""``
    (set without the props' change handler: nothing more is queued). A replay after a reconnect (NiceGUI's message
    history holds the element's live props) sends the empty value: what such a prop is for (the padding of one
    change) is over by then."""
    _TRANSIENT.add(prop)


def _forget(elements: list[Any]) -> None:
    for element in elements:
        props = element._props  # noqa: SLF001 (a framework module: the one place that reaches inside)
        for prop in _TRANSIENT:
            if props.get(prop):
                dict.__setitem__(props, prop, "")


_CONNECTED = "_mafia_connected"  # an outbox's event: its page's socket has done its handshake


async def _until_connected(box: Outbox, timeout: float) -> None:
    """NiceGUI's loop looked again every 0.1 s until the page's socket came; the handshake now wakes it at once
    (``_handle_handshake``): a page built again for a socket after a restart (``webgame.framework.page_adoption``) sends
    its whole tree as soon as the socket is there, not up to 0.1 s later."""
    event = box.__dict__.setdefault(_CONNECTED, asyncio.Event())
    event.clear()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


_AFTER_HANDSHAKE: list[Callable[[Client, str], None]] = []


def after_handshake(hook: Callable[[Client, str], None]) -> None:
    """Call ``hook(client, socket_id)`` after every handshake that left the socket connected, once NiceGUI has
    rewound the page's outbox (its messages for the socket, the missed ones first, are queued); idempotent."""
    if hook not in _AFTER_HANDSHAKE:
        _AFTER_HANDSHAKE.append(hook)


async def _handle_handshake(self: Client, socket_id: str, *args: Any, **kwargs: Any) -> None:
    await _ORIGINAL_HANDSHAKE(self, socket_id, *args, **kwargs)
    event = self.outbox.__dict__.get(_CONNECTED)
    if event is not None:
        event.set()
    if socket_id in self._socket_to_document_id:  # noqa: SLF001 (still connected: NiceGUI's own record)
        for hook in _AFTER_HANDSHAKE:
            try:
                hook(self, socket_id)
            except Exception as e:  # noqa: BLE001 (as NiceGUI's handlers: the handshake stands)
                core.app.handle_exception(e)


async def _outbox_loop(self: Outbox) -> None:
    """NiceGUI's ``Outbox.loop`` (3.18) without its one-second wake-up: an idle page's loop waited for its next
    update with ``asyncio.wait_for(..., timeout=1.0)``, a task and a timer per page every second whatever it
    had to send (5-9 % of the server's CPU with a thousand phones connected). It waits for the event alone:
    ``stop`` sets it, so a deleted page's loop still ends at once. Everything else is NiceGUI's loop."""
    self._enqueue_event = asyncio.Event()
    self._enqueue_event.set()
    while not self._should_stop:
        try:
            if not self._enqueue_event.is_set():
                await self._enqueue_event.wait()
                continue
            client = self.client
            if not client or not client.has_socket_connection:
                await _until_connected(self, 0.1)
                continue
            self._enqueue_event.clear()
            coros = []
            sent: list[Any] = []  # the elements of this update (their transient props are emptied after it)
            kept: list[tuple[int, Any]] = []  # measured elements sent as their bytes (``sent_updates``)
            if self.updates:
                data, kept = sent_updates.update_data(self, sent_updates.take(self))
                js_components = [component for element in self.updates.values()
                                 if not isinstance(element, Deleted)
                                 and isinstance((component := element.component), JsComponent)
                                 and component.name not in self._loaded_components]
                if js_components:
                    coros.append(self._emit((client.id, "load_js_components", {
                        "components": [{"key": c.key, "tag": c.tag} for c in js_components]})))
                    self._loaded_components.update(c.name for c in js_components)
                coros.append(self._emit((client.id, "update", data)))
                if _TRANSIENT:
                    sent = [element for element in self.updates.values() if not isinstance(element, Deleted)]
                self.updates.clear()
            if self.messages:
                for message in self.messages:
                    coros.append(self._emit(message))
                self.messages.clear()
            for coro in coros:
                try:
                    await coro
                except Exception as e:  # noqa: BLE001 (as NiceGUI: the loop goes on)
                    core.app.handle_exception(e)
            if kept:
                sent_updates.sent(data, kept)
            if sent:
                _forget(sent)
        except asyncio.CancelledError:
            break
        except Exception as e:  # noqa: BLE001
            core.app.handle_exception(e)
            await asyncio.sleep(0.1)

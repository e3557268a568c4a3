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
import time
import types
import weakref
from collections.abc import Callable
from typing import Any

from nicegui import Client, core, helpers, outbox
from nicegui.dependencies import JsComponent
from nicegui.helpers import functions
from nicegui.outbox import Deleted, Outbox

from webgame.framework import sent_updates, socket_transport

_ORIGINAL: Callable[[Callable[..., Any]], bool] = functions.expects_arguments
_ORIGINAL_LOOP = Outbox.loop
_ORIGINAL_HANDSHAKE = Client.handle_handshake
_ORIGINAL_ENQUEUE_UPDATE = Outbox.enqueue_update
_ORIGINAL_ENQUEUE_DELETE = Outbox.enqueue_delete
_ORIGINAL_INIT = Outbox.__init__
_ORIGINAL_EMIT = Outbox._emit  # noqa: SLF001
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
    if inspect.getsource(_ORIGINAL_EMIT).count("await core.sio.emit(") != 1:
        raise RuntimeError("NiceGUI's Outbox._emit changed: see webgame/framework/outbox.py _emit_now")
    outbox.Outbox._set_enqueue_event = _wake  # type: ignore[method-assign]  # noqa: SLF001
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
    ``stop`` sets it, so a deleted page's loop still ends at once. Everything else is NiceGUI's loop. Most sends
    do not wake it at all (``_flush_pages``): it sends what cannot be written at once."""
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
            messages, data, kept, sent = _take(self, client)
            for message in messages:
                try:
                    await self._emit(message)
                except Exception as e:  # noqa: BLE001 (as NiceGUI: the loop goes on)
                    core.app.handle_exception(e)
            _after_send(data, kept, sent)
        except asyncio.CancelledError:
            break
        except Exception as e:  # noqa: BLE001
            core.app.handle_exception(e)
            await asyncio.sleep(0.1)


def _take(box: Outbox, client: Client) -> tuple[list[Any], dict[int, Any] | None, list[tuple[int, Any]], list[Any]]:
    """What the page's loop sends next, taken off the outbox as NiceGUI's loop takes it: the messages in their
    order (the scripts of new components, the update, the others), the update's data, its measured elements
    (``sent_updates``) and the elements whose transient props are emptied once it is sent (``forget_after_send``)."""
    messages: list[Any] = []
    data: dict[int, Any] | None = None
    kept: list[tuple[int, Any]] = []
    sent: list[Any] = []
    if box.updates:
        data, kept = sent_updates.update_data(box, sent_updates.take(box))
        js_components = [component for element in box.updates.values()
                         if not isinstance(element, Deleted)
                         and isinstance((component := element.component), JsComponent)
                         and component.name not in box._loaded_components]  # noqa: SLF001
        if js_components:
            messages.append((client.id, "load_js_components", {
                "components": [{"key": c.key, "tag": c.tag} for c in js_components]}))
            box._loaded_components.update(c.name for c in js_components)  # noqa: SLF001
        messages.append((client.id, "update", data))
        if _TRANSIENT:
            sent = [element for element in box.updates.values() if not isinstance(element, Deleted)]
        box.updates.clear()
    if box.messages:
        messages.extend(box.messages)
        box.messages.clear()
    return messages, data, kept, sent


def _after_send(data: dict[int, Any] | None, kept: list[tuple[int, Any]], sent: list[Any]) -> None:
    if data is not None and kept:
        sent_updates.sent(data, kept)
    if sent:
        _forget(sent)


# Pages with something to send since the loop last ran its callbacks (``_wake``), in order: sent by one callback
# (``_flush_pages``), each written at once where its socket allows, without a turn of the page's loop task.
_DIRTY: dict[int, Outbox] = {}


def _wake(self: Outbox) -> None:
    """NiceGUI's ``_set_enqueue_event``: the page has something to send. Instead of waking the page's loop task
    (a task step, an event's future and three coroutines per page per change: about 4 % of the main thread's samples
    in a profile at 80 rooms, issue 32), the page is noted and one callback of the event loop sends every noted
    page's messages (``_flush_pages``), at the same moment the woken loops would have: after the running step,
    whatever it queued and padded in it (``webgame.pages.evenness``) included. Outside a running event loop, the
    loop is woken."""
    event = self._enqueue_event
    if event is None or event.is_set():
        return  # not started yet (it starts with the event set), or already woken
    if not _DIRTY:
        try:
            asyncio.get_running_loop().call_soon(_flush_pages)
        except RuntimeError:
            event.set()
            return
    _DIRTY[id(self)] = self


def _flush_pages() -> None:
    boxes = list(_DIRTY.values())
    _DIRTY.clear()
    for box in boxes:
        try:
            event = box._enqueue_event  # noqa: SLF001
            if event is not None and not _send_now(box):
                event.set()  # the page's loop sends it, or ends when stopped
        except Exception as e:  # noqa: BLE001 (as the page's loop: the others go on)
            core.app.handle_exception(e)


def _send_now(box: Outbox) -> bool:
    """Send the page's messages as its loop would (``_take``, NiceGUI's ``_emit``), without a coroutine, when its
    one socket can be written now (``socket_transport.page_socket``); False, nothing taken, when it cannot (not
    connected, On Air, several sockets, a socket paused or upgrading, a stopped page): its loop sends them."""
    if box._should_stop or core.air is not None:  # noqa: SLF001
        return False
    client = box._client()  # noqa: SLF001
    if client is None or not client.has_socket_connection:
        return False
    if any(message[0] != client.id for message in box.messages):
        return False  # a message to another target (NiceGUI's temporary socket of a page being built)
    eio_sid = socket_transport.page_socket(core.sio, client.id)
    if eio_sid is None:
        return False
    messages, data, kept, sent = _take(box, client)
    for message in messages:
        _emit_now(box, client, eio_sid, message)
    _after_send(data, kept, sent)
    return True


def _emit_now(box: Outbox, client: Client, eio_sid: str, message: Any) -> None:
    """NiceGUI's ``Outbox._emit`` (3.18) for a page's one socket, without a coroutine: the message's id, the send,
    the history kept for a reconnect's replay and its pruning."""
    _client_id, message_type, data = message
    data["_id"] = box.next_message_id
    socket_transport.send_now(core.sio, eio_sid, message_type, data)
    box.message_history.append((box.next_message_id, time.time(), message))
    max_age = core.sio.eio.ping_interval + core.sio.eio.ping_timeout + client.page.resolve_reconnect_timeout()
    while box.message_history and box.message_history[0][1] < time.time() - max_age:
        box.message_history.popleft()
    while len(box.message_history) > core.app.config.message_history_length:
        box.message_history.popleft()
    box.next_message_id += 1

"""The same traffic for every player's phone, whatever his role: no size or timing side channel.

A friend on the table's Wi-Fi cannot read the (TLS) messages, but he can see how big they are and when they
leave. When the mafia's phones get a bigger update than the town's at every night tap (their night card,
their chat), he knows the mafia. So after every change of a room, every seat's page that is waiting to send
something is padded to the size of the largest one of its group (the living, the dead), and a page with
nothing to send gets a message of that size too: one message each, same bytes, same moment. At night that size
is raised to a budget for the table's size: every phone gets the same bytes at a Confirm, and a mafia player's
Confirm (his team's card changes) must weigh what a townsman's does (his own panel changes).

The padding is an attribute (``PAD_PROP`` filled with spaces) of one element of the page that is never
rebuilt (NiceGUI's content element, which holds the parts), outside the rebuilt parts; emptied once the update that
carries it has gone (``webgame.framework.outbox.forget_after_send``).
It works on the exact bytes NiceGUI serializes, so the transport must not compress them: the app turns
off the websocket's per-message deflate and the gzip of page HTML (``webgame.app``), otherwise padding
would be squeezed away and the compressed sizes would differ again.

A page's own taps are answered alike for every role by the pages themselves (the night's act switch, a chat
page); a pick of a player and revealing the screen (the role card, the secret move) are the browser's alone and
send nothing. A first load is padded to the largest page of its group, so a reload at night says nothing either.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from nicegui import Client, ui

from webgame.framework import outbox, sent_updates
from webgame.framework.elements import element_dict, scripts_came_with_page
from webgame.room.rooms import Change, Room, Stage

if TYPE_CHECKING:
    from webgame.pages.page_protocols import PhonePage as RoomPage

log = logging.getLogger(__name__)

PAD_PROP = "data-pad"
PANEL_BYTES, PANEL_BYTES_PER_SEAT = 6144, 640  # the night's act switch is answered with this many (answer_bytes)
STEP_BYTES = 4096  # an answer bigger than its budget is padded to a multiple of this
# A move at night reaches every phone of a group with this many bytes (see _pad_to_largest): above the mafia's panel
# sent again for a teammate's Confirm (3.8 KB at 12 seats, its grid growing some 110 bytes a seat).
NIGHT_MOVE_BYTES, NIGHT_MOVE_BYTES_PER_SEAT = 2048, 256
_QUIET = frozenset({Change.TICK})  # the countdown: the same label on every phone
# The spaces matter only in the update that carries them: emptied once it is sent, not kept on every phone until
# the next change (3.6 KB a phone at 960 phones, docs/PERFORMANCE.md).
outbox.forget_after_send(PAD_PROP)


def attach(page: RoomPage, carrier: ui.element) -> None:
    """Make ``carrier`` (an element of the page that is never rebuilt) the page's padding and watch its room
    (call once, when the page is built).

    Every part of a room page that changes with the game is a ``Screen`` (the header is one too), so every
    phone has loaded the same scripts with its first HTML, and none gets a message (``load_js_components``)
    or fetches a script at the moment his role first shows him something (the mafia's chat box at night is
    nodes of the chat part, not an element of its own)."""
    # The first HTML imports the script of every element it holds, but NiceGUI's outbox does not know it and
    # would announce each again with the first update that carries one: on one phone and not another.
    scripts_came_with_page(page.client)
    page.pad = carrier
    page.pad.props[PAD_PROP] = ""
    room = page.room
    if even_out not in room.after_notify:
        room.after_notify.append(even_out)
    if room.stage is Stage.PLAYING:
        pad_first_load(page)


def group_of(page: Any) -> bool | None:
    """Pages padded together: seats of the running game, the living apart from the dead (that is public)."""
    room: Room = page.room
    pad = getattr(page, "pad", None)
    if pad is None or pad.is_deleted or room.stage is not Stage.PLAYING:
        return None
    alive = room.seat_alive(page.token_hash)
    if alive is None or page.client.id not in Client.instances:
        return None
    return alive


def even_out(room: Room, what: Change | None = None) -> None:
    """After a change of the room: pad every seat page's pending update to the largest of its group."""
    if what in _QUIET or room.stage is not Stage.PLAYING:
        return
    groups: dict[bool, list[Any]] = {}
    for page in list(room.subscribers):
        group = group_of(page)
        if group is not None:
            groups.setdefault(group, []).append(page)
    night = what is Change.STATE and room.at_night()  # a move at night (a chat line there tells its team anyway)
    for pages in groups.values():
        if len(pages) > 1:
            _pad_to_largest(pages, night)


def _pad_to_largest(pages: list[Any], night: bool = False) -> None:
    """Pad the pages' pending updates to the largest; at night to a budget for the table's size too (over it: to a
    whole ``STEP_BYTES``): a Confirm of the mafia's changes their team card (the teammates' panels are sent again, a
    bigger largest update for everyone) and the town's only the tapper's own panel, so the size of what every phone
    gets at the moment one player taps would tell which team he is on."""
    if not any(page.client.outbox.updates for page in pages):
        return  # nothing to send to anyone (a presence change no page shows): no pad-only message either
    sizes = []
    for page in pages:
        _queue_empty_pad(page)
        sizes.append(pending_bytes(page.client))
    largest = max(sizes)
    if night:
        budget = NIGHT_MOVE_BYTES + NIGHT_MOVE_BYTES_PER_SEAT * len(pages[0].room.seating)
        largest = budget if largest <= budget else -(-largest // STEP_BYTES) * STEP_BYTES
    for page, size in zip(pages, sizes, strict=True):
        _set_pad(page, largest - size, measured=True)


def _set_pad(page: Any, count: int, measured: bool = False) -> None:
    """The page's padding: ``count`` spaces. Set without the props' change handler (which would queue the update once
    more): one update, here. ``measured``: the page's update was just measured with the padding empty; its measured
    bytes get the spaces put in (``sent_updates.fill_measured``), not the carrier serialized again at the send."""
    count = max(0, count)
    dict.__setitem__(page.pad.props, PAD_PROP, " " * count)
    if not (measured and sent_updates.fill_measured(page.client.outbox, page.pad.id, PAD_PROP, count)):
        page.pad.update()


def _queue_empty_pad(page: Any) -> None:
    """The page's padding emptied and its carrier put in the page's pending update, as ``_set_pad(page, 0)`` does,
    without NiceGUI's checks of an update (``group_of`` has just found the page's client and carrier alive) or
    forgetting the carrier's measured bytes (the measure that follows makes them all again): part of every seat
    page's work at every change (issue 32)."""
    dict.__setitem__(page.pad.props, PAD_PROP, "")
    outbox.queue_alive(page.client.outbox, page.pad)


def pending_bytes(client: Client) -> int:
    """The size of the update this client's outbox will send next, from the bytes that will be sent: each
    pending element is serialized once, here, and sent as it was measured (``webgame.framework.sent_updates``)."""
    return sent_updates.measure(client.outbox)


def pad_alone(page: Any, total: int) -> None:
    """A page's answer to its own tap, padded to ``total`` bytes (when bigger: to the next ``STEP_BYTES``)."""
    if group_of(page) is None:
        return
    _set_pad(page, 0)
    size = pending_bytes(page.client)
    if size > total:
        total = -(-size // STEP_BYTES) * STEP_BYTES
    _set_pad(page, total - size, measured=True)


def answer_bytes(page: Any) -> int:
    """What the night's act switch is answered with: enough for the largest night screen of a room of this size
    (the grid of players, the mafia's card, the commissar's two acts and note)."""
    return PANEL_BYTES + PANEL_BYTES_PER_SEAT * len(page.room.seating)


def tree_bytes(elements: Iterable[Any], skip: Any = None) -> int:
    """The size of a whole page's elements as its first HTML carries them (the pad counted empty)."""
    total = 0
    for element in elements:
        data = element_dict(element)
        if element is skip:
            data = {**data, "props": {**data.get("props", {}), PAD_PROP: ""}}
        total += sent_updates.json_bytes(data)
    return total


def pad_first_load(page: Any) -> None:
    """A page loaded during the game weighs as much as the largest page of its group. The largest is measured
    once per state of the room (a reload storm after a restart measures every page once, not once per page)."""
    group = group_of(page)
    if group is None:
        return
    room = page.room
    version = (*room.version(), group)
    own = tree_bytes(list(page.client.elements.values()), skip=page.pad)
    cached = _LARGEST.get(room)
    if cached is None or cached[0] != version:
        sizes = [tree_bytes(list(other.client.elements.values()), skip=other.pad)
                 for other in list(room.subscribers) if other is not page and group_of(other) == group]
        cached = (version, max(sizes, default=0))
    largest = max(cached[1], own)
    _LARGEST[room] = (version, largest)
    _set_pad(page, largest - own)


_LARGEST: weakref.WeakKeyDictionary[Room, tuple[Any, int]] = weakref.WeakKeyDictionary()

"""The connection's state within 3 s (issue 27.4): a tiny message to each socket that heard nothing for a second.

socket.io notices a dead connection after its ping interval plus its timeout (24 + 12 s here, NiceGUI's
settings for a 30 s reconnect window): a phone whose Wi-Fi dropped went on showing a running countdown and
taking taps that went nowhere for half a minute. So the server sends a ``beat`` event, one encoded packet for all
(no task, no acknowledgement, no message from the phones: a phone's own pings would be one more event per phone
per second to parse); ``static/phone.js`` counts any packet as a sign of life and shows its offline badge after
``OFFLINE_MS`` of silence (at once on the socket's own disconnect or the browser's ``offline`` event).

Every ``TICK_SECONDS`` (an eighth of a second) the beat goes to each socket that was sent nothing for
``QUIET_SECONDS`` (1.125 s): the longest silence of a live connection is ``LONGEST_SILENCE`` (1.25 s, half of
``OFFLINE_MS``), and a socket that hears nothing else gets a beat every 1.125-1.25 s. A page that was sent an update
within that time is not sent a beat as well: the beats fill only the gaps between a room's changes that are longer
than ``QUIET_SECONDS``, as late as the guarantee allows (issue 32: at 80 rooms of 12, 0.45 beats a phone an action
instead of 0.65 when they waited only 0.75 s: a room there acts about once a second). A look costs only the beats
it sends: ``socket_transport.SENT`` keeps the sockets in the order they were last sent to, and a look reads its
front; every ``NEWCOMERS_EVERY`` looks it also finds the sockets never sent anything. The beats follow the updates,
and the updates of a room are the same bytes at the same moment for every living phone (``webgame.pages.evenness``), so
their beats are too: they tell an observer of the traffic nothing the updates did not (a phone's answer to its own
tap shifts its next beat, after the tap the observer saw).

After a loss, ``static/phone.js`` holds the phone's taps until the messages it missed are in: the server answers
every handshake with a message behind the replay (``CAUGHT_UP``, through the page's outbox: ``caught_up``), so a
page busy with updates, which hears no beats, is back in step as soon as a quiet one.

The badge's words, and what a tap made offline says when its step has passed, come with the page in the
reader's language (``texts_head``); ``webgame/pages/screen.js`` keeps such taps until the page is back in step.
"""

from __future__ import annotations

import asyncio
import json
import logging

from nicegui import Client

from webgame.framework import socket_transport
from webgame.language.i18n import N_, Translator

log = logging.getLogger(__name__)

LONGEST_SILENCE = 1.25  # seconds: the longest a live connection goes without a packet
TICK_SECONDS = 0.125  # how often the heartbeat looks for sockets due a beat
QUIET_SECONDS = LONGEST_SILENCE - TICK_SECONDS  # a socket sent nothing this long gets a beat at the next look
NEWCOMERS_EVERY = 4  # looks: how often the sockets never sent anything are looked for (a walk of every socket)
OFFLINE_MS = 2500  # static/phone.js: silence that means the server is out of reach (twice the longest silence)
EVENT = "beat"

OFFLINE = N_("No connection: waiting for the server")
WAITING = N_("Waiting to send")
STALE = N_("Not sent: that step is over")
TEXTS = {"offline": OFFLINE, "waiting": WAITING, "stale": STALE}


def texts_head(_: Translator) -> str:
    """A script with the connection's words for ``static/phone.js`` and ``screen.js``: our own texts in the
    reader's language, JSON with ``<`` escaped; no player text."""
    words = json.dumps({key: _(text) for key, text in TEXTS.items()}, ensure_ascii=False).replace("<", "\\u003c")
    return f"<script>window.mafiaNetTexts={words};</script>"


async def beat_forever() -> None:
    """The server's task: every ``TICK_SECONDS``, a beat to every socket sent nothing for ``QUIET_SECONDS``, as long
    as the server runs."""
    from nicegui import core

    packet = socket_transport.event_packet(core.sio, EVENT)
    looks = 0
    while True:
        await asyncio.sleep(TICK_SECONDS)
        looks += 1
        try:
            await socket_transport.queue_everywhere(core.sio, packet, QUIET_SECONDS,
                                                    newcomers=looks % NEWCOMERS_EVERY == 0)
        except Exception:  # never the end of the beats: a socket closing meanwhile, say
            log.exception("a heartbeat failed")


CAUGHT_UP = "mafiaCaughtUp"  # static/phone.js: the function told that a socket's replay is in


def caught_up(client: Client, socket_id: str) -> None:
    """After ``client``'s handshake on ``socket_id`` (``webgame.framework.outbox.after_handshake``): a message behind
    the ones it replays (the outbox sends in order, and the page runs its messages in order), telling
    ``static/phone.js`` that this socket's page has everything it missed. An old socket's message replayed on a new
    one is ignored there (the ids differ). Queued as ``run_javascript`` queues it, without a task."""
    code = f"window.{CAUGHT_UP}&&window.{CAUGHT_UP}({json.dumps(socket_id)})"
    client.outbox.enqueue_message("run_javascript", {"code": code}, client.id)

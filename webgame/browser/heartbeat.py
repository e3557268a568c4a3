"""The connection's state within 3 s (issue 27.4): a tiny message to each socket that heard nothing for a second.

socket.io notices a dead connection after its ping interval plus its timeout (24 + 12 s here, NiceGUI's
settings for a 30 s reconnect window): a phone whose Wi-Fi dropped went on showing a running countdown and
taking taps that went nowhere for half a minute. So the server sends a ``beat`` event, one encoded packet for all
(no task, no acknowledgement, no message from the phones: a phone's own pings would be one more event per phone
per second to parse); ``static/phone.js`` counts any packet as a sign of life and shows its offline badge after
``OFFLINE_MS`` of silence (at once on the socket's own disconnect or the browser's ``offline`` event).

Every ``TICK_SECONDS`` the beat goes to each socket that was sent nothing for ``QUIET_SECONDS``: a socket that
hears nothing else gets one a second (every other tick: ``QUIET_SECONDS`` is under two ticks, so a tick a little
early still beats), and the longest silence of a live connection is ``QUIET_SECONDS + TICK_SECONDS`` (1.25 s,
half of ``OFFLINE_MS``). A page that was just sent an update is not sent a beat as well: during play that was
half the messages a phone received (issue 32). The beats follow the updates, and the updates of a room are the
same bytes at the same moment for every living phone (``webgame.pages.evenness``), so their beats are too: they
tell an observer of the traffic nothing the updates did not (a phone's answer to its own tap shifts its next beat,
after the tap the observer saw).

The badge's words, and what a tap made offline says when its step has passed, come with the page in the
reader's language (``texts_head``); ``webgame/pages/screen.js`` keeps such taps until the page is back in step.
"""

from __future__ import annotations

import asyncio
import json
import logging

from webgame.framework import socket_transport
from webgame.language.i18n import N_, Translator

log = logging.getLogger(__name__)

BEAT_SECONDS = 1.0  # a socket that hears nothing else gets a beat this often
TICK_SECONDS = BEAT_SECONDS / 2
QUIET_SECONDS = BEAT_SECONDS * 3 / 4
OFFLINE_MS = 2500  # static/phone.js: silence that means the server is out of reach (two beats missed and a half)
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
    while True:
        await asyncio.sleep(TICK_SECONDS)
        try:
            await socket_transport.queue_everywhere(core.sio, packet, QUIET_SECONDS)
        except Exception:  # never the end of the beats: a socket closing meanwhile, say
            log.exception("a heartbeat failed")

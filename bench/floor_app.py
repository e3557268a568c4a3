"""The framework's floor: the smallest NiceGUI app that does what a room does, for ``bench/load.py``.

``/f/ROOM``: a label and a button. A tap on any phone of a room changes the label on every phone of that
room, the same way a room pushes a change (each page subscribed to a room object, updated in place from
the server side). Same NiceGUI, same ``ui.run`` settings as the game (gzip on, 30 s reconnect timeout).

``python -m bench.floor_app`` (``PORT``, default 8090).
"""

from __future__ import annotations

import os
from collections import defaultdict

from nicegui import Client, app, ui

RECONNECT_TIMEOUT = 30.0


class Channel:
    def __init__(self) -> None:
        self.count = 0
        self.labels: list[ui.label] = []

    def tapped(self) -> None:
        self.count += 1
        for label in list(self.labels):
            if not label.is_deleted:
                label.set_text(f"taps: {self.count}")


channels: dict[str, Channel] = defaultdict(Channel)


@ui.page("/f/{room}")
def floor_page(room: str, client: Client) -> None:
    channel = channels[room]
    label = ui.label(f"taps: {channel.count}")
    ui.button("Tap", on_click=channel.tapped)
    channel.labels.append(label)
    client.on_delete(lambda: channel.labels.remove(label) if label in channel.labels else None)


app.add_api_route("/healthz", lambda: "ok", methods=["GET"])
if os.environ.get("MAFIA_BENCH") == "1":  # the same object census as the game's, to compare what a phone holds
    from bench.hook import MEMORY_PATH, census

    app.add_api_route(MEMORY_PATH, census, methods=["GET"], include_in_schema=False)

if __name__ in {"__main__", "__mp_main__"}:
    ui.run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8090")), title="floor",
           storage_secret=os.environ.get("STORAGE_SECRET", "floor"), reconnect_timeout=RECONNECT_TIMEOUT,
           reload=False, show=False)

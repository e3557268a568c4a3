"""The screen nodes' kinds and keys, defined once: what ``screen.py`` writes, ``screen.js`` draws and
``screen_model.py`` reads.

A screen part is sent as a JSON list of small dicts, many on every redraw of every phone, so a node's keys are
one or two letters; this table says what each one holds. ``tests/web/test_screen_keys.py`` holds the three
files to it: a key or a kind that one of them uses and the table does not name, or that the table names and
one side no longer writes or draws, fails it, so the Python side and the browser's cannot drift apart.

Beside its ``model``, a part's element has one more prop, ``seat`` (``Draft.own_seat``): the page's own seat, never in
the model (a model may be one string for every phone of the room, ``shared_parts``); the browser marks that seat's
tile (``tile-<seat>``) as its own. The panel's has one more, ``buzz`` (``Draft.buzz``): the step its viewer has
something to do at; the phone vibrates once when it gets a new one.
"""

from __future__ import annotations

from typing import Final

NODE_KINDS: Final[dict[str, str]] = {  # the value of a node's "t" -> what the browser draws
    "label": "a line of text",
    "h": "a heading, <h1>..<h3> (level in 'l')",
    "div": "a box of nodes",
    "row": "a row of nodes",
    "col": "a column of nodes",
    "card": "a card of nodes",
    "exp": "a part that folds (title in 'x', opened at first in 'o')",
    "button": "a button (q-btn) that sends a tap",
    "link": "a button that opens a link of ours in a new tab, with no message to the server",
    "share": "the share button: the phone's share sheet, else the link copied",
    "badge": "a small coloured badge",
    "icon": "an icon (a picture only)",
    "dot": "a presence dot",
    "toggle": "an exclusive choice among a few options (q-btn-toggle)",
    "switch": "an on/off switch (q-toggle)",
    "clock": "a countdown the browser runs itself",
    "select": "a drop-down (q-select)",
    "chat": "the chat's writing box: channel, text, send",
    "form": "one text field and a wide button under it",
    "img": "a picture of this server",
    "theme": "the switch of the day's dark and light colours (in the browser only)",
    "dark": "the page's colours (nothing drawn)",
    "vk": "the veil key: when it changes, a revealed screen covers itself (nothing drawn)",
    "cov": "what the covered screen shows (the same for every role)",
    "rev": "what only the phone's owner sees, once he reveals it",
    "bar": "the step's buttons, pinned to the bottom of the screen",
    "tile": "a player's name in the covered grid",
    "pick": "a player in a grid, picked in the browser alone (nothing sent); its group's button sends the pick",
    "chosen": "the line under a pick grid: the picked player's name in 'x' ({name}), else the muted 'y'",
    "reveal": "the toggle between the covered and the revealed screen",
    "slot": "where the element's NiceGUI children of one slot go (the default one, or the one named in 's')",
}

NODE_KEYS: Final[dict[str, str]] = {  # a node's key -> what it holds
    "t": "the node's kind (NODE_KINDS)",
    "k": "the children of a box",
    "id": "the node's id: its data-testid, and the key of its handler on the server",
    "x": "its text",
    "y": "a second text: the reveal's 'Hide', the share's 'copied'",
    "c": "its classes",
    "i": "an icon",
    "o": "outlined (a button), opened (a fold)",
    "d": "disabled",
    "n": "no capitals",
    "f": "flat: a small round icon button",
    "h": "the screen covers itself shortly after the tap (a confirmed secret choice)",
    "col": "a colour",
    "tip": "a tooltip",
    "a": "the accessible name (aria-label; an image's alt text)",
    "href": "where a link goes",
    "url": "the link a share button shares",
    "msg": "the message shared with it",
    "ms": "a countdown's milliseconds left when the part was drawn",
    "on": "on or off (a presence dot, the dark colours)",
    "opts": "the options, as [value, text]",
    "v": "the value (a toggle's, a switch's, a select's, the chat's channel, the veil key, a pick's seat)",
    "src": "a picture's path",
    "lb": "a form field's label",
    "sid": "the id of a form's or a chat box's send button",
    "ml": "a form field's longest text",
    "af": "a form field takes the focus",
    "cid": "the id of the reveal's cover button",
    "dd": "a tile's player is dead",
    "ph": "the chat box's placeholder",
    "rf": "how many of the chat box's lines the server refused so far",
    "l": "a heading's level",
    "s": "a slot's name (none: the element's default slot)",
    "g": "a pick's group (the grid and its step); on a button: it sends that group's pick, disabled until one",
}

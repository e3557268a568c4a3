"""Screen parts that are the same on every phone of a room showing its game: built once per change of the room.

The step's counts (who is still choosing at night, the tally, who is ready to vote, the yes and the no) are
public: the engine gives them alike to every viewer (``engine.view.public_view``). A vote changed them on
every phone of the room, and every phone built the same part again (issue 32: the redraw per phone was the
largest share of an action's page work). Here such a part is built once per state of the room, language and
key, from the **spectator's projection** (``Room.projection(None)``: what any viewer may see, and nothing
more), and every page draws that model as it is. A shared part holds no button: a handler belongs to one page
(``draw`` refuses a build that made one).

The night's covered words and grid of the living are another (``GameView.cover``): every living phone's covered
night screen is the same by design, built once per change of the room for all of them. What differs per page stays
out of the model: the phone's own tile is marked by its browser from the element's ``seat`` prop (``Draft.own_seat``).

The players list (the news part's last lines) is a third: the same on every phone of a language until the end (the
roles the whole table was told, the fouls, the speaker, who is online), its nodes built once per change of the room
and grafted into each page's part (``graft``), whose other lines (a seat's private news, his role's help) differ.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable

from webgame.pages.screen import Draft
from webgame.pages.screen_model import Node
from webgame.room.rooms import Room

Built = tuple[list[Node], str]  # a part's nodes and its model (the JSON the browser draws)

_BUILT: weakref.WeakKeyDictionary[Room, tuple[Hashable, dict[Hashable, Built]]] = weakref.WeakKeyDictionary()


def draw(d: Draft, room: Room, key: Hashable, build: Callable[[Draft], None]) -> bool:
    """Draw in ``d`` what ``build`` makes for ``key``, built only when this room meets ``key`` first in its
    present state (``Room.version()``: a new action, step or chat line forgets every build of the one before).
    ``key`` must name everything the build reads beyond the spectator's projection (the language, the names).
    True when it was built now, False when an earlier page's build was drawn."""
    built, fresh = _built(room, key, build, model=True)
    d.adopt(*built)
    return fresh


def model(room: Room, key: Hashable, build: Callable[[Draft], None]) -> str:
    """The model ``draw`` would put in a draft for ``key``, without the draft: for a page whose part is that shared
    model alone and is drawn again only for it (``Screen.show``: the step's counts at a tap, on most phones)."""
    return _built(room, key, build, model=True)[0][1]


def graft(d: Draft, room: Room, key: Hashable, build: Callable[[Draft], None]) -> bool:
    """As ``draw``, for nodes within a part (``Draft.graft``: the players list in the news part, whose other lines
    differ per seat): the nodes are built once, the part's JSON is made by each page."""
    built, fresh = _built(room, key, build, model=False)
    d.graft(built[0])
    return fresh


def _built(room: Room, key: Hashable, build: Callable[[Draft], None], model: bool) -> tuple[Built, bool]:
    version = room.version()
    held = _BUILT.get(room)
    if held is None or held[0] != version:
        held = (version, {})
        _BUILT[room] = held
    built = held[1].get(key)
    if built is not None:
        return built, False
    draft = Draft()
    build(draft)
    if draft.handlers:
        raise ValueError("a part shared by many pages cannot hold a button")
    built = held[1][key] = (draft.nodes, draft.model() if model else "")
    return built, True

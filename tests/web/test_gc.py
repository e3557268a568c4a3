"""The garbage collector's tuning (``webgame.app``): frozen survivors, and the collection of everything."""

from __future__ import annotations

import gc
import weakref

from webgame import app


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_cycle_that_dies_after_a_freeze_is_freed_by_the_collection_of_everything() -> None:
    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle, like an element and its slot
    probe = weakref.ref(first)
    gc.freeze()  # as after a full collection: the cycle is among the frozen survivors
    try:
        del first, second
        gc.collect()
        assert probe() is not None  # frozen: an ordinary collection does not see it
        app.collect_everything()
        assert probe() is None
    finally:
        gc.unfreeze()


def test_a_full_collection_freezes_what_survives_it() -> None:
    gc.unfreeze()
    kept = [Node() for _ in range(100)]
    try:
        app._freeze_after_full("stop", {"generation": 2})
        assert gc.get_freeze_count() >= len(kept)
        before = gc.get_freeze_count()
        app._freeze_after_full("stop", {"generation": 0})  # a young collection changes nothing
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()

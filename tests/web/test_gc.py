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


def test_a_restart_rebuilding_every_page_is_not_collected_at_once_but_a_burst_later_is() -> None:
    """After a restart the phones' pages are built again at once (the heap doubles): no collection of
    everything in the middle of that reconnect storm; growth a minute on is collected, and time alone too."""
    assert not app.collection_due(10.0, 2_000_000, 800_000)  # the storm, 10 s after the start
    assert app.collection_due(app.GROWTH_SETTLE, 2_000_000, 800_000)  # grown, a minute on
    assert not app.collection_due(app.GROWTH_SETTLE, 900_000, 800_000)  # a minute on, not grown enough
    assert app.collection_due(app.FULL_COLLECTION_EVERY, 800_000, 800_000)  # ten minutes: whatever the growth


def test_the_server_collects_the_young_generation_after_ten_thousand_new_objects() -> None:
    """A room's change lives for a few thousand objects: they are not moved on to the older generations (where they
    were walked again and again) before they die."""
    before = gc.get_threshold()
    try:
        app.tune_gc()
        assert gc.get_threshold() == (app.YOUNG_COLLECTION_AFTER, *before[1:])
        assert 10 * before[0] <= app.YOUNG_COLLECTION_AFTER
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
        if app._freeze_after_full in gc.callbacks:  # the server's alone (``_start_rooms`` reads it)
            gc.callbacks.remove(app._freeze_after_full)

"""The garbage collector's tuning (``webgame.app``): frozen survivors, and the collection of everything."""

from __future__ import annotations

import gc
import time
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


def test_a_collection_of_everything_asked_by_anyone_restarts_the_count() -> None:
    """The next collection counts the heap's growth and the time from the last one, whoever asked for it (the
    bench's census of the memory collects everything too): no second long pause for garbage already freed."""
    app._Last.heap, app._Last.at = 1, 0.0  # a tiny heap long ago: a collection would be due
    assert app.collection_due(time.monotonic() - app._Last.at, app.heap_size(), app._Last.heap)
    try:
        app.collect_everything()
        assert time.monotonic() - app._Last.at < 5.0
        assert not app.collection_due(time.monotonic() - app._Last.at, app.heap_size(), app._Last.heap)
    finally:
        gc.unfreeze()


def test_the_server_collects_the_young_generation_after_ten_thousand_new_objects() -> None:
    """A room's change lives for a few thousand objects: they are not moved on to the older generations (where they
    were walked again and again) before they die."""
    before, had_callback = gc.get_threshold(), app._freeze_after_full in gc.callbacks
    gc.set_threshold(700, 10, 10)  # Python's defaults (a simulated phone's test may have run the server's setup)
    try:
        app.tune_gc()
        assert gc.get_threshold() == (10_000, 10, 10)
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
        if not had_callback and app._freeze_after_full in gc.callbacks:
            gc.callbacks.remove(app._freeze_after_full)

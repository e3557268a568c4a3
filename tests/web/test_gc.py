"""The garbage collector's tuning (``webgame.app``): frozen survivors, and the collection of everything."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest

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


def test_any_collection_freezes_what_survives_it() -> None:
    """A survivor of a young collection is not walked again by the next ones (nor by the older generations')."""
    gc.unfreeze()
    had_callback = app._freeze_after_collection in gc.callbacks
    if not had_callback:
        gc.callbacks.append(app._freeze_after_collection)
    try:
        kept = [Node() for _ in range(100)]
        assert any(item is kept[0] for item in gc.get_objects(0))  # young before the collection
        gc.collect(0)
        assert gc.get_freeze_count() >= len(kept)
        assert not any(item is kept[0] for generation in range(3) for item in gc.get_objects(generation))
    finally:
        if not had_callback:
            gc.callbacks.remove(app._freeze_after_collection)
        gc.unfreeze()


async def test_the_young_generation_is_collected_by_the_clock_when_the_count_stays_low() -> None:
    """A busy server frees as much as it makes, so Python's count (new objects minus freed ones) never calls a young
    collection while the young generation fills up; the clock's collection empties it, its survivors frozen."""
    before, had_callback = gc.get_threshold(), app._freeze_after_collection in gc.callbacks
    old: list[Node | None] = [Node() for _ in range(30_000)]
    gc.collect()
    gc.freeze()  # the old ones, as the pages of a running server
    gc.set_threshold(10_000, 10, 10)
    if not had_callback:
        gc.callbacks.append(app._freeze_after_collection)
    task: asyncio.Task[None] | None = None
    try:
        new: list[Node] = []
        for index in range(len(old)):  # each new object replaces an old one: the count stays near zero
            new.append(Node())
            old[index] = None
        assert gc.get_count()[0] < 10_000
        assert len(gc.get_objects(0)) >= 20_000  # ... while the young generation holds every new one
        task = asyncio.create_task(app.young_collections(0.01))
        await asyncio.sleep(0.1)
        assert len(gc.get_objects(0)) < 1_000
        assert not any(item is new[-1] for generation in range(3) for item in gc.get_objects(generation))  # frozen
    finally:
        if task is not None:
            task.cancel()
        gc.set_threshold(*before)
        if not had_callback:
            gc.callbacks.remove(app._freeze_after_collection)
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
    before, had_callback = gc.get_threshold(), app._freeze_after_collection in gc.callbacks
    gc.set_threshold(700, 10, 10)  # Python's defaults (a simulated phone's test may have run the server's setup)
    try:
        app.tune_gc()
        assert gc.get_threshold() == (10_000, 10, 10)
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
        if not had_callback and app._freeze_after_collection in gc.callbacks:
            gc.callbacks.remove(app._freeze_after_collection)


def test_the_clock_freezes_instead_of_walking_while_collections_free_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms at play leave no young cycle: after ten collections in a row that freed nothing, only one tick in ten
    walks the young generation (the others freeze it); the first collection that frees something (a lobby's redrawn
    settings) brings back a collection at every tick."""
    garbage = iter([5] + [0] * app.QUIET_AFTER + [0] * 40)  # what each collection frees
    walked: list[int] = []
    frozen: list[int] = []
    ticks = app.YoungTicks()

    def collect(generation: int = 2) -> int:
        walked.append(ticks.ticks)
        return next(garbage)

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(ticks.ticks))
    results = [ticks.tick() for _ in range(1 + app.QUIET_AFTER + 2 * app.QUIET_SAMPLE)]
    assert all(results[: 1 + app.QUIET_AFTER])  # garbage first, then ten quiet collections: every tick walks
    quiet_ticks = results[1 + app.QUIET_AFTER :]
    assert quiet_ticks.count(True) == 2 and len(frozen) == len(quiet_ticks) - 2  # one in ten walks, the rest freeze

    garbage = iter([3, 0, 0])  # a lobby again: the sampled collection finds some
    ticks.ticks = app.QUIET_SAMPLE - 1  # the next tick is a sampled one
    assert ticks.tick() and ticks.quiet == 0
    assert ticks.tick() and ticks.tick()  # every tick walks again


async def test_the_server_frees_what_its_start_left_before_any_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The database's setup and the restored rooms' replays die among frozen survivors: collected once the rooms are
    restored (``start_collections``), then the background collections start."""
    started: list[str] = []
    monkeypatch.setattr(app.background_tasks, "create", lambda job, name: (started.append(name), job.close()))
    had_callback = app._freeze_after_collection in gc.callbacks
    if not had_callback:
        gc.callbacks.append(app._freeze_after_collection)
    try:
        first, second = Node(), Node()
        first.other, second.other = second, first
        probe = weakref.ref(first)
        gc.collect()  # survived: frozen by the callback
        del first, second
        gc.collect()
        assert probe() is not None  # dead, frozen: no ordinary collection frees it
        app.start_collections()
        assert probe() is None
        assert started == ["full garbage collections", "young garbage collections"]
    finally:
        if not had_callback:
            gc.callbacks.remove(app._freeze_after_collection)
        gc.unfreeze()


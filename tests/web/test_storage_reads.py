"""A browser's storage (its seat tokens) read again after a restart is not written back: every phone's first
request after a restart used to rewrite its own file (docs/PERFORMANCE.md, the reconnect storm). A change is
still saved."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from nicegui.persistence.file_persistent_dict import FilePersistentDict
from nicegui.testing import User

from webgame.framework import browser_storage, storage_files


async def _settled(path: Path, before: int) -> bool:
    """Whether the file changed within a moment (NiceGUI saves in a background task, through a thread)."""
    for _ in range(20):
        await asyncio.sleep(0.05)
        if path.stat().st_mtime_ns != before:
            return True
    return False


async def test_a_storage_file_read_again_is_not_rewritten_and_a_change_is_saved(tmp_path: Path,
                                                                                 user: User) -> None:
    assert storage_files.quiet_reads()
    path = tmp_path / "storage-user-abc.json"
    path.write_text(json.dumps({"seats": {"K7QXM": "token"}, "lang": "uk"}), encoding="utf-8")
    written = path.stat().st_mtime_ns
    storage = FilePersistentDict(path, "utf-8")
    await storage.initialize()
    assert storage["seats"] == {"K7QXM": "token"} and storage["lang"] == "uk"
    assert not await _settled(path, written), "reading the browser's storage wrote its file again"
    storage["lang"] = "ro"  # a change is saved as before
    assert await _settled(path, written)
    assert json.loads(path.read_text(encoding="utf-8"))["lang"] == "ro"


async def test_a_file_written_by_another_process_is_read_again_before_a_page(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The read before a page (``browser_storage.refresh``): a file another process wrote (a seat taken in a room
    that lives there) is read again; an unchanged one is not; nothing about the browser is kept beside its cached
    storage (a table of every browser ever seen only grew)."""
    from nicegui import app

    browser = "0c6e7d2a-5b8f-4d8e-9a51-3f1c2b7a9e10"
    path = tmp_path / f"storage-user-{browser}.json"
    path.write_text(json.dumps({"seats": {}}), encoding="utf-8")
    storage = FilePersistentDict(path, "utf-8")
    await storage.initialize()
    monkeypatch.setitem(app.storage._users, browser, storage)  # noqa: SLF001
    scope = {"session": {"id": browser}}
    await browser_storage.refresh(scope, [])
    path.write_text(json.dumps({"seats": {"K7QXM": "token"}}), encoding="utf-8")  # the other process
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    await browser_storage.refresh(scope, [])
    assert storage["seats"] == {"K7QXM": "token"}
    dict.__setitem__(storage, "seats", {"mine": "kept"})  # changed here; the file did not change since the read
    await browser_storage.refresh(scope, [])
    assert storage["seats"] == {"mine": "kept"}, "an unchanged file was read again"
    assert not any(isinstance(value, dict) and browser in value for value in vars(browser_storage).values())

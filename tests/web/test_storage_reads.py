"""A browser's storage (its seat tokens) read again after a restart is not written back: every phone's first
request after a restart used to rewrite its own file (docs/PERFORMANCE.md, the reconnect storm). A change is
still saved."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from nicegui.persistence.file_persistent_dict import FilePersistentDict
from nicegui.testing import User

from webgame.framework import storage_files


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

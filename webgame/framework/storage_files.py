"""NiceGUI's per-browser storage files (``app.storage.user``: the seat tokens): where they are kept, and read without
being written back.

- ``place``: NiceGUI reads its folder (``Storage.path``) from ``NICEGUI_STORAGE_PATH`` once, when it is imported,
  and otherwise keeps the files in ``./.nicegui`` of the working directory; the game keeps them in its data folder
  (``webgame.app.place_browser_storage``), which is known only once the environment has been read.
- ``quiet_reads``: NiceGUI's ``FilePersistentDict.initialize`` fills the dict with ``update``, whose change handler
  saves the dict again (a worker thread, a temp file, a rename). Every browser's first request after a restart read
  its file and wrote the same bytes back: 960 writes in the reconnect storm, a tenth of the server's work then
  (docs/PERFORMANCE.md). The dict is filled with its handlers set aside, in one synchronous step (no other
  request's change can fall between); later changes are saved as before. The file (a few hundred bytes, in the page
  cache) is read in the event loop, not in a worker thread as NiceGUI does: the thread's hand-overs cost ten times
  the read, 5 % of the storm's CPU.
"""

from __future__ import annotations

import inspect
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def place(path: Path) -> None:
    """Keep every browser's storage file in ``path`` from now on."""
    from nicegui.storage import Storage

    Storage.path = path


def folder() -> Path:
    """Where the browsers' storage files are kept."""
    from nicegui.storage import Storage

    return Storage.path


async def _read_storage_file(self: Any) -> None:
    """NiceGUI's ``FilePersistentDict.initialize`` without writing the file back (see the module's docstring)."""
    try:
        data = json.loads(self.filepath.read_text(encoding=self.encoding)) if self.filepath.exists() else {}
    except Exception:  # as NiceGUI: an unreadable file is an empty storage
        log.warning("could not load storage file %s", self.filepath)
        return
    handlers, self._change_handlers = self._change_handlers, []
    try:
        self.update(data)
    finally:
        self._change_handlers = handlers


def quiet_reads() -> bool:
    """Install ``_read_storage_file`` (idempotent), if NiceGUI's ``initialize`` is still the one it replaces;
    whether it is installed."""
    from nicegui.persistence.file_persistent_dict import FilePersistentDict

    current = FilePersistentDict.initialize
    if current is _read_storage_file:
        return True
    source = inspect.getsource(current)
    if "self.update(data)" not in source or "read_text" not in source:
        log.warning("NiceGUI's FilePersistentDict.initialize changed; its reads stay as they are")
        return False
    FilePersistentDict.initialize = _read_storage_file  # type: ignore[method-assign]
    return True

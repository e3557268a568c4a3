"""``webgame.framework.install``: every change to NiceGUI and the libraries, put in place by ``webgame.app.setup``
for the server and for the simulated phones alike, and refused on another NiceGUI than the one it was written for."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

import nicegui.client
import nicegui.storage
import nicegui.ui_run
import pytest
from engineio import async_socket
from nicegui import core
from nicegui.outbox import Outbox
from nicegui.persistence.file_persistent_dict import FilePersistentDict
from nicegui.testing import User

from webgame import framework
from webgame.framework import asgi_layers, outbox, page_escape, socket_transport, stale_sockets, storage_files

from .structure import ROOT


def test_the_pinned_nicegui_is_the_one_pyproject_pins() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pins = [re.sub(r"\s", "", dependency) for dependency in dependencies if dependency.startswith("nicegui")]
    assert pins == [f"nicegui=={framework.PINNED}"]
    assert metadata.version("nicegui") == framework.PINNED  # the tests run on it


def test_another_nicegui_is_refused_with_what_was_found_and_where_to_look(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(framework.WrongNiceGUI) as refused:
        framework.check_version("3.19.0")
    message = str(refused.value)
    assert "NiceGUI 3.19.0 is installed" in message and f"nicegui=={framework.PINNED}" in message
    assert "docs/FRAMEWORK.md" in message and "pyproject.toml" in message
    framework.check_version(framework.PINNED)  # the pinned one passes
    # ``install`` asks first, before it changes anything
    monkeypatch.setattr(metadata, "version", lambda name: "4.0.0" if name == "nicegui" else "0")
    monkeypatch.setattr(page_escape, "install", lambda: pytest.fail("installed on a NiceGUI it was not written for"))
    with pytest.raises(framework.WrongNiceGUI, match="NiceGUI 4.0.0 is installed"):
        framework.install(core.app)


async def test_the_simulated_phones_run_every_change_the_server_runs(user: User) -> None:
    """``webgame.app.setup`` installed them for this test as for the server (one exception: uvicorn's websocket
    protocol is uvicorn's, which the simulated phones do not use; its configuration is set all the same)."""
    await user.open("/")
    assert nicegui.ui_run.RedirectWithPrefixMiddleware is asgi_layers.RedirectWithPrefix
    assert nicegui.storage.RequestTrackingMiddleware is asgi_layers.RequestTracking
    layers = [middleware.cls for middleware in core.app.user_middleware]
    assert asgi_layers.RequestTracking in layers and stale_sockets.StaleSockets in layers
    assert getattr(nicegui.ui_run.CustomServerConfig, "websocket_protocol", None) == socket_transport.WEBSOCKET_PROTOCOL
    assert nicegui.client.json is page_escape.ClientJson
    assert Outbox.loop is outbox._outbox_loop  # noqa: SLF001 - the test looks at what was installed
    assert Outbox.enqueue_update is outbox._enqueue_update  # noqa: SLF001 - a measured element, changed since
    assert FilePersistentDict.initialize is storage_files._read_storage_file  # noqa: SLF001
    assert core.sio is not None and core.sio.packet_class.uses_binary_events is False
    assert core.sio.manager.direct_emit is True
    assert getattr(async_socket.AsyncSocket.receive, "guarded", False)  # the socket guard's hooks
    page = await user.http_client.get("/")
    assert "fonts.css" not in page.text  # the lightened page template

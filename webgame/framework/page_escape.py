"""A page's elements escaped for its HTML by five ``str.replace`` calls instead of NiceGUI's ``str.translate``.

NiceGUI puts a page's elements into its HTML as JSON escaped with ``elements.translate(HTML_ESCAPE_TABLE)``
(``nicegui/client.py``, ``Client.build_response``). ``str.translate`` with replacements longer than one
character falls back to a loop that looks up every character of the string in the table: for a room page's
17-40 KB of JSON (Cyrillic names make it non-ASCII) 1-3 ms of a core, a fifteenth of the server's work when every
phone loads its page again after a restart (docs/PERFORMANCE.md, the reconnect storm). Five ``replace`` calls
give the same text in a twentieth of the time.

``install()`` hands ``nicegui.client`` a ``json`` whose ``dumps`` returns that string as ``FastEscape``, a
``str`` whose ``translate`` does the replacements when it is given NiceGUI's table (any other table: the plain
``str.translate``). It installs nothing, and says so in the log, if NiceGUI's table is not the five
replacements done here.
"""

from __future__ import annotations

import logging
from typing import Any

import nicegui.client
from nicegui import json as nicegui_json

log = logging.getLogger(__name__)

REPLACEMENTS = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("`", "&#96;"), ("$", "&#36;"))  # "&" first


def escape(text: str) -> str:
    """``text.translate(nicegui.client.HTML_ESCAPE_TABLE)``, the fast way."""
    for character, entity in REPLACEMENTS:
        if character in text:
            text = text.replace(character, entity)
    return text


class FastEscape(str):
    """JSON text that NiceGUI may escape for the page's HTML (see the module's docstring)."""

    __slots__ = ()

    def translate(self, table: Any) -> str:
        if table is nicegui.client.HTML_ESCAPE_TABLE:
            return escape(str(self))
        return str(self).translate(table)


class ClientJson:
    """``nicegui.client``'s ``json``: NiceGUI's own, ``dumps`` returning ``FastEscape``."""

    @staticmethod
    def loads(text: Any) -> Any:
        return nicegui_json.loads(str(text) if isinstance(text, FastEscape) else text)  # orjson: exact types only

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> FastEscape:
        return FastEscape(nicegui_json.dumps(obj, **kwargs))


def install() -> bool:
    """Whether it could (idempotent: ``webgame.app.setup`` runs again for every simulated-phone test)."""
    if str.maketrans(dict(REPLACEMENTS)) != nicegui.client.HTML_ESCAPE_TABLE:
        log.warning("NiceGUI escapes pages with other characters now: its own str.translate is kept "
                    "(webgame/framework/page_escape.py)")
        return False
    setattr(nicegui.client, "json", ClientJson)  # noqa: B010 (a module NiceGUI imported by that name)
    return True

"""Small speed-ups of NiceGUI internals that every element pays for (found with ``py-spy``, see
docs/PERFORMANCE.md). Each keeps the framework's behaviour exactly; ``install()`` is idempotent.

- ``expects_arguments(func)``: NiceGUI asks it for the change handler of every element's props, classes and
  style (three bound methods per element) and for every event handler, and it builds an ``inspect``
  signature each time: 4 % of the server's CPU when lobbies turn into games. For a bound method the answer
  depends only on the function behind it, so it is remembered per function.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable
from typing import Any

from nicegui import helpers
from nicegui.helpers import functions

_ORIGINAL: Callable[[Callable[..., Any]], bool] = functions.expects_arguments
_BY_FUNCTION: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()


def expects_arguments(func: Callable[..., Any]) -> bool:
    """NiceGUI's ``expects_arguments``, remembered per function for bound methods."""
    if not isinstance(func, types.MethodType):
        return _ORIGINAL(func)
    key = func.__func__
    known = _BY_FUNCTION.get(key)
    if known is None:
        known = _BY_FUNCTION[key] = _ORIGINAL(func)
    return known


def install() -> None:
    helpers.expects_arguments = expects_arguments
    functions.expects_arguments = expects_arguments

"""``Section``: a part of one page that is rebuilt on its own, like ``ui.refreshable_method`` but per page.

NiceGUI's ``refreshable_method`` keeps one list of targets per *method*, shared by every instance of the
class: every call and every refresh walks (and prunes) the copies of all the pages in the process, so a
refresh costs more the more phones are connected. A ``Section`` holds its own container, and its refresh
clears and rebuilds that container at once, in the caller's task (no background task per refresh).

A section is built only from its page's own state (here: the viewer's projection), like any refreshable.
"""

from __future__ import annotations

from collections.abc import Callable

from nicegui.element import Element
from nicegui.functions.refreshable import RefreshableContainer


class Section:
    def __init__(self, build: Callable[[], None]) -> None:
        self.build = build
        self.container: Element | None = None

    def __call__(self, container: Element | None = None) -> None:
        """Build the section here (in the current slot), or into ``container`` (an element that holds nothing
        else: one element fewer per page); later refreshes clear and rebuild it in place."""
        self.container = container if container is not None else RefreshableContainer()
        with self.container:
            self.build()

    def refresh(self) -> None:
        container = self.container
        if container is None or container.is_deleted:
            return
        container.clear()
        with container:
            self.build()

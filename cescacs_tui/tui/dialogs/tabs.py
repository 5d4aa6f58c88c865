"""Tab and Shift+Tab in a dialog move the focus as the app reads them, so the keys after them follow the focus.

Textual routes each key to the widget that has the focus when the app reads
the key, and a Tab moves the focus only once that widget has handled it and
passed it up to the screen's binding.  Keys read together (a loaded machine,
an SSH or browser link that delivers a quick typist's keys in one read) were
therefore all routed before the first Tab moved anything: ``Tab Tab Enter``
in the Open dialog put a new line in the paste box instead of pressing
"Choose a file…".  Bound with priority on the dialog, Tab moves the focus
while the app reads it, before the next key is routed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from ...i18n import N_

__all__ = ["TabsAsRead"]


class TabsAsRead(Screen[Any]):
    """Mixed into a dialog (before its Textual class) whose widgets take no Tab themselves: Tab and Shift+Tab move
    the focus at once (a priority binding), so each key of a burst goes where the keys before it left the focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "app.focus_next", N_("Focus Next"), show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", N_("Focus Previous"), show=False, priority=True),
    ]

"""The game screen's footer, mounted after the first frame (:class:`~.lazy_line.LazyLine`)."""

from __future__ import annotations

from textual.widgets import Footer


class LateFooter(Footer):
    """A ``Footer`` that shows its screen's keys as soon as it is mounted, however late.

    Textual's footer draws nothing until its screen next publishes its keys (a
    focus change, a screen resumed).  Mounted after the first frame, it can
    arrive after the last publication: under the resume question, answered
    before the footer came, the resumed game's board kept a blank footer until
    the focus moved.
    """

    def on_mount(self) -> None:
        """Take the screen's keys now (``Footer``'s own handler subscribes to the later ones)."""
        self.bindings_changed(self.screen)

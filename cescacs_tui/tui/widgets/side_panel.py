"""The column beside the board that holds the clocks, the status, the moves and the material, and over which the
notifications show."""

from __future__ import annotations

from textual.containers import Vertical
from textual.message import Message


class SidePanel(Vertical):
    """A container that says when it is mounted.

    The app mounts it lazily, after the board's first paint, so a terminal
    shows the board as soon as possible; :class:`Ready` tells the app to fill
    the panels in.
    """

    class Ready(Message):
        """The side panel and its children are mounted."""

    def on_mount(self) -> None:
        self.post_message(self.Ready())

    def on_resize(self) -> None:
        self.call_after_refresh(self.keep_notifications_here)

    def keep_notifications_here(self) -> None:
        """Keep the screen's notifications within this panel, never over the board.

        Textual docks them at the bottom right of the screen, 60 cells wide:
        at 80 or 120 columns they covered the bottom of the board.  Its rack
        (the container every notification of a screen goes in) gets margins
        that leave it this panel's region, and no more height than the panel.
        """
        screen = self.screen
        region = self.region
        for rack in screen.query("#textual-toastrack"):
            rack.styles.margin = (0, 0, max(0, screen.size.height - region.bottom), region.x)
            rack.styles.width = region.width
            rack.styles.max_height = region.height

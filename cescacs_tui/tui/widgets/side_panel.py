"""The column beside the board that holds the clocks, the status, the moves and the material."""

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

"""A one-line widget mounted after the first paint, whose line is kept from the start."""

from __future__ import annotations

from textual.lazy import Lazy


class LazyLine(Lazy):
    """Like Textual's :class:`~textual.lazy.Lazy`, but it holds its widget's line until the widget arrives.

    A plain ``Lazy`` takes no room, so the rows under the board would appear a
    frame after the board and push it up: the board would jump just as the
    player looks at it.
    """

    DEFAULT_CSS = """
    LazyLine { display: block; height: 1; }
    """

    def render(self) -> str:
        """Blank until the widget arrives (a plain ``Widget`` would print its class name here)."""
        return ""

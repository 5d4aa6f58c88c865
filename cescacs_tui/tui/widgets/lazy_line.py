"""Widgets mounted after the first paint: Textual's :class:`~textual.lazy.Lazy`, safe when the app quits first."""

from __future__ import annotations

from textual.lazy import Lazy
from textual.widget import Widget


class MountLater(Lazy):
    """Like Textual's :class:`~textual.lazy.Lazy`: its widget is mounted after the first refresh.

    If the app is quitting by then (Ctrl+Q, SIGTERM or a lost terminal in the
    first moments), nothing is mounted: Textual's ``Lazy`` raised
    ``MountError`` into a quitting app, which then died with a traceback.
    """

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        parent = self.parent
        if not isinstance(parent, Widget):
            return

        async def mount() -> None:
            if parent.is_attached:  # False once the app is quitting
                await parent.mount(self._replace_widget, after=self)
                await self.remove()

        self.call_after_refresh(mount)


class LazyLine(MountLater):
    """A :class:`MountLater` that holds its widget's line until the widget arrives.

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

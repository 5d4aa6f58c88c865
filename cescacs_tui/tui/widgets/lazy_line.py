"""Widgets mounted after the first paint: Textual's :class:`~textual.lazy.Lazy`, sooner, and safe when the app quits
first."""

from __future__ import annotations

from textual.lazy import Lazy
from textual.screen import Screen
from textual.widget import Widget


class MountLater(Lazy):
    """Like Textual's :class:`~textual.lazy.Lazy`: its widget is mounted once its screen has drawn a frame without it.

    The mount starts at the screen's next layout refresh (Textual publishes
    ``screen_layout_refresh_signal`` once the frame is drawn) or after its next
    refresh (``call_after_refresh``), whichever comes first.  ``Lazy`` waits for
    the second alone, which Textual holds back until the screen has nothing
    left to draw: at the app's start the terminal's size report and the
    notifications' rack each asked for one more frame, a tick of Textual's
    60 Hz update timer apiece, and the side panel came some 30 ms after the
    board instead of at once (``benchmarks/ui.py``, section 3c).

    If the app is quitting by then (Ctrl+Q, SIGTERM or a lost terminal in the
    first moments), nothing is mounted: Textual's ``Lazy`` raised
    ``MountError`` into a quitting app, which then died with a traceback.
    """

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        parent = self.parent
        if not isinstance(parent, Widget):
            return
        screen = self.screen
        started = False

        async def mount(_: Screen[object] | None = None) -> None:
            nonlocal started
            if started:  # the other of the two calls
                return
            started = True
            screen.screen_layout_refresh_signal.unsubscribe(self)
            if parent.is_attached:  # False once the app is quitting
                await parent.mount(self._replace_widget, after=self)
                await self.remove()

        screen.screen_layout_refresh_signal.subscribe(self, mount)
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

"""Widgets made and mounted after the first paint: like Textual's :class:`~textual.lazy.Lazy`, sooner, with their
modules imported then, and safe when the app quits first."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.widget import Widget


class MountLater(Widget):
    """Stands in for the widget ``make`` returns, made and mounted once the screen has drawn a frame without it.

    Like Textual's :class:`~textual.lazy.Lazy`, but ``make`` is called only
    then: a function that imports the widget's module as it makes it keeps
    that module out of the start (the side panel's six modules, the move
    row's, the footer's: benchmarks/README.md).

    The mount starts at the screen's next layout refresh (Textual publishes
    ``screen_layout_refresh_signal`` once the frame is drawn) or after its next
    refresh (``call_after_refresh``), whichever comes first.  ``Lazy`` waits for
    the second alone, which Textual holds back until the screen has nothing
    left to draw: at the app's start the terminal's size report and the
    notifications' rack each asked for one more frame, a tick of Textual's
    60 Hz update timer apiece, and the side panel came some 30 ms after the
    board instead of at once (``benchmarks/ui.py``, section 3c).

    If the app is quitting by then (Ctrl+Q, SIGTERM or a lost terminal in the
    first moments), nothing is made or mounted: Textual's ``Lazy`` raised
    ``MountError`` into a quitting app, which then died with a traceback.
    """

    DEFAULT_CSS = """
    MountLater { display: none; }
    """

    def __init__(self, make: Callable[[], Widget]) -> None:
        super().__init__()
        self._make = make

    def compose_add_child(self, widget: Widget) -> None:
        raise TypeError("MountLater takes a function that makes its widget (with its children), not children")

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        parent = self.parent
        if not isinstance(parent, Widget):
            return
        screen = self.screen
        started = False

        def start(_: Screen[object] | None = None) -> None:
            nonlocal started
            if started:  # the other of the two calls
                return
            started = True
            screen.screen_layout_refresh_signal.unsubscribe(self)
            if not parent.is_attached:  # the app has quit (Ctrl+Q, SIGTERM, a lost terminal in the first moments)
                return
            try:
                widget = self._make()
            except Exception as error:  # Textual's signal would only log it: the app stops, as a failing compose does
                self.call_next(_raise, error)
                return
            self.call_next(self._take_place, parent, widget)

        # At once as the signal is published: each placeholder of the screen makes its widget (and imports its
        # modules) before any mount begins, and the mounts, which Textual interleaves, end in one frame.
        screen.screen_layout_refresh_signal.subscribe(self, start, immediate=True)
        self.call_after_refresh(start)

    async def _take_place(self, parent: Widget, widget: Widget) -> None:
        if parent.is_attached:
            await parent.mount(widget, after=self)
            await self.remove()


def _raise(error: Exception) -> None:
    raise error


class LazyLine(MountLater):
    """A :class:`MountLater` that holds its widget's line until the widget arrives.

    A plain ``MountLater`` takes no room, so the rows under the board would appear a
    frame after the board and push it up: the board would jump just as the
    player looks at it.
    """

    DEFAULT_CSS = """
    LazyLine { display: block; height: 1; }
    """

    def render(self) -> str:
        """Blank until the widget arrives (a plain ``Widget`` would print its class name here)."""
        return ""

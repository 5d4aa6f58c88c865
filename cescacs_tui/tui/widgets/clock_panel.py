"""Both players' chess clocks, one row each, for the side panel.

:class:`ClockPanel` shows a :class:`~cescacs_tui.core.clock.ChessClock` and keeps itself up to
date while it runs.  It never counts ticks: every redraw reads ``clock.remaining(colour)``, which
the clock computes from its monotonic time source, so a late or skipped redraw cannot make the
display drift.  It only *reads* the clock; when it sees the running side's time used up it posts
:class:`ClockPanel.FlagFell` (once), and the app decides (``game.check_time()``).

Each row is ``▶ ○ Name   paused 14:58``: a state marker (``▶`` running, ``‖`` paused, ``✗`` flag
fallen), the side's disc (``○`` White, ``●`` Black), the player's name (never read as markup,
cut with an ellipsis when the panel is narrow), a state word and the time (:func:`format_clock`:
tenths under ten seconds).  The running row is also bold and reversed, so it does not depend on
colour; a row low on time gets the ``-warning`` or ``-error`` class.
"""

from __future__ import annotations

import math
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ...core.clock import ChessClock, format_clock
from ...core.pieces import Colour
from ...core.safe_text import safe_text
from ...i18n import _
from ...session.terms import side_label

_SIDES = (Colour.WHITE, Colour.BLACK)
_DISC = {Colour.WHITE: "\u25cb", Colour.BLACK: "\u25cf"}

RUNNING_MARK = "\u25b6"
PAUSED_MARK = "\u2016"
FLAG_MARK = "\u2717"

ERROR_SECONDS = 10.0
"""Under this many seconds (or half the base time, if less) a clock shows in the error style."""
WARNING_SECONDS = 30.0
WARNING_FRACTION = 0.1
"""A clock shows in the warning style under 10% of the base time or 30 s, whichever is more,
but never from more than half the base time (so a 30-second-per-move clock is not always low)."""

FAST_REFRESH = 0.1
"""The longest wait between redraws while the running side shows tenths (10 s or less)."""
SLOW_REFRESH = 0.5
"""The longest wait between redraws otherwise; redraws are aligned to the next change of the face."""
_MIN_WAIT = 0.02
_AFTER_CHANGE = 0.005
"""Wake a little after the face should change, so that the new face is what gets drawn."""


def warning_thresholds(base: float) -> tuple[float, float]:
    """The times (``warning``, ``error``) under which a clock of ``base`` seconds looks low."""
    cap = base / 2
    return min(max(WARNING_SECONDS, WARNING_FRACTION * base), cap), min(ERROR_SECONDS, cap)


def next_redraw(remaining: float, until_flag: float) -> float:
    """Seconds to wait before the running clock's face (``remaining`` seconds) next changes.

    ``until_flag`` is :meth:`ChessClock.seconds_until_flag`: more than ``remaining`` while a simple
    delay holds the time.  The face shows whole seconds, rounded up, above ten seconds and tenths
    from there down; the wait is capped at :data:`SLOW_REFRESH` (:data:`FAST_REFRESH` in tenths).
    """
    tenths = remaining <= 10.0
    step = 0.1 if tenths else 1.0
    units = math.ceil(round(remaining / step, 6))
    change = remaining - (units - 1) * step + max(0.0, until_flag - remaining)
    cap = FAST_REFRESH if tenths else SLOW_REFRESH
    return max(_MIN_WAIT, min(change + _AFTER_CHANGE, cap))


class Face(NamedTuple):
    """What one clock row shows; rows are redrawn only when this changes."""

    marker: str
    name: str
    status: str
    time: str
    classes: frozenset[str]


class ClockFace(Widget):
    """One side's clock on one row (see the module docstring); driven by :class:`ClockPanel`.

    CSS classes: ``-running``, ``-paused``, ``-flag``, ``-warning``, ``-error``.
    """

    DEFAULT_CSS = """
    ClockFace {
        height: 1;
        width: 1fr;
    }
    ClockFace.-paused { text-style: italic; }
    ClockFace.-warning { color: $warning; }
    ClockFace.-error { color: $error; text-style: bold; }
    ClockFace.-flag { color: $error; text-style: bold; }
    ClockFace.-running { text-style: bold reverse; }
    ClockFace.-muted { color: $text-muted; }
    """

    STATE_CLASSES: ClassVar[frozenset[str]] = frozenset(
        {"-running", "-paused", "-flag", "-warning", "-error", "-muted"}
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._face = Face("", "", "", "", frozenset())

    @property
    def face(self) -> Face:
        return self._face

    def show(self, face: Face) -> None:
        """Show ``face``; nothing happens (no redraw) when it is what is already shown."""
        if face == self._face:
            return
        self._face = face
        for name in self.STATE_CLASSES:
            self.set_class(name in face.classes, name)
        self.refresh()

    @property
    def plain(self) -> str:
        """The row as plain text (for tests and screen readers)."""
        return self.render().plain

    def render(self) -> Text:
        face = self._face
        width = self.size.width or 28
        right = f"{face.status} {face.time}" if face.status and face.time else face.status or face.time
        left = f"{face.marker or ' '} "
        room = width - len(left) - len(right) - 1
        line = Text(left, no_wrap=True, overflow="crop")
        if room >= 3:
            name = Text(face.name)
            name.truncate(room, overflow="ellipsis")
            line.append_text(name)
        line.append(" " * max(1, width - line.cell_len - len(right)))
        line.append(right)
        line.truncate(width)
        return line


class ClockPanel(Widget):
    """Both clocks, one row each: Black's on top and White's below, like the board (``flipped``: the other way).

    Call :meth:`show_clock` with the game's clock (``None``: no clock) and again, or
    :meth:`refresh_clock`, whenever the app changes the clock (a move, takeback, pause, a new
    game): between those calls the panel redraws itself only while a clock runs, waking when the
    face next changes (at most every :data:`SLOW_REFRESH` s, every :data:`FAST_REFRESH` s with
    tenths).  Without a clock the panel hides itself, or with ``hide_without_clock=False`` shows
    one "No clock" row.
    """

    DEFAULT_CSS = """
    ClockPanel {
        height: auto;
        padding: 0 1;
    }
    """

    class FlagFell(Message):
        """The running side's time is used up: the app should call ``game.check_time()``.

        Posted once per flag fall (again only if the clock runs again, after a takeback, and runs
        out again).  ``clock`` is the clock it is about, to ignore a message about an old game.
        """

        def __init__(self, colour: Colour, clock: ChessClock) -> None:
            super().__init__()
            self.colour = colour
            self.clock = clock

    def __init__(
        self,
        *,
        hide_without_clock: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.hide_without_clock = hide_without_clock
        self._clock: ChessClock | None = None
        self._names: dict[Colour, str] = {colour: colour.title for colour in _SIDES}
        self._flipped = False
        self._reported: Colour | None = None
        self._timer: Timer | None = None
        self._live = False
        """Mounted (and not unmounted): only then can the panel set timers."""
        self._top = ClockFace(id="clock-top")
        self._bottom = ClockFace(id="clock-bottom")

    def compose(self) -> ComposeResult:
        yield self._top
        yield self._bottom

    def on_mount(self) -> None:
        self._live = True
        self.refresh_clock()

    def on_unmount(self) -> None:
        self._live = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @property
    def clock(self) -> ChessClock | None:
        return self._clock

    @property
    def flipped(self) -> bool:
        return self._flipped

    def face(self, colour: Colour) -> ClockFace:
        """The row showing ``colour``'s clock."""
        return self._top if (colour == Colour.WHITE) == self._flipped else self._bottom

    def show_clock(
        self,
        clock: ChessClock | None,
        *,
        names: tuple[str, str] = ("White", "Black"),
        flipped: bool = False,
    ) -> None:
        """Show ``clock`` (``None``: no clock) with the players' ``names`` (White's, Black's).

        A blank name or ``"?"`` shows as the side's colour.  ``flipped`` puts White's clock on top,
        as on a flipped board.  Cheap to call after every move.
        """
        if clock is not self._clock:
            self._clock = clock
            self._reported = None
        for colour, name in zip(_SIDES, names, strict=True):
            words = " ".join(safe_text(name).split())
            self._names[colour] = side_label(colour) if words in ("", "?") else words
        self._flipped = flipped
        self.refresh_clock()

    def refresh_clock(self) -> None:
        """Read the clock now, redraw the rows that changed, report a flag fall, plan the next redraw."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        clock = self._clock
        if clock is None or not clock.control.enabled:
            self._show_no_clock()
            return
        self.display = True
        self._bottom.display = True
        running = clock.running
        until_flag = clock.seconds_until_flag()
        out_of_time = running if running is not None and until_flag is not None and until_flag <= 0 else None
        fallen = clock.flagged if clock.flagged is not None else out_of_time
        warning_at, error_at = warning_thresholds(clock.control.base)
        for colour in _SIDES:
            remaining = clock.remaining(colour)
            classes: set[str] = set()
            marker = status = ""
            if colour == fallen:
                marker, status = FLAG_MARK, "flag"
                classes.add("-flag")
            elif colour == running:
                marker = RUNNING_MARK
                classes.add("-running")
            elif colour == clock.to_move and clock.paused:
                marker, status = PAUSED_MARK, "paused"
                classes.add("-paused")
            if colour != fallen:
                if remaining < error_at:
                    classes.add("-error")
                elif remaining < warning_at:
                    classes.add("-warning")
            name = f"{_DISC[colour]} {self._names[colour]}"
            self.face(colour).show(Face(marker, name, status, format_clock(remaining), frozenset(classes)))
        if fallen is None:
            self._reported = None
        elif fallen != self._reported:
            self._reported = fallen
            self.post_message(self.FlagFell(fallen, clock))
        if running is not None and fallen is None and until_flag is not None and self._live:
            wait = next_redraw(clock.remaining(running), until_flag)
            self._timer = self.set_timer(wait, self.refresh_clock, name="clock-panel")

    def _show_no_clock(self) -> None:
        if self.hide_without_clock:
            self.display = False
            return
        self.display = True
        self._top.show(Face("", _("No clock"), "", "", frozenset({"-muted"})))
        self._bottom.display = False

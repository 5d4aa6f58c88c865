"""The column beside the board that holds the clocks, the status, the moves and the material, and over which the
notifications show.

The game screen mounts it after the board's first frame, and imports this module
only then: its panels' modules are start-up time the first frame does not need
(benchmarks/README.md).  The screen reaches the panels through this column's
methods, never by their classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from .annotations import AnnotationPanel
from .clock_panel import ClockPanel
from .engine_panels import AnalysisPanel, ThinkingLine
from .panels import MaterialPanel, MoveList, StatusPanel

if TYPE_CHECKING:
    from ...core.clock import ChessClock
    from ...core.game import Game
    from ...session.opponent import Analysis


class SidePanel(Vertical):
    """The side column and its panels; it says when they are mounted, and shows the game in them.

    :class:`Ready` tells the screen to fill the panels in.  The panels are held
    from the start, so showing the game walks no query.
    """

    class Ready(Message):
        """The side panel and its children are mounted."""

        def __init__(self, panel: SidePanel) -> None:
            super().__init__()
            self.panel = panel

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = ClockPanel(id="clocks")
        self.thinking = ThinkingLine(id="thinking")
        self.status = StatusPanel(id="status")
        self.analysis = AnalysisPanel(id="analysis")
        self.moves = MoveList(id="moves")
        self.notes = AnnotationPanel(id="notes")
        self.material = MaterialPanel(id="material")

    def compose(self) -> ComposeResult:
        yield from (self.clock, self.thinking, self.status, self.analysis, self.moves, self.notes, self.material)

    def on_mount(self) -> None:
        self.post_message(self.Ready(self))

    def show_game(
        self,
        game: Game,
        *,
        clock: ChessClock | None,
        names: tuple[str, str],
        flipped: bool,
        variation: str | None = None,
        warning: str | None = None,
    ) -> None:
        """Show ``game`` (the one shown: the review's position, or a variation's) and the clock of the game played."""
        self.clock.show_clock(clock, names=names, flipped=flipped)
        self.status.show_game(game, variation=variation, warning=warning)
        self.material.show_game(game)
        self.moves.show_game(game)
        self.notes.show_game(game)

    def show_thinking(self, thinking: bool) -> None:
        """Say whether the computer is thinking about its move."""
        self.thinking.show_thinking(thinking)

    def show_analysis_panel(self, shown: bool) -> None:
        """Show or hide the live analysis (``A``)."""
        self.analysis.display = shown

    def show_analysis(self, analysis: Analysis) -> None:
        """Show the engine's latest word on the position (the live analysis, ``A``)."""
        self.analysis.show_analysis(analysis)

    def show_analysis_waiting(self, why: str | None = None) -> None:
        """The analysis is on its way, or (``why``) waits for something else first."""
        self.analysis.show_waiting(why)

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

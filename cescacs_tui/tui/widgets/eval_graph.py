"""The eval graph: a game's scores, ply by ply, drawn with block characters; clicked or stepped to choose a ply.

Each half-move has as many columns as fit (several half-moves share one when
the game has more half-moves than the graph has columns: the worst of them is
drawn), and its height is White's
expected result after it (:func:`~cescacs_tui.learn.scoring.expected`: 0 at
the bottom, 1 at the top, a level game half way), filled from the bottom in
eighths of a cell, so a lead of either side reads at a glance, as on the
review pages of chess sites.  A column whose move was an inaccuracy, a
mistake or a blunder takes the colour of its class; the chosen half-move's
column is drawn reversed; the half-moves not analysed yet are a dotted middle
line.  ←/→ (or a click) choose a half-move, Home/End the first and last; the
graph posts :class:`EvalGraph.PlyChosen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...learn.scoring import Class

__all__ = ["EvalGraph", "GraphPoint"]

EIGHTHS = " ▁▂▃▄▅▆▇█"

_RANK = {None: 0, Class.INACCURACY: 1, Class.MISTAKE: 2, Class.BLUNDER: 3}

GraphPoint = tuple[float, Class | None] | None
"""One half-move: White's expected result after it (0 to 1) and its class, or ``None`` while not analysed."""


class EvalGraph(Widget, can_focus=True):
    """The scores along a game (see the module's docstring); ``points[i]`` is half-move ``i + 1``."""

    DEFAULT_CSS = """
    EvalGraph { height: 5; width: 1fr; }
    EvalGraph > .eval-graph--white { color: $foreground; background: $panel; }
    EvalGraph > .eval-graph--pending { color: $text-muted; }
    EvalGraph > .eval-graph--inaccuracy { color: $warning-lighten-2; }
    EvalGraph > .eval-graph--mistake { color: $warning; }
    EvalGraph > .eval-graph--blunder { color: $error; }
    EvalGraph > .eval-graph--middle { color: $text-muted; }
    EvalGraph:focus { background-tint: $foreground 5%; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "eval-graph--white",
        "eval-graph--pending",
        "eval-graph--inaccuracy",
        "eval-graph--mistake",
        "eval-graph--blunder",
        "eval-graph--middle",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False),
        Binding("right", "step(1)", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
    ]

    chosen: reactive[int] = reactive(0)
    """The chosen half-move (1 is the first; 0: none yet)."""

    class PlyChosen(Message):
        """The player chose half-move ``ply`` on the graph."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, plies: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._points: list[GraphPoint] = [None] * plies

    @property
    def plies(self) -> int:
        return len(self._points)

    def set_point(self, ply: int, expected: float, kind: Class | None) -> None:
        """Half-move ``ply`` analysed: White's expected result after it and its class."""
        self._points[ply - 1] = (min(1.0, max(0.0, expected)), kind)
        self.refresh()

    def set_points(self, points: Sequence[GraphPoint]) -> None:
        self._points = list(points)
        self.refresh()

    def watch_chosen(self) -> None:
        self.refresh()

    # --- which half-moves a column shows --------------------------------------------------------

    def _columns(self) -> int:
        return max(1, self.content_size.width)

    def column_plies(self, column: int) -> range:
        """The half-moves (1-based) drawn in ``column`` (empty beyond the last)."""
        plies, width = self.plies, self._columns()
        if plies <= width:
            ply = column // (width // max(1, plies)) + 1
            return range(ply, ply + 1) if ply <= plies else range(0)
        return range(column * plies // width + 1, (column + 1) * plies // width + 1)

    def _column_point(self, column: int) -> tuple[GraphPoint, bool]:
        """What a column draws: its worst half-move (the lowest for the side that moved there) and whether it holds
        the chosen one."""
        plies = self.column_plies(column)
        points = [(ply, self._points[ply - 1]) for ply in plies]
        chosen = self.chosen in plies
        known = [(ply, point) for ply, point in points if point is not None]
        if not known:
            return None, chosen
        return max((point for _ply, point in known), key=lambda point: _RANK[point[1]]), chosen

    # --- drawing --------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        height = self.content_size.height
        width = self._columns()
        white = self.get_component_rich_style("eval-graph--white")
        pending = self.get_component_rich_style("eval-graph--pending")
        middle_row = height // 2
        segments = []
        for column in range(width):
            point, chosen = self._column_point(column)
            if not self.column_plies(column):
                segments.append(Segment(" "))
                continue
            if point is None:
                text, style = ("·" if y == middle_row else " "), pending
            else:
                text, style = self._cell(point, y, height), self._style(point, white)
            if chosen:
                style = style + Style(reverse=True)
            segments.append(Segment(text, style))
        return Strip(segments, width)

    @staticmethod
    def _cell(point: tuple[float, Class | None], y: int, height: int) -> str:
        """The block drawn in row ``y`` (0 at the top) of a column filled to ``point``'s height from the bottom."""
        eighths = round(point[0] * height * 8)
        from_bottom = height - 1 - y
        filled = eighths - from_bottom * 8
        return EIGHTHS[max(0, min(8, filled))]

    def _style(self, point: tuple[float, Class | None], white: Style) -> Style:
        kind = point[1]
        if kind is None:
            return white
        return white + self.get_component_rich_style(f"eval-graph--{kind.value}", partial=True)

    # --- choosing -------------------------------------------------------------------------------

    def choose(self, ply: int) -> None:
        """Choose half-move ``ply`` (kept within the game) and say so."""
        if not self.plies:
            return
        ply = max(1, min(self.plies, ply))
        self.chosen = ply
        self.post_message(self.PlyChosen(ply))

    def action_step(self, delta: int) -> None:
        self.choose((self.chosen or 0) + delta if self.chosen else 1)

    def action_first(self) -> None:
        self.choose(1)

    def action_last(self) -> None:
        self.choose(self.plies)

    def on_click(self, event: events.Click) -> None:
        plies = self.column_plies(event.x - self.gutter.left)
        if plies:
            self.choose(plies[-1])

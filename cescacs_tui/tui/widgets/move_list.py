"""The move list: the game's moves in CTL-AN, one numbered row per move, drawn with Textual's Line API.

A :class:`MoveList` keeps one tuple per row (number, White's half-move,
Black's half-move) and one :class:`~textual.strip.Strip` per row.  Showing the
game again compares the new rows, and where the reviewed ply is, with the
previous ones and repaints only the rows that changed: a new move changes one
row (two when it starts a row), a step through the game at most two.  Its cost
does not grow with the game's length beyond building the row tuples.

Text from the record (the moves, their assessments) is drawn as plain
segments, never parsed as markup.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...core import Colour
from ...core.game import Game
from ...i18n import N_, _
from ..translated import TranslatedBindings

__all__ = ["MoveList"]

Cell: TypeAlias = tuple[str, str, bool, bool] | str | None
"""A half-move's cell: ``(san, assessment, draw offer, annotated)``; :data:`ELLIPSIS` for
White's missing half-move when the game starts with Black; ``None`` when empty."""
Row: TypeAlias = tuple[str, Cell, Cell]
"""A row: the move number's label (``"12."``, ``"?."``), White's cell and Black's."""

ELLIPSIS = "\u2026"
MARKER = "\u25b8"
"""Drawn before the reviewed half-move, so the highlight does not rely on colour alone."""
NOTE_MARK = "\u00b6"
"""Drawn after a half-move on which the record comments or gives variations (shown when it is reviewed)."""
_ITALIC = Style(italic=True)
_HEADER = -1
_BLANK = -2
"""Keys of the header's strip and of a blank line's in the strip cache (rows are 0 and up)."""


class MoveList(TranslatedBindings, ScrollView, can_focus=True):
    """The moves in CTL-AN, one numbered row per move, under a fixed White / Black header.

    The half-move that leads to the reviewed ply (``game.cursor``) is
    highlighted and marked with ``▸``; at the start position (ply 0) nothing
    is.  When the player clicks a half-move, or moves through the list with
    the keys while it has the focus, the list posts :class:`PlyChosen` so the
    app can show that position.  :meth:`show_game` never posts it.
    """

    ALLOW_SELECT = False

    # Only ↑↓ show in the footer, as one "Review" entry.  (A compact footer puts no margin after a group's
    # label, hence the trailing space.)
    _STEP = Binding.Group(N_("Review "), compact=True)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "step(-2)", N_("Move back"), group=_STEP),
        Binding("down", "step(2)", N_("Move forward"), group=_STEP),
        Binding("left", "step(-1)", N_("Half-move back"), show=False),
        Binding("right", "step(1)", N_("Half-move forward"), show=False),
        Binding("home", "go(0)", N_("Start"), show=False),
        Binding("end", "go_live", N_("Live"), show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "movelist--header",
        "movelist--number",
        "movelist--current",
    }

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        min-height: 3;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        & > .movelist--header {
            color: $text-muted;
            text-style: bold;
        }
        & > .movelist--number {
            color: $text-muted;
        }
        & > .movelist--current {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: bold;
        }
        &:ansi > .movelist--number {
            text-style: dim;
        }
        &:ansi > .movelist--current {
            text-style: bold reverse;
        }
        &:focus > .movelist--current {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    virtual_size = Reactive(Size(0, 0), layout=False)
    """The list's length (see :meth:`_set_length`: the screen is laid out only when the scroll bar comes or goes)."""

    NUMBER_WIDTH: ClassVar[int] = 4
    """Cells of the move-number column (``" 12."`` and a space before White's cell)."""
    MAX_COLUMN_WIDTH: ClassVar[int] = 14
    """The widest a move column gets in a wide panel, so each move stays near its number."""
    HEADER_ROWS: ClassVar[int] = 1

    class PlyChosen(Message):
        """The player asked to see the position after half-move ``ply``."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._rows: list[Row] = []
        self._black_first = False
        self._plies = 0
        self._cursor = 0
        self._current: tuple[int, int] | None = None
        """Row and column of the highlighted half-move, if any."""
        self._strips: dict[int, Strip] = {}
        """Rendered rows by row index (and the header, and a blank line), all ``_strip_width`` cells wide."""
        self._strip_width = 0

    # --- reading, for tests and callers ------------------------------------------------

    @property
    def row_count(self) -> int:
        """How many numbered rows the list has (the header not counted)."""
        return len(self._rows)

    @property
    def ply(self) -> int:
        """The reviewed ply as the list shows it (0: the start position)."""
        return self._cursor

    def row_label(self, row: int) -> str:
        """The move number of ``row`` as shown, e.g. ``"12."`` or ``"?."``."""
        return self._rows[row][0]

    def cell_text(self, row: int, column: int) -> str:
        """The text of a cell (column 0: White, 1: Black), without the marker and untruncated."""
        return self._cell_text(self._rows[row][1 + column])

    @property
    def column_width(self) -> int:
        """Cells of each move column at the list's current width (the marker's cell included)."""
        return max(2, min(self.MAX_COLUMN_WIDTH, (self._content_width() - self.NUMBER_WIDTH) // 2))

    def cell_of(self, ply: int) -> tuple[int, int]:
        """Row and column of the half-move that leads to ``ply`` (ply ≥ 1)."""
        index = ply - 1 + self._black_first
        return index // 2, index % 2

    def ply_at(self, row: int, column: int) -> int | None:
        """The ply the half-move in that cell leads to, or ``None`` for an empty cell."""
        ply = row * 2 + column + 1 - self._black_first
        return ply if 1 <= ply <= self._plies else None

    # --- showing a game ------------------------------------------------------------------

    def show_game(self, game: Game) -> None:
        """Show the game's moves, the reviewed ply highlighted; only the rows that changed are repainted."""
        black_first = game.start.turn == Colour.BLACK
        rows = self._rows_of(game, black_first)
        self._black_first = black_first
        self._plies = game.ply
        old_rows = self._rows
        changed = [
            index
            for index in range(max(len(rows), len(old_rows)))
            if index >= len(rows) or index >= len(old_rows) or rows[index] != old_rows[index]
        ]
        self._rows = rows
        for index in changed:
            self._strips.pop(index, None)
        self._set_cursor(game.cursor, changed)
        if len(rows) != len(old_rows):
            self._set_length(len(rows) + self.HEADER_ROWS)
            # The new length is only laid out at the next refresh: scroll again then, when it allows it.
            self.call_after_refresh(self.scroll_to_current)
        self.scroll_to_current()

    def _set_length(self, lines: int) -> None:
        """The list is now ``lines`` long; the screen is laid out again only when its scroll bar comes or goes.

        The list's own size is fixed by the panel (``1fr``): its length changes only how far it scrolls, and,
        past the height shown, the scroll bar.  Laying out the whole screen for every row the list grows by
        (every other move) cost a move some 2 ms at 120x40; now only the bar's thumb is told the new length.
        """
        window = self.container_size.height
        was_long = self.virtual_size.height > window
        self.virtual_size = Size(0, lines)
        if not window or was_long != (lines > window):
            self.refresh(layout=True)  # not laid out yet, or the scroll bar appears or goes
        elif lines > window:
            self.vertical_scrollbar.window_virtual_size = lines
        if self.scroll_offset.y > self.max_scroll_y:  # shorter (a takeback): the end stays at the bottom
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    @staticmethod
    def _rows_of(game: Game, black_first: bool) -> list[Row]:
        rows: list[Row] = []
        label = ""  # the number of the row being filled: its first half-move's
        pending: list[Cell] = [ELLIPSIS] if black_first else []
        for node in game.nodes:
            if not label:
                label = "?." if node.number is None else f"{node.number}."
            pending.append((node.san, node.assessment, node.draw_offer, bool(node.comments or node.variations)))
            if len(pending) == 2:
                rows.append((label, pending[0], pending[1]))
                label, pending = "", []
        if label:
            rows.append((label, pending[0], None))
        return rows

    def _set_cursor(self, ply: int, changed: list[int] | None = None) -> None:
        """Highlight the half-move that leads to ``ply`` and repaint the rows concerned."""
        self._cursor = ply
        current = self.cell_of(ply) if ply > 0 else None
        repaint = set(changed or ())
        if current != self._current:
            for cell in (self._current, current):
                if cell is not None:
                    self._strips.pop(cell[0], None)
                    repaint.add(cell[0])
            self._current = current
        for row in sorted(repaint):
            self._refresh_row(row)

    def _refresh_row(self, row: int) -> None:
        y = row + self.HEADER_ROWS - self.scroll_offset.y
        if self.HEADER_ROWS <= y < self.size.height:
            self.refresh_line(row + self.HEADER_ROWS)

    def scroll_to_current(self) -> None:
        """Scroll (without animation) so that the highlighted row (the first at ply 0) is in view.

        :meth:`show_game` does it (again after the next refresh when the list
        grew, as when a game is opened or resumed); the list does it on a resize.
        """
        visible = self.scrollable_content_region.height - self.HEADER_ROWS
        if visible <= 0:
            return
        row = self._current[0] if self._current is not None else 0
        top = self.scroll_offset.y
        if row < top:
            top = row
        elif row >= top + visible:
            top = row - visible + 1
        else:
            return
        self.scroll_to(y=top, animate=False, immediate=True)

    # --- drawing -------------------------------------------------------------------------

    def _content_width(self) -> int:
        return self.scrollable_content_region.width

    def notify_style_update(self) -> None:
        """The CSS, the theme or a pseudo-class (focus) changed: every row is drawn again."""
        super().notify_style_update()
        self._strips.clear()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self.scroll_to_current()

    def render_line(self, y: int) -> Strip:
        width = self._content_width()
        if width != self._strip_width:
            self._strips.clear()
            self._strip_width = width
        if y < self.HEADER_ROWS:
            key = _HEADER
        else:
            key = self.scroll_offset.y + y - self.HEADER_ROWS
            if key >= len(self._rows):
                key = _BLANK
        strip = self._strips.get(key)
        if strip is None:
            if key == _BLANK:
                strip = Strip.blank(width, self.rich_style)
            elif key == _HEADER:
                strip = self._render_header(width)
            else:
                strip = self._render_row(key, width)
            self._strips[key] = strip
        return strip

    def _render_header(self, width: int) -> Strip:
        style = self.get_component_rich_style("movelist--header")
        column = self.column_width
        segments = [Segment(" " * self.NUMBER_WIDTH, style)]
        for title in (_("White"), _("Black")):
            segments += _fit([(title, style)], column, style, " ")
        return _strip(segments, width, self.rich_style)

    def _render_row(self, row: int, width: int) -> Strip:
        label, *cells = self._rows[row]
        base = self.rich_style
        muted = self.get_component_rich_style("movelist--number")
        current = self.get_component_rich_style("movelist--current")
        column = self.column_width
        label = label.rjust(self.NUMBER_WIDTH - 1) + " " if len(label) < self.NUMBER_WIDTH else label
        segments = [Segment(set_cell_size(label, self.NUMBER_WIDTH), muted)]
        for index, cell in enumerate(cells):
            highlighted = self._current == (row, index)
            style = current if highlighted else base
            pieces: list[tuple[str, Style]]
            if cell is None:
                pieces = []
            elif isinstance(cell, str):
                pieces = [(cell, current if highlighted else muted)]
            else:
                san, assessment, draw_offer, annotated = cell
                pieces = [(san, style)]
                if assessment:
                    pieces.append((f" {assessment}", style))
                if draw_offer:
                    pieces.append((" (=)", style + _ITALIC))
                if annotated:
                    pieces.append((f" {NOTE_MARK}", style if highlighted else muted))
            segments += _fit(pieces, column, style, MARKER if highlighted else " ")
        return _strip(segments, width, base)

    @staticmethod
    def _cell_text(cell: Cell) -> str:
        if cell is None:
            return ""
        if isinstance(cell, str):
            return cell
        san, assessment, draw_offer, annotated = cell
        return (
            san
            + (f" {assessment}" if assessment else "")
            + (" (=)" if draw_offer else "")
            + (f" {NOTE_MARK}" if annotated else "")
        )

    # --- the player's choices ----------------------------------------------------------

    def _choose(self, ply: int) -> None:
        """The player chose ``ply``: highlight it now and tell the app."""
        ply = max(0, min(ply, self._plies))
        if ply != self._cursor:
            self._set_cursor(ply)
            self.scroll_to_current()
            self.post_message(self.PlyChosen(ply))

    def action_step(self, plies: int) -> None:
        self._choose(self._cursor + plies)

    def action_go(self, ply: int) -> None:
        self._choose(ply)

    def action_go_live(self) -> None:
        self._choose(self._plies)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.HEADER_ROWS:
            return
        row = self.scroll_offset.y + offset.y - self.HEADER_ROWS
        if row >= len(self._rows):
            return
        column = 1 if offset.x >= self.NUMBER_WIDTH + self.column_width else 0
        ply = self.ply_at(row, column)
        if ply is None and column == 0:
            ply = self.ply_at(row, 1)  # the "…" of a game that starts with Black: its first move
        if ply is not None:
            event.stop()
            self._choose(ply)


def _fit(pieces: list[tuple[str, Style]], width: int, style: Style, marker: str) -> list[Segment]:
    """A cell ``width`` cells wide: the marker, then the pieces, cut with ``…`` if they do not fit.

    Runs of one style are joined within the cell, never across cells: an SVG
    export places each segment at its column, so the columns stay aligned in
    screenshots whatever the font's widths of ``×`` or ``∞``.
    """
    if width <= 0:
        return []
    segments = [Segment(marker, style)]
    room = width - 1
    used = sum(cell_len(text) for text, _ in pieces)
    if used <= room:
        segments += [Segment(text, piece_style) for text, piece_style in pieces]
        if used < room:
            segments.append(Segment(" " * (room - used), style))
        return list(Segment.simplify(segments))
    budget = room - 1
    last = style
    for text, piece_style in pieces:
        if budget <= 0:
            break
        length = cell_len(text)
        if length > budget:
            text = set_cell_size(text, budget)
            length = budget
        segments.append(Segment(text, piece_style))
        budget -= length
        last = piece_style
    if room > 0:
        segments.append(Segment(ELLIPSIS, last))
    return list(Segment.simplify(segments))


def _strip(segments: list[Segment], width: int, style: Style) -> Strip:
    """The segments as a strip exactly ``width`` cells wide (padded with ``style``, or cropped)."""
    length = sum(cell_len(segment.text) for segment in segments)
    strip = Strip(segments, length)
    if length != width:
        strip = strip.adjust_cell_length(width, style)
    return strip

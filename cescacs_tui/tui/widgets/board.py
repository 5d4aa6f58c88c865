"""The ``HexBoard`` widget: paints a :class:`BoardView` and turns keys and clicks into hex choices.

The widget knows no rules.  The app computes what to show (pieces, targets,
check...) as a ``BoardView`` and passes it to :meth:`HexBoard.show`; the board
reports the player's choices as messages.  All geometry and cell texts come
from :mod:`cescacs_tui.tui.board_layout`; this module only paints and listens.

Painting uses the Line API: one cached :class:`~textual.strip.Strip` per text
row.  A ``show()`` or a cursor move drops and refreshes only the rows of the
hexes whose content changed; a new size, orientation, layout or piece set
drops every row (they are part of the cache key), and so does a CSS or theme
change (``notify_style_update``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from cescacs_tui.core.geometry import HEX_COLOUR, HEX_COUNT, HEX_NAMES, HEXES
from cescacs_tui.core.pieces import Colour
from cescacs_tui.tui.board_layout import (
    CURSOR_MOVES,
    LAYOUT_CHOICES,
    PIECE_SETS,
    START_HEX,
    TILE_FILLS,
    BoardLayout,
    BoardView,
    CursorMove,
    LayoutChoice,
    LayoutMode,
    Mark,
    PieceSet,
    board_size,
    cell_blank_text,
    cell_lower_text,
    cell_name_text,
    cell_text,
    choose_mode,
    cursor_step,
    cycle_target,
    fallback_note,
    layout_for,
    piece_glyph,
    reading_order,
    view_marks,
)

from ...i18n import N_
from ..translated import TranslatedBindings

__all__ = ["BoardMessage", "BoardView", "HexBoard", "HexMessage"]

_TILES = ("hexboard--tile-white", "hexboard--tile-black", "hexboard--tile-colour")
"""Tile component classes, indexed like ``HEX_COLOUR`` (0 white, 1 black, 2 colour)."""

_HIGHLIGHTS: tuple[tuple[Mark, str], ...] = (
    (Mark.ATTACKED, "hexboard--attacked"),
    (Mark.THREATENED, "hexboard--threatened"),
    (Mark.LAST_MOVE, "hexboard--last-move"),
    (Mark.PREVIEW, "hexboard--preview"),
    (Mark.TARGET, "hexboard--target"),
    (Mark.CAPTURE, "hexboard--capture"),
    (Mark.AWAITING, "hexboard--awaiting"),
    (Mark.SELECTED, "hexboard--selected"),
    (Mark.CHECK, "hexboard--check"),
    (Mark.CURSOR, "hexboard--cursor"),
)
"""Highlight component classes, lowest priority first: later layers tint over earlier ones."""


class _CellStyles(NamedTuple):
    """A hex's styles: its markers, its piece, and its rows without the piece (the name's colour on them)."""

    marker: Style
    piece: Style
    lower: Style


class _Palette:
    """The board's resolved component styles, and the cell styles composed from them.

    Backgrounds are read as Textual colours, not Rich styles, so that a
    translucent highlight tints the tile beneath it (targets stay visibly on a
    white, black or colour tile) instead of replacing it.
    """

    def __init__(self, board: HexBoard) -> None:
        base = board.background_colors[1]
        self.blank = board.rich_style
        self.label = board.get_component_rich_style("hexboard--label")
        self.tiles = [self._layer(board, name, base) for name in _TILES]
        self.pieces = [self._chip(board, name) for name in ("hexboard--piece-white", "hexboard--piece-black")]
        self.name = self._layer(board, "hexboard--name", None)[1].color
        self.highlights = [(mark, *self._layer(board, name, None)) for mark, name in _HIGHLIGHTS]
        self._cells: dict[tuple[int, int, Mark], _CellStyles] = {}

    @classmethod
    def _chip(cls, board: HexBoard, name: str) -> Style:
        """A piece's style: its colour and weight, and its own background where the theme gives it one."""
        background, style = cls._layer(board, name, None)
        if background is not None and background.a > 0:
            style += Style(bgcolor=background.rich_color)
        return style

    @staticmethod
    def _layer(board: HexBoard, name: str, base: Color | None) -> tuple[Color | None, Style]:
        """A component's background (over ``base`` if given) and its other attributes, without background."""
        styles = board.get_component_styles(name)
        background = styles.background if styles.has_rule("background") else None
        if base is not None:
            background = base + background
        partial = board.get_component_rich_style(name, partial=True)
        return background, partial.without_color + Style(color=partial.color)

    def cell(self, tile: int, code: int, marks: Mark) -> _CellStyles:
        key = (tile, (code > 0) - (code < 0), marks)
        styles = self._cells.get(key)
        if styles is None:
            background, style = self.tiles[tile]
            assert background is not None
            for mark, tint, layer in self.highlights:
                if marks & mark:
                    background = background + tint
                    style += layer
            marker = Style(bgcolor=background.rich_color) + style
            piece = marker + self.pieces[code < 0] if code else marker
            lower = Style(bgcolor=marker.bgcolor, color=marker.color if marks else self.name)
            styles = self._cells[key] = _CellStyles(marker, piece, lower)
        return styles


_DIGITS = "123456789"

_NUMBERED = Binding.Group(N_("Play the numbered target (a piece selected)"), compact=True)

_CURSOR_KEYS: tuple[tuple[str, CursorMove, str], ...] = (
    ("up", "up", N_("Up")),
    ("down", "down", N_("Down")),
    ("left", "left", N_("Left")),
    ("right", "right", N_("Right")),
    ("q", "up_left", N_("Up-left")),
    ("e", "up_right", N_("Up-right")),
    ("a", "down_left", N_("Down-left")),
    ("d", "down_right", N_("Down-right")),
    ("home", "top", N_("Top of column")),
    ("end", "bottom", N_("Bottom of column")),
)
"""The cursor's keys: each a binding ``board.<move>`` (``board.up_left``...)."""


class BoardMessage(Message):
    """A message from a :class:`HexBoard`; ``control`` is the board, so ``@on(..., "#board")`` selectors work."""

    def __init__(self, board: HexBoard) -> None:
        super().__init__()
        self.board = board

    @property
    def control(self) -> HexBoard:
        return self.board


class HexMessage(BoardMessage):
    """A board message about one hex."""

    def __init__(self, board: HexBoard, hex: int) -> None:
        super().__init__(board)
        self.hex = hex

    @property
    def hex_name(self) -> str:
        return HEX_NAMES[self.hex]


class HexBoard(TranslatedBindings, Widget, can_focus=True):
    """The 169-hex board: brick layout, highlights, keyboard cursor and mouse.

    Keys (in screen terms, also when flipped): arrows move along the column
    (up/down) or to the neighbour on the same row (left/right); ``q`` ``e``
    ``a`` ``d`` step up-left, up-right, down-left, down-right; Home/End
    jump to the column's ends; Enter/Space post :class:`HexSelected` for the
    cursor hex and Escape posts :class:`Cancelled`.  A click on a hex moves
    the cursor there and posts :class:`HexSelected`.  Every key but the
    digits is a binding with an id (``board.up``...), which an app's keymap
    rebinds (:mod:`cescacs_tui.tui.keymap`: the vim keys are one such map).

    While the view has targets (a piece is selected), the cursor plays among
    them: Tab / Shift+Tab go to the next / previous target in reading order,
    a direction key jumps to the nearest target that way (and steps freely
    where there is none), and ``1``-``9`` choose the numbered targets at once
    (the first nine in reading order show their number).  Without targets,
    Tab and the digits are left to the app (Tab moves the focus).

    ``layout_mode`` (constructor argument ``layout``) is ``"auto"`` (the
    largest layout that fits: large from 109x47 cells, full from 79x32, else
    compact), or a forced ``"large"``, ``"full"`` or ``"compact"``, which
    falls back to a smaller one that fits (:attr:`layout_note` says why, and
    :class:`LayoutChanged` is posted); it cannot be called ``layout``, which
    Textual's ``Widget`` already uses.  ``piece_set`` is ``"letters"``,
    ``"fan"`` or ``"fan-safe"``; ``wide_glyphs`` are FAN glyphs the terminal
    draws wider than one cell (drawn as letters).  ``cursor`` starts on the
    central hex F14; :meth:`switch_cursor` keeps one per side.  Under
    ``NO_COLOR`` (or with ``patterns=True``) blank cells are filled per tile
    colour (:data:`~cescacs_tui.tui.board_layout.TILE_FILLS`).  Its colours are
    theme variables: the app showing it derives from
    :class:`~cescacs_tui.tui.themes.BoardHostApp`.
    """

    ALLOW_SELECT = False
    """A board is clicked, not text-selected: selecting would repaint the whole screen on every click."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {*_TILES, *(name for _, name in _HIGHLIGHTS)} | {
        "hexboard--piece-white",
        "hexboard--piece-black",
        "hexboard--label",
        "hexboard--name",
    }

    DEFAULT_CSS = """
    HexBoard {
        width: auto;
        height: auto;
        content-align: center middle;
    }
    HexBoard > .hexboard--tile-white { background: $board-tile-white; }
    HexBoard > .hexboard--tile-colour { background: $board-tile-colour; }
    HexBoard > .hexboard--tile-black { background: $board-tile-black; }
    HexBoard > .hexboard--piece-white {
        color: $board-piece-white; background: $board-piece-white-chip; text-style: bold;
    }
    HexBoard > .hexboard--piece-black { color: $board-piece-black; background: $board-piece-black-chip; }
    HexBoard > .hexboard--label { color: $text-muted; }
    HexBoard > .hexboard--name { color: $board-name; }
    HexBoard > .hexboard--attacked { background: $board-attacked; color: $board-attacked-text; }
    HexBoard > .hexboard--threatened { background: $board-threatened; color: $board-threatened-text; text-style: bold; }
    HexBoard > .hexboard--last-move {
        background: $board-last-move; color: $board-last-move-text; text-style: underline;
    }
    HexBoard > .hexboard--preview { background: $board-preview; color: $board-preview-text; text-style: bold; }
    HexBoard > .hexboard--target { background: $board-target; color: $board-target-text; text-style: bold; }
    HexBoard > .hexboard--capture { background: $board-capture; color: $board-capture-text; text-style: bold; }
    HexBoard > .hexboard--awaiting { background: $board-awaiting; color: $board-awaiting-text; text-style: bold; }
    HexBoard > .hexboard--selected { background: $board-selected; color: $board-selected-text; text-style: bold; }
    HexBoard > .hexboard--check { background: $board-check; color: $board-check-text; text-style: bold; }
    HexBoard > .hexboard--cursor { background: $board-cursor; color: $board-cursor-text; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "select", N_("Select"), id="board.select"),
        Binding("escape", "cancel", N_("Cancel"), show=False, id="board.cancel"),
        *(
            Binding(key, f"move('{move}')", description, show=False, id=f"board.{move}")
            for key, move, description in _CURSOR_KEYS
        ),
        Binding("tab", "cycle_target(1)", N_("Next target (a piece selected)"), show=False, id="board.next_target"),
        Binding("shift+tab", "cycle_target(-1)", N_("Previous target"), show=False, id="board.previous_target"),
        *(Binding(digit, f"pick_target({digit})", f"Target {digit}", show=False, group=_NUMBERED) for digit in _DIGITS),
    ]

    cursor: reactive[int] = reactive(START_HEX, repaint=False, init=False)
    flipped: reactive[bool] = reactive(False)
    piece_set: reactive[PieceSet] = reactive("letters")
    layout_mode: reactive[LayoutChoice] = reactive("auto", layout=True)
    wide_glyphs: reactive[frozenset[str]] = reactive(frozenset())

    class HexSelected(HexMessage):
        """The player chose a hex: Enter/Space on the cursor, or a click on the hex."""

    class Cancelled(BoardMessage):
        """Escape: the player wants to drop the current selection."""

    class CursorMoved(HexMessage):
        """The cursor moved (by key or click), so a status line can name the hex."""

    class LayoutChanged(BoardMessage):
        """The layout drawn changed (a new size or choice); ``note`` says why it is not the forced one, if so."""

        def __init__(self, board: HexBoard, mode: LayoutMode, note: str | None) -> None:
            super().__init__(board)
            self.mode = mode
            self.note = note

    def __init__(
        self,
        view: BoardView | None = None,
        *,
        piece_set: PieceSet = "letters",
        layout: LayoutChoice = "auto",
        flipped: bool = False,
        patterns: bool | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._view = BoardView() if view is None else view
        self._marks = view_marks(self._view)
        self._strips: dict[int, Strip] = {}
        self._cells: dict[tuple[int, int, Mark, int, int, int | None], list[Segment]] = {}
        self._cache_key: tuple[BoardLayout, Size, str, frozenset[str], bool] | None = None
        self._palette: _Palette | None = None
        self._stale_cursor: tuple[int, ...] = ()
        self._numbers = self._number_targets(self._view, flipped)
        self._space = Size(0, 0)
        """The cells the board may take, from the last layout (its own size, under ``width: auto``, is less)."""
        self._shown_layout: tuple[LayoutMode, str | None] | None = None
        self._patterns = patterns
        self._cursors: dict[Colour, int] = {}
        self._cursor_side: Colour | None = None
        self.set_reactive(HexBoard.piece_set, self.validate_piece_set(piece_set))
        self.set_reactive(HexBoard.layout_mode, self.validate_layout_mode(layout))
        self.set_reactive(HexBoard.flipped, flipped)

    # --- State in ---------------------------------------------------------

    @property
    def view(self) -> BoardView:
        """What the board shows now."""
        return self._view

    def show(self, view: BoardView) -> None:
        """Display ``view``, repainting only the rows of hexes whose code, marks or target number changed."""
        old_codes, old_marks, old_numbers = self._view.codes, self._marks, self._numbers
        self._view, self._marks = view, view_marks(view)
        self._numbers = self._number_targets(view, self.flipped)
        changed = [
            h
            for h in HEXES
            if old_codes[h] != view.codes[h]
            or old_marks[h] != self._marks[h]
            or old_numbers.get(h) != self._numbers.get(h)
        ]
        stale, self._stale_cursor = self._stale_cursor, ()
        if changed or stale:
            self._refresh_hexes((*changed, *stale))

    @property
    def target_order(self) -> tuple[int, ...]:
        """The view's targets in reading order (as Tab visits them; the first nine are numbered)."""
        return reading_order(self._view.targets, flipped=self.flipped)

    def numbered_target(self, number: int) -> int | None:
        """The target showing ``number`` (1-9), or ``None`` when none does (no piece selected, fewer targets)."""
        return next((h for h, n in self._numbers.items() if n == number), None)

    @staticmethod
    def _number_targets(view: BoardView, flipped: bool) -> dict[int, int]:
        order = reading_order(view.targets, flipped=flipped)
        return {h: index + 1 for index, h in enumerate(order[: len(_DIGITS)])}

    def switch_cursor(self, side: Colour, default: int) -> None:
        """Keep a cursor per side: remember where the side that was playing left it, go to ``side``'s.

        Call it when the side to move changes (with auto-flip, say): ``side``
        is the side now to move; ``default`` is where its cursor starts the
        first time (its King, say).  :meth:`forget_cursors` starts afresh.
        """
        if self._cursor_side is not None:
            self._cursors[self._cursor_side] = self.cursor
        self._cursor_side = side
        self.cursor = self._cursors.get(side, default)

    def forget_cursors(self) -> None:
        """Drop the remembered cursors (a new game): the next :meth:`switch_cursor` uses its ``default``."""
        self._cursors.clear()
        self._cursor_side = None

    @property
    def patterned(self) -> bool:
        """Whether blank cells show the tile's fill: under ``NO_COLOR``, unless ``patterns`` said otherwise."""
        if self._patterns is not None:
            return self._patterns
        return self.is_attached and self.app.no_color

    def validate_cursor(self, value: int) -> int:
        if not 0 <= value < HEX_COUNT:
            raise ValueError(f"cursor must be a hex index 0..{HEX_COUNT - 1}, got {value}")
        return value

    def validate_piece_set(self, value: str) -> PieceSet:
        if value not in PIECE_SETS:
            raise ValueError(f"piece_set must be one of {PIECE_SETS}, got {value!r}")
        return value

    def validate_layout_mode(self, value: str) -> LayoutChoice:
        if value not in LAYOUT_CHOICES:
            raise ValueError(f"layout must be one of {LAYOUT_CHOICES}, got {value!r}")
        return value

    def watch_cursor(self, old: int, new: int) -> None:
        self._refresh_hexes((old, new))
        self.post_message(self.CursorMoved(self, new))

    def watch_flipped(self) -> None:
        self._numbers = self._number_targets(self._view, self.flipped)

    def watch_layout_mode(self) -> None:
        self.call_later(self._note_layout)

    # --- Geometry -----------------------------------------------------------

    @property
    def available(self) -> Size:
        """The cells the board may use: the space its container offers when it is sized to fit, else its size."""
        return self._space if self._space.area else self.size

    @property
    def mode(self) -> LayoutMode:
        """The layout in use: ``layout_mode`` resolved against the space available (see :func:`choose_mode`).

        It is right as soon as ``layout_mode`` changes, before the next layout.
        """
        return choose_mode(self.layout_mode, *self.available)

    @property
    def layout_note(self) -> str | None:
        """Why the forced layout is not the one drawn (it does not fit), or ``None``."""
        return fallback_note(self.layout_mode, *self.available)

    def _note_layout(self) -> None:
        """Post :class:`LayoutChanged` when the layout drawn, or the reason for it, changes.

        Called from the board's own message loop (``call_later``): a message
        made while Textual lays out the screen would count the app as its
        sender, and never bubble up to it.
        """
        shown = (self.mode, self.layout_note)
        if shown != self._shown_layout:
            first = self._shown_layout is None
            self._shown_layout = shown
            if not first or shown[1] is not None:
                self.post_message(self.LayoutChanged(self, *shown))

    def on_resize(self) -> None:
        self._note_layout()

    @property
    def board_layout(self) -> BoardLayout:
        return layout_for(self.mode, self.flipped)

    def hex_region(self, h: int) -> Region:
        """Where hex ``h`` is drawn, in content coordinates (for tests, tooltips and pop-ups)."""
        layout = self.board_layout
        x, y, width, height = layout.cells[h]
        ox, oy = self._origin(layout)
        return Region(ox + x, oy + y, width, height)

    def hex_at_offset(self, x: int, y: int) -> int | None:
        """The hex drawn at content offset ``(x, y)``, or ``None``."""
        layout = self.board_layout
        ox, oy = self._origin(layout)
        return layout.hex_at(x - ox, y - oy)

    def _origin(self, layout: BoardLayout) -> tuple[int, int]:
        """Top-left of the board in the content area, honouring ``content-align``."""
        spare_x = max(0, self.size.width - layout.width)
        spare_y = max(0, self.size.height - layout.height)
        share = {"left": 0, "top": 0, "center": 1, "middle": 1, "right": 2, "bottom": 2}
        return (
            spare_x * share[self.styles.content_align_horizontal] // 2,
            spare_y * share[self.styles.content_align_vertical] // 2,
        )

    def get_content_width(self, container: Size, viewport: Size) -> int:
        gutter = self.styles.gutter
        self._space = Size(max(0, container.width - gutter.width), max(0, container.height - gutter.height))
        self.call_later(self._note_layout)
        return board_size(choose_mode(self.layout_mode, *self._space))[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        height = max(0, container.height - self.styles.gutter.height)
        return board_size(choose_mode(self.layout_mode, width, height))[1]

    # --- Painting -----------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None
        self._strips.clear()
        self._cells.clear()

    def _refresh_hexes(self, hexes: Iterable[int]) -> None:
        """Drop the cached rows of ``hexes`` and ask Textual to repaint just those rows."""
        if not self.is_mounted:
            return
        layout = self.board_layout
        _, oy = self._origin(layout)
        rows = sorted({oy + y for h in hexes for y in layout.hex_rows(h)})
        for y in rows:
            self._strips.pop(y, None)
        regions = []
        start = previous = rows[0]
        for y in [*rows[1:], -1]:
            if y != previous + 1:
                regions.append(Region(0, start, self.size.width, previous - start + 1))
                start = y
            previous = y
        self.refresh(*regions)

    def render_line(self, y: int) -> Strip:
        layout = self.board_layout
        key = (layout, self.size, self.piece_set, self.wide_glyphs, self.patterned)
        if key != self._cache_key:
            self._cache_key = key
            self._strips.clear()
            self._cells.clear()
        strip = self._strips.get(y)
        if strip is None:
            strip = self._strips[y] = self._render_row(y, layout)
        return strip

    def _render_row(self, y: int, layout: BoardLayout) -> Strip:
        if self._palette is None:
            self._palette = _Palette(self)
        palette = self._palette
        width = self.size.width
        ox, oy = self._origin(layout)
        row = y - oy
        if not 0 <= row < layout.height:
            return Strip.blank(width, palette.blank)
        segments = [Segment(" " * ox, palette.blank)] if ox else []
        position = 0
        for span in layout.rows[row]:
            if span.x > position:
                segments.append(Segment(" " * (span.x - position), palette.blank))
            if span.hex is None:
                segments.append(Segment(span.text, palette.label))
            else:
                segments += self._cell_segments(span.hex, span.part, layout, palette)
            position = span.x + span.width
        return Strip(segments, ox + position).adjust_cell_length(width, palette.blank)

    def _cell_segments(self, h: int, part: int, layout: BoardLayout, palette: _Palette) -> list[Segment]:
        """One text row of one hex: cached by content, so equal-looking hexes share segments."""
        marks = self._marks[h] | (Mark.CURSOR if h == self.cursor else Mark.NONE)
        code = self._view.codes[h]
        tile = HEX_COLOUR[h]
        mode = layout.mode
        number = self._numbers.get(h)
        piece_row = part == layout.piece_row
        # Only rows that show a name depend on the hex itself: the cursor's lower row, a large hex's bottom row.
        named = h if (mode == "large" and part == 2) or (mode == "full" and part and marks & Mark.CURSOR) else -1
        key = (code, tile, marks, part, named, number if piece_row else None)
        segments = self._cells.get(key)
        if segments is None:
            styles = palette.cell(tile, code, marks)
            fill = TILE_FILLS[tile] if self.patterned else " "
            if piece_row:
                glyph = piece_glyph(code, self.piece_set, self.wide_glyphs)
                text = cell_text(glyph, marks, mode, number=number, fill=fill)
                middle = len(text) // 2
                segments = [Segment(text[:middle], styles.marker), Segment(text[middle], styles.piece)]
                segments.append(Segment(text[middle + 1 :], styles.marker))
            elif mode == "large":
                text = cell_name_text(h, fill) if part == 2 else cell_blank_text(mode, fill)
                segments = [Segment(text, styles.lower)]
            else:
                segments = [Segment(cell_lower_text(h, marks, fill), styles.lower)]
            self._cells[key] = segments
        return segments

    # --- Input ----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Tab and the digits play among targets only when there are some.

        Otherwise the key goes on to the app (Tab moves the focus).
        """
        if action in ("cycle_target", "pick_target"):
            return bool(self._view.targets)
        return True

    def action_move(self, direction: CursorMove) -> None:
        if direction not in CURSOR_MOVES:
            raise ValueError(f"unknown cursor move {direction!r}")
        self.cursor = cursor_step(self.cursor, direction, self._view.targets, flipped=self.flipped, mode=self.mode)

    def action_cycle_target(self, step: int) -> None:
        self.cursor = cycle_target(self.target_order, self.cursor, step, flipped=self.flipped)

    def action_pick_target(self, number: int) -> None:
        """Choose the target numbered ``number`` at once (the cursor goes there too)."""
        target = self.numbered_target(number)
        if target is None:
            return
        self.cursor = target
        self.post_message(self.HexSelected(self, target))

    def action_select(self) -> None:
        self.post_message(self.HexSelected(self, self.cursor))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled(self))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        h = None if offset is None else self.hex_at_offset(offset.x, offset.y)
        if h is None:
            return
        event.stop()
        # Move the cursor without repainting now: the app answers HexSelected with a show(), which
        # repaints the old and new cursor hexes in the same frame as the selection or the move.
        # Repainting here would cost a frame, and the player would see the click land late.
        self._stale_cursor = (self.cursor, h)
        self.set_reactive(HexBoard.cursor, h)
        self.post_message(self.CursorMoved(self, h))
        self.post_message(self.HexSelected(self, h))
        self.set_timer(0.05, self._flush_stale_cursor)

    def _flush_stale_cursor(self) -> None:
        """Repaint a clicked cursor that no show() has repainted (an app that ignores the click)."""
        stale, self._stale_cursor = self._stale_cursor, ()
        if stale:
            self._refresh_hexes(stale)

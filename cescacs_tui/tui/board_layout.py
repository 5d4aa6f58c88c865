"""Pure logic of the on-screen board: where each hex is drawn, how the cursor moves, what a cell says.

Nothing here imports Textual, so the geometry and the cell texts are unit-tested
without running an app, and :mod:`cescacs_tui.tui.board` is left with painting
and input only.

Layout.  The 169 hexes are drawn as a "brick wall": column ``c`` (``P``..``Z``)
is a vertical stack of rectangles ``cell_width`` cells wide, and a column step
of two lines is one rectangle height, so the odd and even columns are offset by
half a hex and edge-neighbours touch on screen.

* ``full``: hexes 5x2 cells; each line gets its own text row (the piece row, the
  hex's top row), so neighbouring columns are offset by exactly one row.
  Content 79x32 with labels.
* ``compact``: hexes 3x1 cells; lines ``l`` and ``l-1`` of adjacent columns share
  a row (row ``(28 - l) // 2`` for White's view), so the wall is sheared rather
  than offset by half a hex.  Content 49x17 with labels, which leaves room for
  a side panel, header and footer in an 80x24 terminal.

Column letters run along the top and bottom rows; each text row that carries
pieces is numbered at the left and right edges with the line of its outermost
hex.  ``flipped`` (Black at the bottom) rotates the picture 180 degrees: hex
``(c, l)`` is drawn where ``(14 - c, 28 - l)`` would be.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntFlag
from types import MappingProxyType
from typing import Final, Literal, NamedTuple, get_args

from rich.cells import cell_len

from cescacs_tui.core.geometry import COLUMN, COLUMNS, HEX_COUNT, HEX_NAMES, HEXES, LINE, LINES, hex_at, parse_hex
from cescacs_tui.core.pieces import FAN_GLYPHS, LETTERS, PEGASUS, WYVERN
from cescacs_tui.data.choices import LAYOUT_CHOICES as LAYOUT_CHOICES  # the settings' vocabularies, UI-free
from cescacs_tui.data.choices import PIECE_SETS as PIECE_SETS
from cescacs_tui.data.choices import LayoutChoice as LayoutChoice
from cescacs_tui.data.choices import PieceSet as PieceSet

LayoutMode = Literal["full", "compact"]
CursorMove = Literal["up", "down", "left", "right", "up_left", "up_right", "down_left", "down_right", "top", "bottom"]

CURSOR_MOVES: Final[tuple[CursorMove, ...]] = get_args(CursorMove)

START_HEX: Final = parse_hex("F14")
"""Where the cursor starts: the central hex F14, a few key presses from anywhere."""

LABEL_WIDTH: Final = 2
"""Line numbers have at most two digits; they sit flush against the hexes."""
_CELL_SIZE: Final[dict[str, tuple[int, int]]] = {"full": (5, 2), "compact": (3, 1)}
_LAST_COLUMN: Final = len(COLUMNS) - 1
_LAST_LINE: Final = LINES - 1


# --- Geometry ------------------------------------------------------------------


class Rect(NamedTuple):
    """A rectangle of terminal cells, in board-content coordinates."""

    x: int
    y: int
    width: int
    height: int


class Label(NamedTuple):
    """A column letter or line number drawn around the board."""

    x: int
    y: int
    text: str


class Span(NamedTuple):
    """What one text row shows from ``x`` on: a slice of a hex, or a label.

    ``hex`` is ``None`` for a label; ``part`` is the text row inside the hex
    (0 is the piece row), so a painter walks one row's spans left to right.
    """

    x: int
    width: int
    hex: int | None
    text: str
    part: int


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """Where everything goes for one mode and orientation.  Built once per variant by :func:`layout_for`."""

    mode: LayoutMode
    flipped: bool
    width: int
    height: int
    cells: tuple[Rect, ...]
    """Per hex index, its rectangle."""
    labels: tuple[Label, ...]
    rows: tuple[tuple[Span, ...], ...]
    """Per text row, the spans drawn on it, left to right, never overlapping."""

    @property
    def cell_width(self) -> int:
        return self.cells[0].width

    def hex_at(self, x: int, y: int) -> int | None:
        """The hex drawn at content cell ``(x, y)``, or ``None`` for a label, a gap or outside."""
        if not 0 <= y < self.height:
            return None
        for span in self.rows[y]:
            if span.hex is not None and span.x <= x < span.x + span.width:
                return span.hex
        return None

    def hex_rows(self, h: int) -> range:
        """The text rows hex ``h`` covers: what to repaint when it changes."""
        rect = self.cells[h]
        return range(rect.y, rect.y + rect.height)


def _to_view(column: int, line: int, flipped: bool) -> tuple[int, int]:
    """Board coordinates to screen-oriented ones and back (a 180-degree turn is its own inverse)."""
    return (_LAST_COLUMN - column, _LAST_LINE - line) if flipped else (column, line)


def _cell_rect(h: int, mode: LayoutMode, flipped: bool) -> Rect:
    width, height = _CELL_SIZE[mode]
    column, line = _to_view(COLUMN[h], LINE[h], flipped)
    # One line is half a hex high: one row in full mode, and in compact mode
    # lines l and l-1 (l even) share a row.  Row 0 holds the column letters.
    return Rect(LABEL_WIDTH + column * width, 1 + (_LAST_LINE - line) * height // 2, width, height)


def _line_labels(cells: tuple[Rect, ...], width: int) -> list[Label]:
    """Number each piece row, at both edges, with the line of its outermost hex.

    In full mode every hex whose piece row is ``y`` is on the same line; in
    compact mode a row mixes two lines, and the number belongs to the hex at
    the edge, next to it.
    """
    outermost: dict[int, int] = {}
    for h, rect in enumerate(cells):
        current = outermost.get(rect.y)
        if current is None or rect.x < cells[current].x:
            outermost[rect.y] = h
    labels = []
    for y, h in outermost.items():
        number = str(LINE[h])
        labels.append(Label(0, y, number.rjust(LABEL_WIDTH)))
        labels.append(Label(width - LABEL_WIDTH, y, number.ljust(LABEL_WIDTH)))
    return labels


@functools.cache
def layout_for(mode: LayoutMode, flipped: bool = False) -> BoardLayout:
    """The layout of one mode and orientation (four variants, each computed once)."""
    if mode not in _CELL_SIZE:
        raise ValueError(f"unknown layout mode {mode!r}")
    cell_width, _ = _CELL_SIZE[mode]
    cells = tuple(_cell_rect(h, mode, flipped) for h in HEXES)
    width = 2 * LABEL_WIDTH + len(COLUMNS) * cell_width
    height = max(rect.y + rect.height for rect in cells) + 1
    labels = _line_labels(cells, width)
    for column, letter in enumerate(COLUMNS):
        x = LABEL_WIDTH + _to_view(column, 0, flipped)[0] * cell_width + cell_width // 2
        labels += [Label(x, 0, letter), Label(x, height - 1, letter)]
    rows: list[list[Span]] = [[] for _ in range(height)]
    for h, rect in enumerate(cells):
        for part in range(rect.height):
            rows[rect.y + part].append(Span(rect.x, rect.width, h, "", part))
    for label in labels:
        rows[label.y].append(Span(label.x, len(label.text), None, label.text, 0))
    return BoardLayout(
        mode=mode,
        flipped=flipped,
        width=width,
        height=height,
        cells=cells,
        labels=tuple(labels),
        rows=tuple(tuple(sorted(row)) for row in rows),
    )


def choose_mode(choice: LayoutChoice, width: int, height: int) -> LayoutMode:
    """Resolve ``"auto"``: the full layout when ``width`` x ``height`` cells hold it, else compact."""
    if choice == "full" or choice == "compact":
        return choice
    if choice != "auto":
        raise ValueError(f"unknown layout {choice!r}")
    full = layout_for("full")
    return "full" if width >= full.width and height >= full.height else "compact"


# --- Cursor --------------------------------------------------------------------

_STEPS: Final[dict[str, tuple[int, int]]] = {
    "up": (0, 2),
    "down": (0, -2),
    "up_left": (-1, 1),
    "up_right": (1, 1),
    "down_left": (-1, -1),
    "down_right": (1, -1),
}
"""Screen-oriented (column, line) steps: the six edge-neighbour directions."""


def _view_hex(column: int, line: int, flipped: bool) -> int | None:
    return hex_at(*_to_view(column, line, flipped))


def move_cursor(h: int, move: CursorMove, *, flipped: bool = False) -> int:
    """Where the cursor goes from hex ``h``; it stays put when the board ends that way.

    Moves are in screen terms, so they feel the same when the board is flipped.
    Up/down follow the column; the four obliques are the true hex directions.
    Left/right go to the adjacent column's neighbour that shares this hex's
    compact row (so repeating them walks a row and left undoes right), or,
    at the rim where that hex is missing, to the other oblique neighbour.  The
    board is convex, so one of the two always exists when the column does:
    with up/down this reaches every hex.  Top/bottom jump to the column's ends.
    """
    column, line = _to_view(COLUMN[h], LINE[h], flipped)
    if move in ("top", "bottom"):
        step = 2 if move == "top" else -2
        while _view_hex(column, line + step, flipped) is not None:
            line += step
        return h if (end := _view_hex(column, line, flipped)) is None else end
    if move in ("left", "right"):
        to = column + (1 if move == "right" else -1)
        same_row = line - 1 if line % 2 == 0 else line + 1
        candidates = [(to, same_row), (to, 2 * line - same_row)]
    elif move in _STEPS:
        dc, dl = _STEPS[move]
        candidates = [(column + dc, line + dl)]
    else:
        raise ValueError(f"unknown cursor move {move!r}")
    for target in candidates:
        found = _view_hex(*target, flipped)
        if found is not None:
            return found
    return h


# --- What the board shows --------------------------------------------------------

EMPTY_CODES: Final = (0,) * HEX_COUNT
TARGET_KINDS: Final = ("move", "capture")


@dataclass(frozen=True)
class BoardView:
    """Everything the board displays, decided by the caller: the widget knows no rules.

    ``codes`` is :attr:`Position.board_codes` (0 empty, +type White, -type
    Black).  ``targets`` maps a hex to ``"move"`` or ``"capture"``;
    ``last_move`` and ``preview`` are origin/target hexes; ``attacked`` are
    hexes the opponent attacks, ``threatened`` own pieces under attack, and
    ``awaiting`` pawns awaiting promotion.
    """

    codes: tuple[int, ...] = EMPTY_CODES
    selected: int | None = None
    targets: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    last_move: tuple[int, ...] = ()
    check: int | None = None
    attacked: frozenset[int] = frozenset()
    threatened: frozenset[int] = frozenset()
    awaiting: frozenset[int] = frozenset()
    preview: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.codes) != HEX_COUNT:
            raise ValueError(f"a board has {HEX_COUNT} hexes, got {len(self.codes)} codes")
        bad = {kind for kind in self.targets.values() if kind not in TARGET_KINDS}
        if bad:
            raise ValueError(f"target kinds must be 'move' or 'capture', got {sorted(bad)}")


class Mark(IntFlag):
    """The highlights one hex can carry at once."""

    NONE = 0
    CURSOR = 1
    SELECTED = 2
    TARGET = 4
    CAPTURE = 8
    LAST_MOVE = 16
    CHECK = 32
    ATTACKED = 64
    THREATENED = 128
    AWAITING = 256
    PREVIEW = 512


def view_marks(view: BoardView) -> tuple[Mark, ...]:
    """Per hex, the marks ``view`` asks for (the cursor is the widget's, added by the painter)."""
    marks = [Mark.NONE] * HEX_COUNT
    for hexes, mark in (
        (view.last_move, Mark.LAST_MOVE),
        (view.preview, Mark.PREVIEW),
        (view.attacked, Mark.ATTACKED),
        (view.threatened, Mark.THREATENED),
        (view.awaiting, Mark.AWAITING),
        ((view.selected,), Mark.SELECTED),
        ((view.check,), Mark.CHECK),
    ):
        for h in hexes:
            if h is not None:
                marks[h] |= mark
    for h, kind in view.targets.items():
        marks[h] |= Mark.CAPTURE if kind == "capture" else Mark.TARGET
    return tuple(marks)


def piece_glyph(code: int, piece_set: PieceSet = "letters") -> str:
    """The one-cell text of a board code: ``""`` for an empty hex.

    Letters tell the sides apart by case (White upper, Black lower) as well as
    by colour.  The CTL-FAN glyphs fall back to the letter when a glyph is not
    one cell wide, and ``"fan-safe"`` always uses letters for the Pegasus and
    the Wyvern, whose glyphs (U+1FA4F..U+1FA53) many fonts lack.
    """
    if code == 0:
        return ""
    kind = abs(code)
    letter = LETTERS[kind] if code > 0 else LETTERS[kind].lower()
    if piece_set == "letters" or (piece_set == "fan-safe" and kind in (PEGASUS, WYVERN)):
        return letter
    glyph = FAN_GLYPHS[kind][code < 0]
    return glyph if cell_len(glyph) == 1 else letter


# First matching mark wins each one-cell slot beside the piece.
_LEFT_SLOT: Final = (
    (Mark.CAPTURE, "×"),
    (Mark.CHECK, "!"),
    (Mark.CURSOR, "["),
    (Mark.SELECTED, ">"),
    (Mark.PREVIEW, "{"),
)
_RIGHT_SLOT: Final = (
    (Mark.AWAITING, "?"),
    (Mark.CURSOR, "]"),
    (Mark.SELECTED, "<"),
    (Mark.PREVIEW, "}"),
    (Mark.THREATENED, "!"),
    (Mark.ATTACKED, "°"),
)
_EMPTY_CENTRE: Final = ((Mark.CAPTURE, "×"), (Mark.TARGET, "·"), (Mark.ATTACKED, "°"))


def _first(marks: Mark, table: tuple[tuple[Mark, str], ...]) -> str:
    for mark, char in table:
        if marks & mark:
            return char
    return " "


def cell_text(glyph: str, marks: Mark, mode: LayoutMode) -> str:
    """The piece row of a hex: a marker, the piece (or an empty-hex marker), a marker.

    So that nothing relies on colour alone, every highlight has a character:
    ``[K]`` cursor, ``>K<`` selected, ``·`` empty target, ``×k`` capture
    target, ``!K!`` King in check (left ``!``) and threatened (right ``!``),
    ``P?`` awaiting promotion, ``{P}`` preview, ``°`` attacked; the last move is
    underlined by its style.  In compact mode (3 cells) the cursor competes for
    the slots, losing only to capture, check and awaiting markers; in full
    mode (5 cells) it takes the outer cells and every marker shows.
    """
    if glyph:
        centre = glyph
        slot_marks = marks
    else:
        centre = _first(marks, _EMPTY_CENTRE)
        slot_marks = marks & ~(Mark.CAPTURE | Mark.ATTACKED)  # already shown in the centre
    if mode == "compact":
        return _first(slot_marks, _LEFT_SLOT) + centre + _first(slot_marks, _RIGHT_SLOT)
    inner = slot_marks & ~Mark.CURSOR
    left, right = ("[", "]") if marks & Mark.CURSOR else (" ", " ")
    return left + _first(inner, _LEFT_SLOT) + centre + _first(inner, _RIGHT_SLOT) + right


def cell_lower_text(h: int, marks: Mark) -> str:
    """The second row of a full-mode hex: the cursor hex shows its name, to teach the coordinates."""
    width = _CELL_SIZE["full"][0]
    return HEX_NAMES[h].center(width) if marks & Mark.CURSOR else " " * width

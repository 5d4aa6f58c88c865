"""Pure logic of the on-screen board: where each hex is drawn, how the cursor moves, what a cell says.

Nothing here imports Textual, so the geometry and the cell texts are unit-tested
without running an app, and :mod:`cescacs_tui.tui.widgets.board` is left with painting
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
* ``large``: hexes 7x3 cells, the piece on the middle row and the hex's name
  on the bottom one; a line is one and a half rows (alternately one and two),
  so neighbouring columns are offset by one row of three.  Content 109x47:
  a 160x50 terminal.

Column letters run along the top and bottom rows.  Every line number can be
read at the edges: a row that carries the pieces of one line is numbered with
it at both edges; a compact row carries two lines, and is numbered with the
line of the columns drawn at even places from the left (``P A C E G I L Z``
for White's view, the outermost) at the left edge and with the other line at
the right edge (``13`` at the left, ``14`` at the right: F14 is on that row).
``flipped`` (Black at the bottom) rotates the picture 180 degrees: hex
``(c, l)`` is drawn where ``(14 - c, 28 - l)`` would be.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
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

from ..i18n import _

LayoutMode = Literal["full", "compact", "large"]
CursorMove = Literal["up", "down", "left", "right", "up_left", "up_right", "down_left", "down_right", "top", "bottom"]

CURSOR_MOVES: Final[tuple[CursorMove, ...]] = get_args(CursorMove)

START_HEX: Final = parse_hex("F14")
"""Where the cursor starts: the central hex F14, a few key presses from anywhere."""

LABEL_WIDTH: Final = 2
"""Line numbers have at most two digits; they sit flush against the hexes."""
_CELL_SIZE: Final[dict[str, tuple[int, int]]] = {"full": (5, 2), "compact": (3, 1), "large": (7, 3)}
_PIECE_ROW: Final[dict[str, int]] = {"full": 0, "compact": 0, "large": 1}
"""Which text row of a hex holds its piece: the middle one of three, else the top one."""
BY_SIZE: Final[tuple[LayoutMode, ...]] = ("large", "full", "compact")
"""The layouts from the roomiest down: "auto" takes the first that fits, a forced one falls back along it."""
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
    (the layout's ``piece_row`` holds the piece), so a painter walks one
    row's spans left to right.
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
    piece_row: int = 0
    """The text row inside each hex that holds the piece and its markers."""

    @property
    def cell_width(self) -> int:
        return self.cells[0].width

    def piece_y(self, h: int) -> int:
        """The text row of hex ``h``'s piece."""
        return self.cells[h].y + self.piece_row

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


def _line_labels(cells: tuple[Rect, ...], piece_row: int, width: int, flipped: bool) -> list[Label]:
    """Number each piece row at both edges, so that every line can be read (see the module's docstring).

    A compact row holds the pieces of two lines, one per column parity: the
    left edge gets the line of the columns at even places on the screen (the
    outermost ones), the right edge the other one.
    """
    lines: dict[int, dict[int, int]] = {}  # piece row -> view-column parity -> line
    for h, rect in enumerate(cells):
        view_column = _to_view(COLUMN[h], LINE[h], flipped)[0]
        lines.setdefault(rect.y + piece_row, {})[view_column % 2] = LINE[h]
    labels = []
    for y, by_parity in lines.items():
        left = by_parity.get(0, by_parity.get(1))
        right = by_parity.get(1, left)
        labels.append(Label(0, y, str(left).rjust(LABEL_WIDTH)))
        labels.append(Label(width - LABEL_WIDTH, y, str(right).ljust(LABEL_WIDTH)))
    return labels


@functools.cache
def board_size(mode: LayoutMode) -> tuple[int, int]:
    """The width and height of the board drawn in ``mode``, either way up, without building its layout.

    Choosing a mode asks it of each mode that might fit, and a widget's size
    of the one chosen, before anything is drawn.
    """
    if mode not in _CELL_SIZE:
        raise ValueError(f"unknown layout mode {mode!r}")
    cell_width, _ = _CELL_SIZE[mode]
    bottom = max(rect.y + rect.height for rect in (_cell_rect(h, mode, False) for h in HEXES))
    return 2 * LABEL_WIDTH + len(COLUMNS) * cell_width, bottom + 1  # column letters in the rows above and below


@functools.cache
def layout_for(mode: LayoutMode, flipped: bool = False) -> BoardLayout:
    """The layout of one mode and orientation (six variants, each computed once, when first drawn)."""
    width, height = board_size(mode)
    cell_width, _ = _CELL_SIZE[mode]
    piece_row = _PIECE_ROW[mode]
    cells = tuple(_cell_rect(h, mode, flipped) for h in HEXES)
    labels = _line_labels(cells, piece_row, width, flipped)
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
        piece_row=piece_row,
    )


def fits(mode: LayoutMode, width: int, height: int) -> bool:
    """Whether ``width`` x ``height`` cells hold the whole board in ``mode``."""
    board_width, board_height = board_size(mode)
    return width >= board_width and height >= board_height


def choose_mode(choice: LayoutChoice, width: int, height: int) -> LayoutMode:
    """The layout to draw in ``width`` x ``height`` cells: the roomiest that fits, never more than ``choice``.

    ``"auto"`` is the largest that fits.  A forced layout is used when it
    fits; when it does not, the next smaller one that fits (compact, the
    smallest, when none does), so a layout chosen in a big terminal never
    cuts the board in a smaller one.  :func:`fallback_note` says so.
    """
    if choice == "auto":
        candidates = BY_SIZE
    elif choice in BY_SIZE:
        candidates = BY_SIZE[BY_SIZE.index(choice) :]
    else:
        raise ValueError(f"unknown layout {choice!r}")
    return next((mode for mode in candidates if fits(mode, width, height)), "compact")


def fallback_note(choice: LayoutChoice, width: int, height: int) -> str | None:
    """Why the board is not drawn in the forced layout ``choice`` in that space, or ``None`` when it is."""
    if choice == "auto":
        return None
    shown = choose_mode(choice, width, height)
    if shown == choice:
        return None
    needed_width, needed_height = board_size(choice)
    return _("the {choice} board needs {needed} cells and has {size}: showing the {shown} board").format(
        choice=choice, needed=f"{needed_width}x{needed_height}", size=f"{max(0, width)}x{max(0, height)}", shown=shown
    )


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


def move_cursor(h: int, move: CursorMove, *, flipped: bool = False, mode: LayoutMode = "compact") -> int:
    """Where the cursor goes from hex ``h`` on the board drawn in ``mode``; it stays put when the board ends that way.

    Moves are in screen terms, so they feel the same when the board is flipped.
    Up/down follow the column; the four obliques are the true hex directions.
    Left/right follow the row the eye sees.  In the compact layout a row holds
    two lines: they go to the adjacent column's neighbour that shares this
    hex's row (so repeating them walks a row and left undoes right).  In the
    full and large layouts a row holds one line (D4, B4, F4 side by side):
    they go two columns over along it (D4 to B4).  At the rim, where that hex
    is missing, they go to an adjacent column's neighbour.  The board is
    convex, so one always exists when the column does: with up/down this
    reaches every hex.  Top/bottom jump to the column's ends.
    """
    column, line = _to_view(COLUMN[h], LINE[h], flipped)
    if move in ("top", "bottom"):
        step = 2 if move == "top" else -2
        while _view_hex(column, line + step, flipped) is not None:
            line += step
        return h if (end := _view_hex(column, line, flipped)) is None else end
    if move in ("left", "right"):
        way = 1 if move == "right" else -1
        to = column + way
        same_row = line - 1 if line % 2 == 0 else line + 1
        candidates = [(to, same_row), (to, 2 * line - same_row)]
        if mode != "compact":
            candidates.insert(0, (column + 2 * way, line))
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


def _reading_key(h: int, flipped: bool) -> tuple[int, int]:
    column, line = _to_view(COLUMN[h], LINE[h], flipped)
    return -line, column


def reading_order(hexes: Iterable[int], *, flipped: bool = False) -> tuple[int, ...]:
    """``hexes`` as the eye reads the screen: from the top line down, each line left to right."""
    return tuple(sorted(hexes, key=lambda h: _reading_key(h, flipped)))


def cycle_target(order: tuple[int, ...], cursor: int, step: int, *, flipped: bool = False) -> int:
    """The next (``step`` 1) or previous (-1) hex of ``order`` (a :func:`reading_order`) from ``cursor``, wrapping.

    ``cursor`` need not be in ``order``: from the selected piece, Tab goes to
    the first target after it in reading order, so it goes on from where the
    eye is.
    """
    if not order:
        return cursor
    here = _reading_key(cursor, flipped)
    if step > 0:
        return next((t for t in order if _reading_key(t, flipped) > here), order[0])
    return next((t for t in reversed(order) if _reading_key(t, flipped) < here), order[-1])


_DIRECTIONS: Final[dict[str, tuple[float, float]]] = {
    "up": (0.0, 1.0),
    "down": (0.0, -1.0),
    "left": (-1.0, 0.0),
    "right": (1.0, 0.0),
    "up_left": (-0.866, 0.5),
    "up_right": (0.866, 0.5),
    "down_left": (-0.866, -0.5),
    "down_right": (0.866, -0.5),
}
"""Screen-oriented unit vectors of the cursor moves, x to the right and y up."""


def _centre(h: int, flipped: bool) -> tuple[float, float]:
    """A hex's centre in hex widths: columns are 3/4 of a hex apart, lines half a hex's height (sqrt(3)/4)."""
    column, line = _to_view(COLUMN[h], LINE[h], flipped)
    return column * 0.75, line * 0.433


def target_towards(h: int, move: CursorMove, targets: Iterable[int], *, flipped: bool = False) -> int | None:
    """The target nearest ``h`` in the screen direction of ``move``, or ``None`` when none lies that way.

    "That way" is within 60 degrees of the direction; nearer and straighter
    wins (the distance along the direction plus twice the distance across),
    so repeated presses walk the targets of a line, and a press towards a
    far target gets there at once.
    """
    dx, dy = _DIRECTIONS[move]
    x0, y0 = _centre(h, flipped)
    best: tuple[float, int] | None = None
    for t in targets:
        if t == h:
            continue
        x, y = _centre(t, flipped)
        along = (x - x0) * dx + (y - y0) * dy
        across = abs((x - x0) * dy - (y - y0) * dx)
        if along <= 0 or across > along * 1.733:
            continue
        score = along + 2 * across
        if best is None or score < best[0]:
            best = (score, t)
    return None if best is None else best[1]


def cursor_step(
    h: int, move: CursorMove, targets: Iterable[int] = (), *, flipped: bool = False, mode: LayoutMode = "compact"
) -> int:
    """Where a cursor key takes the board's cursor from ``h``: among ``targets`` when there are any.

    With targets (a piece is selected), a direction goes to the nearest
    target that way (:func:`target_towards`) and steps freely only where
    there is none; Home/End, and every key without targets, move freely
    (:func:`move_cursor`).
    """
    targets = tuple(targets)
    if targets and move not in ("top", "bottom"):
        target = target_towards(h, move, targets, flipped=flipped)
        if target is not None:
            return target
    return move_cursor(h, move, flipped=flipped, mode=mode)


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


CHESS_SYMBOLS: Final = range(0x1FA00, 0x1FA70)
"""Unicode's Chess Symbols block, home of the CTL-FAN Pegasus and Wyvern: recent, so many fonts lack
it and many terminals draw it two cells wide whatever Rich's width tables say."""

RISKY_GLYPHS: Final = frozenset(glyph for pair in FAN_GLYPHS.values() for glyph in pair if ord(glyph) in CHESS_SYMBOLS)
"""The FAN glyphs a terminal may draw wider than one cell (those of :data:`CHESS_SYMBOLS`)."""


def piece_glyph(code: int, piece_set: PieceSet = "letters", wide: frozenset[str] = frozenset()) -> str:
    """The one-cell text of a board code: ``""`` for an empty hex.

    Letters tell the sides apart by case (White upper, Black lower) as well as
    by colour.  The CTL-FAN glyphs fall back to the letter when a glyph is not
    one cell wide: by Rich's measure (which Textual's compositor uses) or in
    ``wide``, the glyphs the terminal itself was measured to draw wider (see
    :mod:`cescacs_tui.tui.glyph_width`); a glyph drawn two cells wide would
    push the rest of its row one cell to the right.  ``"fan-safe"`` always uses
    letters for the Pegasus and the Wyvern (:data:`RISKY_GLYPHS`), whatever
    the measures say, for fonts that lack them.
    """
    if code == 0:
        return ""
    kind = abs(code)
    letter = LETTERS[kind] if code > 0 else LETTERS[kind].lower()
    if piece_set == "letters" or (piece_set == "fan-safe" and kind in (PEGASUS, WYVERN)):
        return letter
    glyph = FAN_GLYPHS[kind][code < 0]
    return glyph if cell_len(glyph) == 1 and glyph not in wide else letter


TILE_FILLS: Final = (" ", "▒", "░")
"""Per tile colour (``HEX_COLOUR``: white, black, colour), the character that fills the hex's blank cells
where colours cannot tell the tiles apart (``NO_COLOR``): white hexes stay blank, black ones are the
densest, colour hexes (the rules' middle tone) in between."""

# First matching mark wins each one-cell slot beside the piece.
_LEFT_SLOT: Final = (
    (Mark.CAPTURE, "×"),
    (Mark.CHECK, "!"),
    (Mark.SELECTED, ">"),
    (Mark.PREVIEW, "{"),
)
_RIGHT_SLOT: Final = (
    (Mark.AWAITING, "?"),
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


def cell_text(glyph: str, marks: Mark, mode: LayoutMode, *, number: int | None = None, fill: str = " ") -> str:
    """The piece row of a hex: a marker, the piece (or an empty-hex marker), a marker.

    So that nothing relies on colour alone, every highlight has a character:
    ``[K]`` cursor, ``>K<`` selected, ``·`` empty target, ``×k`` capture
    target, ``!K!`` King in check (left ``!``) and threatened (right ``!``),
    ``P?`` awaiting promotion, ``{P}`` preview, ``°`` attacked; the last move is
    underlined by its style.  ``number`` (1-9) is a target's number key: it
    replaces an empty target's ``·`` and follows a captured piece (``×k3``).
    The cursor's brackets are outside the other markers; in compact mode (3
    cells) there is no outside, so the cursor takes both slots (``[K]``,
    never ``!K]``) and the markers it hides come back when it leaves.  ``fill``
    replaces every blank cell (:data:`TILE_FILLS`).
    """
    number_text = str(number) if number is not None and marks & (Mark.TARGET | Mark.CAPTURE) else ""
    if glyph:
        centre = glyph
        slot_marks = marks
    else:
        centre = number_text if number_text and not marks & Mark.CAPTURE else _first(marks, _EMPTY_CENTRE)
        slot_marks = marks & ~(Mark.CAPTURE | Mark.ATTACKED)  # already shown in the centre
        if centre == number_text:
            number_text = ""
    left, right = _first(slot_marks, _LEFT_SLOT), _first(slot_marks, _RIGHT_SLOT)
    if number_text and not slot_marks & (Mark.AWAITING | Mark.PREVIEW):
        right = number_text
    cursor = bool(marks & Mark.CURSOR)
    if mode == "compact":
        text = f"[{centre}]" if cursor else left + centre + right
    else:
        text = ("[" if cursor else " ") + left + centre + right + ("]" if cursor else " ")
        if mode == "large":
            text = f" {text} "
    return text.replace(" ", fill) if fill != " " else text


def cell_lower_text(h: int, marks: Mark, fill: str = " ", width: int = _CELL_SIZE["full"][0]) -> str:
    """The second row of a full-mode hex: the cursor hex shows its name, to teach the coordinates."""
    name = f" {HEX_NAMES[h]} " if marks & Mark.CURSOR else ""
    return name.center(width, fill)


def cell_name_text(h: int, fill: str = " ") -> str:
    """The bottom row of a large hex: its name, always (there is room for every name)."""
    return f" {HEX_NAMES[h]} ".center(_CELL_SIZE["large"][0], fill)


def cell_blank_text(mode: LayoutMode, fill: str = " ") -> str:
    """A hex's row without text (the top row of a large hex)."""
    return fill * _CELL_SIZE[mode][0]

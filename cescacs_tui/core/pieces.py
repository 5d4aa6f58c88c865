"""Piece types, sides, letters and glyphs (RULES.md 4, NOTATION.md 3)."""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple


class Colour(IntEnum):
    """A side.  The value doubles as the index of per-side tables."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Colour:
        return Colour(1 - self)

    @property
    def title(self) -> str:
        return "White" if self is Colour.WHITE else "Black"


WHITE: Final = Colour.WHITE
BLACK: Final = Colour.BLACK


class PieceType(IntEnum):
    """The nine kinds of piece, numbered roughly by value.

    On the internal board a White piece is stored as its type and a Black one
    as the negated type, so the sign of a board entry tells the side.
    """

    PAWN = 1
    ELEPHANT = 2
    BISHOP = 3
    KNIGHT = 4
    PEGASUS = 5
    ROOK = 6
    WYVERN = 7
    QUEEN = 8
    KING = 9

    @property
    def letter(self) -> str:
        return LETTERS[self]


PAWN, ELEPHANT, BISHOP, KNIGHT, PEGASUS, ROOK, WYVERN, QUEEN, KING = PieceType

# The nine again, typed as plain ints, for the code that compares them with board entries at every node (move
# generation, make and unmake, evaluation, search): compiled (docs/engine.md, Speed), those comparisons are then
# machine-integer ones; against an enum member they are generic Python ones.  In pure Python the same objects.
PAWN_CODE: Final[int] = PAWN
ELEPHANT_CODE: Final[int] = ELEPHANT
BISHOP_CODE: Final[int] = BISHOP
KNIGHT_CODE: Final[int] = KNIGHT
PEGASUS_CODE: Final[int] = PEGASUS
ROOK_CODE: Final[int] = ROOK
WYVERN_CODE: Final[int] = WYVERN
QUEEN_CODE: Final[int] = QUEEN
KING_CODE: Final[int] = KING

LETTERS: Final[dict[int, str]] = {
    PAWN: "P", ELEPHANT: "E", BISHOP: "J", KNIGHT: "N", PEGASUS: "G",
    ROOK: "R", WYVERN: "V", QUEEN: "D", KING: "K",
}  # fmt: skip
"""Standard letters, the same in every language (upper case in CTL-AN)."""
PIECE_BY_LETTER: Final[dict[str, PieceType]] = {v: PieceType(k) for k, v in LETTERS.items()}

ALIASES: Final[dict[str, PieceType]] = {
    "Q": QUEEN, "W": WYVERN, "T": ROOK, "C": KNIGHT, "S": KNIGHT,
    "A": BISHOP, "B": BISHOP, "F": BISHOP, "L": BISHOP, "H": ELEPHANT,
}  # fmt: skip
"""Alternative letters a record may declare with ``[Redefine "alias@standard"]``."""

NAMES: Final[dict[int, str]] = {
    PAWN: "Pawn", ELEPHANT: "Elephant", BISHOP: "Bishop", KNIGHT: "Knight", PEGASUS: "Pegasus",
    ROOK: "Rook", WYVERN: "Wyvern", QUEEN: "Queen", KING: "King",
}  # fmt: skip

VALUES: Final[dict[int, int]] = {
    PAWN: 1, ELEPHANT: 2, BISHOP: 3, KNIGHT: 4, PEGASUS: 8, ROOK: 10, WYVERN: 15, QUEEN: 16, KING: 0,
}  # fmt: skip
"""Official relative values (RULES.md 4.2); guidance only, never used by the rules."""

FAN_GLYPHS: Final[dict[int, tuple[str, str]]] = {
    PAWN: ("\u2659", "\u265f"),
    ELEPHANT: ("\u2616", "\u2617"),
    BISHOP: ("\u2657", "\u265d"),
    KNIGHT: ("\u2658", "\u265e"),
    PEGASUS: ("\U0001fa50", "\U0001fa53"),
    ROOK: ("\u2656", "\u265c"),
    WYVERN: ("\U0001fa4f", "\U0001fa52"),
    QUEEN: ("\u2655", "\u265b"),
    KING: ("\u2654", "\u265a"),
}
"""CTL-FAN glyphs per piece type: (White glyph, Black glyph) (NOTATION.md 3.3)."""
PIECE_BY_GLYPH: Final[dict[str, tuple[PieceType, Colour]]] = {
    glyph: (PieceType(kind), Colour(side)) for kind, glyphs in FAN_GLYPHS.items() for side, glyph in enumerate(glyphs)
}

INITIAL_COUNTS: Final[dict[int, int]] = {
    PAWN: 11, ELEPHANT: 4, BISHOP: 3, KNIGHT: 2, PEGASUS: 2, ROOK: 2, WYVERN: 1, QUEEN: 1, KING: 1,
}  # fmt: skip
"""How many of each piece a side starts with; a side never has more (RULES.md 4.1)."""

REGAINABLE: Final = (QUEEN, WYVERN, ROOK, PEGASUS, KNIGHT, BISHOP)
"""Court pieces a pawn may bring back by promotion, in the order dialogs offer them."""


class Piece(NamedTuple):
    """A piece of one side, as the public API reports what stands on a hex."""

    type: PieceType
    colour: Colour

    @property
    def symbol(self) -> str:
        """The PDTL letter: upper case for White, lower case for Black."""
        letter = LETTERS[self.type]
        return letter if self.colour is WHITE else letter.lower()

    @property
    def glyph(self) -> str:
        """The CTL-FAN glyph of this piece."""
        return FAN_GLYPHS[self.type][self.colour]

    @property
    def code(self) -> int:
        """The internal board code: the type, negated for Black."""
        return int(self.type) if self.colour is WHITE else -int(self.type)

    @classmethod
    def from_code(cls, code: int) -> Piece:
        return cls(PieceType(abs(code)), WHITE if code > 0 else BLACK)

    def __str__(self) -> str:
        return f"{self.colour.title} {NAMES[self.type]}"

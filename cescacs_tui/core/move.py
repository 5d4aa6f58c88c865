"""Moves, and the castling table (RULES.md 8.5).

A :class:`Move` is a small immutable tuple of hex indices and flags.  It says
everything needed to play and undo the move, so a position never has to
re-derive what kind of move it is given.  ``str(move)`` is the canonical
coordinate form of the test data (``F8-F10``, ``F26-F28=D``, ``T22=D``,
``KRK-HIO``); CTL-AN, which also names pieces and check marks, needs the
position and is written by :meth:`Position.ctl_an`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .geometry import HEX_NAMES, KING_HOME, KINGS_ROOK_HOME, mirror, parse_hex
from .pieces import LETTERS
from .state import RIGHT_KING, RIGHT_KINGS_ROOK, RIGHT_QUEENS_ROOK

# Move kinds.  Plain ints: the generator creates tens of thousands of moves.
NORMAL: Final = 0
"""Any displacement not listed below: steps, slides, jumps, rides, the King's leap."""
MULTI_STEP: Final = 1
"""A pawn's double or triple step: it opens an en passant capture."""
SCORNFUL_STEP: Final = 2
"""A pawn's oblique step away from an enemy pawn it faced (RULES.md 6.5)."""
EN_PASSANT: Final = 3
"""A pawn captures en passant: it lands on an empty crossed hex."""
SCORNFUL_CAPTURE: Final = 4
"""The faced pawn captures the scornful pawn orthogonally."""
IN_PLACE_PROMOTION: Final = 5
"""A pawn awaiting promotion becomes a regained piece without moving (RULES.md 7.4)."""
CASTLING: Final = 6
"""King and one or both Rooks (RULES.md 8.3)."""

KIND_NAMES: Final = (
    "normal", "multi-step", "scornful step", "en passant", "scornful capture",
    "in-place promotion", "castling",
)  # fmt: skip


class Move(NamedTuple):
    """One legal move.

    ``origin`` and ``target`` are hex indices: for castling they are the
    King's; for an in-place promotion both are the pawn's hex; for en passant
    ``target`` is the empty crossed hex the capturing pawn lands on.
    ``promotion`` is the regained piece type (0 when none); ``castling`` is
    the castling token, ``None`` for every other move.
    """

    origin: int
    target: int
    kind: int = NORMAL
    promotion: int = 0
    castling: str | None = None

    def __str__(self) -> str:
        if self.castling is not None:
            return self.castling
        if self.kind == IN_PLACE_PROMOTION:
            return f"{HEX_NAMES[self.origin]}={LETTERS[self.promotion]}"
        text = f"{HEX_NAMES[self.origin]}-{HEX_NAMES[self.target]}"
        if self.promotion:
            text += f"={LETTERS[self.promotion]}"
        return text

    def __repr__(self) -> str:
        return f"Move({str(self)!r}, {KIND_NAMES[self.kind]})"

    @property
    def is_castling(self) -> bool:
        return self.castling is not None


class Castling(NamedTuple):
    """One castling move of one side: where the King goes and how the Rooks slide."""

    token: str
    king_from: int
    king_to: int
    rooks: tuple[tuple[int, int, tuple[int, ...]], ...]
    """``(rook from, rook to, path)`` per Rook; the path ends with the destination."""
    rights: int
    """Bit mask of the castling rights the move needs (``state.RIGHT_*``)."""


# White's table as printed in RULES.md 8.5; Black's is its mirror image.
_WHITE_CASTLINGS: Final = (
    ("KRK-II", "I5", (("I3", "I5 I7"),)),
    ("KRK-IK", "I5", (("I3", "K4"),)),
    ("KRK-IH", "I5", (("I3", "H4"),)),
    ("KRK-HIO", "H6", (("I3", "I5"),)),
    ("KRK-HIOO", "H6", (("I3", "I5 I7"),)),
    ("KRK-HH", "H6", (("I3", "H4"),)),
    ("KRK-HG", "H6", (("I3", "H4 G5"),)),
    ("KRK-FG", "F6", (("I3", "H4 G5"),)),
    ("KRK-FE", "F6", (("I3", "H4 G5 F6 E7"),)),
    ("KRK-EF", "E5", (("I3", "H4 G5 F6"),)),
    ("KRK-EE", "E5", (("I3", "H4 G5 F6 E7"),)),
    ("KRD-DD", "D2", (("C3", "D4"),)),
    ("KRD-DE", "D2", (("C3", "D2 E1"),)),
    ("KRD-ED", "E5", (("C3", "D4"),)),
    ("KRD-EF", "E5", (("C3", "D4 E5 F6"),)),
    ("KRD-FE", "F6", (("C3", "D4 E5"),)),
    ("KRD-FG", "F6", (("C3", "D4 E5 F6 G7"),)),
    ("KRD-HH", "H6", (("C3", "D4 E5 F6 G7 H8"),)),
    ("KRD-HG", "H6", (("C3", "D4 E5 F6 G7"),)),
    ("KRR-HIH", "H6", (("I3", "I5 I7"), ("C3", "D4 E5 F6 G7 H8"))),
    ("KRR-HGG", "H6", (("I3", "H4 G5"), ("C3", "D4 E5 F6 G7"))),
    ("KRR-FGG", "F6", (("I3", "H4 G5"), ("C3", "D4 E5 F6 G7"))),
    ("KRR-FEE", "F6", (("I3", "H4 G5 F6 E7"), ("C3", "D4 E5"))),
    ("KRR-EEF", "E5", (("I3", "H4 G5 F6 E7"), ("C3", "D4 E5 F6"))),
)


def _castling(side: int, token: str, king_to: str, rooks: tuple[tuple[str, str], ...]) -> Castling:
    flip = mirror if side else (lambda h: h)
    rook_moves = []
    rights = RIGHT_KING[side]
    for rook_from, path in rooks:
        hexes = tuple(flip(parse_hex(name)) for name in path.split())
        origin = flip(parse_hex(rook_from))
        rook_moves.append((origin, hexes[-1], hexes))
        rights |= RIGHT_KINGS_ROOK[side] if origin == KINGS_ROOK_HOME[side] else RIGHT_QUEENS_ROOK[side]
    return Castling(token, KING_HOME[side], flip(parse_hex(king_to)), tuple(rook_moves), rights)


CASTLINGS: Final[tuple[tuple[Castling, ...], tuple[Castling, ...]]] = (
    tuple(_castling(0, *row) for row in _WHITE_CASTLINGS),
    tuple(_castling(1, *row) for row in _WHITE_CASTLINGS),
)
"""Per side, the 24 castlings in the order of RULES.md 8.5."""
CASTLING_BY_TOKEN: Final = tuple({c.token: c for c in table} for table in CASTLINGS)
CASTLING_TOKENS: Final = tuple(row[0] for row in _WHITE_CASTLINGS)

__all__ = [
    "CASTLING",
    "CASTLINGS",
    "CASTLING_BY_TOKEN",
    "CASTLING_TOKENS",
    "EN_PASSANT",
    "IN_PLACE_PROMOTION",
    "MULTI_STEP",
    "NORMAL",
    "SCORNFUL_CAPTURE",
    "SCORNFUL_STEP",
    "Castling",
    "Move",
]  # fmt: skip

"""The parts of a game state besides the pieces (RULES.md 12).

Castling rights are a bit mask (six bits, three per side); the special pawn
capture is ``None``, an :class:`EnPassant` or a :class:`Scornful`.  They live
in their own module because the position, the PDTL reader/writer and the
castling table all need them.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .geometry import HEXES, KING_HOME, KINGS_ROOK_HOME, QUEENS_ROOK_HOME

RIGHT_KING: Final = (1, 8)
"""Per side, the bit of the King's leap right: the King has never moved."""
RIGHT_QUEENS_ROOK: Final = (2, 16)
"""Per side, the bit of the queen's rook (C3/C25) castling right."""
RIGHT_KINGS_ROOK: Final = (4, 32)
"""Per side, the bit of the king's rook (I3/I25) castling right."""
SIDE_RIGHTS: Final = (7, 56)
ALL_RIGHTS: Final = 63


def _rights_kept(h: int) -> int:
    """The rights that survive a move starting or ending on hex ``h``.

    A move from a King's or Rook's initial hex means that piece moved; a
    move onto a Rook's initial hex means that Rook was captured (RULES.md 8.6).
    """
    mask = ALL_RIGHTS
    for side in (0, 1):
        if h == KING_HOME[side]:
            mask &= ~SIDE_RIGHTS[side]
        elif h == QUEENS_ROOK_HOME[side]:
            mask &= ~RIGHT_QUEENS_ROOK[side]
        elif h == KINGS_ROOK_HOME[side]:
            mask &= ~RIGHT_KINGS_ROOK[side]
    return mask


RIGHTS_KEPT: Final = tuple(_rights_kept(h) for h in HEXES)


class EnPassant(NamedTuple):
    """A pawn has just made a double or triple step (RULES.md 6.4).

    ``pawn`` is the hex it reached (it may hold the piece it promoted to);
    ``crossed`` are the hexes it passed, in the order it crossed them, so after
    a triple step ``crossed[0]`` is the "long en passant" hex (``@@``).
    """

    pawn: int
    crossed: tuple[int, ...]


class Scornful(NamedTuple):
    """A pawn has just stepped obliquely away from an enemy pawn (RULES.md 6.5).

    ``pawn`` is its hex; ``capturers`` the hexes of the faced pawns that may
    take it: one after a move, two only when a PDTL's bare form left it open.
    """

    pawn: int
    capturers: tuple[int, ...]

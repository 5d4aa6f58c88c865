"""The C'escacs rules core: pure Python, no user-interface imports.

Everything a front end or an engine needs: the board geometry, positions and
their legal moves with every special rule, CTL-AN/CTL-FAN, PDTL and perft.
"""

from .errors import (
    AmbiguousMoveError,
    CescacsError,
    CescacsWarning,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    NotationWarning,
    PDTLError,
    PDTLWarning,
)
from .geometry import HEX_COLOUR, HEX_NAMES, HEXES, find_hex, parse_hex
from .move import Move
from .perft import divide, perft
from .pieces import BLACK, WHITE, Colour, Piece, PieceType
from .position import INITIAL_PDTL, CastlingRights, CheckKind, Position, RegainablePiece
from .state import EnPassant, Scornful

__all__ = [
    "BLACK",
    "HEXES",
    "HEX_COLOUR",
    "HEX_NAMES",
    "INITIAL_PDTL",
    "WHITE",
    "AmbiguousMoveError",
    "CastlingRights",
    "CescacsError",
    "CescacsWarning",
    "CheckKind",
    "Colour",
    "EnPassant",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "NotationWarning",
    "PDTLError",
    "PDTLWarning",
    "Piece",
    "PieceType",
    "Position",
    "RegainablePiece",
    "Scornful",
    "divide",
    "find_hex",
    "parse_hex",
    "perft",
]

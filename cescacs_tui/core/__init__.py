"""The C'escacs rules core: pure Python, no user-interface imports.

Everything a front end or an engine needs: the board geometry, positions and
their legal moves with every special rule, CTL-AN/CTL-FAN, PDTL, perft, and
the game model with its results, clocks and CTL-PGN records.
"""

from typing import TYPE_CHECKING

from .clock import ChessClock, ClockError, TimeControl
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
    PGNError,
)
from .game import Game, GameError, Outcome
from .geometry import HEX_COLOUR, HEX_NAMES, HEXES, find_hex, parse_hex
from .move import Move
from .perft import divide, perft
from .pieces import BLACK, WHITE, Colour, Piece, PieceType
from .position import INITIAL_PDTL, CastlingRights, CheckKind, Position, RegainablePiece
from .state import EnPassant, Scornful

if TYPE_CHECKING:
    from .pgn import read_pgn, write_pgn

_PGN_FUNCTIONS = frozenset({"read_pgn", "write_pgn"})


def __getattr__(name: str) -> object:
    """The CTL-PGN reader and writer, imported on first use: starting the app does not need them.

    Record *files* are :mod:`cescacs_tui.data.records`: the core reads and writes text only.
    """
    if name in _PGN_FUNCTIONS:
        from . import pgn

        return getattr(pgn, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "ChessClock",
    "ClockError",
    "Colour",
    "EnPassant",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "NotationWarning",
    "Outcome",
    "PDTLError",
    "PDTLWarning",
    "PGNError",
    "Piece",
    "PieceType",
    "Position",
    "RegainablePiece",
    "Scornful",
    "TimeControl",
    "divide",
    "find_hex",
    "parse_hex",
    "perft",
    "read_pgn",
    "write_pgn",
]

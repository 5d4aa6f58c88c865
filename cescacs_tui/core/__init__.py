"""The C'escacs rules core: pure Python, no user-interface imports.

Everything a front end or an engine needs: the board geometry, positions and
their legal moves with every special rule, CTL-AN/CTL-FAN, PDTL, perft, and
the game model with its typed outcomes, clocks and CTL-PGN records.
"""

from typing import TYPE_CHECKING

from .clock import ChessClock, ClockError, TimeControl
from .errors import (
    AmbiguousMoveError,
    CescacsError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    PDTLError,
    PGNError,
)
from .game import Game, GameError
from .geometry import HEX_COLOUR, HEX_NAMES, HEXES, find_hex, parse_hex
from .move import Move
from .outcome import ClaimStatus, Ending, Outcome
from .perft import divide, perft
from .pieces import BLACK, WHITE, Colour, Piece, PieceType
from .position import INITIAL_PDTL, CastlingRights, CheckKind, Position, RegainablePiece
from .state import EnPassant, Scornful

if TYPE_CHECKING:
    from .pgn import count_games, iter_pgn, read_pgn, write_pgn

_PGN_FUNCTIONS = frozenset({"count_games", "iter_pgn", "read_pgn", "write_pgn"})


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
    "CheckKind",
    "ChessClock",
    "ClaimStatus",
    "ClockError",
    "Colour",
    "EnPassant",
    "Ending",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "Outcome",
    "PDTLError",
    "PGNError",
    "Piece",
    "PieceType",
    "Position",
    "RegainablePiece",
    "Scornful",
    "TimeControl",
    "count_games",
    "divide",
    "find_hex",
    "iter_pgn",
    "parse_hex",
    "perft",
    "read_pgn",
    "write_pgn",
]

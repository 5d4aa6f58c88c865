"""A puzzle's themes, read from its solution, and the rating it starts with.

Themes are found in the moves, never given by hand, so the generator, the
``--check`` of the bundled set and the player's own deck agree:

========================  =================================================================
``mate-in-1`` … ``-3``    the solution mates with the solver's 1st, 2nd or 3rd move
``material``              no mate: the solver ends the line with more material than at the start
``promotion``             a solver's pawn promotes and regains a piece (on arrival or in place)
``en-passant``            a solver's pawn takes en passant (RULES.md 6.4)
``scornful-pawn``         a solver's pawn takes a scornful pawn (RULES.md 6.5)
``castling``              the solver castles (RULES.md 8.3)
``kings-leap``            the solver's King leaps (RULES.md 8.2)
``double-check``          a solver's move gives double check (only a King move answers it)
``fork``                  the first move's piece then attacks two enemy pieces, each the King, worth
                          more than it, or unprotected (not said of a first move that mates)
``sacrifice``             the first move offers a piece that the reply takes, for more later
========================  =================================================================

The starting rating (:func:`starting_rating`) is a guess from the solution,
refined later by the players' results (Glicko-2):

* a mate in ``n``: 800 + 350 × (``n`` − 1);
* any other puzzle: 1000 + 250 × (solver's moves − 1);
* +150 when the first move is quiet (neither a check nor a capture: the
  hardest kind to see), +100 for a sacrifice, +50 for a fork's or a double
  check's geometry on 169 hexes; clamped to 600–2400.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.geometry import KNIGHT_SET
from ..core.move import CASTLING, EN_PASSANT, SCORNFUL_CAPTURE, Move
from ..core.pieces import KING, VALUES, PieceType
from ..core.position import CheckKind, Position

__all__ = [
    "THEMES",
    "material",
    "solution_themes",
    "starting_rating",
]

THEMES: Final = (
    "mate-in-1", "mate-in-2", "mate-in-3", "material", "promotion", "en-passant", "scornful-pawn",
    "castling", "kings-leap", "double-check", "fork", "sacrifice",
)  # fmt: skip
"""Every theme a puzzle may have, in the order they are listed."""
MIN_RATING: Final = 600
MAX_RATING: Final = 2400


def material(position: Position, colour: int) -> int:
    """``colour``'s material minus the other side's, in the official values (RULES.md 4.2; the King counts 0)."""
    total = 0
    for code in position.raw_board:
        if code:
            value = VALUES[abs(code)]
            total += value if (code > 0) == (colour == 0) else -value
    return total


def _value(code: int) -> int:
    return VALUES[abs(code)]


def _fork(after: Position, target: int) -> bool:
    """After the solver's move to ``target``: does that piece attack two enemy pieces worth attacking?"""
    board = after.raw_board
    mover = board[target]
    enemy = after.turn
    solver = enemy.opponent
    attacked = 0
    for h in after.piece_hexes(enemy):
        if target not in after.attackers(h, solver):
            continue
        victim = board[h]
        if abs(victim) == KING or _value(victim) > _value(mover) or not after.attackers(h, enemy):
            attacked += 1
    return attacked >= 2


def solution_themes(start: Position, line: Sequence[Move]) -> tuple[str, ...]:
    """The themes of the solution ``line`` (the solver's moves and the replies, solver first) from ``start``."""
    found: set[str] = set()
    position = start.copy()
    solver = position.turn
    for index, move in enumerate(line):
        mine = index % 2 == 0
        piece = position.raw_board[move.origin]
        if mine:
            if move.promotion:
                found.add("promotion")
            if move.kind == EN_PASSANT:
                found.add("en-passant")
            elif move.kind == SCORNFUL_CAPTURE:
                found.add("scornful-pawn")
            elif move.kind == CASTLING:
                found.add("castling")
            elif abs(piece) == KING and move.target in KNIGHT_SET[move.origin]:
                found.add("kings-leap")
        elif index == 1 and position.is_capture(move) and move.target == line[0].target:
            given = _value(position.raw_board[move.target])
            taken = _taken_value(start, line[0])
            if given > taken:
                found.add("sacrifice")
        position.push(move)
        if mine and position.check_kind() is CheckKind.DOUBLE:
            found.add("double-check")
        if index == 0 and line[0].kind != CASTLING and not position.is_checkmate() and _fork(position, move.target):
            found.add("fork")
    if position.is_checkmate() and len(line) % 2 == 1:
        found.add(f"mate-in-{len(line) // 2 + 1}")
    elif material(position, solver) > material(start, solver):
        found.add("material")
    return tuple(theme for theme in THEMES if theme in found)


def _taken_value(position: Position, move: Move) -> int:
    captured = position.captured_piece(move)
    return 0 if captured is None else VALUES[PieceType(captured[1].type)]


def starting_rating(start: Position, line: Sequence[Move], themes: Sequence[str]) -> int:
    """The rating a puzzle starts with, from its solution (the formula is in this module's docstring)."""
    solver_moves = (len(line) + 1) // 2
    mate = next((int(theme[-1]) for theme in themes if theme.startswith("mate-in-")), None)
    rating = 800 + 350 * (mate - 1) if mate is not None else 1000 + 250 * (solver_moves - 1)
    first = line[0]
    if not start.gives_check(first) and not start.is_capture(first):
        rating += 150
    if "sacrifice" in themes:
        rating += 100
    if "fork" in themes or "double-check" in themes:
        rating += 50
    return max(MIN_RATING, min(MAX_RATING, rating))

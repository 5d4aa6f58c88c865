"""Perft: count the leaves of the legal-move tree, the standard test of a move generator."""

from __future__ import annotations

from typing import Final

from .position import Position

MAX_PERFT_DEPTH: Final = 10
"""The deepest count asked for: perft(4) from the start already has 25 million leaves, perft(6) would take
days, and a depth near Python's recursion limit would only crash."""


def _check_depth(depth: int, lowest: int) -> None:
    if not lowest <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"the perft depth must be from {lowest} to {MAX_PERFT_DEPTH}, not {depth}")


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` (0 to :data:`MAX_PERFT_DEPTH`) from ``position``.

    The position is left as it was.  The last ply is counted without being
    played ("bulk counting"), as every perft implementation does.  Raises
    :class:`ValueError` for a depth out of range.
    """
    _check_depth(depth, 0)
    return _count(position, depth)


def _count(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = position._legal()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.push(move)
        total += _count(position, depth - 1)
        position.pop()
    return total


def divide(position: Position, depth: int) -> dict[str, int]:
    """Perft split by first move: ``{canonical move: leaves below it}``, for debugging (depth 1 and more)."""
    _check_depth(depth, 1)
    counts = {}
    for move in position.legal_moves():
        position.push(move)
        counts[str(move)] = _count(position, depth - 1)
        position.pop()
    return dict(sorted(counts.items()))

"""Perft: count the leaves of the legal-move tree, the standard test of a move generator."""

from __future__ import annotations

from .position import Position


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position``.

    The position is left as it was.  The last ply is counted without being
    played ("bulk counting"), as every perft implementation does.
    """
    if depth <= 0:
        return 1
    moves = position._legal()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.push(move)
        total += perft(position, depth - 1)
        position.pop()
    return total


def divide(position: Position, depth: int) -> dict[str, int]:
    """Perft split by first move: ``{canonical move: leaves below it}``, for debugging."""
    counts = {}
    for move in position.legal_moves():
        position.push(move)
        counts[str(move)] = perft(position, depth - 1)
        position.pop()
    return dict(sorted(counts.items()))

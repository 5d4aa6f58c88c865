"""Engine scores as expected results, the classes of a mistake, and accuracy.

An engine score (centipawns, a pawn is 100, or a mate in ``n``) becomes the
mover's **expected score**, 0 (lost) to 1 (won), by a logistic curve::

    expected(cp) = 1 / (1 + exp(-K × cp))        K = 0.002 per centipawn

so a lead of 1.5 pawns is worth 0.57, of a Pegasus (8 pawns) 0.83, of a
Queen (15 pawns) 0.95, and a mate 1.  K is flatter than the 0.0037 used for
orthodox chess because a C'escacs army holds about twice as much material:
losing three pawns' worth matters less than it does on 64 squares.

A move's **loss** is the expected score its mover had before it (with the
engine's best move) minus what it leaves (the engine's score of the position
after it), never below 0.  The classes, on that loss:

===============  ==========  ==========================================
class            loss        roughly, from a level position
===============  ==========  ==========================================
``inaccuracy``   ≥ 0.06      1.2 pawns given away
``mistake``      ≥ 0.12      2.5 pawns (a Bishop)
``blunder``      ≥ 0.20      4 pawns (a Knight or more), or a mate allowed
===============  ==========  ==========================================

The engine's best move is never classed, whatever its scores say (two
searches of different depths can disagree by a little).

A move's **accuracy** is Lichess's formula on the win percentage
(100 × expected score) lost, ``103.1668 × exp(-0.04354 × lost) - 3.1669``,
clamped to 0-100: 100 for a move that loses nothing, about 65 for an
inaccuracy's 10 points, 10 for a lost Queen.  A side's accuracy is the
mean of its moves'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import Enum
from typing import Final

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MATE_CP",
    "MISTAKE",
    "Class",
    "K",
    "classify",
    "expected",
    "mate_cp",
    "mean_accuracy",
    "move_accuracy",
]

K: Final = 0.002
"""The logistic curve's slope, per centipawn."""
INACCURACY: Final = 0.06
MISTAKE: Final = 0.12
BLUNDER: Final = 0.20
MATE_CP: Final = 100_000
"""A mate in ``n`` counts as ``MATE_CP - n`` centipawns: above any material score, sooner is better."""


class Class(Enum):
    """How bad a move was (NOTATION.md 4.5 gives each its assessment)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def assessment(self) -> str:
        """The mark written after the move: ``?!``, ``?``, ``??``."""
        return {Class.INACCURACY: "?!", Class.MISTAKE: "?", Class.BLUNDER: "??"}[self]


def mate_cp(moves: int) -> int:
    """The centipawns of a mate in ``moves`` (negative: the side is mated), for comparisons."""
    return MATE_CP - moves if moves >= 0 else -MATE_CP - moves


def expected(cp: int) -> float:
    """The expected score, 0 to 1, of a side the engine scores ``cp`` centipawns."""
    if cp >= MATE_CP // 2:
        return 1.0
    if cp <= -MATE_CP // 2:
        return 0.0
    return 1.0 / (1.0 + math.exp(-K * cp))


def classify(loss: float) -> Class | None:
    """The class of a move that lost ``loss`` of its mover's expected score (``None``: no mistake)."""
    if loss >= BLUNDER:
        return Class.BLUNDER
    if loss >= MISTAKE:
        return Class.MISTAKE
    if loss >= INACCURACY:
        return Class.INACCURACY
    return None


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0-100, from the expected score it lost."""
    value = 103.1668 * math.exp(-0.04354 * 100.0 * max(0.0, loss)) - 3.1669
    return max(0.0, min(100.0, value))


def mean_accuracy(losses: Sequence[float]) -> float | None:
    """A side's accuracy: the mean of its moves' (``None`` when it made none)."""
    if not losses:
        return None
    return sum(move_accuracy(loss) for loss in losses) / len(losses)

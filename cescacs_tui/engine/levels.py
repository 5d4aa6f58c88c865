"""Playing strength 1-10: what each level does, and the move choice that applies it.

Levels 1-3 are weak on purpose, in the ways beginners are weak: they look
one or two plies ahead, their judgement of a position is blurred by noise,
and now and then they play a *careless* move: the one that looks best before
thinking about the reply, which is how people hang pieces.  Levels 4-9 search
properly, each with a budget of nodes (positions looked at) twice the one
below; level 10 uses all the time it is given.  A budget of nodes,
not of time, makes a level play the same moves on a fast or a slow machine,
and a busy one: only level 10 gets stronger with more time.  A clock still
bounds every level (none loses on time).

Each level's strength is measured: :attr:`Level.elo` is its place on the
Elo ladder of ``scripts/ladder.py`` (docs/engine.md), and
:func:`level_for_elo` turns an Elo on that ladder back into a way to play
(the protocol's ``UCI_Elo``).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from ..core.move import Move
from .board import SearchBoard
from .search import DEFAULT_OVERHEAD, Info, Limits, Result, Searcher


@dataclass(frozen=True)
class Level:
    """How one playing level searches."""

    number: int
    depth: int | None
    """The deepest iteration (plies; checks and quiescence extend it); ``None``: no cap."""
    nodes: int | None
    """The most nodes a move may search; ``None``: as many as the time allows (level 10)."""
    noise: int
    """Centipawns of pseudo-random error in every evaluation."""
    careless: float
    """The chance per move of playing the move that looks best without considering any reply."""
    elo: int
    """Its strength on the ladder (docs/engine.md): level 1 is 500, level 10 searching ``LADDER_NODES`` a move."""
    description: str
    quiescence: bool = True
    """Whether captures are followed to the end beyond the depth (without, a piece taken back is not seen)."""


LEVELS: Final[tuple[Level, ...]] = (
    Level(
        1,
        1,
        None,
        250,
        0.0,
        500,
        "one ply without looking at replies, a very blurred judgement; hangs pieces often",
        False,
    ),
    Level(
        2, 1, None, 120, 0.20, 1185, "one ply and the exchanges it starts, a blurred judgement; hangs pieces sometimes"
    ),
    Level(3, 2, None, 60, 0.10, 1402, "two plies and exchanges, some noise; an occasional careless move"),
    Level(4, None, 500, 25, 0.0, 1755, "500 nodes a move (one or two plies), a little noise"),
    Level(5, None, 1_000, 10, 0.0, 1845, "1,000 nodes a move (two plies or so), a little noise"),
    Level(6, None, 2_000, 0, 0.0, 2143, "2,000 nodes a move"),
    Level(7, None, 4_000, 0, 0.0, 2348, "4,000 nodes a move (three or four plies)"),
    Level(8, None, 8_000, 0, 0.0, 2575, "8,000 nodes a move"),
    Level(9, None, 16_000, 0, 0.0, 2894, "16,000 nodes a move (four or five plies)"),
    Level(10, None, None, 0, 0.0, 3092, "full strength: as deep as the time given allows"),
)
"""The ten levels, weakest first (``LEVELS[n - 1]`` is level ``n``)."""


def level(number: int) -> Level:
    """Level ``number`` (1-10); ``ValueError`` outside that range."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"level {number} is not between 1 and {len(LEVELS)}")
    return LEVELS[number - 1]


LADDER_NODES: Final = 32_000
"""The nodes a move level 10 searched on the ladder (its Elo is for that budget; with more time it plays better)."""


def level_for_elo(elo: int) -> Level:
    """How to play at ``elo`` on the ladder (clamped to its range): the protocol's ``UCI_Elo``.

    Between two levels that differ in their budget of nodes (4 to 10, level
    10 counted at ``LADDER_NODES``) the budget is interpolated: its logarithm
    in proportion to the Elo (each doubling of the nodes gains about the
    same), the noise in proportion too.  Below level 4 the levels differ in
    kind (depth, noise, careless moves), not in a quantity: the nearest one
    plays.  The top of the range is level 10 held to ``LADDER_NODES``.
    """
    top = LEVELS[-1]
    if elo >= top.elo:
        return replace(top, nodes=LADDER_NODES)
    elo = max(elo, LEVELS[0].elo)
    lower = max((candidate for candidate in LEVELS if candidate.elo <= elo), key=lambda candidate: candidate.elo)
    upper = LEVELS[lower.number]
    if lower.nodes is None:
        return lower if elo - lower.elo < upper.elo - elo else upper
    share = (elo - lower.elo) / (upper.elo - lower.elo)
    upper_nodes = upper.nodes or LADDER_NODES
    nodes = round(math.exp(math.log(lower.nodes) + share * math.log(upper_nodes / lower.nodes)))
    return replace(lower, nodes=nodes, noise=round(lower.noise + share * (upper.noise - lower.noise)), elo=elo)


def level_limits(chosen: Level, limits: Limits) -> Limits:
    """``limits`` with the level's depth cap and node budget applied (infinite analysis keeps its depth cap)."""
    depth = limits.depth
    if chosen.depth is not None:
        depth = chosen.depth if depth is None else min(depth, chosen.depth)
    if limits.infinite:
        return replace(limits, depth=depth)
    nodes = limits.nodes
    if chosen.nodes is not None:
        nodes = chosen.nodes if nodes is None else min(nodes, chosen.nodes)
    return replace(limits, depth=depth, nodes=nodes)


def choose_move(
    searcher: Searcher,
    board: SearchBoard,
    limits: Limits,
    chosen: Level,
    rng: random.Random,
    on_info: Callable[[Info], None] | None = None,
    *,
    overhead: float = DEFAULT_OVERHEAD,
    stop: threading.Event | None = None,
    started: float | None = None,
) -> Result:
    """Search ``board`` the way level ``chosen`` plays, and return its move.

    ``overhead``, ``stop`` and ``started`` are :meth:`Searcher.search`'s.
    ``rng`` decides the careless moves and seeds the evaluation noise, so a
    seeded generator makes the weak levels repeatable.
    """
    searcher.noise = chosen.noise
    searcher.seed = rng.getrandbits(64)
    searcher.quiescence = chosen.quiescence
    try:
        if chosen.careless and not limits.infinite and rng.random() < chosen.careless:
            careless = careless_move(searcher, board, rng)
            if careless is not None:
                return careless
        return searcher.search(
            board, level_limits(chosen, limits), on_info, overhead=overhead, stop=stop, started=started
        )
    finally:
        searcher.noise = 0
        searcher.quiescence = True


def careless_move(searcher: Searcher, board: SearchBoard, rng: random.Random) -> Result | None:
    """The move that looks best one ply ahead with no thought for the reply (the way pieces get hung).

    Each move is judged by the noisy static evaluation of the position it
    leads to; mates are still seen (a beginner sees a mate in one).
    """
    moves = board.position.legal_tuples()
    if not moves:
        return None
    best: tuple[int, float] | None = None
    choice = moves[0]
    for move in moves:
        board.make(move)
        try:
            if not board.position.legal_tuples():
                score = 10**6 if board.position.is_check() else 10**5
            else:
                score = -searcher.evaluate(board)
        finally:
            board.unmake()
        ranked = (score, rng.random())
        if best is None or ranked > best:
            best, choice = ranked, move
    assert best is not None
    move = Move._make(choice)
    return Result(move, best[0] if best[0] < 10**5 else 0, None, 1, len(moves), 0.0, (move,))


__all__ = ["LADDER_NODES", "LEVELS", "Level", "careless_move", "choose_move", "level", "level_for_elo", "level_limits"]

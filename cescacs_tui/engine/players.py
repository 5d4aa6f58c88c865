"""Players for engine matches: the engine at a level, and the simple baselines it must beat.

A player is asked for a move given the game so far (start position and
moves), so each keeps no state between moves beyond what it learns for
speed.  The baselines are the yardsticks of the issue's goals: a random
mover, a one-ply greedy player and a two-ply material searcher.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from ..core.move import EN_PASSANT, Move
from ..core.position import MoveTuple, Position
from .board import SearchBoard
from .evaluation import DEFAULT_TABLES, Tables
from .levels import Level, choose_move, level
from .search import Limits, Result, Searcher


class Player(Protocol):
    """Anything that can play a side in a match."""

    @property
    def name(self) -> str: ...

    def new_game(self) -> None:
        """Forget the previous game."""

    def choose(self, start: Position, moves: Sequence[Move]) -> Move:
        """The move to play after ``moves`` from ``start`` (the position has a legal move)."""


@dataclass
class EnginePlayer:
    """The engine at a level, with fixed limits per move (and optionally other evaluation tables)."""

    limits: Limits
    strength: Level = field(default_factory=lambda: level(10))
    tables: Tables = DEFAULT_TABLES
    seed: int = 0
    label: str = ""
    last: Result | None = None
    """The search result of the last move chosen (for statistics)."""

    def __post_init__(self) -> None:
        self._searcher = Searcher(hash_entries=1 << 18)
        self._rng = random.Random(self.seed)

    @property
    def name(self) -> str:
        return self.label or f"level {self.strength.number}"

    def new_game(self) -> None:
        self._searcher.new_game()

    def choose(self, start: Position, moves: Sequence[Move]) -> Move:
        board = SearchBoard(start, self.tables, moves)
        self.last = choose_move(self._searcher, board, self.limits, self.strength, self._rng, overhead=0.0)
        assert self.last.move is not None
        return self.last.move


@dataclass
class RandomPlayer:
    """Plays any legal move, uniformly."""

    seed: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def name(self) -> str:
        return "random mover"

    def new_game(self) -> None:
        pass

    def choose(self, start: Position, moves: Sequence[Move]) -> Move:
        return self._rng.choice(_replay(start, moves).legal_moves())


_MATE: Final = 10**6


@dataclass
class MaterialPlayer:
    """A plain material searcher: minimax to a fixed depth on the engine's piece values, no quiescence.

    Depth 1 is the greedy player (it takes the biggest piece it can, blind
    to the recapture); depth 2 also sees the reply.  Mates (and stalemates,
    a small win) at the leaves are recognised.  Ties are broken at random.
    """

    depth: int
    seed: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._values = DEFAULT_TABLES.values

    @property
    def name(self) -> str:
        return "greedy 1-ply" if self.depth == 1 else f"material {self.depth}-ply"

    def new_game(self) -> None:
        pass

    def choose(self, start: Position, moves: Sequence[Move]) -> Move:
        position = _replay(start, moves)
        material = self._material(position)
        best: tuple[int, float] | None = None
        choice: MoveTuple | None = None
        for move in position.legal_tuples():
            gain = self._gain(position, move)
            position.push(move)
            score = -self._minimax(position, self.depth - 1, -material - gain, -_MATE - 1, _MATE + 1)
            position.pop()
            ranked = (score, self._rng.random())
            if best is None or ranked > best:
                best, choice = ranked, move
        assert choice is not None
        return Move._make(choice)

    def _minimax(self, position: Position, depth: int, material: int, alpha: int, beta: int) -> int:
        """Negamax score for the side to move; ``material`` is its material balance."""
        moves = position.legal_tuples()
        if not moves:
            return -_MATE if position.is_check() else -_MATE // 2
        if depth <= 0:
            return material
        best = -_MATE - 1
        for move in moves:
            gain = self._gain(position, move)
            position.push(move)
            score = -self._minimax(position, depth - 1, -material - gain, -beta, -alpha)
            position.pop()
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best

    def _gain(self, position: Position, move: MoveTuple) -> int:
        """Material the mover wins with ``move``: the piece taken, plus a promotion's gain."""
        board = position.raw_board
        values = self._values
        captured = 0
        if move[2] == EN_PASSANT:
            captured = values[1 + 9]
        elif move[0] != move[1] and board[move[1]] * board[move[0]] < 0:
            captured = values[abs(board[move[1]]) + 9]
        if move[3]:
            captured += values[move[3] + 9] - values[1 + 9]
        return captured

    def _material(self, position: Position) -> int:
        values = self._values
        total = sum(values[abs(code) + 9] * (1 if code > 0 else -1) for code in position.raw_board if code)
        return total if position.turn == 0 else -total


def _replay(start: Position, moves: Sequence[Move]) -> Position:
    position = start.copy()
    for move in moves:
        position.push(move)
    return position


__all__ = ["EnginePlayer", "MaterialPlayer", "Player", "RandomPlayer"]

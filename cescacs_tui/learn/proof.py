"""Forced mates proved by enumeration: the judge of every mate puzzle.

A mate puzzle is only as good as its proof, so nothing here asks the engine:
every legal move of the side that mates and every legal reply of the side
that is mated are played through the rules core.  ``mate in n`` means the
side to move gives checkmate with its ``n``-th move at the latest, whatever
the defence; a stalemate is a (small) win in C'escacs but not a mate, so it
does not count.

The search is plain AND-OR enumeration with three economies that never
change its answer: the mating side's checks are tried first (a mate in one
is always a check), the defence that refuted one attacking move is tried
first against the next (a "killer"), and positions already judged are
remembered.  A :class:`Budget` bounds the work: a proof that would cost more
raises :class:`BudgetExceeded` instead of running on, so a generator can
skip a position rather than wait for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ..core.move import CASTLING, Move
from ..core.position import MoveTuple, Position
from ..i18n import _

__all__ = [
    "MAX_MATE",
    "Budget",
    "BudgetExceeded",
    "MateProver",
    "forces_mate",
    "mating_first_moves",
    "proves_line",
]

MAX_MATE: Final = 3
"""The longest mate proved (in moves of the mating side)."""

_Key = tuple[tuple[int, ...], int, int, object]


class BudgetExceeded(Exception):
    """The proof would have played more moves than its :class:`Budget` allows."""


@dataclass
class Budget:
    """How many moves a proof may play (``None``: no bound); ``spent`` counts them."""

    limit: int | None = None
    spent: int = 0

    def spend(self, moves: int = 1) -> None:
        self.spent += moves
        if self.limit is not None and self.spent > self.limit:
            raise BudgetExceeded(_("the proof needs more than {count} moves").format(count=f"{self.limit:,}"))


@dataclass
class MateProver:
    """Proves and refutes forced mates from positions of one side to move.

    One prover may serve many questions about one game: what it has judged
    is kept in ``memory`` (position and depth to the answer).
    """

    budget: Budget = field(default_factory=Budget)
    memory: dict[tuple[_Key, int], bool] = field(default_factory=dict)
    _killers: dict[int, MoveTuple] = field(default_factory=dict)

    def _key(self, position: Position) -> _Key:
        return (tuple(position.raw_board), position.turn, position.rights, position.special)

    def _is_mate(self, position: Position) -> bool:
        """The side to move is checkmated (called after a move)."""
        return position.is_check() and not position.has_legal_moves()

    def _ordered(self, position: Position) -> list[MoveTuple]:
        """The legal moves, checks first (the only moves that can mate now), then captures, then the rest."""
        moves = position.legal_tuples()
        self.budget.spend(len(moves))
        checks = position.giving_check(moves)
        checking = set(checks)
        board = position.raw_board
        captures, quiet = [], []
        for move in moves:
            if move in checking:
                continue
            if move[2] != CASTLING and board[move[1]]:
                captures.append(move)
            else:
                quiet.append(move)
        return checks + captures + quiet

    def _mates(self, position: Position, *, first: bool) -> list[MoveTuple]:
        """The moves of the side to move that checkmate at once (only the first with ``first``).

        Only the moves that give check are played twice; the budget counts
        every move looked at, as many as when each was played.
        """
        moves = position.legal_tuples()
        found = []
        for move in position.giving_check(moves):
            position.push(move)
            mate = not position.has_legal_moves()
            position.pop()
            if mate:
                found.append(move)
                if first:
                    self.budget.spend(moves.index(move) + 1)
                    return found
        self.budget.spend(len(moves))
        return found

    def mates_in_one(self, position: Position) -> list[MoveTuple]:
        """Every move of the side to move that checkmates at once."""
        return self._mates(position, first=False)

    def has_mate_in_one(self, position: Position) -> bool:
        return bool(self._mates(position, first=True))

    def forces(self, position: Position, moves: int) -> bool:
        """Whether the side to move mates within ``moves`` of its moves against any defence."""
        if moves <= 0:
            return False
        if moves == 1:
            return self.has_mate_in_one(position)
        key = (self._key(position), moves)
        known = self.memory.get(key)
        if known is None:
            known = any(self.move_forces(position, move, moves) for move in self._ordered(position))
            self.memory[key] = known
        return known

    def move_forces(self, position: Position, move: MoveTuple | Move, moves: int) -> bool:
        """Whether ``move`` (the side to move's) mates at once or leaves every reply a mate within ``moves - 1``."""
        self.budget.spend()
        position.push(move)
        try:
            replies = position.legal_tuples()
            if not replies:
                return position.is_check()  # mate; a stalemate is no mate
            if moves == 1:
                return False
            return all(self._reply_loses(position, reply, moves - 1) for reply in self._defences(replies, moves))
        finally:
            position.pop()

    def _defences(self, replies: list[MoveTuple], moves: int) -> list[MoveTuple]:
        """The replies with the last successful defence at this depth first."""
        killer = self._killers.get(moves)
        if killer is not None and killer in replies:
            return [killer, *(r for r in replies if r != killer)]
        return replies

    def _reply_loses(self, position: Position, reply: MoveTuple, moves: int) -> bool:
        self.budget.spend()
        position.push(reply)
        try:
            lost = self.forces(position, moves)
        finally:
            position.pop()
        if not lost:
            self._killers[moves + 1] = reply
        return lost

    def distance(self, position: Position, most: int = MAX_MATE) -> int | None:
        """The fewest moves in which the side to move forces mate, if at most ``most``; else ``None``."""
        for moves in range(1, most + 1):
            if self.forces(position, moves):
                return moves
        return None

    def first_moves(self, position: Position, moves: int, *, limit: int | None = None) -> list[Move]:
        """The moves that mate within ``moves`` against any defence (stopping after ``limit`` of them)."""
        found: list[Move] = []
        for move in self._ordered(position):
            if self.move_forces(position, move, moves):
                found.append(Move._make(move))
                if limit is not None and len(found) >= limit:
                    break
        return found

    def longest_defence(self, position: Position, moves: int) -> tuple[Move, int]:
        """After a mating move: the reply that puts the mate off longest, and the moves the mate then still needs.

        The position is the defender's to move and must be lost within ``moves``.
        """
        best: tuple[Move, int] | None = None
        for reply in position.legal_tuples():
            self.budget.spend()
            position.push(reply)
            try:
                left = self.distance(position, moves)
            finally:
                position.pop()
            if left is None:
                raise ValueError("a reply escapes the mate: the position is not lost")
            if best is None or left > best[1]:
                best = (Move._make(reply), left)
        if best is None:
            raise ValueError("the defender has no move: the game is over")
        return best

    def mating_line(self, position: Position, first: Move, moves: int) -> list[Move]:
        """A whole solution from ``first`` (which mates within ``moves``): each time the longest defence, then the
        first mating move found (checks first), until the mate."""
        current = position.copy()
        line = [first]
        current.push(first)
        left = moves - 1
        while left > 0 and not current.is_checkmate():
            reply, left = self.longest_defence(current, left)
            current.push(reply)
            mate = self.first_moves(current, left, limit=1)[0]
            current.push(mate)
            line += [reply, mate]
            left -= 1
        return line


def forces_mate(position: Position, moves: int, *, budget: Budget | None = None) -> bool:
    """Whether the side to move in ``position`` mates within ``moves`` against any defence."""
    return MateProver(budget or Budget()).forces(position.copy(), moves)


def mating_first_moves(
    position: Position, moves: int, *, limit: int | None = None, budget: Budget | None = None
) -> list[Move]:
    """The first moves with which the side to move mates within ``moves`` against any defence."""
    return MateProver(budget or Budget()).first_moves(position.copy(), moves, limit=limit)


def proves_line(position: Position, line: Sequence[Move], *, budget: Budget | None = None) -> bool:
    """Whether ``line`` (the mating side's moves and replies, mating move last) is a forced mate.

    Each of the mating side's moves must mate in the moves it has left
    against every defence; the replies must be legal.  The line's own
    replies are only one defence among all those tried.
    """
    prover = MateProver(budget or Budget())
    current = position.copy()
    attacking = [move for index, move in enumerate(line) if index % 2 == 0]
    for index, move in enumerate(line):
        if not current.is_legal(move):
            return False
        if index % 2 == 0 and not prover.move_forces(current, move, len(attacking) - index // 2):
            return False
        current.push(move)
    return bool(line) and len(line) % 2 == 1 and current.is_checkmate()

"""Forced mates proved by enumeration: the judge of every mate puzzle.

A mate puzzle is only as good as its proof, so nothing here asks the engine:
every legal move of the side that mates and every legal reply of the side
that is mated are played through the rules core.  ``mate in n`` means the
side to move gives checkmate with its ``n``-th move at the latest, whatever
the defence; a stalemate is a (small) win in C'escacs but not a mate, so it
does not count.

The search is plain AND-OR enumeration with economies that never change
its answer:

* at its last move the mating side can only mate with a check: only the
  moves that could give check are played there, and the King's steps not
  even generated when none of them could (:meth:`Position.mating_tuples`);
* the mating side's checks are tried first, then its captures;
* against a mate in two or more the defender's checks are tried first (the
  mating side then has only its answers to the check, so a refutation is
  soon proved), then the defence that refuted the last attacking move at
  that depth (a "killer"); against a mate in one the killer alone is first
  asked whether it is legal, and the other replies generated only if it
  loses;
* positions already judged are remembered, those of the mating side to
  move and those of the defender apart (the same position comes back when
  two moves of the mating side are played in the other order), and a mate
  within fewer moves is one within more, no mate within more none within
  fewer.

A :class:`Budget` bounds the work: a proof that would cost more raises
:class:`BudgetExceeded` instead of running on, so a generator can skip a
position rather than wait for it.
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


def _known(memory: dict[tuple[_Key, int], bool], key: _Key, moves: int) -> bool | None:
    """What ``memory`` says of a mate within ``moves``: a mate within fewer is one within more, and no mate within
    more is none within fewer."""
    for depth in range(1, MAX_MATE + 1):
        known = memory.get((key, depth))
        if known is not None and (known if depth <= moves else not known):
            return known
    return None


class BudgetExceeded(Exception):
    """The proof would have played more moves than its :class:`Budget` allows."""


@dataclass
class Budget:
    """How many moves a proof may play (``None``: no bound); ``spent`` counts them.

    Each move and reply tried counts one, and each legal move of a position
    searched for its moves counts one whether or not it is played (at the
    last move only those that could give check are); the King's steps that
    :meth:`Position.mating_tuples` need not generate are not counted, and a
    position already judged costs nothing.
    """

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
    is kept in ``memory`` (position of the mating side to move and depth to
    the answer) and, for the defender's positions, in ``_lost_memory``.
    """

    budget: Budget = field(default_factory=Budget)
    memory: dict[tuple[_Key, int], bool] = field(default_factory=dict)
    _killers: dict[int, MoveTuple] = field(default_factory=dict)
    _lost_memory: dict[tuple[_Key, int], bool] = field(default_factory=dict)

    def _key(self, position: Position) -> _Key:
        return (tuple(position.raw_board), position.turn, position.rights, position.special)

    def _ordered(self, position: Position, moves: int) -> list[MoveTuple]:
        """The legal moves that may mate within ``moves``: checks first (the only moves that can mate at once, and
        all there is for ``moves == 1``), then captures, then the rest.  The budget counts every legal move."""
        legal = position.legal_tuples()
        self.budget.spend(len(legal))
        checks = position.giving_check(legal)
        if moves == 1:
            return checks
        checking = set(checks)
        board = position.raw_board
        captures, quiet = [], []
        for move in legal:
            if move in checking:
                continue
            if move[2] != CASTLING and board[move[1]]:
                captures.append(move)
            else:
                quiet.append(move)
        return checks + captures + quiet

    def _mates(self, position: Position, *, first: bool) -> list[MoveTuple]:
        """The moves of the side to move that checkmate at once (only the first with ``first``).

        Only the moves that could give check are played, and the King's
        steps generated only when one could (:meth:`Position.mating_tuples`);
        the budget counts the legal moves looked at, as if each were played.
        """
        found, looked_at = position.mating_tuples(first=first)
        self.budget.spend(looked_at)
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
        key = self._key(position)
        known = _known(self.memory, key, moves)
        if known is None:
            if moves == 1:
                known = self.has_mate_in_one(position)
            else:
                known = any(self.move_forces(position, move, moves) for move in self._ordered(position, moves))
            self.memory[key, moves] = known
        return known

    def move_forces(self, position: Position, move: MoveTuple | Move, moves: int) -> bool:
        """Whether ``move`` (the side to move's) mates at once or leaves every reply a mate within ``moves - 1``."""
        self.budget.spend()
        position.push(move)
        try:
            return self._lost(position, moves - 1)
        finally:
            position.pop()

    def _lost(self, position: Position, moves: int) -> bool:
        """Whether the side to move is checkmated, or every reply it has leaves a mate within ``moves``.

        Remembered apart from :attr:`memory` (the side to move here is the
        defender): the same position comes back when the mating side's moves
        come in another order (first move A, refuting reply R, second move B
        is the position of B, R, then A, met again when B is refuted by R).
        """
        if moves == 0:
            return position.is_check() and not position.has_legal_moves()  # a stalemate is no mate
        key = self._key(position)
        known = _known(self._lost_memory, key, moves)
        if known is None:
            known = self._every_reply_loses(position, moves)
            self._lost_memory[key, moves] = known
        return known

    def _every_reply_loses(self, position: Position, moves: int) -> bool:
        """:meth:`_lost` for a position not yet judged (``moves`` at least 1)."""
        killer = self._killers.get(moves + 1)
        if moves == 1 and killer is not None and killer in position.legal_moves(killer[0]):
            # The last reply that escaped a mate in one (the "killer") most often escapes this one too: it is only
            # asked whether it is legal, and the other replies are generated only when it loses.
            if not self._reply_loses(position, killer, 1):
                return False
            return all(self._reply_loses(position, r, 1) for r in position.legal_tuples() if r != killer)
        replies = position.legal_tuples()
        if not replies:
            return position.is_check()  # mate; a stalemate is no mate
        defences = self._defences(position, replies, moves + 1)
        return all(self._reply_loses(position, reply, moves) for reply in defences)

    def _defences(self, position: Position, replies: list[MoveTuple], moves: int) -> list[MoveTuple]:
        """The replies to a move that would mate within ``moves``, in the order most likely to refute it: when the
        mating side would still need two moves or more, the checks first (it then has only its answers to the
        check, so a refutation is soon proved), then the killer; else the killer first."""
        killer = self._killers.get(moves)
        first = position.giving_check(replies) if moves > 2 else []
        if killer is not None and killer in replies and killer not in first:
            first.append(killer)
        if not first:
            return replies
        tried = set(first)
        return first + [reply for reply in replies if reply not in tried]

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
        for move in self._ordered(position, moves):
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

    def proves_line(self, position: Position, line: Sequence[Move]) -> bool:
        """Whether ``line`` (the mating side's moves and replies, mating move last) is a forced mate.

        Each of the mating side's moves must mate in the moves it has left
        against every defence; the replies must be legal.  The line's own
        replies are only one defence among all those tried.
        """
        current = position.copy()
        attacking = (len(line) + 1) // 2
        for index, move in enumerate(line):
            if not current.is_legal(move):
                return False
            if index % 2 == 0 and not self.move_forces(current, move, attacking - index // 2):
                return False
            current.push(move)
        return bool(line) and len(line) % 2 == 1 and current.is_checkmate()


def forces_mate(position: Position, moves: int, *, budget: Budget | None = None) -> bool:
    """Whether the side to move in ``position`` mates within ``moves`` against any defence."""
    return MateProver(budget or Budget()).forces(position.copy(), moves)


def mating_first_moves(
    position: Position, moves: int, *, limit: int | None = None, budget: Budget | None = None
) -> list[Move]:
    """The first moves with which the side to move mates within ``moves`` against any defence."""
    return MateProver(budget or Budget()).first_moves(position.copy(), moves, limit=limit)


def proves_line(position: Position, line: Sequence[Move], *, budget: Budget | None = None) -> bool:
    """Whether ``line`` (the mating side's moves and replies, mating move last) is a forced mate: see
    :meth:`MateProver.proves_line`."""
    return MateProver(budget or Budget()).proves_line(position, line)

"""The search: iterative deepening, principal-variation alpha-beta, quiescence.

A classical design, as in most small chess programs (sunfish, the early
Crafty...), adapted to what C'escacs changes:

* **Transposition table** on the Zobrist keys of :class:`SearchBoard`, one
  entry per position (depth, bound, score, best move), mate scores stored
  relative to the node so they stay right wherever the position recurs.
* **Move ordering**: the table's move, then captures and promotions by
  most valuable victim / least valuable attacker (a promotion counts what it
  regains), two killer moves per ply, then the history heuristic.
* **Pruning and reductions**: null move (not in check, not with only troops
  left), reverse futility at shallow depth, late-move reductions of quiet
  moves, futility of quiet moves at the frontier; a check extends the
  search by one ply.
* **Quiescence** on the moves :meth:`Position.noisy_tuples` gives (captures,
  promotions, in-place promotions); in check every evasion is searched, so a
  mate at the horizon is seen.
* **Scores** are centipawns for the side to move.  A checkmate is
  ``MATE - plies``; a stalemate is a (minimum) win in C'escacs, so it scores
  ``STALEMATE``, more than any material but less than a mate; repetitions,
  the fifty-move claim and insufficient material score 0.
* **Time**: the clock is read every few nodes (well under a millisecond of
  work), so the hard limit holds even on a starved processor, and a new
  iteration does not start after the soft limit.  A stop request is seen at
  the same points, so ``stop`` answers within milliseconds.  When a search is cut short, the best move of
  the last finished iteration is played, unless the unfinished one already
  proved a better move.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..core.geometry import DIAGONAL_RAYS, HEX_COUNT, KNIGHT_SET, ORTHOGONAL_RAYS
from ..core.move import (
    CASTLING,
    EN_PASSANT,
    IN_PLACE_PROMOTION,
    MULTI_STEP,
    NORMAL,
    SCORNFUL_CAPTURE,
    SCORNFUL_STEP,
    Move,
)
from ..core.pieces import (
    BISHOP_CODE,
    BLACK,
    ELEPHANT_CODE,
    KNIGHT_CODE,
    PAWN_CODE,
    PEGASUS_CODE,
    QUEEN_CODE,
    ROOK_CODE,
    WHITE,
    WYVERN_CODE,
)
from ..core.position import MoveTuple
from .board import SearchBoard
from .evaluation import COUNTERS_PER_SIDE

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer in the compiled build (docs/engine.md, Speed); int here

MATE: Final = 100_000
"""The score of giving checkmate now; a mate in ``n`` plies scores ``MATE - n``."""
MATE_BOUND: Final = MATE - 1_000
"""Scores beyond this (in absolute value) are mates."""
STALEMATE: Final = 5_000
"""The score of stalemating the opponent: a win by the minimum (RULES.md 9.5), above any material edge short of 50."""
INFINITY: Final = MATE + 1
MAX_PLY: Final = 96
"""No line is searched deeper than this (extensions and quiescence included)."""
MAX_DEPTH: Final = 64

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

_POLL_NODES: Final = 16
"""Nodes between two readings of the clock: well under a millisecond of work, so a search stops on time even
when it gets a small share of a busy processor (a reading costs less than 0.1% of the nodes' time)."""
_HASH_MOVE: Final = 1 << 30
_CAPTURE: Final = 1 << 24
_KILLER: Final = 1 << 23
_HISTORY_MAX: Final = 1 << 22
_HISTORY_SLOTS: Final = 19 * HEX_COUNT
_LMR: Final = tuple(
    tuple(int(0.75 + math.log(depth) * math.log(index) / 2.25) if depth and index else 0 for index in range(256))
    for depth in range(MAX_DEPTH + 1)
)
"""Late-move reductions of quiet moves, by depth and by how many moves were searched before (the usual log-log form:
C'escacs positions have 100-200 moves, most of them late)."""
_LMP_DEPTH: Final = 3
_LMP: Final = (0, 8, 16, 30)
"""Quiet moves tried at depths 1-3 before the rest (those that cannot give check) are pruned, in non-PV nodes."""
_NO_LIMIT: Final = 1 << 30
_NOISY_OFFSET: Final = 1 << 20
"""Keeps the quiescence ordering's keys positive (a capture by a big piece of nothing much scores below 0)."""
_COLOURS: Final = (WHITE, BLACK)
_MATING_SLOTS: Final = tuple(
    side * COUNTERS_PER_SIDE + kind
    for side in (0, 1)
    for kind in (PAWN_CODE, PEGASUS_CODE, ROOK_CODE, WYVERN_CODE, QUEEN_CODE)
)
"""Counters of the pieces that, alone with their King, are not an automatic draw."""


class SearchStopped(Exception):
    """Raised inside the search when time, nodes or a stop request end it (never escapes :meth:`Searcher.search`)."""


@dataclass(frozen=True)
class Limits:
    """What bounds a search.  Times are in seconds; ``None`` means no such bound."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    white_time: float | None = None
    black_time: float | None = None
    white_increment: float = 0.0
    black_increment: float = 0.0
    moves_to_go: int | None = None
    infinite: bool = False
    """Search until stopped (``go infinite``); the other bounds are ignored."""


@dataclass(frozen=True)
class TimePlan:
    """When to stop: ``soft`` no new iteration after it, ``hard`` stop at once (seconds from the start)."""

    soft: float | None
    hard: float | None


DEFAULT_OVERHEAD: Final = 0.03
"""Seconds kept back for every answer to reach the front end (the protocol's ``Move Overhead``)."""
HORIZON: Final = 50
"""Moves a clock is planned for when no ``movestogo`` says otherwise (sudden death, increments)."""
OPENING_SHARE: Final = 20
"""No move is given more than this share of the time left (plus the increment) unless a control is near."""
SAFETY: Final = 0.8
"""At most this part of the time left (less the overhead) is ever planned for one move."""
STRETCH: Final = 4
"""The hard limit is at most this many times the move's target (an iteration started in time may run on)."""


def plan_time(limits: Limits, turn: int, overhead: float = DEFAULT_OVERHEAD) -> TimePlan:
    """The time to spend on this move, in seconds from when the ``go`` arrived.

    ``movetime`` is used in full, less ``overhead`` (the time a reply takes
    to reach the front end; at most a quarter of the time).  With a clock,
    the time of the next ``HORIZON`` moves (or up to the control) is pooled,
    each of them paying its ``overhead`` first, so the fixed cost of
    answering is reserved for every move to come and a long game at a fast
    control is never lost on time; the move's target is its part of the pool.
    No iteration starts after half the target (the next one takes longer
    than all before it); the search stops at ``STRETCH`` targets, never
    more than a ``OPENING_SHARE``-th of the time left plus the increment
    (all the time less the overhead for the last move before a control),
    and never more than ``SAFETY`` of the time left.
    """
    if limits.infinite:
        return TimePlan(None, None)
    if limits.movetime is not None:
        hard = max(0.0, limits.movetime - min(overhead, limits.movetime / 4))
        return TimePlan(hard, hard)
    remaining = limits.white_time if turn == 0 else limits.black_time
    if remaining is None:
        return TimePlan(None, None)
    increment = limits.white_increment if turn == 0 else limits.black_increment
    horizon = max(1, min(limits.moves_to_go or HORIZON, HORIZON))
    usable = max(0.0, remaining - overhead)
    pool = max(0.0, remaining + increment * (horizon - 1) - overhead * (horizon + 2))
    target = min(pool / horizon, usable * SAFETY)
    cap = usable if horizon == 1 else usable / min(horizon, OPENING_SHARE) + increment
    hard = min(STRETCH * target, cap, usable * SAFETY)
    return TimePlan(min(hard, target / 2), hard)


@dataclass(frozen=True)
class Info:
    """A progress report: one finished (or, at the end, stopped) iteration."""

    depth: int
    seldepth: int
    score: int
    """Centipawns for the side to move (meaningless when ``mate`` is set)."""
    mate: int | None
    """Moves to mate: positive when the side to move mates, negative when it is mated."""
    nodes: int
    time: float
    pv: tuple[Move, ...]

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass(frozen=True)
class Result:
    """What a search found: the move to play (``None`` when there is no legal move) and its line."""

    move: Move | None
    score: int
    mate: int | None
    depth: int
    nodes: int
    time: float
    pv: tuple[Move, ...]


def mate_in(score: int) -> int | None:
    """Moves to mate for a mate score (negative when the side to move is mated), else ``None``."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score + 1) // 2)
    return None


class Searcher:
    """A search engine with its transposition table and move-ordering memory.

    One searcher serves one game at a time; :meth:`new_game` forgets what it
    learnt.  ``noise`` (centipawns) perturbs every evaluation by a
    pseudo-random amount fixed per position and ``seed``: the weak levels use
    it, so they err the same way in the same position during one search.
    """

    def __init__(self, *, hash_entries: int = 1 << 19) -> None:
        self.hash_entries = hash_entries
        self.table: dict[int, tuple[int, int, int, MoveTuple | None]] = {}
        self.history = [0] * _HISTORY_SLOTS
        """Per (board code + 9) * HEX_COUNT + target hex: how often a quiet move of that piece there cut off."""
        self.killers: list[list[MoveTuple | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.noise = 0
        self.seed = 0
        self.quiescence = True
        self.nodes = 0
        self.seldepth = 0
        self._start = 0.0
        self._hard: float | None = None
        self._node_limit: int | None = None
        self._next_poll = 0
        self._pv: list[list[MoveTuple]] = [[] for _ in range(MAX_PLY + 2)]
        self._stop: threading.Event | None = None
        self._partial: tuple[int, MoveTuple, tuple[MoveTuple, ...]] | None = None
        """The best root move of the unfinished iteration so far, with its score and line."""

    def new_game(self) -> None:
        """Forget the transposition table and the move-ordering statistics."""
        self.table.clear()
        self.history = [0] * _HISTORY_SLOTS
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]

    # --- the iterative deepening driver ----------------------------------------

    def search(
        self,
        board: SearchBoard,
        limits: Limits,
        on_info: Callable[[Info], None] | None = None,
        *,
        overhead: float = DEFAULT_OVERHEAD,
        stop: threading.Event | None = None,
        started: float | None = None,
    ) -> Result:
        """Search ``board`` within ``limits`` and return the best move found.

        ``on_info`` is called after every finished iteration.  Setting
        ``stop`` (from another thread) ends the search within a few nodes
        with the best move so far.  ``started`` is when the request arrived
        (a :func:`time.perf_counter` reading): the time limits count from
        it, so the time spent before the search began is not lost.
        ``overhead`` goes to :func:`plan_time`.  The board is left as it
        was.
        """
        self._start = time.perf_counter() if started is None else started
        self._stop = stop
        self.nodes = 0
        self.seldepth = 0
        plan = plan_time(limits, board.turn, overhead)
        self._hard = None if plan.hard is None else self._start + plan.hard
        soft = None if plan.soft is None else self._start + plan.soft
        node_limit = None if limits.infinite else limits.nodes
        self._node_limit = None  # the first iteration always ends: a move is never chosen on less than one ply
        self._next_poll = _POLL_NODES
        max_depth = MAX_DEPTH if limits.infinite or limits.depth is None else max(1, min(limits.depth, MAX_DEPTH))
        for killers in self.killers:
            killers[0] = killers[1] = None
        self._age_history()

        moves = board.position.legal_tuples()
        if not moves:
            score = -MATE if board.position.is_check() else -STALEMATE
            return Result(None, score, mate_in(score), 0, 0, 0.0, ())
        best_move = self._probe_move(board.key, moves) or self._order(board, moves, None, 0)[0]
        best_score = 0
        best_pv: tuple[MoveTuple, ...] = (best_move,)
        depth_done = 0
        for depth in range(1, max_depth + 1):
            try:
                score, move = self._root(board, depth, moves, best_move)
            except SearchStopped:
                if self._partial is not None:  # the previous best was searched again, perhaps beaten
                    best_score, best_move, best_pv = self._partial
                break
            best_score, best_move = score, move
            best_pv = tuple(self._pv[0]) or (move,)
            depth_done = depth
            if on_info is not None:
                on_info(self._info(board, depth, best_score, best_pv))
            if abs(best_score) >= MATE_BOUND and depth >= MATE - abs(best_score) + 2 and not limits.infinite:
                break  # a mate found and confirmed: deeper search cannot change it
            if soft is not None and time.perf_counter() >= soft:
                break
            if len(moves) == 1 and plan.hard is not None:
                break  # a forced move: no need to spend the time
            if node_limit is not None:
                if self.nodes >= node_limit:
                    break
                self._node_limit = node_limit
                self._next_poll = min(self._next_poll, node_limit)
        elapsed = time.perf_counter() - self._start
        pv = tuple(Move._make(m) for m in self._legal_line(board, best_pv))
        return Result(pv[0], best_score, mate_in(best_score), depth_done, self.nodes, elapsed, pv)

    def _info(self, board: SearchBoard, depth: int, score: int, pv: tuple[MoveTuple, ...]) -> Info:
        line = tuple(Move._make(m) for m in self._legal_line(board, pv))
        return Info(depth, self.seldepth, score, mate_in(score), self.nodes, time.perf_counter() - self._start, line)

    @staticmethod
    def _legal_line(board: SearchBoard, line: Sequence[MoveTuple]) -> list[MoveTuple]:
        """The longest legal prefix of ``line`` (a table collision could corrupt a reported line)."""
        out: list[MoveTuple] = []
        for move in line:
            if move not in board.position.legal_tuples():
                break
            board.make(move)
            out.append(move)
        for _ in out:
            board.unmake()
        return out

    def _age_history(self) -> None:
        """Halve the history scores between moves, so old statistics fade."""
        self.history = [score >> 1 for score in self.history]

    def _poll(self) -> None:
        """Stop when the time, the node budget or a stop request says so."""
        self._next_poll = self.nodes + _POLL_NODES
        limit = self._node_limit
        if limit is not None:
            if self.nodes >= limit:
                raise SearchStopped
            self._next_poll = min(self._next_poll, limit)
        if self._stop is not None and self._stop.is_set():
            raise SearchStopped
        if self._hard is not None and time.perf_counter() >= self._hard:
            raise SearchStopped

    # --- the root --------------------------------------------------------------

    def _root(self, board: SearchBoard, depth: int, moves: list[MoveTuple], first: MoveTuple) -> tuple[int, MoveTuple]:
        """One iteration at the root: the best move and its score, PV in ``self._pv[0]``."""
        alpha, beta = -INFINITY, INFINITY
        self._partial = None
        ordered = self._order(board, moves, first, 0)
        best, best_move = -INFINITY, ordered[0]
        for i, move in enumerate(ordered):
            board.make(move)
            try:
                check = board.position.is_check()
                if i == 0:
                    score = -self._search(board, depth - 1, -beta, -alpha, 1, True, check)
                else:
                    score = -self._search(board, depth - 1, -alpha - 1, -alpha, 1, True, check)
                    if score > alpha:
                        score = -self._search(board, depth - 1, -beta, -alpha, 1, True, check)
            finally:
                board.unmake()
            if score > best:
                best, best_move = score, move
                self._pv[0] = [move, *self._pv[1]]
                if score > alpha:
                    alpha = score
                self._partial = (score, move, tuple(self._pv[0]))
        self._store(board.key, depth, best, EXACT, best_move, 0)
        return best, best_move

    # --- the main search --------------------------------------------------------

    def _search(
        self, board: SearchBoard, depth: int, alpha: int, beta: int, ply: int, can_null: bool, in_check: bool
    ) -> int:
        """Negamax alpha-beta (fail-soft, PVS) to ``depth`` plies; ``in_check``: the side to move is in check."""
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        pv_node = beta - alpha > 1
        if pv_node:
            self._pv[ply] = []
        position = board.position
        if position.halfmove_clock >= 100 or board.is_repetition() or self._insufficient(board):
            return 0
        if in_check and ply < 2 * MAX_DEPTH:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(board, alpha, beta, ply, in_check)
        if ply > self.seldepth:
            self.seldepth = ply

        # Mate distance pruning: no line from here beats a mate already found nearer the root.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha

        key = board.key
        entry = self.table.get(key)
        hash_move: MoveTuple | None = None
        if entry is not None:
            entry_depth, flag, stored, hash_move = entry
            if entry_depth >= depth and not pv_node:
                score = _from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score

        static = -INFINITY
        if not in_check:
            static = self.evaluate(board)
            if not pv_node:
                # Reverse futility: far above beta at shallow depth, a quiet move will not fall below it.
                if depth <= 3 and static - 150 * depth >= beta and abs(beta) < MATE_BOUND:
                    return static
                # Null move: if passing still fails high, a real move would too (not with troops only: zugzwang).
                if can_null and depth >= 3 and static >= beta and board.has_pieces(board.turn):
                    reduction = 3 if depth >= 6 else 2
                    board.make_null()
                    try:
                        score = -self._search(board, depth - 1 - reduction, -beta, -beta + 1, ply + 1, False, False)
                    finally:
                        board.unmake_null()
                    if score >= beta:
                        return beta if score >= MATE_BOUND else score

        raw = board.board
        sign: i64 = 1 if board.turn == 0 else -1
        # The table's move is searched before the others are generated: when it cuts off, they never are.
        generated = not _plausible(raw, sign, hash_move)
        if generated:
            moves = position.legal_tuples()
            if not moves:
                return -MATE + ply if in_check else -STALEMATE + ply
            ordered = self._order(board, moves, hash_move, ply)
        else:
            assert hash_move is not None
            ordered = [hash_move]
        # At the frontier, quiet moves that cannot give check are pruned when the position is hopeless
        # (futility) or once enough moves have been tried (late-move pruning): decided before playing them.
        prunable = not in_check and not pv_node and depth <= _LMP_DEPTH
        futile = prunable and depth <= 2 and static + (250 if depth == 1 else 500) <= alpha
        late = _LMP[depth] if prunable else _NO_LIMIT
        checking = (
            _checking_hexes(raw_board := board.board, position.king(_COLOURS[1 - board.turn])) if prunable else None
        )
        original_alpha = alpha
        best = -INFINITY
        best_move = ordered[0]
        killers = self.killers[ply]
        searched = 0
        cut = False
        while True:
            for move in ordered:
                quiet = not move[3] and move[2] != EN_PASSANT and move[2] != SCORNFUL_CAPTURE
                if quiet and move[2] != CASTLING and move[2] != IN_PLACE_PROMOTION and raw[move[1]] * sign < 0:
                    quiet = False
                if (
                    checking is not None
                    and quiet
                    and searched
                    and (futile or searched >= late)
                    and move != killers[0]
                    and move != killers[1]
                    and not _may_check(raw_board, move, checking)
                ):
                    continue  # hopeless or late at the frontier, and it cannot give check
                board.make(move)
                try:
                    gives_check = position.is_check()
                    reduction = 0
                    if (
                        depth >= 3
                        and searched >= 2
                        and quiet
                        and not in_check
                        and not gives_check
                        and move != killers[0]
                        and move != killers[1]
                    ):
                        reduction = max(0, min(_LMR[min(depth, MAX_DEPTH)][min(searched, 255)] - pv_node, depth - 2))
                    if searched == 0:
                        score = -self._search(board, depth - 1, -beta, -alpha, ply + 1, True, gives_check)
                    else:
                        score = -self._search(
                            board, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, True, gives_check
                        )
                        if score > alpha and (reduction or score < beta):
                            score = -self._search(board, depth - 1, -beta, -alpha, ply + 1, True, gives_check)
                finally:
                    board.unmake()
                searched += 1
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if pv_node:
                            self._pv[ply] = [move, *self._pv[ply + 1]]
                        if score >= beta:
                            if quiet:
                                if killers[0] != move:
                                    killers[1] = killers[0]
                                    killers[0] = move
                                slot = (raw[move[0]] + 9) * HEX_COUNT + move[1]
                                self.history[slot] = min(self.history[slot] + depth * depth, _HISTORY_MAX)
                            cut = True
                            break
            if cut or generated:
                break
            generated = True
            ordered = [m for m in self._order(board, position.legal_tuples(), hash_move, ply) if m != hash_move]
        flag = LOWER if best >= beta else (EXACT if best > original_alpha else UPPER)
        self._store(key, depth, best, flag, best_move, ply)
        return best

    def _quiesce(self, board: SearchBoard, alpha: int, beta: int, ply: int, in_check: bool | None = None) -> int:
        """Search captures and promotions only, until the position is quiet (every evasion when in check)."""
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        if ply > self.seldepth:
            self.seldepth = ply
        position = board.position
        if in_check is None:
            in_check = position.is_check()
        if in_check:
            moves = position.legal_tuples()
            if not moves:
                return -MATE + ply
            best = -INFINITY
            stand = -INFINITY
            if ply >= MAX_PLY:
                return self.evaluate(board)
        else:
            stand = self.evaluate(board)
            if stand >= beta or ply >= MAX_PLY or not self.quiescence:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
            moves = position.noisy_tuples()
            if not moves:
                return stand
        for move in self._order_noisy(board, moves, stand, alpha):
            board.make(move)
            try:
                score = -self._quiesce(board, -beta, -alpha, ply + 1)
            finally:
                board.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    # --- helpers -----------------------------------------------------------------

    def quiet_score(self, board: SearchBoard) -> int:
        """The quiescence search's score of ``board`` for the side to move, with no limits.

        For tuning tools: a position whose score here equals its static
        evaluation is *quiet* (no capture or promotion changes it).
        """
        self._hard = self._node_limit = self._stop = None
        self._next_poll = 1 << 62
        self.nodes = self.seldepth = 0
        return self._quiesce(board, -INFINITY, INFINITY, 0)

    def evaluate(self, board: SearchBoard) -> int:
        """The static evaluation for the side to move, with this searcher's noise."""
        score = board.evaluate()
        if self.noise:
            # A fixed pseudo-random offset per position (and seed): the same position always errs the same way.
            mixed = ((board.key ^ self.seed) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF  # 64 bits, as before
            score += (mixed >> 32) % (2 * self.noise + 1) - self.noise
        return score

    @staticmethod
    def _insufficient(board: SearchBoard) -> bool:
        """RULES.md 10.3-2 from the material counters: a lone King against a King with at most one minor or Elephant."""
        counters = board.counters
        if sum(counters) > 1:
            return False
        return not any(counters[slot] for slot in _MATING_SLOTS)

    def _store(self, key: int, depth: int, score: int, flag: int, move: MoveTuple | None, ply: int) -> None:
        table = self.table
        if len(table) >= self.hash_entries and key not in table:
            table.clear()  # a full table starts again: simple, and the driver's iterations refill it at once
        old = table.get(key)
        if old is None or depth >= old[0] or flag == EXACT:
            table[key] = (depth, flag, _to_table(score, ply), move)

    def _probe_move(self, key: int, moves: list[MoveTuple]) -> MoveTuple | None:
        entry = self.table.get(key)
        if entry is not None and entry[3] in moves:
            return entry[3]
        return None

    def _order(self, board: SearchBoard, moves: list[MoveTuple], first: MoveTuple | None, ply: int) -> list[MoveTuple]:
        """Moves in the order to search them: the table's move, captures (MVV-LVA), killers, history."""
        raw = board.board
        values = board.tables.values
        sign: i64 = 1 if board.turn == 0 else -1
        killers = self.killers[ply]
        history = self.history
        keys = []
        width = len(moves).bit_length()
        last = len(moves) - 1
        for i, move in enumerate(moves):
            origin, target, kind, promotion, _ = move
            if move == first:
                score = _HASH_MOVE
            else:
                victim = raw[target] if kind != CASTLING and kind != IN_PLACE_PROMOTION else 0
                if victim * sign < 0 or promotion or kind == EN_PASSANT:
                    gain = values[victim + 9] if victim * sign < 0 else (100 if kind == EN_PASSANT else 0)
                    if promotion:
                        gain += values[promotion + 9]
                    score = _CAPTURE + gain * 64 - values[raw[origin] * sign + 9] // 16
                elif move == killers[0]:
                    score = _KILLER + 1
                elif move == killers[1]:
                    score = _KILLER
                else:
                    score = history[(raw[origin] + 9) * HEX_COUNT + target]
            keys.append(score << width | last - i)  # ties keep the generator's order
        keys.sort(reverse=True)
        mask = (1 << width) - 1
        return [moves[last - (key & mask)] for key in keys]

    @staticmethod
    def _order_noisy(board: SearchBoard, moves: list[MoveTuple], stand: int, alpha: int) -> list[MoveTuple]:
        """Captures by MVV-LVA for the quiescence search.

        Out of check it leaves out the captures that cannot raise ``alpha``
        even unanswered (delta pruning), and those that give a piece for a
        lesser one on a defended hex (they lose material unless something
        else is going on, which the main search, not this one, looks for).
        """
        raw = board.board
        values = board.tables.values
        sign: i64 = 1 if board.turn == 0 else -1
        position = board.position
        them = _COLOURS[1 - board.turn]
        pruning = stand > -INFINITY
        keys = []
        width = len(moves).bit_length()
        last = len(moves) - 1
        margin = alpha - stand - 200
        for i, move in enumerate(moves):
            origin, target, kind, promotion, _ = move
            victim = raw[target] if kind != CASTLING and kind != IN_PLACE_PROMOTION else 0
            gain = values[victim + 9] if victim * sign < 0 else (100 if kind == EN_PASSANT else 0)
            attacker = values[raw[origin] * sign + 9]
            if promotion:
                gain += values[promotion + 9] - 100
            elif pruning and attacker > gain and position.is_attacked(target, them):
                continue
            if pruning and gain < margin:
                continue
            keys.append((gain * 64 - attacker // 16 + _NOISY_OFFSET) << width | last - i)
        keys.sort(reverse=True)
        mask = (1 << width) - 1
        return [moves[last - (key & mask)] for key in keys]


CheckingHexes = tuple[frozenset[int], frozenset[int], frozenset[int]]
_PLAIN_KINDS: Final = frozenset((NORMAL, MULTI_STEP, SCORNFUL_STEP))


def _plausible(board: list[int], sign: int, move: MoveTuple | None) -> bool:
    """Whether the table's ``move`` can be played before the legal moves are generated.

    The table holds moves found legal in a position with the same 64-bit
    key, so it is legal here unless two positions share a key; the plain
    kinds of move with one of our pieces leaving and none of ours taken are
    safe to play even then (they cannot derail the board), the special ones
    wait for the generator.
    """
    return move is not None and move[2] in _PLAIN_KINDS and board[move[0]] * sign > 0 and board[move[1]] * sign <= 0


def _checking_hexes(board: list[int], king: int) -> CheckingHexes:
    """Where a piece would attack the King on ``king``: orthogonal and diagonal lines (up to the first piece), jumps."""
    lines: list[frozenset[int]] = []
    for rays in (ORTHOGONAL_RAYS[king], DIAGONAL_RAYS[king]):
        seen: list[int] = []
        for ray in rays:
            for x in ray:
                seen.append(x)
                if board[x]:
                    break
        lines.append(frozenset(seen))
    return lines[0], lines[1], KNIGHT_SET[king]


def _may_check(board: list[int], move: MoveTuple, checking: CheckingHexes) -> bool:
    """Whether a quiet move could give check: it lands where its piece attacks the King, or it leaves a line to it.

    A superset of the checking moves (a piece leaving an open line may uncover nothing), found without playing it.
    """
    origin, target, kind, _, _ = move
    orthogonal, diagonal, jumps = checking
    if kind == CASTLING or origin in orthogonal or origin in diagonal:
        return True
    piece = abs(board[origin])
    if piece in _ORTHOGONAL_CHECKERS and target in orthogonal:
        return True
    if piece in _DIAGONAL_CHECKERS and target in diagonal:
        return True
    if piece in _JUMP_CHECKERS and target in jumps:
        return True
    # pawns and Elephants attack adjacent hexes (and the Elephant two ahead, which is on a line)
    return piece in (PAWN_CODE, ELEPHANT_CODE) and (target in orthogonal or target in diagonal)


_ORTHOGONAL_CHECKERS: Final = frozenset((ROOK_CODE, WYVERN_CODE, QUEEN_CODE))
_DIAGONAL_CHECKERS: Final = frozenset((BISHOP_CODE, PEGASUS_CODE, QUEEN_CODE))
_JUMP_CHECKERS: Final = frozenset((KNIGHT_CODE, WYVERN_CODE, PEGASUS_CODE))


def _to_table(score: int, ply: int) -> int:
    """A mate score as seen from the node (plies from here), for storing."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


__all__ = [
    "DEFAULT_OVERHEAD",
    "MATE",
    "STALEMATE",
    "Info",
    "Limits",
    "Result",
    "Searcher",
    "TimePlan",
    "mate_in",
    "plan_time",
]

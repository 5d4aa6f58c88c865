"""The position as the search sees it: a rules-core :class:`Position` plus what the search keeps up to date.

Each :meth:`SearchBoard.make` plays a move on the position and updates, from
the few hexes the move touches, the Zobrist key of the transposition table
and the sums of the evaluation tables (see :mod:`.evaluation`), so neither is
recomputed from the 169 hexes at every node; :meth:`SearchBoard.unmake`
restores them from a stack.  ``benchmarks/engine.py`` measures what that
saves against recomputing.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from ..core.geometry import HEX_COLOUR, HEX_COUNT
from ..core.move import CASTLING, CASTLING_BY_TOKEN, EN_PASSANT, IN_PLACE_PROMOTION
from ..core.pieces import BLACK, KING_CODE, PAWN_CODE, ROOK_CODE, WHITE
from ..core.position import MoveTuple, Position
from ..core.state import EnPassant, Scornful
from .evaluation import (
    COUNTERS_PER_SIDE,
    DEFAULT_TABLES,
    PROMOTION_COLOUR,
    Tables,
    counter_index,
    evaluate_parts,
)

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer in the compiled build (docs/engine.md, Speed); int here

KEY_BITS: Final = 62
"""Bits of a key: enough against collisions, and every key stays a small integer in compiled code (mypyc keeps
integers below 2**62 unboxed), so the updates at every move are plain machine XORs there."""
_MASK: Final = (1 << KEY_BITS) - 1
_RANDOM: Final = random.Random(0x0C35CAC5)  # fixed: keys are the same in every run, so tests can rely on them
ZOBRIST_PIECES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_RANDOM.getrandbits(KEY_BITS) if code else 0 for _ in range(HEX_COUNT)) for code in range(-9, 10)
)
"""Per board code (``code + 9``) and hex, a random number (0 for an empty hex)."""
ZOBRIST_BLACK: Final = _RANDOM.getrandbits(KEY_BITS)
"""XORed in when Black is to move."""
ZOBRIST_RIGHTS: Final[tuple[int, ...]] = tuple(_RANDOM.getrandbits(KEY_BITS) if r else 0 for r in range(64))
"""Per castling-rights mask."""
ZOBRIST_BEGINNERS: Final = _RANDOM.getrandbits(KEY_BITS)
"""XORed in under the beginners' rule (RULES.md 11.1): its legal moves differ, so its table entries must too."""
_SPECIAL_MIX: Final = 0x9E3779B97F4A7C15


def special_key(special: EnPassant | Scornful | None) -> int:
    """The key of a pending en passant or scornful capture (tuples of ints hash the same in every run)."""
    if special is None:
        return 0
    return (hash((type(special) is EnPassant, *special)) * _SPECIAL_MIX) & _MASK


def zobrist(position: Position) -> int:
    """The Zobrist key of ``position``, from scratch."""
    key = (ZOBRIST_BLACK if position.turn else 0) ^ (0 if position.castling_enabled else ZOBRIST_BEGINNERS)
    for h, code in enumerate(position.raw_board):
        if code:
            key ^= ZOBRIST_PIECES[code + 9][h]
    return key ^ ZOBRIST_RIGHTS[position.rights] ^ special_key(position.special)


def _prospect_slot(code: int, h: int) -> int:
    """Where a pawn's promotion prospects are summed: per side, the colour of its column's promotion hex."""
    side = 0 if code > 0 else 1
    return side * 3 + PROMOTION_COLOUR[side][h]


_PROSPECT_SLOT: Final = (
    tuple(_prospect_slot(PAWN_CODE, h) for h in range(HEX_COUNT)),
    tuple(_prospect_slot(-PAWN_CODE, h) for h in range(HEX_COUNT)),
)
_PAWN_COLOUR_SLOT: Final = (
    tuple(6 + HEX_COLOUR[h] for h in range(HEX_COUNT)),
    tuple(9 + HEX_COLOUR[h] for h in range(HEX_COUNT)),
)
_COUNTER: Final = tuple(
    tuple(counter_index(code, h) if code else -1 for h in range(HEX_COUNT)) for code in range(-9, 10)
)


Sums = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""The evaluation's running sums: middlegame, endgame, material counters, promotion prospects."""


def board_sums(board: list[int], tables: Tables) -> Sums:
    """The evaluation's running sums of ``board`` from scratch (:class:`SearchBoard` then keeps them move by move)."""
    mg = eg = 0
    counters = [0] * (2 * COUNTERS_PER_SIDE)
    prospects = [0] * 12
    for h, code in enumerate(board):
        if not code:
            continue
        mg += tables.middlegame[code + 9][h]
        eg += tables.endgame[code + 9][h]
        if abs(code) != KING_CODE:
            counters[_COUNTER[code + 9][h]] += 1
        if abs(code) == PAWN_CODE:
            side = 0 if code > 0 else 1
            prospects[_PROSPECT_SLOT[side][h]] += tables.promotion[code + 9][h]
            prospects[_PAWN_COLOUR_SLOT[side][h]] += 1
    return mg, eg, tuple(counters), tuple(prospects)


class SearchBoard:
    """A position with its Zobrist key, evaluation sums and the keys of the game so far.

    ``keys`` holds the key of every position since the start of the game
    (the search appends and removes its own), for repetition detection.
    """

    __slots__ = (
        "board",
        "counters",
        "endgame",
        "key",
        "keys",
        "middlegame",
        "position",
        "prospects",
        "side",
        "stack",
        "tables",
    )

    def __init__(self, position: Position, tables: Tables = DEFAULT_TABLES, moves: Iterable[MoveTuple] = ()) -> None:
        self.position = position.copy()
        self.board = self.position.raw_board
        self.tables = tables
        self.stack: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
        self._recompute()
        self.keys = [self.key]
        for move in moves:
            self.make(move)
        self.stack.clear()

    def _recompute(self) -> None:
        """Every incremental sum, from scratch."""
        self.middlegame, self.endgame, self.counters, self.prospects = board_sums(self.board, self.tables)
        self.key = zobrist(self.position)
        self.side = int(self.position.turn)

    @property
    def turn(self) -> int:
        """The side to move: 0 White, 1 Black (kept here: the position's ``turn`` builds an enum each time)."""
        return self.side

    def evaluate(self) -> int:
        """The static evaluation from the side to move's point of view."""
        position = self.position
        score = evaluate_parts(
            self.tables,
            self.middlegame,
            self.endgame,
            self.counters,
            self.prospects,
            self.board,
            (position.king(WHITE), position.king(BLACK)),
            position.rights,
            (position.piece_hexes(WHITE), position.piece_hexes(BLACK)),
        )
        return (-score if self.side else score) + self.tables.weights.tempo

    def make(self, move: MoveTuple) -> None:
        """Play ``move`` (legal here) and update the key and the evaluation sums."""
        origin, target, kind, promotion, castling = move
        board = self.board
        tables = self.tables
        mg_table = tables.middlegame
        eg_table = tables.endgame
        position = self.position
        us = self.side
        key = self.key
        mg = self.middlegame
        eg = self.endgame
        counters = self.counters
        prospects = self.prospects
        self.stack.append((key, mg, eg, counters, prospects))
        piece = board[origin]
        p = piece + 9
        if kind == CASTLING:
            assert castling is not None
            key ^= ZOBRIST_PIECES[p][origin] ^ ZOBRIST_PIECES[p][target]
            mg += mg_table[p][target] - mg_table[p][origin]
            eg += eg_table[p][target] - eg_table[p][origin]
            r = (ROOK_CODE if us == 0 else -ROOK_CODE) + 9
            for rook_from, rook_to, _ in CASTLING_BY_TOKEN[us][castling].rooks:
                key ^= ZOBRIST_PIECES[r][rook_from] ^ ZOBRIST_PIECES[r][rook_to]
                mg += mg_table[r][rook_to] - mg_table[r][rook_from]
                eg += eg_table[r][rook_to] - eg_table[r][rook_from]
        else:
            sign: i64 = 1 if us == 0 else -1
            if kind == IN_PLACE_PROMOTION:
                captured = 0
            else:
                at = position.special.pawn if kind == EN_PASSANT else target  # type: ignore[union-attr]
                captured = board[at]
            if captured or promotion or piece == sign * PAWN_CODE:
                c = list(counters)
                pr = list(prospects)
                if captured:
                    q = captured + 9
                    key ^= ZOBRIST_PIECES[q][at]
                    mg -= mg_table[q][at]
                    eg -= eg_table[q][at]
                    c[_COUNTER[q][at]] -= 1
                    if captured == -sign * PAWN_CODE:
                        them = 1 - us
                        pr[_PROSPECT_SLOT[them][at]] -= tables.promotion[q][at]
                        pr[_PAWN_COLOUR_SLOT[them][at]] -= 1
                if piece == sign * PAWN_CODE:
                    pr[_PROSPECT_SLOT[us][origin]] -= tables.promotion[p][origin]
                    pr[_PAWN_COLOUR_SLOT[us][origin]] -= 1
                    if not promotion:
                        pr[_PROSPECT_SLOT[us][target]] += tables.promotion[p][target]
                        pr[_PAWN_COLOUR_SLOT[us][target]] += 1
                if promotion:
                    c[_COUNTER[p][origin]] -= 1
                    c[_COUNTER[sign * promotion + 9][target]] += 1
                self.counters = tuple(c)
                self.prospects = tuple(pr)
            arrived = sign * promotion + 9 if promotion else p
            key ^= ZOBRIST_PIECES[p][origin] ^ ZOBRIST_PIECES[arrived][target]
            mg += mg_table[arrived][target] - mg_table[p][origin]
            eg += eg_table[arrived][target] - eg_table[p][origin]
        rights = position.rights
        special = position.special
        position.push(move)
        key ^= ZOBRIST_BLACK ^ ZOBRIST_RIGHTS[rights] ^ ZOBRIST_RIGHTS[position.rights]
        if special is not None or position.special is not None:
            key ^= special_key(special) ^ special_key(position.special)
        self.key = key
        self.middlegame = mg
        self.endgame = eg
        self.side = 1 - us
        self.keys.append(key)

    def unmake(self) -> None:
        """Take back the last :meth:`make`."""
        self.position.pop()
        self.side = 1 - self.side
        self.keys.pop()
        self.key, self.middlegame, self.endgame, self.counters, self.prospects = self.stack.pop()

    def make_null(self) -> None:
        """Pass the turn (null-move pruning); the side to move must not be in check."""
        position = self.position
        self.stack.append((self.key, self.middlegame, self.endgame, self.counters, self.prospects))
        self.key ^= ZOBRIST_BLACK ^ special_key(position.special)
        position.push_null()
        self.side = 1 - self.side
        self.keys.append(self.key)

    def unmake_null(self) -> None:
        self.position.pop_null()
        self.side = 1 - self.side
        self.keys.pop()
        self.key, self.middlegame, self.endgame, self.counters, self.prospects = self.stack.pop()

    def is_repetition(self) -> bool:
        """Whether the current position occurred before since the last capture or pawn move.

        One earlier occurrence is enough for the search: if repeating is good,
        repeating again is too, so the position is scored as the draw it leads to.
        """
        keys = self.keys
        key = self.key
        last = len(keys) - 1
        # Only positions with the same side to move, four plies back at least, since the last irreversible move.
        for i in range(last - 4, max(-1, last - self.position.halfmove_clock - 1), -2):  # noqa: SIM110 (faster)
            if keys[i] == key:
                return True
        return False

    def has_pieces(self, side: int) -> bool:
        """Whether ``side`` has a piece other than King, pawns and Elephants (null moves are unsafe otherwise)."""
        base = side * COUNTERS_PER_SIDE
        counters = self.counters
        return any(counters[base + i] for i in (4, 5, 6, 7, 8, 9, 10, 11))

    def piece_count(self) -> int:
        """Pieces on the board besides the Kings."""
        return sum(self.counters)


__all__ = ["SearchBoard", "Sums", "board_sums", "special_key", "zobrist"]

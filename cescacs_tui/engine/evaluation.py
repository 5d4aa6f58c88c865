"""What a C'escacs position is worth: the engine's evaluation, and the tables behind it.

Scores are centipawns from White's side inside the tables (a White pawn is
+100, a Black one -100) and from the side to move's once :func:`evaluate`
returns.  Most of the score is a sum over pieces of a per-hex table
(material plus a positional bonus, for the middlegame and for the endgame),
which :class:`~cescacs_tui.engine.board.SearchBoard` keeps up to date move by
move; what depends on the whole board (the pool a pawn may promote into, the
Bishops, the King's shelter) is computed from small counters at the leaf.

Every number is a field of :class:`Weights`, so ``scripts/tune_engine.py``
can change them and measure the result in self-play.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Final

from ..core.geometry import (
    ALL_RAYS,
    COLUMN,
    DIAGONAL_RAYS,
    HEX_COLOUR,
    HEXES,
    KING_HOME,
    LINE,
    NEIGHBOURS,
    ORTHOGONAL_RAYS,
    PROMOTION_HEXES,
    mirror,
)
from ..core.geometry import KNIGHT as KNIGHT_JUMPS
from ..core.pieces import (
    BISHOP_CODE,
    ELEPHANT_CODE,
    KING_CODE,
    KNIGHT_CODE,
    PAWN_CODE,
    PEGASUS_CODE,
    QUEEN_CODE,
    ROOK_CODE,
    WYVERN_CODE,
)
from ..core.state import RIGHT_KING, RIGHT_KINGS_ROOK, RIGHT_QUEENS_ROOK

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer in the compiled build (docs/engine.md, Speed); int here

CENTRE: Final = (7, 14)
"""F14, the central hex, as (column index, line)."""
RADIUS: Final = 7
"""The board's radius in hex steps: every hex is at most 7 steps from F14."""


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Orthogonal steps between two hexes given as (column index, line).

    Columns carry every other line, so an orthogonal step moves one column
    and one line, or two lines along a column.
    """
    dc = abs(a[0] - b[0])
    dl = abs(a[1] - b[1])
    return dc + max(0, (dl - dc) // 2)


def _coords(h: int) -> tuple[int, int]:
    return COLUMN[h], LINE[h]


CENTRALITY: Final[tuple[int, ...]] = tuple(RADIUS - hex_distance(_coords(h), CENTRE) for h in HEXES)
"""Per hex, 7 on F14 down to 0 on the rim."""
HOME_DISTANCE: Final[tuple[int, ...]] = tuple(hex_distance(_coords(h), _coords(KING_HOME[0])) for h in HEXES)
"""Per hex, the steps from White's King's initial hex G1."""


def _promotion_of_column() -> dict[int, int]:
    return {COLUMN[h]: h for h in PROMOTION_HEXES[0]}


_WHITE_PROMOTION: Final = _promotion_of_column()
STEPS_TO_PROMOTION: Final[tuple[int, ...]] = tuple((LINE[_WHITE_PROMOTION[COLUMN[h]]] - LINE[h]) // 2 for h in HEXES)
"""Per hex, the single steps up its column a White pawn still needs to promote (negative never happens)."""
MOVES_TO_PROMOTION: Final[tuple[int, ...]] = tuple((steps + 1) // 2 for steps in STEPS_TO_PROMOTION)
"""Per hex, the moves a White pawn needs at best: a pawn may double-step from any hex (RULES.md 6.1)."""
PROMOTION_COLOUR: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(HEX_COLOUR[_WHITE_PROMOTION[COLUMN[h]]] for h in HEXES),
    tuple(HEX_COLOUR[mirror(_WHITE_PROMOTION[COLUMN[h]])] for h in HEXES),
)
"""Per side and hex, the tile colour of that side's promotion hex in the hex's column: it decides which Bishop
a pawn there may regain (the colours are not symmetric: line 28 is white, line 0 black)."""

_SLIDES: Final[dict[int, tuple[tuple[tuple[int, ...], ...], ...]]] = {
    BISHOP_CODE: DIAGONAL_RAYS,
    PEGASUS_CODE: DIAGONAL_RAYS,
    ROOK_CODE: ORTHOGONAL_RAYS,
    WYVERN_CODE: ORTHOGONAL_RAYS,
    QUEEN_CODE: ALL_RAYS,
}
_JUMPERS: Final = frozenset((KNIGHT_CODE, PEGASUS_CODE, WYVERN_CODE))

PAWN_START_STEPS: Final = 10
"""Steps to promotion of a pawn on its initial line (F8 has 10, the others 9): advancement counts from there."""


@dataclass(frozen=True)
class Weights:
    """Every number of the evaluation, in centipawns (a pawn is 100).

    The material values are the reference code's (D 15, V 14, R 11, G 8,
    N 4, J 3, E 2, P 1; RULES.md 15, R1).  RULES.md 4.2, the rules page, gives
    D 16, V 15, R 10 and a point for the three Bishops; a Texel fit of
    ``scripts/texel.py`` leaned that way but did not predict held-out games
    better, so the reference code's stay (docs/engine.md).  The rest come
    from two SPSA self-play runs of ``scripts/tune_engine.py`` (360 game
    pairs), which beat the hand-set first values 60% of 120 games at 1500
    nodes a move and 65% of 40 games at 100 ms a move.  The docstrings say
    what each term rewards.
    """

    pawn: int = 100
    elephant: int = 200
    bishop: int = 300
    knight: int = 400
    pegasus: int = 800
    rook: int = 1100
    wyvern: int = 1400
    queen: int = 1500

    centre_pawn: int = 5
    """Per step closer to F14, for a pawn (middlegame)."""
    centre_elephant: int = 0
    centre_knight: int = 8
    """Knights jump a fixed distance: from the rim they reach few hexes."""
    centre_bishop: int = 1
    centre_pegasus: int = 1
    centre_rook: int = 5
    centre_wyvern: int = 2
    centre_queen: int = 8
    centre_endgame: int = 0
    """Every piece but the King, per step closer to the centre, in the endgame."""
    pawn_advance: int = 5
    """Per single step a pawn has advanced up its column, middlegame."""
    pawn_advance_endgame: int = 23

    promotion_near: int = 202
    """Per mille of the best piece a pawn could regain, for a pawn one move from promoting."""
    promotion_two: int = 80
    """The same, two moves from promoting."""
    promotion_three: int = 32
    awaiting: int = 74
    """What a pawn one move from (or on) its promotion hex is worth extra when nothing is regainable yet:
    the opponent cannot take a piece without letting it promote."""

    bishop_pair: int = 35
    """Two Bishops (of different colours, necessarily) working together."""
    bishop_trio: int = 53
    """All three Bishops (SPSA-tuned; RULES.md 4.2 gives the trio one extra point, which would be 100)."""
    bad_bishop: int = 13
    """Per own pawn standing on the colour of one of the side's Bishops, which it blocks."""

    king_home: int = 23
    """Per step the King stands from its initial hex in the middlegame."""
    king_centre_endgame: int = 3
    """Per step closer to the centre for the King in the endgame."""
    king_shelter: int = 28
    """Per own piece next to the King (up to six), scaled by the enemy's attacking material."""
    kings_leap: int = 66
    """An unmoved King keeps its leap (and castling): flexibility worth keeping for a while."""
    castling_rook: int = 8
    """Per Rook that may still castle."""

    mobility: int = 0
    """Per hex a Knight, Bishop, Pegasus, Rook, Wyvern or Queen can move to (0: not computed, it costs time)."""
    tempo: int = 8
    """The side to move is better off than the same position with the other side to move."""

    def piece_value(self, kind: int) -> int:
        """The material value of a piece type (the King has none)."""
        return _value(self, kind)

    def scaled(self, name: str, factor: float) -> Weights:
        """A copy with one weight multiplied by ``factor`` (for tuning)."""
        return replace(self, **{name: round(getattr(self, name) * factor)})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


_VALUE_FIELDS: Final[dict[int, str]] = {
    PAWN_CODE: "pawn",
    ELEPHANT_CODE: "elephant",
    BISHOP_CODE: "bishop",
    KNIGHT_CODE: "knight",
    PEGASUS_CODE: "pegasus",
    ROOK_CODE: "rook",
    WYVERN_CODE: "wyvern",
    QUEEN_CODE: "queen",
}


def _value(weights: Weights, kind: int) -> int:
    return 0 if kind == KING_CODE else int(getattr(weights, _VALUE_FIELDS[kind]))


# Index of a piece in the material counters: its type, except that Bishops
# are counted per tile colour (9, 10, 11) so the pool knows which may return.
COUNTERS_PER_SIDE: Final = 12


def counter_index(code: int, h: int) -> int:
    """Where the piece ``code`` standing on ``h`` is counted in a :class:`SearchBoard`'s material counters."""
    kind = abs(code)
    slot = 9 + HEX_COLOUR[h] if kind == BISHOP_CODE else kind
    return slot if code > 0 else COUNTERS_PER_SIDE + slot


@dataclass(frozen=True)
class Tables:
    """The per-hex tables a :class:`Weights` gives, indexed by board code (``code + 9``) then hex."""

    weights: Weights
    middlegame: tuple[tuple[int, ...], ...]
    endgame: tuple[tuple[int, ...], ...]
    promotion: tuple[tuple[int, ...], ...]
    """Per code and hex, a pawn's promotion prospects in per mille (0 for every other piece)."""
    values: tuple[int, ...]
    """Per board code (``code + 9``), the material value, unsigned."""
    phase_full: int
    """The phase material (court pieces, both sides) of the start: the middlegame at its fullest."""
    attack_full: int
    """One side's attacking material at the start (Pegasi, Rooks, Wyvern, Queen): what a King fears most."""
    regain_order: tuple[tuple[int, int], ...]
    """The regainable types by decreasing value, with the number a side starts with."""

    @classmethod
    def build(cls, weights: Weights | None = None) -> Tables:
        w = weights or Weights()
        centre: dict[int, int] = {
            PAWN_CODE: w.centre_pawn,
            ELEPHANT_CODE: w.centre_elephant,
            BISHOP_CODE: w.centre_bishop,
            KNIGHT_CODE: w.centre_knight,
            PEGASUS_CODE: w.centre_pegasus,
            ROOK_CODE: w.centre_rook,
            WYVERN_CODE: w.centre_wyvern,
            QUEEN_CODE: w.centre_queen,
        }
        prospects = {1: w.promotion_near, 2: w.promotion_two, 3: w.promotion_three}
        middlegame: list[tuple[int, ...]] = []
        endgame: list[tuple[int, ...]] = []
        promotion: list[tuple[int, ...]] = []
        for code in range(-9, 10):
            kind = abs(code)
            mg = [0] * len(HEXES)
            eg = [0] * len(HEXES)
            pr = [0] * len(HEXES)
            if kind:
                sign = 1 if code > 0 else -1
                for h in HEXES:
                    white_h = h if code > 0 else mirror(h)  # the same hex seen from White's side
                    if kind == KING_CODE:
                        m = -w.king_home * HOME_DISTANCE[white_h]
                        e = w.king_centre_endgame * CENTRALITY[white_h]
                    else:
                        value = _value(w, kind)
                        m = value + centre[kind] * CENTRALITY[white_h]
                        e = value + w.centre_endgame * CENTRALITY[white_h]
                        if kind == PAWN_CODE:
                            advanced = PAWN_START_STEPS - STEPS_TO_PROMOTION[white_h]
                            m += w.pawn_advance * advanced
                            e += w.pawn_advance_endgame * advanced
                            moves = MOVES_TO_PROMOTION[white_h]
                            pr[h] = 1000 if moves == 0 else prospects.get(moves, 0)
                    mg[h] = sign * m
                    eg[h] = sign * e
            middlegame.append(tuple(mg))
            endgame.append(tuple(eg))
            promotion.append(tuple(pr))
        values = tuple(_value(w, abs(code)) if code else 0 for code in range(-9, 10))
        start_counts: dict[int, int] = {
            BISHOP_CODE: 3,
            KNIGHT_CODE: 2,
            PEGASUS_CODE: 2,
            ROOK_CODE: 2,
            WYVERN_CODE: 1,
            QUEEN_CODE: 1,
        }
        phase_full = 2 * sum(_value(w, kind) * n for kind, n in start_counts.items())
        attack_full = sum(
            _value(w, kind) * n for kind, n in start_counts.items() if kind not in (BISHOP_CODE, KNIGHT_CODE)
        )
        order = sorted(
            ((QUEEN_CODE, 1), (WYVERN_CODE, 1), (ROOK_CODE, 2), (PEGASUS_CODE, 2), (KNIGHT_CODE, 2)),
            key=lambda t: -_value(w, t[0]),
        )
        return cls(
            w, tuple(middlegame), tuple(endgame), tuple(promotion), values, phase_full, attack_full, tuple(order)
        )


DEFAULT_TABLES: Final = Tables.build()


def best_regain(tables: Tables, counters: tuple[int, ...], side: int, colour: int) -> int:
    """The value of the best piece a pawn of ``side`` could regain on a promotion hex of tile ``colour``, or 0."""
    base = side * COUNTERS_PER_SIDE
    for kind, start in tables.regain_order:
        if counters[base + kind] < start:
            return tables.values[kind + 9]
    if not counters[base + 9 + colour]:
        return tables.values[BISHOP_CODE + 9]
    return 0


def evaluate_parts(
    tables: Tables,
    middlegame: int,
    endgame: int,
    counters: tuple[int, ...],
    prospects: tuple[int, ...],
    board: list[int],
    kings: tuple[int, int],
    rights: int,
    pieces: tuple[set[int], set[int]] | None = None,
) -> int:
    """The evaluation from White's side, from the incremental sums and the board.

    ``pieces`` (the hexes of each side's pieces) is needed only when the
    mobility weight is not 0.

    ``prospects`` holds, per side and promotion-hex colour, the sum of its
    pawns' promotion prospects (per mille), then per side and tile colour the
    number of its pawns standing on that colour.
    """
    w = tables.weights
    values = tables.values
    phase_material = 0
    attack = [0, 0]  # per side, its attacking material (what threatens the other King)
    for side in (0, 1):
        base = side * COUNTERS_PER_SIDE
        for kind in (KNIGHT_CODE, PEGASUS_CODE, ROOK_CODE, WYVERN_CODE, QUEEN_CODE):
            n = counters[base + kind]
            if n:
                value = values[kind + 9] * n
                phase_material += value
                if kind != KNIGHT_CODE:
                    attack[side] += value
        bishops = counters[base + 9] + counters[base + 10] + counters[base + 11]
        phase_material += values[BISHOP_CODE + 9] * bishops
    phase_full = tables.phase_full
    phase = min(phase_material, phase_full)
    blend = middlegame * phase + endgame * (phase_full - phase)
    score = blend // phase_full if blend >= 0 else -(-blend // phase_full)  # rounded the same for both sides

    for side in (0, 1):
        sign: i64 = 1 - 2 * side
        base = side * COUNTERS_PER_SIDE
        extra = 0
        # Pawns near their promotion hex, by what they would bring back.
        for colour in (0, 1, 2):
            near = prospects[side * 3 + colour]
            if near:
                regain = best_regain(tables, counters, side, colour)
                extra += near * (regain - w.pawn if regain else w.awaiting) // 1000
        # Bishops: pair, trio, and the own pawns on their colours.
        bishops = 0
        for colour in (0, 1, 2):
            if counters[base + 9 + colour]:
                bishops += 1
                extra -= w.bad_bishop * prospects[6 + side * 3 + colour]
        if bishops == 3:
            extra += w.bishop_trio
        elif bishops == 2:
            extra += w.bishop_pair
        # The King: its shelter against the enemy's attacking pieces, and its rights.
        king = kings[side]
        shelter = 0
        for x in NEIGHBOURS[king]:
            if board[x] * sign > 0:
                shelter += 1
        danger = attack[1 - side]
        extra += w.king_shelter * min(shelter, 6) * danger // tables.attack_full
        if rights & RIGHT_KING[side]:
            bonus = w.kings_leap
            if rights & RIGHT_QUEENS_ROOK[side]:
                bonus += w.castling_rook
            if rights & RIGHT_KINGS_ROOK[side]:
                bonus += w.castling_rook
            extra += bonus * phase // phase_full
        if w.mobility and pieces is not None:
            extra += w.mobility * mobility(board, pieces[side], sign)
        score += sign * extra
    return score


def mobility(board: list[int], hexes: set[int], sign: int) -> int:
    """How many hexes the court pieces (not King, troops) on ``hexes`` can move to; ``sign`` is their side's."""
    count = 0
    for h in hexes:
        kind = board[h] * sign
        if kind < BISHOP_CODE or kind == KING_CODE:
            continue
        if kind != KNIGHT_CODE:
            for ray in _SLIDES[kind][h]:
                for x in ray:
                    piece = board[x]
                    if piece:
                        if piece * sign < 0:
                            count += 1
                        break
                    count += 1
        if kind in _JUMPERS:
            for x in KNIGHT_JUMPS[h]:
                if board[x] * sign <= 0:
                    count += 1
    return count


__all__ = [
    "DEFAULT_TABLES",
    "Tables",
    "Weights",
    "best_regain",
    "counter_index",
    "evaluate_parts",
    "hex_distance",
]

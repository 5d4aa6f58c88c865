"""Board geometry of C'escacs, computed once at import time.

The board is a regular hexagon of 169 hexes (RULES.md 2).  A hex is named by
its CTL coordinate: a column letter ``P T A B C D E F G H I K L X Z`` followed
by a transversal line number ``0``-``28`` (``F0``, ``E13``, ``T22``).

Internally a hex is a small integer, its *index*: hexes are numbered line by
line from White's side (line 0 first), left to right inside a line, so ``F0``
is 0 and ``F28`` is 168.  Every table below is a tuple indexed by hex, so the
move generator never computes a coordinate: it only follows precomputed
neighbour lists and rays, which is what makes a pure-Python generator fast.
"""

from __future__ import annotations

from typing import Final

COLUMNS: Final = "PTABCDEFGHIKLXZ"
"""Column letters from White's left (index 0) to White's right (index 14)."""

LINES: Final = 29
"""Transversal lines are numbered 0 (White's corner) to 28 (Black's corner)."""

WHITE_HEX: Final = 0
BLACK_HEX: Final = 1
COLOUR_HEX: Final = 2
HEX_COLOUR_NAMES: Final = ("white", "black", "colour")
"""The three tile colours; ``COLOUR_HEX`` is the middle tone the rules call *colour*."""


def _exists(column: int, line: int) -> bool:
    """RULES.md 2.4: the hex ``(column, line)`` is on the board."""
    if not (0 <= column < 15 and 0 <= line < LINES):
        return False
    if (column % 2 == 1) != (line % 2 == 0):
        return False
    if column <= 7:
        return 7 - column <= line <= 21 + column
    return column - 7 <= line <= 35 - column


_COORDS: Final[tuple[tuple[int, int], ...]] = tuple(
    (column, line) for line in range(LINES) for column in range(15) if _exists(column, line)
)
HEX_COUNT: Final = len(_COORDS)
assert HEX_COUNT == 169

HEXES: Final = range(HEX_COUNT)
COLUMN: Final[tuple[int, ...]] = tuple(c for c, _ in _COORDS)
"""Column index (0-14) of each hex."""
LINE: Final[tuple[int, ...]] = tuple(ln for _, ln in _COORDS)
"""Line number (0-28) of each hex."""
HEX_NAMES: Final[tuple[str, ...]] = tuple(f"{COLUMNS[c]}{ln}" for c, ln in _COORDS)
_INDEX: Final[dict[tuple[int, int], int]] = {coord: i for i, coord in enumerate(_COORDS)}
_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(HEX_NAMES)}

HEX_COLOUR: Final[tuple[int, ...]] = tuple((BLACK_HEX, WHITE_HEX, COLOUR_HEX)[ln % 3] for _, ln in _COORDS)
"""Tile colour of each hex: it depends only on the line (RULES.md 2.5)."""

LINE_HEXES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, (_, ln) in enumerate(_COORDS) if ln == line) for line in range(LINES)
)
"""The hexes of each transversal line, left to right (the PDTL order)."""


def hex_at(column: int, line: int) -> int | None:
    """The index of the hex at ``(column, line)``, or ``None`` off the board."""
    return _INDEX.get((column, line))


def parse_hex(name: str) -> int:
    """The index of the hex named ``name`` (``"F14"``); ``ValueError`` if there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a hex of the C'escacs board") from None


def find_hex(name: str) -> int | None:
    """Like :func:`parse_hex`, but ``None`` instead of an exception."""
    return _BY_NAME.get(name)


# --- Directions (RULES.md 3) -------------------------------------------------

ORTHOGONAL_DIRECTIONS: Final = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
"""O1-O6: up and down the column, then the four oblique-file steps."""
DIAGONAL_DIRECTIONS: Final = ((2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3))
"""D1-D6: along the cross-line, then the four steep diagonals."""
KNIGHT_JUMPS: Final = (
    (3, 1), (3, -1), (-3, 1), (-3, -1), (2, 4), (1, 5),
    (2, -4), (1, -5), (-2, 4), (-1, 5), (-2, -4), (-1, -5),
)  # fmt: skip
"""J1-J12: one diagonal step plus one of the two orthogonal steps flanking it."""

FORWARD: Final = ((0, 2), (0, -2))
"""Forward along the column, per side (White, Black)."""
FORWARD_OBLIQUE: Final = (((1, 1), (-1, 1)), ((1, -1), (-1, -1)))
FORWARD_DIAGONAL: Final = (((1, 3), (-1, 3)), ((1, -3), (-1, -3)))
STEEP_DIAGONALS: Final = ((1, 3), (1, -3), (-1, 3), (-1, -3))


_STEP_TABLES: dict[tuple[int, int], tuple[int | None, ...]] = {}
_RAY_TABLES: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _steps(delta: tuple[int, int]) -> tuple[int | None, ...]:
    """Per hex, the hex one ``delta`` away (``None`` off the board); built once per delta."""
    table = _STEP_TABLES.get(delta)
    if table is None:
        table = _STEP_TABLES[delta] = tuple(_INDEX.get((c + delta[0], ln + delta[1])) for c, ln in _COORDS)
    return table


def _rays(delta: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Per hex, the hexes in direction ``delta`` up to the edge, nearest first; built once per delta."""
    table = _RAY_TABLES.get(delta)
    if table is None:
        step = _steps(delta)
        rays = []
        for h in HEXES:
            ray = []
            nxt = step[h]
            while nxt is not None:
                ray.append(nxt)
                nxt = step[nxt]
            rays.append(tuple(ray))
        table = _RAY_TABLES[delta] = tuple(rays)
    return table


def _targets(deltas: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Per hex, the hexes one step of each of ``deltas`` away that are on the board, in ``deltas`` order."""
    return tuple(tuple(t for t in reached if t is not None) for reached in zip(*map(_steps, deltas), strict=True))


def _non_empty_rays(directions: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(r for r in rays if r) for rays in zip(*map(_rays, directions), strict=True))


ORTHOGONAL_RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = _non_empty_rays(ORTHOGONAL_DIRECTIONS)
"""Per hex, the non-empty orthogonal rays, nearest hex first (Rook lines)."""
DIAGONAL_RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = _non_empty_rays(DIAGONAL_DIRECTIONS)
"""Per hex, the non-empty diagonal rays, nearest hex first (Bishop lines)."""
ALL_RAYS: Final = tuple(o + d for o, d in zip(ORTHOGONAL_RAYS, DIAGONAL_RAYS, strict=True))
"""Per hex, orthogonal rays then diagonal rays (Queen lines)."""

KNIGHT: Final[tuple[tuple[int, ...], ...]] = _targets(KNIGHT_JUMPS)
"""Per hex, the hexes one knight jump away (also the King's leap)."""
KNIGHT_SET: Final = tuple(frozenset(t) for t in KNIGHT)

_JUMPS: Final = tuple(map(_steps, KNIGHT_JUMPS))
RIDES: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((middle, end) for jump in _JUMPS if (middle := jump[h]) is not None and (end := jump[middle]) is not None)
    for h in HEXES
)
"""Per hex, the Knight's rides as ``(intermediate hex, destination)`` (RULES.md 3.4)."""

ORTHOGONAL_NEIGHBOURS: Final = _targets(ORTHOGONAL_DIRECTIONS)
DIAGONAL_NEIGHBOURS: Final = _targets(DIAGONAL_DIRECTIONS)
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    o + d for o, d in zip(ORTHOGONAL_NEIGHBOURS, DIAGONAL_NEIGHBOURS, strict=True)
)
"""Per hex, its up to 12 adjacent hexes: the King's steps."""
NEIGHBOUR_SET: Final = tuple(frozenset(n) for n in NEIGHBOURS)

# --- Troops: pawns and elephants, per side --------------------------------

_TRIPLE_STEP_NAMES: Final = (
    ("B4", "C5", "D6", "E7", "G7", "H6", "I5", "K4"),
    ("B24", "C23", "D22", "E21", "G21", "H22", "I23", "K24"),
)
TRIPLE_STEP_HEXES: Final = tuple(frozenset(_BY_NAME[n] for n in names) for names in _TRIPLE_STEP_NAMES)
"""RULES.md 6.2: a pawn of that side standing here may advance three hexes."""

PROMOTION_HEXES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        i
        for i, (c, ln) in enumerate(_COORDS)
        if ln == (21 + c if c <= 7 else 35 - c) * (1 - side) + (7 - c if c <= 7 else c - 7) * side
    )
    for side in (0, 1)
)
"""RULES.md 6.6: the last hex of each column in a side's forward direction."""
IS_PROMOTION: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(h in promotion for h in HEXES) for promotion in map(frozenset, PROMOTION_HEXES)
)

PAWN_FORWARD: Final = tuple(
    tuple(ray[: 3 if h in TRIPLE_STEP_HEXES[side] else 2] for h, ray in enumerate(_rays(FORWARD[side])))
    for side in (0, 1)
)
"""Per side and hex: the hexes a pawn may advance through, nearest first (two, or three on a triple-step hex)."""
PAWN_OBLIQUE: Final = tuple(_targets(FORWARD_OBLIQUE[side]) for side in (0, 1))
PAWN_CAPTURES: Final = tuple(_targets(FORWARD_DIAGONAL[side]) for side in (0, 1))


def _inverse(table: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """From "hexes reached from h" to "hexes from which h is reached"."""
    sources: list[list[int]] = [[] for _ in HEXES]
    for origin, targets in enumerate(table):
        for t in targets:
            sources[t].append(origin)
    return tuple(tuple(s) for s in sources)


PAWN_ATTACKERS: Final = tuple(_inverse(PAWN_CAPTURES[side]) for side in (0, 1))
"""Per side and hex: where a pawn of that side would stand to attack the hex."""

FACING: Final = tuple(_steps(FORWARD[side]) for side in (0, 1))
"""Per side and hex: the hex straight ahead of a pawn of that side, where an enemy pawn would face it."""

ELEPHANT_NEAR: Final = tuple(_targets((FORWARD[side], *STEEP_DIAGONALS)) for side in (0, 1))
"""Per side and hex: the Elephant's one-hex moves (forward, four steep diagonals)."""
ELEPHANT_FAR: Final = tuple(
    tuple((ray[0], ray[1]) if len(ray) >= 2 else None for ray in _rays(FORWARD[side])) for side in (0, 1)
)
"""Per side and hex: ``(intermediate, destination)`` of the two-hex advance, or ``None``."""
ELEPHANT_NEAR_ATTACKERS: Final = tuple(_inverse(ELEPHANT_NEAR[side]) for side in (0, 1))
ELEPHANT_FAR_ATTACKER: Final = tuple(
    tuple((ray[1], ray[0]) if len(ray) >= 2 else None for ray in _rays(FORWARD[1 - side])) for side in (0, 1)
)
"""Per side and hex: ``(elephant hex, intermediate)`` from which an Elephant of that side reaches it in two."""

# --- The King ------------------------------------------------------------------

KING_HOME: Final = (_BY_NAME["G1"], _BY_NAME["G27"])
QUEENS_ROOK_HOME: Final = (_BY_NAME["C3"], _BY_NAME["C25"])
KINGS_ROOK_HOME: Final = (_BY_NAME["I3"], _BY_NAME["I25"])


def mirror(h: int) -> int:
    """The hex reflected across the midline (Black's view of White's hex)."""
    c, ln = _COORDS[h]
    return _INDEX[(c, 28 - ln)]

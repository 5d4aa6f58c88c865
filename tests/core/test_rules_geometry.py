"""RULES.md 2-3: the board, its coordinates and colours, and the basic geometry.

Expected values are the tables and examples printed in RULES.md, or are
recomputed here from the formulas and offset tables of the rules text (never
from the core's own tables).
"""

from __future__ import annotations

import pytest

from cescacs_tui.core import HEX_NAMES, Position, parse_hex
from cescacs_tui.core.geometry import (
    DIAGONAL_NEIGHBOURS,
    HEX_COLOUR,
    HEX_COLOUR_NAMES,
    KNIGHT,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    RIDES,
)

COLUMNS = "PTABCDEFGHIKLXZ"  # RULES.md 2.2, index 0 to 14


def exists(c: int, line: int) -> bool:
    """RULES.md 2.4, the formula as printed."""
    if not (0 <= c <= 14 and 0 <= line <= 28):
        return False
    if (c % 2 == 1) != (line % 2 == 0):
        return False
    if c <= 7:
        return 7 - c <= line <= 21 + c
    return c - 7 <= line <= 35 - c


def name(c: int, line: int) -> str:
    return f"{COLUMNS[c]}{line}"


def coords(hex_name: str) -> tuple[int, int]:
    return COLUMNS.index(hex_name[0]), int(hex_name[1:])


def step(hex_name: str | None, offset: tuple[int, int]) -> str | None:
    if hex_name is None:
        return None
    c, line = coords(hex_name)
    c, line = c + offset[0], line + offset[1]
    return name(c, line) if exists(c, line) else None


ALL_HEXES = [name(c, line) for line in range(29) for c in range(15) if exists(c, line)]

# RULES.md 2.4, "Per line" table, copied verbatim (line: hexes left to right, colour).
LINE_TABLE = """
28 | F28 | white
27 | E27 G27 | black
26 | D26 F26 H26 | colour
25 | C25 E25 G25 I25 | white
24 | B24 D24 F24 H24 K24 | black
23 | A23 C23 E23 G23 I23 L23 | colour
22 | T22 B22 D22 F22 H22 K22 X22 | white
21 | P21 A21 C21 E21 G21 I21 L21 Z21 | black
20 | T20 B20 D20 F20 H20 K20 X20 | colour
19 | P19 A19 C19 E19 G19 I19 L19 Z19 | white
18 | T18 B18 D18 F18 H18 K18 X18 | black
17 | P17 A17 C17 E17 G17 I17 L17 Z17 | colour
16 | T16 B16 D16 F16 H16 K16 X16 | white
15 | P15 A15 C15 E15 G15 I15 L15 Z15 | black
14 | T14 B14 D14 F14 H14 K14 X14 | colour
13 | P13 A13 C13 E13 G13 I13 L13 Z13 | white
12 | T12 B12 D12 F12 H12 K12 X12 | black
11 | P11 A11 C11 E11 G11 I11 L11 Z11 | colour
10 | T10 B10 D10 F10 H10 K10 X10 | white
9 | P9 A9 C9 E9 G9 I9 L9 Z9 | black
8 | T8 B8 D8 F8 H8 K8 X8 | colour
7 | P7 A7 C7 E7 G7 I7 L7 Z7 | white
6 | T6 B6 D6 F6 H6 K6 X6 | black
5 | A5 C5 E5 G5 I5 L5 | colour
4 | B4 D4 F4 H4 K4 | white
3 | C3 E3 G3 I3 | black
2 | D2 F2 H2 | colour
1 | E1 G1 | white
0 | F0 | black
"""
LINES = {
    int(line): (hexes.split(), colour)
    for line, hexes, colour in ((part.strip() for part in row.split("|")) for row in LINE_TABLE.strip().splitlines())
}

# RULES.md 2.4, "Per column" table: column -> (first line, last line, hexes).
COLUMN_TABLE = {
    "P": (7, 21, 8),
    "T": (6, 22, 9),
    "A": (5, 23, 10),
    "B": (4, 24, 11),
    "C": (3, 25, 12),
    "D": (2, 26, 13),
    "E": (1, 27, 14),
    "F": (0, 28, 15),
    "G": (1, 27, 14),
    "H": (2, 26, 13),
    "I": (3, 25, 12),
    "K": (4, 24, 11),
    "L": (5, 23, 10),
    "X": (6, 22, 9),
    "Z": (7, 21, 8),
}

# RULES.md 3.1-3.4 offset tables.
ORTHOGONAL = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DIAGONAL = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)]
JUMPS = [(3, 1), (3, -1), (-3, 1), (-3, -1), (2, 4), (1, 5), (2, -4), (1, -5), (-2, 4), (-1, 5), (-2, -4), (-1, -5)]


def names(indices) -> set[str]:
    return {HEX_NAMES[h] for h in indices}


def colour_of(hex_name: str) -> str:
    return HEX_COLOUR_NAMES[HEX_COLOUR[parse_hex(hex_name)]]


# --- 2.1 / 2.4: which hexes exist ---------------------------------------------------------------


def test_board_has_169_hexes():
    assert len(HEX_NAMES) == 169
    assert len(set(HEX_NAMES)) == 169
    assert len(ALL_HEXES) == 169
    assert set(HEX_NAMES) == set(ALL_HEXES)


def test_every_hex_of_the_line_table_exists_and_no_other():
    from_table = {h for hexes, _ in LINES.values() for h in hexes}
    assert len(from_table) == 169
    assert from_table == set(HEX_NAMES)


@pytest.mark.parametrize("line", range(29))
def test_hexes_per_line_match_table(line):
    hexes, _ = LINES[line]
    assert [h for h in HEX_NAMES if int(h[1:]) == line] == hexes


def test_long_lines_alternate_seven_and_eight_hexes():
    for line in range(6, 23):
        assert len(LINES[line][0]) == (7 if line % 2 == 0 else 8)
    assert [len(LINES[line][0]) for line in range(6)] == [1, 2, 3, 4, 5, 6]
    assert [len(LINES[line][0]) for line in range(23, 29)] == [6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("column", list(COLUMN_TABLE))
def test_hexes_per_column_match_table(column):
    first, last, count = COLUMN_TABLE[column]
    lines = sorted(int(h[1:]) for h in HEX_NAMES if h[0] == column)
    assert len(lines) == count
    assert lines == list(range(first, last + 1, 2))


def test_fifteen_columns_and_no_column_j():
    assert {h[0] for h in HEX_NAMES} == set(COLUMNS)
    assert len(COLUMNS) == 15
    with pytest.raises(ValueError):
        parse_hex("J14")


@pytest.mark.parametrize("column", list(COLUMNS))
def test_column_parity_odd_index_columns_carry_even_lines(column):
    index = COLUMNS.index(column)
    parities = {int(h[1:]) % 2 for h in HEX_NAMES if h[0] == column}
    assert parities == ({0} if index % 2 == 1 else {1})


@pytest.mark.parametrize("bad", ["F1", "P5", "T7", "E0", "F29", "P23", "Z5", "A4", "G28", "X24", "f14", "F014", "F"])
def test_hexes_off_the_board_do_not_exist(bad):
    with pytest.raises(ValueError):
        parse_hex(bad)


@pytest.mark.parametrize("good", ["F0", "E13", "T22", "P7", "Z21", "F28", "P21", "Z7"])
def test_ctl_coordinates_name_existing_hexes(good):
    assert HEX_NAMES[parse_hex(good)] == good


def test_three_longest_files_cross_at_f14():
    # column F and the two oblique files through the centre have 15 hexes each
    assert len([h for h in HEX_NAMES if h[0] == "F"]) == 15
    for offset in [(1, 1), (1, -1)]:
        back = (-offset[0], -offset[1])
        run = ["F14"]
        for direction in (offset, back):
            h: str | None = "F14"
            while (h := step(h, direction)) is not None:
                run.append(h)
        assert len(run) == 15


# --- 2.5: hex colour ------------------------------------------------------------------------


@pytest.mark.parametrize("line", range(29))
def test_hex_colour_depends_only_on_line(line):
    hexes, colour = LINES[line]
    assert {colour_of(h) for h in hexes} == {colour}
    assert colour == {0: "black", 1: "white", 2: "colour"}[line % 3]


def test_colour_counts_57_white_57_black_55_colour():
    counts = {"white": 0, "black": 0, "colour": 0}
    for h in HEX_NAMES:
        counts[colour_of(h)] += 1
    assert counts == {"white": 57, "black": 57, "colour": 55}


def test_named_hex_colours():
    assert colour_of("F14") == "colour"
    assert colour_of("G1") == colour_of("E1") == "white"  # White's King and Queen
    assert colour_of("G27") == colour_of("E27") == "black"  # Black's King and Queen
    assert colour_of("F0") == "black"
    assert colour_of("F28") == "white"
    assert colour_of("P7") == colour_of("Z7") == "white"
    assert colour_of("P21") == colour_of("Z21") == "black"


def test_edge_adjacent_hexes_differ_in_colour():
    for h in ALL_HEXES:
        for offset in ORTHOGONAL:
            other = step(h, offset)
            if other is not None:
                assert colour_of(h) != colour_of(other), (h, other)


def test_diagonal_step_keeps_colour():
    for h in ALL_HEXES:
        for offset in DIAGONAL:
            other = step(h, offset)
            if other is not None:
                assert colour_of(h) == colour_of(other), (h, other)


def test_knight_jump_always_changes_colour():
    for h in ALL_HEXES:
        for other in names(KNIGHT[parse_hex(h)]):
            assert colour_of(h) != colour_of(other), (h, other)


# --- 3.1-3.4: the geometry of F14 as printed ----------------------------------------------------


def test_orthogonal_neighbours_of_f14():
    assert names(ORTHOGONAL_NEIGHBOURS[parse_hex("F14")]) == {"F16", "F12", "G15", "G13", "E15", "E13"}


def test_diagonal_neighbours_of_f14():
    assert names(DIAGONAL_NEIGHBOURS[parse_hex("F14")]) == {"H14", "D14", "G17", "G11", "E17", "E11"}


def test_f14_has_twelve_adjacent_hexes():
    assert names(NEIGHBOURS[parse_hex("F14")]) == {
        *("F16", "F12", "G15", "G13", "E15", "E13"),
        *("H14", "D14", "G17", "G11", "E17", "E11"),
    }


def test_knight_jumps_of_f14():
    expected = set(["C13", "C15", "D10", "E9", "D18", "E19", "G9", "H10", "G19", "H18", "I13", "I15"])
    assert names(KNIGHT[parse_hex("F14")]) == expected


def test_knight_rides_of_f14_with_intermediate_hexes():
    # RULES.md 3.4 table: (intermediate hex, destination)
    expected = {
        ("I15", "X16"),
        ("I13", "X12"),
        ("C15", "T16"),
        ("C13", "T12"),
        ("H18", "K22"),
        ("G19", "H24"),
        ("H10", "K6"),
        ("G9", "H4"),
        ("D18", "B22"),
        ("E19", "D24"),
        ("D10", "B6"),
        ("E9", "D4"),
    }
    assert {(HEX_NAMES[m], HEX_NAMES[d]) for m, d in RIDES[parse_hex("F14")]} == expected


def test_corner_f0_has_only_on_board_neighbours():
    # a step that leaves the board does not exist
    assert names(NEIGHBOURS[parse_hex("F0")]) == {"F2", "G1", "E1", "G3", "E3"}


@pytest.mark.parametrize("hex_name", ALL_HEXES)
def test_neighbour_and_jump_tables_follow_the_offset_tables(hex_name):
    h = parse_hex(hex_name)
    assert names(ORTHOGONAL_NEIGHBOURS[h]) == {x for o in ORTHOGONAL if (x := step(hex_name, o))}
    assert names(DIAGONAL_NEIGHBOURS[h]) == {x for o in DIAGONAL if (x := step(hex_name, o))}
    assert names(KNIGHT[h]) == {x for o in JUMPS if (x := step(hex_name, o))}
    rides = set()
    for o in JUMPS:
        middle = step(hex_name, o)
        end = step(middle, o) if middle else None
        if end:
            rides.add((middle, end))
    assert {(HEX_NAMES[m], HEX_NAMES[d]) for m, d in RIDES[h]} == rides


def test_knight_jump_is_a_diagonal_plus_a_flanking_orthogonal_step():
    # RULES.md 3.3: each jump is D + O with O one of the two edge directions flanking D
    flanking = {
        (2, 0): [(1, 1), (1, -1)],
        (-2, 0): [(-1, 1), (-1, -1)],
        (1, 3): [(1, 1), (0, 2)],
        (1, -3): [(1, -1), (0, -2)],
        (-1, 3): [(-1, 1), (0, 2)],
        (-1, -3): [(-1, -1), (0, -2)],
    }
    sums = {(d[0] + o[0], d[1] + o[1]) for d, os in flanking.items() for o in os}
    assert sums == set(JUMPS)
    assert (2, 2) not in sums  # D1 + O1 is not a jump


# --- behaviour on the board agrees with the geometry --------------------------------------------


def test_lone_king_on_f14_steps_to_its_twelve_neighbours():
    # kings without rights, far apart: the White King on F14 reaches exactly the 12 adjacent hexes
    position = Position.from_pdtl("/21:7k/14:3K3/ w -- - 0 1")
    targets = {str(m).split("-")[1] for m in position.legal_moves()}
    assert targets == {
        *("F16", "F12", "G15", "G13", "E15", "E13"),
        *("H14", "D14", "G17", "G11", "E17", "E11"),
    }

"""RULES.md 4-5: the pieces, the initial position and how each piece moves.

Positions are built from hand-written placements; the expected destinations
come from the rules text (the offset tables of RULES.md 3, recomputed here),
never from the core.
"""

from __future__ import annotations

from collections.abc import Set

import pytest

from cescacs_tui.core import BLACK, WHITE, Colour, PieceType, Position, parse_hex
from tests.helpers.builders import COLUMNS, exists, moves_from, position


def step(hex_name: str | None, offset: tuple[int, int]) -> str | None:
    if hex_name is None:
        return None
    c, line = COLUMNS.index(hex_name[0]) + offset[0], int(hex_name[1:]) + offset[1]
    return f"{COLUMNS[c]}{line}" if exists(c, line) else None


ORTHOGONAL = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DIAGONAL = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)]
JUMPS = [(3, 1), (3, -1), (-3, 1), (-3, -1), (2, 4), (1, 5), (2, -4), (1, -5), (-2, 4), (-1, 5), (-2, -4), (-1, -5)]


def slides(origin: str, offsets, own: Set[str] = frozenset(), enemy: Set[str] = frozenset()) -> set[str]:
    """RULES.md 3.6: stop on any empty hex, capture the first enemy piece, never pass a piece."""
    out = set()
    for offset in offsets:
        h: str | None = origin
        while (h := step(h, offset)) is not None:
            if h in own:
                break
            out.add(h)
            if h in enemy:
                break
    return out


def jumps(origin: str) -> set[str]:
    return {h for o in JUMPS if (h := step(origin, o))}


# Two Kings without rights that stand on none of the lines, jumps or rides of F14.
KINGS = "KP11 kZ11"


# --- 4.3 the initial position -----------------------------------------------------------------

INITIAL_WHITE = {
    "G1": "K",
    "E1": "D",
    "F0": "V",
    "C3": "R",
    "I3": "R",
    "D2": "G",
    "H2": "G",
    "E3": "N",
    "G3": "N",
    "F2": "J",
    "F4": "J",
    "F6": "J",
    "D4": "E",
    "E5": "E",
    "G5": "E",
    "H4": "E",
    **{h: "P" for h in ["A5", "B4", "C5", "D6", "E7", "F8", "G7", "H6", "I5", "K4", "L5"]},
}
INITIAL_BLACK = {
    "G27": "K",
    "E27": "D",
    "F28": "V",
    "C25": "R",
    "I25": "R",
    "D26": "G",
    "H26": "G",
    "E25": "N",
    "G25": "N",
    "F26": "J",
    "F24": "J",
    "F22": "J",
    "D24": "E",
    "E23": "E",
    "G23": "E",
    "H24": "E",
    **{h: "P" for h in ["A23", "B24", "C23", "D22", "E21", "F20", "G21", "H22", "I23", "K24", "L23"]},
}
LETTER = {"K": "KING", "D": "QUEEN", "V": "WYVERN", "R": "ROOK", "G": "PEGASUS", "N": "KNIGHT", "J": "BISHOP"}
LETTER |= {"E": "ELEPHANT", "P": "PAWN"}
INITIAL_PDTL = (
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP"
    "/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1"
)


def test_initial_position_piece_placement():
    start = Position.initial()
    for h in (f"{COLUMNS[c]}{line}" for line in range(29) for c in range(15) if exists(c, line)):
        piece = start.piece_at(parse_hex(h))
        if h in INITIAL_WHITE:
            assert piece == (PieceType[LETTER[INITIAL_WHITE[h]]], WHITE), h
        elif h in INITIAL_BLACK:
            assert piece == (PieceType[LETTER[INITIAL_BLACK[h]]], BLACK), h
        else:
            assert piece is None, h


def test_initial_position_black_mirrors_white_across_the_midline():
    mirrored = {f"{h[0]}{28 - int(h[1:])}": letter for h, letter in INITIAL_WHITE.items()}
    assert mirrored == INITIAL_BLACK


def test_each_side_starts_with_27_pieces():
    counts = {"K": 1, "D": 1, "V": 1, "R": 2, "G": 2, "N": 2, "J": 3, "E": 4, "P": 11}
    for colour, table in ((WHITE, INITIAL_WHITE), (BLACK, INITIAL_BLACK)):
        assert len(table) == 27
        assert {letter: list(table.values()).count(letter) for letter in counts} == counts
        assert len(list(Position.initial().pieces(colour))) == 27


def test_initial_bishops_one_per_hex_colour():
    # F2 colour, F4 white, F6 black (and F26 colour, F24 black, F22 white)
    assert [int(h[1:]) % 3 for h in ("F2", "F4", "F6")] == [2, 1, 0]
    assert [int(h[1:]) % 3 for h in ("F26", "F24", "F22")] == [2, 0, 1]
    start = Position.initial()
    for h in ("F2", "F4", "F6", "F22", "F24", "F26"):
        assert (piece := start.piece_at(parse_hex(h))) is not None and piece.type == PieceType.BISHOP


def test_initial_position_state():
    start = Position.initial()
    assert start.turn == WHITE
    for colour in Colour:
        assert tuple(start.castling_rights(colour)) == (True, True, True)
    assert start.special is None
    assert start.halfmove_clock == 0
    assert start.fullmove_number == 1
    assert start.to_pdtl() == INITIAL_PDTL
    assert Position.from_pdtl(INITIAL_PDTL) == start


def test_initial_kings_face_each_other_on_column_g():
    start = Position.initial()
    assert start.piece_at(parse_hex("G1")) == (PieceType.KING, WHITE)
    assert start.piece_at(parse_hex("G27")) == (PieceType.KING, BLACK)


def test_initial_pieces_all_protected_except_rooks_and_flank_pawns():
    start = Position.initial()
    for colour, table, unprotected in (
        (WHITE, INITIAL_WHITE, {"C3", "I3", "A5", "L5"}),
        (BLACK, INITIAL_BLACK, {"C25", "I25", "A23", "L23"}),
    ):
        found = {h for h, letter in table.items() if letter != "K" and not start.is_attacked(parse_hex(h), colour)}
        assert found == unprotected


def test_no_leap_nor_castling_on_move_one():
    # all five leap hexes of each King hold own pieces
    start = Position.initial()
    assert all(h in INITIAL_WHITE for h in ("I5", "H6", "F6", "E5", "D2"))
    assert not [m for m in start.legal_moves() if m.origin == parse_hex("G1")]


def test_official_piece_values_give_104_points_per_side():
    # RULES.md 4.2 (guidance only): P1 E2 J3 N4 G8 R10 V15 D16, +1 for all three Bishops
    from cescacs_tui.core.pieces import VALUES

    expected = {"PAWN": 1, "ELEPHANT": 2, "BISHOP": 3, "KNIGHT": 4, "PEGASUS": 8, "ROOK": 10, "WYVERN": 15, "QUEEN": 16}
    assert {PieceType(k).name: v for k, v in VALUES.items() if PieceType(k) != PieceType.KING} == expected
    counts = {"PAWN": 11, "ELEPHANT": 4, "BISHOP": 3, "KNIGHT": 2, "PEGASUS": 2, "ROOK": 2, "WYVERN": 1, "QUEEN": 1}
    assert sum(expected[k] * n for k, n in counts.items()) + 1 == 104


# --- 14.1 the 68 first moves, by group ---------------------------------------------------------

FIRST_MOVES = {
    "pawns": [
        "A5-A7",
        "A5-A9",
        "A5-B6",
        "A5-T6",
        "B4-B6",
        "B4-B8",
        "B4-B10",
        "C5-B6",
        "C5-C7",
        "C5-C9",
        "C5-C11",
        "D6-C7",
        "D6-D8",
        "D6-D10",
        "D6-D12",
        "E7-D8",
        "E7-E9",
        "E7-E11",
        "E7-E13",
        "F8-E9",
        "F8-F10",
        "F8-F12",
        "F8-G9",
        "G7-G9",
        "G7-G11",
        "G7-G13",
        "G7-H8",
        "H6-H8",
        "H6-H10",
        "H6-H12",
        "H6-I7",
        "I5-I7",
        "I5-I9",
        "I5-I11",
        "I5-K6",
        "K4-K6",
        "K4-K8",
        "K4-K10",
        "L5-K6",
        "L5-L7",
        "L5-L9",
        "L5-X6",
    ],
    "elephants": ["ED4-C7", "EE5-D8", "EG5-H8", "EH4-I7"],
    "pegasi": ["GD2-B6", "GD2-C7", "GH2-I7", "GH2-K6"],
    "bishop": [
        "JF6-A21",
        "JF6-B18",
        "JF6-C15",
        "JF6-D12",
        "JF6-E9",
        "JF6-G9",
        "JF6-H12",
        "JF6-I15",
        "JF6-K18",
        "JF6-L21",
    ],
    "knights": ["NE3-A11", "NE3-C7", "NE3-C13", "NE3-D8", "NG3-H8", "NG3-I7", "NG3-I13", "NG3-L11"],
}


def canonical(ctl_an: str) -> str:
    return ctl_an[1:] if ctl_an[1].isalpha() else ctl_an


def test_sixty_eight_first_moves():
    tokens = [t for group in FIRST_MOVES.values() for t in group]
    assert len(tokens) == 68
    assert len(FIRST_MOVES["pawns"]) == 42
    assert sorted(str(m) for m in Position.initial().legal_moves()) == sorted(canonical(t) for t in tokens)


@pytest.mark.parametrize("group", list(FIRST_MOVES))
def test_first_moves_by_group_written_in_ctl_an(group):
    start = Position.initial()
    kind = {"pawns": "PAWN", "elephants": "ELEPHANT", "pegasi": "PEGASUS", "bishop": "BISHOP", "knights": "KNIGHT"}
    written = {start.ctl_an(m) for m in start.legal_moves() if start.moving_piece(m).type == PieceType[kind[group]]}
    assert written == set(FIRST_MOVES[group])


def test_first_knight_moves_include_four_rides():
    start = Position.initial()
    # A11, C13 (from E3) and I13, L11 (from G3) are rides: twice the same jump
    assert {"A11", "C13"} <= moves_from(start, "E3")
    assert {"I13", "L11"} <= moves_from(start, "G3")
    assert step(step("E3", (-2, 4)), (-2, 4)) == "A11"
    assert step(step("E3", (-1, 5)), (-1, 5)) == "C13"
    assert step(step("G3", (1, 5)), (1, 5)) == "I13"
    assert step(step("G3", (2, 4)), (2, 4)) == "L11"


# --- 5.1-5.6 sliders and jumpers ----------------------------------------------------------------


def test_rook_slides_orthogonally_42_hexes_from_f14():
    pos = position(f"{KINGS} RF14")
    assert moves_from(pos, "F14") == slides("F14", ORTHOGONAL)
    assert len(moves_from(pos, "F14")) == 42


def test_rook_slide_stops_before_own_piece_and_captures_first_enemy():
    pos = position(f"{KINGS} RF14 PF18 nH16 pI17")
    found = moves_from(pos, "F14")
    assert found == slides("F14", ORTHOGONAL, own={"F18"}, enemy={"H16", "I17"})
    assert "F16" in found and "F18" not in found and "F20" not in found
    assert "H16" in found and "I17" not in found


def test_bishop_slides_diagonally_18_hexes_from_f14():
    pos = position(f"{KINGS} JF14")
    assert moves_from(pos, "F14") == slides("F14", DIAGONAL)
    assert len(moves_from(pos, "F14")) == 18


def test_bishop_never_leaves_its_colour():
    pos = position(f"{KINGS} JF14")
    assert {int(h[1:]) % 3 for h in moves_from(pos, "F14")} == {14 % 3}


def test_bishop_diagonal_is_blocked_only_on_the_line_not_by_flanking_hexes():
    # G15 and G13 flank the corner F14-H14; pieces there do not block the diagonal step
    pos = position(f"{KINGS} JF14 PG15 PG13 pK14")
    found = moves_from(pos, "F14")
    assert {"H14", "K14"} <= found and "X14" not in found


def test_queen_slides_in_all_twelve_directions_60_hexes_from_f14():
    pos = position(f"{KINGS} DF14")
    assert moves_from(pos, "F14") == slides("F14", ORTHOGONAL + DIAGONAL)
    assert len(moves_from(pos, "F14")) == 60


def test_wyvern_is_rook_plus_knight_jump_without_rides():
    pos = position(f"{KINGS} VF14")
    found = moves_from(pos, "F14")
    assert found == slides("F14", ORTHOGONAL) | jumps("F14")
    assert len(found) == 54
    assert not {"X16", "X12", "T16", "T12", "K22", "H24", "K6", "H4", "B22", "D24", "B6", "D4"} & found


def test_pegasus_is_bishop_plus_knight_jump_without_rides():
    pos = position(f"{KINGS} GF14")
    found = moves_from(pos, "F14")
    assert found == slides("F14", DIAGONAL) | jumps("F14")
    assert len(found) == 30
    assert not {"X16", "X12", "T16", "T12", "K22", "H24", "K6", "H4", "B22", "D24", "B6", "D4"} & found


def test_wyvern_and_pegasus_jumps_may_capture():
    for spec in (f"{KINGS} VF14 pI15 nE9", f"{KINGS} GF14 pI15 nE9"):
        pos = position(spec)
        captures = {str(m) for m in pos.legal_moves() if pos.is_capture(m)}
        assert {"F14-I15", "F14-E9"} <= captures


def test_knight_jumps_and_rides_24_hexes_from_f14():
    pos = position(f"{KINGS} NF14")
    expected = jumps("F14") | {
        *("X16", "X12", "T16", "T12", "K22", "H24"),
        *("K6", "H4", "B22", "D24", "B6", "D4"),
    }
    assert moves_from(pos, "F14") == expected
    assert len(expected) == 24


def test_knight_ride_never_captures_and_needs_an_empty_intermediate_hex():
    # pX16: ride destination holds an enemy piece -> no ride capture;
    # PC13 (own) blocks the ride to T12 and cannot be taken; pG9 is captured by a jump and blocks the ride to H4.
    pos = position(f"{KINGS} NF14 pX16 PC13 pG9")
    expected = {
        *("C15", "D10", "E9", "D18", "E19", "G9", "H10", "G19", "H18", "I13", "I15"),
        *("X12", "T16", "K22", "H24", "K6", "B22", "D24", "B6", "D4"),
    }
    assert moves_from(pos, "F14") == expected


def test_knight_ride_blocked_by_enemy_piece_on_intermediate_hex():
    pos = position(f"{KINGS} NF14 pI15")
    found = moves_from(pos, "F14")
    assert "I15" in found  # the jump captures
    assert "X16" not in found  # the ride over it is blocked


def test_knight_jump_is_never_blocked_by_adjacent_pieces():
    surround = " ".join(f"P{h}" for h in ("F16", "F12", "G15", "G13", "E15", "E13", "H14", "D14", "G17", "G11", "E17"))
    pos = position(f"{KINGS} NF14 {surround} EE11")
    assert jumps("F14") <= moves_from(pos, "F14")


def test_knight_moves_always_change_colour():
    pos = position(f"{KINGS} NF14")
    assert all(int(h[1:]) % 3 != 14 % 3 for h in moves_from(pos, "F14"))


# --- 5.7 the Elephant ---------------------------------------------------------------------------


def test_elephant_six_destinations_white():
    pos = position(f"{KINGS} EF14")
    assert moves_from(pos, "F14") == {"F16", "F18", "G17", "E17", "G11", "E11"}


def test_elephant_six_destinations_black():
    pos = position(f"{KINGS} eF14", turn="b")
    assert moves_from(pos, "F14") == {"F12", "F10", "G17", "E17", "G11", "E11"}


def test_elephant_never_moves_sideways_backwards_or_along_the_cross_line():
    found = moves_from(position(f"{KINGS} EF14"), "F14")
    assert not {"F12", "G13", "E13", "G15", "E15", "H14", "D14"} & found


def test_elephant_two_step_blocked_by_piece_on_first_hex():
    assert moves_from(position(f"{KINGS} EF14 PF16"), "F14") == {"G17", "E17", "G11", "E11"}
    assert moves_from(position(f"{KINGS} EF14 pF16"), "F14") == {"F16", "G17", "E17", "G11", "E11"}


def test_elephant_captures_on_all_six_destinations():
    pos = position(f"{KINGS} EF14 pF16 nG17 nE17 eG11 pE11")
    assert moves_from(pos, "F14") == {"F16", "G17", "E17", "G11", "E11"}
    pos = position(f"{KINGS} EF14 rF18")
    assert "F18" in moves_from(pos, "F14")
    capture = next(m for m in pos.legal_moves() if str(m) == "F14-F18")
    assert (captured := pos.captured_piece(capture)) is not None and captured[1].type == PieceType.ROOK


def test_elephant_diagonal_keeps_colour_and_forward_changes_it():
    found = moves_from(position(f"{KINGS} EF14"), "F14")
    same = {h for h in found if int(h[1:]) % 3 == 14 % 3}
    assert same == {"G17", "E17", "G11", "E11"}


def test_pieces_never_move_onto_own_pieces():
    pos = position(f"{KINGS} DF14 PF16 PG15 PE15 PH14 PD14 PG17 PE17 PF12 PG13 PE13 PG11 EE11")
    assert moves_from(pos, "F14") == set()

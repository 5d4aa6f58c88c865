"""RULES.md 6-7: the pawn, en passant, the scornful pawn, promotion and awaiting promotion.

Every position is written by hand; the expected moves are worked out from the
rules text (directions of RULES.md 3.5, tables of 6.2 and 6.6, pools of 7.1).
"""

from __future__ import annotations

import pytest

from cescacs_tui.core import BLACK, WHITE, EnPassant, PieceType, Position, Scornful, parse_hex
from cescacs_tui.core.geometry import HEX_COLOUR_NAMES
from tests.helpers.builders import COLUMNS, moves_from, names, play, position


def at(pos: Position, hex_name: str):
    return pos.piece_at(parse_hex(hex_name))


def special_field(pos: Position) -> str:
    return pos.to_pdtl().split()[3]


KINGS = "KP11 kZ11"  # far from every pawn below
ALL = ("D", "V", "R", "G", "N", "J")
# White's court pieces on their initial hexes, without Elephants or Pawns (RULES.md 4.3)
COURT = "KG1 DE1 VF0 RC3 RI3 GD2 GH2 NE3 NG3 JF2 JF4 JF6"
FAR_BLACK_KING = "kZ19"  # attacked by none of the COURT pieces


def court(*removed: str) -> str:
    return " ".join(t for t in COURT.split() if t not in removed)


# --- 6.1 non-capturing moves ---------------------------------------------------------------------


def test_pawn_single_double_and_oblique_steps_from_any_hex():
    assert moves_from(position(f"{KINGS} PF14"), "F14") == {"F16", "F18", "G15", "E15"}
    assert moves_from(position(f"{KINGS} PB16"), "B16") == {"B18", "B20", "A17", "C17"}


def test_black_pawn_steps_go_down_the_board():
    assert moves_from(position(f"{KINGS} pF14", turn="b"), "F14") == {"F12", "F10", "G13", "E13"}


def test_pawn_on_an_edge_has_only_the_oblique_step_that_exists():
    # P13 (column 0): up-left does not exist
    assert moves_from(position("KT10 kZ11 PP13"), "P13") == {"P15", "P17", "T14"}


WHITE_TRIPLE = ["B4", "C5", "D6", "E7", "G7", "H6", "I5", "K4"]
BLACK_TRIPLE = ["B24", "C23", "D22", "E21", "G21", "H22", "I23", "K24"]


def test_triple_step_hexes_follow_the_formula():
    index = {c: COLUMNS.index(c) for c in "BCDEGHIK"}
    assert [f"{c}{index[c] + 1}" for c in "BCDE"] + [f"{c}{15 - index[c]}" for c in "GHIK"] == WHITE_TRIPLE
    assert [f"{c}{27 - index[c]}" for c in "BCDE"] + [f"{c}{13 + index[c]}" for c in "GHIK"] == BLACK_TRIPLE


@pytest.mark.parametrize("hex_name", WHITE_TRIPLE)
def test_white_triple_step_from_triple_step_hex(hex_name):
    column, line = hex_name[0], int(hex_name[1:])
    found = moves_from(position(f"{KINGS} P{hex_name}"), hex_name)
    assert {f"{column}{line + 2}", f"{column}{line + 4}", f"{column}{line + 6}"} <= found
    assert f"{column}{line + 8}" not in found


@pytest.mark.parametrize("hex_name", BLACK_TRIPLE)
def test_black_triple_step_from_triple_step_hex(hex_name):
    column, line = hex_name[0], int(hex_name[1:])
    found = moves_from(position(f"{KINGS} p{hex_name}", turn="b"), hex_name)
    assert {f"{column}{line - 2}", f"{column}{line - 4}", f"{column}{line - 6}"} <= found
    assert f"{column}{line - 8}" not in found


@pytest.mark.parametrize("hex_name", ["F8", "A5", "L5", "F14", "E9", "D8"])
def test_no_triple_step_off_the_triple_step_hexes(hex_name):
    column, line = hex_name[0], int(hex_name[1:])
    found = moves_from(position(f"{KINGS} P{hex_name}"), hex_name)
    assert f"{column}{line + 4}" in found
    assert f"{column}{line + 6}" not in found


def test_triple_step_hexes_belong_to_the_side():
    # a Black pawn on White's triple-step hex E7 has no triple step (E1), a White pawn on E21 neither (E27)
    assert moves_from(position(f"{KINGS} pE7", turn="b"), "E7") == {"E5", "E3", "D6", "F6"}
    assert moves_from(position(f"{KINGS} PE21"), "E21") == {"E23", "E25", "D22", "F22"}


def test_triple_step_right_belongs_to_the_hex_not_the_pawn():
    # a pawn that reaches H6 by a single step may triple-step from there later
    pos = position(f"{KINGS} PH4")
    assert "H10" not in moves_from(pos, "H4")
    play(pos, "H4-H6", "Z11-Z13")
    assert moves_from(pos, "H6") == {"H8", "H10", "H12", "G7", "I7"}


def test_multi_steps_need_every_hex_empty():
    assert moves_from(position(f"{KINGS} PE7 pE13"), "E7") == {"E9", "E11", "D8", "F8"}
    assert moves_from(position(f"{KINGS} PE7 pE11"), "E7") == {"E9", "D8", "F8"}
    assert moves_from(position(f"{KINGS} PE7 PE9"), "E7") == {"D8", "F8"}


def test_oblique_step_never_captures():
    # enemy pieces on both oblique hexes and on E13 leave only the straight steps
    assert moves_from(position(f"{KINGS} PE7 nD8 nF8 pE13"), "E7") == {"E9", "E11"}


# --- 6.3 captures ----------------------------------------------------------------------------------


def test_pawn_captures_forward_diagonally_only():
    enemies = "pG17 pE17 pF16 pG15 pE15 pG11 pE11 eH14 pD14 pF12 pG13 pE13"
    assert moves_from(position(f"{KINGS} PF14 {enemies}"), "F14") == {"G17", "E17"}


def test_black_pawn_captures_forward_diagonally_only():
    pos = position(f"{KINGS} pF14 PG11 PE11 PG17 PE17", turn="b")
    assert moves_from(pos, "F14") == {"F12", "F10", "G13", "E13", "G11", "E11"}


def test_pawn_capture_hexes_have_the_pawn_colour():
    pos = position(f"{KINGS} PF14 pG17 pE17")
    assert {int(h[1:]) % 3 for h in moves_from(pos, "F14") if pos.piece_at(parse_hex(h))} == {14 % 3}


def test_pawn_does_not_capture_own_pieces():
    assert moves_from(position(f"{KINGS} PF14 NG17 NE17"), "F14") == {"F16", "F18", "G15", "E15"}


# --- 6.4 en passant --------------------------------------------------------------------------------


def test_en_passant_after_double_step():
    pos = position(f"{KINGS} PE15 PG15 pF20", turn="b")
    play(pos, "F20-F16")
    assert pos.special == EnPassant(parse_hex("F16"), (parse_hex("F18"),))
    assert special_field(pos) == "F16@18"
    assert "F18" in moves_from(pos, "E15") and "F18" in moves_from(pos, "G15")
    move = pos.parse_move("E15@F18")
    assert str(move) == "E15-F18"
    assert pos.ctl_an(move) == "E15@F18"
    pos.push(move)
    assert at(pos, "F16") is None
    assert at(pos, "F18") == (PieceType.PAWN, WHITE)
    assert at(pos, "E15") is None


def test_en_passant_after_triple_step_on_either_crossed_hex():
    pos = position(f"{KINGS} PF16 PD14 pE21", turn="b")
    play(pos, "E21-E15")
    assert special_field(pos) == "E15@17-19"
    long_ep = next(m for m in pos.legal_moves() if str(m) == "F16-E19")
    short_ep = next(m for m in pos.legal_moves() if str(m) == "D14-E17")
    # E19 is the first crossed hex (farther from E15): @@; E17 the nearer: @
    assert pos.ctl_an(long_ep) == "F16@@E19"
    assert pos.ctl_an(short_ep) == "D14@E17"
    for move, landing in ((long_ep, "E19"), (short_ep, "E17")):
        pos.push(move)
        assert at(pos, "E15") is None
        assert at(pos, landing) == (PieceType.PAWN, WHITE)
        pos.pop()


def test_long_en_passant_after_white_triple_step():
    # NOTATION.md 5.8 example 6 (game Cescacs-A0001-24 after 5. G7-G13): Black answers F12@@G9
    pos = Position.from_pdtl(
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/20:3e3/16:3P3/13:4P3/12:3p3/8:3E3"
        "/6:2PJP2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr G13@9-11 0 5"
    )
    move = pos.parse_move("F12@@G9")
    assert str(move) == "F12-G9"
    pos.push(move)
    assert at(pos, "G13") is None
    assert at(pos, "G9") == (PieceType.PAWN, BLACK)


def test_en_passant_expires_after_one_half_move():
    pos = position(f"{KINGS} PF16 PD14 pE21", turn="b")
    play(pos, "E21-E15", "P11-P13")
    assert pos.special is None
    play(pos, "Z11-Z13")
    assert "E19" not in moves_from(pos, "F16")
    assert "E17" not in moves_from(pos, "D14")


def test_en_passant_of_a_promoted_pawn_takes_the_promoted_piece():
    # RULES.md 6.4: a White pawn A19-A23 (double step onto its promotion hex), captured from B24 onto A21
    pos = position("KP11 kZ15 PA19 pB24")
    assert moves_from(pos, "A19") >= {f"A23={x}" for x in ALL}
    play(pos, "A19-A23=R")
    assert at(pos, "A23") == (PieceType.ROOK, WHITE)
    assert special_field(pos) == "A23@21"
    move = next(m for m in pos.legal_moves() if str(m) == "B24-A21")
    assert pos.ctl_an(move) == "B24@RA21"
    pos.push(move)
    assert at(pos, "A23") is None
    assert at(pos, "A21") == (PieceType.PAWN, BLACK)


def test_en_passant_that_uncovers_a_line_is_illegal():
    # E15 and F16 both stand on the file C13-D14-E15-F16-G17-H18: taking from E15 would open it to the Rook
    pos = position("KC13 kZ11 PE15 PG15 pF16 rH18", special="F16@18")
    assert "F18" not in moves_from(pos, "E15")
    assert "F18" in moves_from(pos, "G15")  # E15 still shields the King


def test_en_passant_of_an_awaiting_pawn():
    # nothing to regain: A19-A23 leaves a pawn awaiting promotion, which B24 may still take en passant
    pos = position(f"{court()} {FAR_BLACK_KING} PA19 pB24")
    play(pos, "A19-A23=&")
    move = next(m for m in pos.legal_moves() if str(m) == "B24-A21")
    assert pos.ctl_an(move) == "B24@A21"
    pos.push(move)
    assert at(pos, "A23") is None


def test_only_a_pawn_captures_en_passant():
    # the White Elephant may move to the crossed hex F18, but that captures nothing
    pos = position(f"{KINGS} EE15 pF20", turn="b")
    play(pos, "F20-F16", "EE15-F18")
    assert at(pos, "F16") == (PieceType.PAWN, BLACK)


def test_elephant_two_step_creates_no_en_passant():
    pos = position(f"{KINGS} EF8 pE13")
    play(pos, "EF8-F12")
    assert pos.special is None
    assert special_field(pos) == "-"
    assert "F10" not in moves_from(pos, "E13")


# --- 6.5 the scornful pawn -------------------------------------------------------------------------


def test_scornful_capture_of_the_faced_pawn():
    # RULES.md 6.5 example: 1. E7-E13, E21-E15 2. E13-F14 E15@F14
    pos = play(Position.initial(), "E7-E13", "E21-E15", "E13-F14")
    assert isinstance(pos.special, Scornful)
    move = next(m for m in pos.legal_moves() if str(m) == "E15-F14")
    assert pos.ctl_an(move) == "E15@F14"
    pos.push(move)
    assert at(pos, "F14") == (PieceType.PAWN, BLACK)
    assert at(pos, "E15") is None


def test_scornful_capture_only_by_the_faced_pawn():
    # G15 is also a Black pawn next to F14, but it did not face the White pawn
    pos = position(f"{KINGS} PE13 pE15 pG15")
    play(pos, "E13-F14")
    assert "F14" in moves_from(pos, "E15")
    assert "F14" not in moves_from(pos, "G15")
    assert special_field(pos) == "E15@F14"


def test_scornful_capture_expires_after_one_half_move():
    pos = position(f"{KINGS} PE13 pE15")
    play(pos, "E13-F14", "Z11-Z13", "P11-P13")
    assert "F14" not in moves_from(pos, "E15")


def test_scornful_capture_only_against_an_enemy_pawn():
    # facing an Elephant, or an own pawn, makes no scornful pawn
    for spec in (f"{KINGS} PE13 eE15", f"{KINGS} PE13 PE15"):
        pos = position(spec)
        play(pos, "E13-F14")
        assert pos.special is None
        assert special_field(pos) == "-"
        assert not [m for m in pos.legal_moves() if str(m).endswith("-F14")]


def test_scornful_capture_by_white_pawn():
    # Black scornful pawn: Black E15 facing White E13 steps to D14; White E13 takes it orthogonally
    pos = position(f"{KINGS} PE13 pE15", turn="b")
    play(pos, "E15-D14")
    move = next(m for m in pos.legal_moves() if str(m) == "E13-D14")
    assert pos.ctl_an(move) == "E13@D14"


def test_scornful_capture_takes_the_promoted_piece():
    # White B22 facing Black B24 steps to A23 and promotes there; B24 takes the Rook scornfully
    pos = position("KP11 kZ15 PB22 pB24")
    play(pos, "B22-A23=R")
    move = next(m for m in pos.legal_moves() if str(m) == "B24-A23")
    assert pos.ctl_an(move) == "B24@RA23"
    pos.push(move)
    assert at(pos, "A23") == (PieceType.PAWN, BLACK)


def test_awaiting_pawn_can_be_captured_scornfully():
    # the scornful step B22-A23 reaches the promotion hex with nothing to regain: the pawn awaits, and B24 takes it
    pos = position(f"{court()} {FAR_BLACK_KING} PB22 pB24")
    play(pos, "B22-A23=&")
    move = next(m for m in pos.legal_moves() if str(m) == "B24-A23")
    assert pos.ctl_an(move) == "B24@A23"


def test_scornful_capture_onto_a_promotion_hex_promotes():
    # RULES.md 6.5: Black B24 steps obliquely to A23, the White pawn from B22 captures it there and promotes
    pos = position("KP11 kZ15 PB22 pB24", turn="b")
    play(pos, "B24-A23")
    assert {f"A23={x}" for x in ALL} <= moves_from(pos, "B22")
    assert "A23" not in moves_from(pos, "B22")
    move = next(m for m in pos.legal_moves() if str(m) == "B22-A23=R")
    assert pos.ctl_an(move).startswith("B22@A23=R")
    pos.push(move)
    assert at(pos, "A23") == (PieceType.ROOK, WHITE)


# --- 6.6 promotion hexes ---------------------------------------------------------------------------

WHITE_PROMOTION = [
    "P21",
    "T22",
    "A23",
    "B24",
    "C25",
    "D26",
    "E27",
    "F28",
    "G27",
    "H26",
    "I25",
    "K24",
    "L23",
    "X22",
    "Z21",
]
BLACK_PROMOTION = ["P7", "T6", "A5", "B4", "C3", "D2", "E1", "F0", "G1", "H2", "I3", "K4", "L5", "X6", "Z7"]


def test_promotion_hexes_follow_the_formula():
    def white(c):
        return 21 + c if c <= 7 else 35 - c

    def black(c):
        return 7 - c if c <= 7 else c - 7

    assert [f"{COLUMNS[c]}{white(c)}" for c in range(15)] == WHITE_PROMOTION
    assert [f"{COLUMNS[c]}{black(c)}" for c in range(15)] == BLACK_PROMOTION


@pytest.mark.parametrize("last", WHITE_PROMOTION)
def test_white_promotion_hex_of_each_column(last):
    column, line = last[0], int(last[1:])
    start = f"{column}{line - 4}"
    found = moves_from(position(f"KT14 kX14 P{start}"), start)
    assert f"{column}{line - 2}" in found  # no promotion one hex earlier
    assert {f"{last}={x}" for x in ALL if x != "J"} <= found
    assert last not in found  # with pieces to regain the pawn must promote


@pytest.mark.parametrize("last", BLACK_PROMOTION)
def test_black_promotion_hex_of_each_column(last):
    column, line = last[0], int(last[1:])
    start = f"{column}{line + 4}"
    found = moves_from(position(f"KT14 kX14 p{start}", turn="b"), start)
    assert f"{column}{line + 2}" in found
    assert {f"{last}={x}" for x in ALL if x != "J"} <= found
    assert last not in found


def test_promoted_piece_may_give_check_at_once():
    # RULES.md 7.2: the Queen regained on E27 checks the King on E21 down column E
    pos = position("KT14 kE21 PE25")
    assert pos.ctl_an(next(m for m in pos.legal_moves() if str(m) == "E25-E27=D")) == "E25-E27=D+∞"
    assert pos.ctl_an(next(m for m in pos.legal_moves() if str(m) == "E25-E27=J")) == "E25-E27=J"


# --- 7.1 regainable pieces -------------------------------------------------------------------------


def test_promotion_only_to_regainable_pieces():
    # White still has its Queen, Wyvern and white-hex Bishop: F28 (white hex) offers R, G, N only
    pos = position("KT14 kX14 DE1 VF0 JA13 PF26")
    assert {m for m in moves_from(pos, "F26") if m.startswith("F28")} == {"F28=R", "F28=G", "F28=N"}
    assert set(pos.eligible_promotions(WHITE, parse_hex("F28"))) == {
        PieceType.ROOK,
        PieceType.PEGASUS,
        PieceType.KNIGHT,
    }


def test_regainable_pool_follows_the_pieces_on_the_board():
    # White: King, one Rook, Queen, two Knights, the black-hex Bishop (F6)
    pos = position("KT14 kX14 RC3 DE1 NE3 NG3 JF6")
    found = sorted(
        (p.type.name, None if p.hex_colour is None else HEX_COLOUR_NAMES[p.hex_colour]) for p in pos.regainable(WHITE)
    )
    expected = sorted(
        [
            ("WYVERN", None),
            ("ROOK", None),
            ("PEGASUS", None),
            ("PEGASUS", None),
            ("BISHOP", "white"),
            ("BISHOP", "colour"),
        ]
    )
    assert found == expected
    # Black has lost everything but its King
    black = sorted(p.type.name for p in pos.regainable(BLACK))
    assert black == sorted(
        ["QUEEN", "WYVERN", "ROOK", "ROOK", "PEGASUS", "PEGASUS", "KNIGHT", "KNIGHT", *["BISHOP"] * 3]
    )


def test_elephants_and_pawns_are_never_regained():
    # all White court pieces on the board, Elephants and most Pawns gone: nothing to regain, F28 awaits
    pos = position(f"{court()} {FAR_BLACK_KING} PF26")
    assert pos.regainable(WHITE) == []
    assert moves_from(pos, "F26") == {"F28", "E27", "G27"}
    move = next(m for m in pos.legal_moves() if str(m) == "F26-F28")
    assert pos.ctl_an(move) == "F26-F28=&"
    pos.push(move)
    assert at(pos, "F28") == (PieceType.PAWN, WHITE)
    assert pos.awaiting_pawns(WHITE) == [parse_hex("F28")]


def test_bishop_regained_only_on_a_promotion_hex_of_its_colour():
    # the white-hex Bishop (F4) is missing: F28 (white) promotes to J, E27 and G27 (black) await
    pos = position(f"{court('JF4')} {FAR_BLACK_KING} PF26")
    assert moves_from(pos, "F26") == {"F28=J", "E27", "G27"}
    assert pos.eligible_promotions(WHITE, parse_hex("F28")) == [PieceType.BISHOP]
    assert pos.eligible_promotions(WHITE, parse_hex("E27")) == []


def test_capture_by_the_promoting_move_does_not_add_to_the_pool():
    # the Queen is missing; taking the Black Rook on F28 still only regains the Queen
    pos = position(f"{court('DE1')} {FAR_BLACK_KING} PE25 rF28")
    assert moves_from(pos, "E25") == {"E27=D", "D26=D", "F26", "F28=D"}


# --- 7.3 awaiting promotion ------------------------------------------------------------------------


def test_awaiting_pawn_has_one_oblique_move_towards_column_f():
    pos = position(f"{court()} {FAR_BLACK_KING} PB24 PK24 PP21 PF28")
    assert sorted(pos.awaiting_pawns(WHITE)) == sorted(parse_hex(h) for h in ("B24", "K24", "P21", "F28"))
    assert moves_from(pos, "B24") == {"C25"}
    assert moves_from(pos, "K24") == {"I25"}
    assert moves_from(pos, "P21") == {"T22"}
    assert moves_from(pos, "F28") == set()


def test_black_awaiting_pawn_moves_towards_column_f():
    black_court = "kG27 dE27 vF28 rC25 rI25 gD26 gH26 nE25 nG25 jF26 jF24 jF22"
    pos = position(f"{black_court} KZ9 pB4 pK4", turn="b")
    assert moves_from(pos, "B4") == {"C3"}
    assert moves_from(pos, "K4") == {"I3"}


def test_awaiting_pawn_promotes_when_its_oblique_step_reaches_a_regainable_colour():
    # B24 is black (nothing to regain there); C25 is white and the white-hex Bishop is missing
    pos = position(f"{court('JF4')} {FAR_BLACK_KING} PB24")
    assert moves_from(pos, "B24") == {"C25=J"}


# --- 7.4 the forced promotion turn ---------------------------------------------------------------


def test_forced_in_place_promotion_is_the_only_legal_move():
    pos = position(f"{court('JF4')} {FAR_BLACK_KING} PF28")
    assert names(pos) == {"F28=J"}


def test_forced_promotion_offers_every_qualifying_pawn_and_piece_one_per_turn():
    # King's rook, one Knight and the white-hex Bishop are missing; F28 is white, P21 black
    pos = position(f"{court('JF4', 'RI3', 'NG3')} {FAR_BLACK_KING} PF28 PP21")
    assert names(pos) == {"F28=R", "F28=N", "F28=J", "P21=R", "P21=N"}
    play(pos, "F28=R")
    assert at(pos, "F28") == (PieceType.ROOK, WHITE)
    assert pos.halfmove_clock == 0
    pos.push(pos.legal_moves()[0])  # any Black move
    assert names(pos) == {"P21=N"}


def test_forced_promotion_deferred_while_in_check():
    # White is checked by the Rook on T20 along column T; the pawn on F28 waits
    pos = position("KT14 kX14 rT20 PF28")
    assert pos.is_check()
    assert not any("=" in name for name in names(pos))
    assert "T14-A13" in names(pos)
    play(pos, "T14-A13", "X14-X16")
    assert not pos.is_check()
    assert names(pos) == {f"F28={x}" for x in ALL}


def test_in_place_promotion_may_give_check():
    pos = position("KT14 kF20 PF28")
    written = {pos.ctl_an(m) for m in pos.legal_moves()}
    assert written == {"F28=D+∞", "F28=V+∞", "F28=R+∞", "F28=G", "F28=N", "F28=J"}


# --- 7.5 the worked example ------------------------------------------------------------------------

EXAMPLE_7_5 = (
    "/28:v/27:dk/26:gjg/25:2nr/24:r1jep/23:3epp/22:p2jp2/21:P1n1p3/20:3p3/19:3e4/18:1J5/17:2p5/16:1Re4/15:3p4"
    "/14:1pP4/8:3P3/7:3PP3/6:2P1P2/5:2EEPP/4:PEJEP/3:1NNR/2:GJG/1:DK/0:V/ w KRkr - 4 13"
)


def test_worked_example_forced_promotion_p21_j():
    pos = Position.from_pdtl(EXAMPLE_7_5)
    assert pos.awaiting_pawns(WHITE) == [parse_hex("P21")]
    assert pos.regainable(WHITE) == []
    assert not any("=" in name for name in names(pos))
    play(pos, "JB18×NC21", "GD26×JC21")
    assert not pos.is_check()
    assert names(pos) == {"P21=J"}
    move = pos.legal_moves()[0]
    assert pos.ctl_an(move).startswith("P21=J")
    pos.push(move)
    assert at(pos, "P21") == (PieceType.BISHOP, WHITE)

"""RULES.md 8 (and 11.1): King steps, the King's leap and castling.

The castling table below is copied from RULES.md 8.5; the worked examples
and their exact lists from 8.7.  Other positions are hand-built and their
expected lists worked out from conditions 8.4-1 to 8.4-6.
"""

from __future__ import annotations

import re

import pytest

from cescacs_tui.core import BLACK, WHITE, IllegalMoveError, PieceType, Position, parse_hex
from tests.helpers.builders import COLUMNS, exists, moves_from, pdtl, play, position


def castlings(pos: Position) -> set[str]:
    return {m.castling for m in pos.legal_moves() if m.castling is not None}


def at(pos: Position, hex_name: str):
    return pos.piece_at(parse_hex(hex_name))


# RULES.md 8.5, copied: token | King / Rook(s) (path), White's column then Black's column.
CASTLING_TABLE_WHITE = """
KRK-II | K G1→I5; KR I3→I7 (I5 I7)
KRK-IK | K G1→I5; KR I3→K4 (K4)
KRK-IH | K G1→I5; KR I3→H4 (H4)
KRK-HIO | K G1→H6; KR I3→I5 (I5)
KRK-HIOO | K G1→H6; KR I3→I7 (I5 I7)
KRK-HH | K G1→H6; KR I3→H4 (H4)
KRK-HG | K G1→H6; KR I3→G5 (H4 G5)
KRK-FG | K G1→F6; KR I3→G5 (H4 G5)
KRK-FE | K G1→F6; KR I3→E7 (H4 G5 F6 E7)
KRK-EF | K G1→E5; KR I3→F6 (H4 G5 F6)
KRK-EE | K G1→E5; KR I3→E7 (H4 G5 F6 E7)
KRD-DD | K G1→D2; QR C3→D4 (D4)
KRD-DE | K G1→D2; QR C3→E1 (D2 E1)
KRD-ED | K G1→E5; QR C3→D4 (D4)
KRD-EF | K G1→E5; QR C3→F6 (D4 E5 F6)
KRD-FE | K G1→F6; QR C3→E5 (D4 E5)
KRD-FG | K G1→F6; QR C3→G7 (D4 E5 F6 G7)
KRD-HH | K G1→H6; QR C3→H8 (D4 E5 F6 G7 H8)
KRD-HG | K G1→H6; QR C3→G7 (D4 E5 F6 G7)
KRR-HIH | K G1→H6; KR I3→I7 (I5 I7); QR C3→H8 (D4 E5 F6 G7 H8)
KRR-HGG | K G1→H6; KR I3→G5 (H4 G5); QR C3→G7 (D4 E5 F6 G7)
KRR-FGG | K G1→F6; KR I3→G5 (H4 G5); QR C3→G7 (D4 E5 F6 G7)
KRR-FEE | K G1→F6; KR I3→E7 (H4 G5 F6 E7); QR C3→E5 (D4 E5)
KRR-EEF | K G1→E5; KR I3→E7 (H4 G5 F6 E7); QR C3→F6 (D4 E5 F6)
"""
CASTLING_TABLE_BLACK = """
KRK-II | K G27→I23; KR I25→I21 (I23 I21)
KRK-IK | K G27→I23; KR I25→K24 (K24)
KRK-IH | K G27→I23; KR I25→H24 (H24)
KRK-HIO | K G27→H22; KR I25→I23 (I23)
KRK-HIOO | K G27→H22; KR I25→I21 (I23 I21)
KRK-HH | K G27→H22; KR I25→H24 (H24)
KRK-HG | K G27→H22; KR I25→G23 (H24 G23)
KRK-FG | K G27→F22; KR I25→G23 (H24 G23)
KRK-FE | K G27→F22; KR I25→E21 (H24 G23 F22 E21)
KRK-EF | K G27→E23; KR I25→F22 (H24 G23 F22)
KRK-EE | K G27→E23; KR I25→E21 (H24 G23 F22 E21)
KRD-DD | K G27→D26; QR C25→D24 (D24)
KRD-DE | K G27→D26; QR C25→E27 (D26 E27)
KRD-ED | K G27→E23; QR C25→D24 (D24)
KRD-EF | K G27→E23; QR C25→F22 (D24 E23 F22)
KRD-FE | K G27→F22; QR C25→E23 (D24 E23)
KRD-FG | K G27→F22; QR C25→G21 (D24 E23 F22 G21)
KRD-HH | K G27→H22; QR C25→H20 (D24 E23 F22 G21 H20)
KRD-HG | K G27→H22; QR C25→G21 (D24 E23 F22 G21)
KRR-HIH | K G27→H22; KR I25→I21 (I23 I21); QR C25→H20 (D24 E23 F22 G21 H20)
KRR-HGG | K G27→H22; KR I25→G23 (H24 G23); QR C25→G21 (D24 E23 F22 G21)
KRR-FGG | K G27→F22; KR I25→G23 (H24 G23); QR C25→G21 (D24 E23 F22 G21)
KRR-FEE | K G27→F22; KR I25→E21 (H24 G23 F22 E21); QR C25→E23 (D24 E23)
KRR-EEF | K G27→E23; KR I25→E21 (H24 G23 F22 E21); QR C25→F22 (D24 E23 F22)
"""


def _parse_side(text: str) -> dict[str, tuple[str, str, list[str]]]:
    """``{"K": (from, to, []), "KR": (from, to, path), "QR": ...}``."""
    out = {}
    for part in text.split(";"):
        match = re.fullmatch(r"\s*(K|KR|QR) (\w+)→(\w+)(?: \(([\w ]+)\))?\s*", part)
        assert match, part
        who, origin, target, path = match.groups()
        out[who] = (origin, target, path.split() if path else [])
    return out


def _parse_table(text: str) -> dict[str, dict]:
    rows = (row.split("|") for row in text.strip().splitlines())
    return {token.strip(): _parse_side(side) for token, side in rows}


WHITE_TABLE = _parse_table(CASTLING_TABLE_WHITE)
BLACK_TABLE = _parse_table(CASTLING_TABLE_BLACK)
TABLE = {token: (WHITE_TABLE[token], BLACK_TABLE[token]) for token in WHITE_TABLE}
TOKENS = list(TABLE)

# Kings, Rooks, and the opponent's King far away without rights: every castling is possible.
OPEN_WHITE = "KG1 RC3 RI3 kP21"
OPEN_BLACK = "kG27 rC25 rI25 KP7"
LEAPS_WHITE = {"I5", "H6", "F6", "E5", "D2"}
LEAPS_BLACK = {"I23", "H22", "F22", "E23", "D26"}
STEPS_G1 = {"G3", "F2", "H2", "F0", "E1", "F4", "H4"}
STEPS_G27 = {"G25", "F26", "H26", "F28", "E27", "F24", "H24"}


def test_castling_table_has_24_tokens_11_8_5():
    assert len(TOKENS) == 24
    assert sum(t.startswith("KRK") for t in TOKENS) == 11
    assert sum(t.startswith("KRD") for t in TOKENS) == 8
    assert sum(t.startswith("KRR") for t in TOKENS) == 5


# --- 8.1 ordinary King moves ---------------------------------------------------------------------


def test_king_steps_seven_hexes_from_g1_on_empty_board():
    assert moves_from(position("KG1 kZ19"), "G1") == STEPS_G1


def test_king_step_may_capture():
    pos = position("KG1 kZ19 pG3")
    assert "G3" in moves_from(pos, "G1")
    assert pos.ctl_an(pos.parse_move("G1-G3")) == "KG1×G3"


def test_king_never_steps_onto_an_attacked_hex():
    # the Black Rook on H10 controls column H: H2 and H4 are forbidden
    assert moves_from(position("KG1 kZ19 rH10"), "G1") == STEPS_G1 - {"H2", "H4"}


# --- 8.2 the King's leap ---------------------------------------------------------------------------


def test_king_leap_from_initial_hex_has_five_destinations():
    assert moves_from(position("KG1 kZ19", castling="K-"), "G1") == STEPS_G1 | LEAPS_WHITE


def test_black_king_leap_destinations():
    assert moves_from(position("kG27 KP7", turn="b", castling="-k"), "G27") == STEPS_G27 | LEAPS_BLACK


def test_king_leap_jumps_over_pieces():
    pos = position("KG1 NG3 JF2 GH2 VF0 DE1 JF4 EH4 kZ19", castling="K-")
    assert moves_from(pos, "G1") == LEAPS_WHITE


def test_king_leap_not_allowed_in_check():
    # the Rook on G9 checks along column G; no leap hex is attacked, yet no leap is legal
    pos = position("KG1 kZ19 rG9", castling="K-")
    assert pos.is_check()
    assert moves_from(pos, "G1") == {"F2", "H2", "F0", "E1", "F4", "H4"}


def test_king_leap_may_capture():
    pos = position("KG1 kZ19 jH6", castling="K-")
    assert "H6" in moves_from(pos, "G1")
    move = pos.parse_move("KG1×JH6")
    pos.push(move)
    assert at(pos, "H6") == (PieceType.KING, WHITE)


def test_king_leap_lost_after_any_king_move():
    pos = position("KG1 kZ19", castling="K-")
    play(pos, "G1-G3", "Z19-Z17", "G3-G1", "Z17-Z19")
    assert tuple(pos.castling_rights(WHITE)) == (False, False, False)
    assert moves_from(pos, "G1") == STEPS_G1
    assert pos.to_pdtl().split()[2] == "--"


def test_king_leap_itself_uses_up_the_right():
    pos = position("KG1 kZ19", castling="K-")
    play(pos, "KG1-F6")
    assert not pos.castling_rights(WHITE).king


def test_king_off_its_initial_hex_has_no_leap_right():
    found: list[str] = []
    pos = Position.from_pdtl(pdtl("KF14 kZ19", castling="K-"), warnings=found)
    assert found  # the unusable right is dropped with a warning
    assert not pos.castling_rights(WHITE).king
    assert len(moves_from(pos, "F14")) == 12


# --- 8.5 the 24 castlings of each side -------------------------------------------------------------


def test_all_24_castlings_white_when_nothing_prevents_them():
    assert castlings(position(OPEN_WHITE, castling="RKR-")) == set(TOKENS)


def test_all_24_castlings_black_when_nothing_prevents_them():
    assert castlings(position(OPEN_BLACK, turn="b", castling="-rkr")) == set(TOKENS)


@pytest.mark.parametrize("colour", ["white", "black"])
@pytest.mark.parametrize("token", TOKENS)
def test_castling_resulting_hexes(token, colour):
    side = TABLE[token][0 if colour == "white" else 1]
    if colour == "white":
        pos = position(OPEN_WHITE, castling="RKR-", clock=7)
        king, rook, other_king = "K", "R", ("P21", "k")
    else:
        pos = position(OPEN_BLACK, turn="b", castling="-rkr", clock=7)
        king, rook, other_king = "k", "r", ("P7", "K")
    move = pos.parse_move(token)
    assert move.castling == token
    pos.push(move)
    expected = {side["K"][1]: king, other_king[0]: other_king[1]}
    for who in ("KR", "QR"):
        if who in side:
            expected[side[who][1]] = rook
        else:  # the Rook not taking part stays at home
            expected[{"KR": "I3", "QR": "C3"}[who] if colour == "white" else {"KR": "I25", "QR": "C25"}[who]] = rook
    found = {}
    for h in (f"{COLUMNS[c]}{line}" for line in range(29) for c in range(15) if exists(c, line)):
        piece = at(pos, h)
        if piece is not None:
            letter = piece.type.letter
            found[h] = letter if piece.colour == WHITE else letter.lower()
    assert found == expected
    assert not any(pos.castling_rights(WHITE if colour == "white" else BLACK))
    assert pos.halfmove_clock == 8  # castling is neither a pawn move nor a capture


@pytest.mark.parametrize("token", TOKENS)
def test_castling_final_arrangement_is_orthogonally_adjacent(token):
    # RULES.md 8.3: single castling -> the Rook is orthogonally adjacent to the King; double -> all three pairwise
    orthogonal = {(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)}

    def adjacent(a, b):
        return (COLUMNS.index(b[0]) - COLUMNS.index(a[0]), int(b[1:]) - int(a[1:])) in orthogonal

    side = TABLE[token][0]
    placed = [side["K"][1]] + [side[w][1] for w in ("KR", "QR") if w in side]
    assert all(adjacent(a, b) for a in placed for b in placed if a != b)


def test_leap_hexes_are_the_castling_king_destinations():
    assert {TABLE[t][0]["K"][1] for t in TOKENS} == LEAPS_WHITE
    assert {TABLE[t][1]["K"][1] for t in TOKENS} == LEAPS_BLACK
    # the first letter after the hyphen names the King's destination column
    assert all(t.split("-")[1][0] == TABLE[t][0]["K"][1][0] for t in TOKENS)


# --- 8.4 the conditions ----------------------------------------------------------------------------


def test_castling_requires_king_right():
    pos = position(OPEN_WHITE, castling="K-")
    assert castlings(pos) == set()
    assert moves_from(pos, "G1") >= LEAPS_WHITE


def test_castling_requires_the_rooks_right():
    assert castlings(position(OPEN_WHITE, castling="KR-")) == {t for t in TOKENS if t.startswith("KRK")}
    assert castlings(position(OPEN_WHITE, castling="RK-")) == {t for t in TOKENS if t.startswith("KRD")}


def test_castling_forbidden_while_in_check():
    pos = position(f"{OPEN_WHITE} rG9", castling="RKR-")
    assert pos.is_check()
    assert castlings(pos) == set()
    with pytest.raises(IllegalMoveError, match="check"):
        pos.parse_move("KRK-FE")


def test_castling_never_captures_on_a_rook_destination():
    assert castlings(position(f"{OPEN_WHITE} nK4", castling="RKR-")) == set(TOKENS) - {"KRK-IK"}


def test_castling_never_captures_on_the_king_destination():
    pos = position(f"{OPEN_WHITE} pH6", castling="RKR-")
    h_tokens = {"KRK-HIO", "KRK-HIOO", "KRK-HH", "KRK-HG", "KRD-HH", "KRD-HG", "KRR-HIH", "KRR-HGG"}
    assert castlings(pos) == set(TOKENS) - h_tokens
    assert "H6" in moves_from(pos, "G1")  # the plain leap may capture


def test_castling_path_must_be_empty_on_the_pre_move_board():
    # an own Knight on G5 blocks every king's-rook path through G5
    through_g5 = {"KRK-HG", "KRK-FG", "KRK-FE", "KRK-EF", "KRK-EE", "KRR-HGG", "KRR-FGG", "KRR-FEE", "KRR-EEF"}
    assert castlings(position(f"{OPEN_WHITE} NG5", castling="RKR-")) == set(TOKENS) - through_g5


@pytest.mark.parametrize("token", TOKENS)
def test_castling_blocked_by_a_piece_on_any_hex_of_its_rook_paths(token):
    side = TABLE[token][0]
    paths = {h for who in ("KR", "QR") if who in side for h in side[who][2]}
    elsewhere = {h for t in TOKENS for who in ("KR", "QR") if who in TABLE[t][0] for h in TABLE[t][0][who][2]}
    elsewhere -= paths | {side["K"][1]}
    for h in sorted(paths):
        assert token not in castlings(position(f"{OPEN_WHITE} N{h}", castling="RKR-")), h
    for h in sorted(elsewhere):  # a piece on another castling's path does not matter
        assert token in castlings(position(f"{OPEN_WHITE} N{h}", castling="RKR-")), h


def test_rook_path_may_cross_the_kings_destination():
    legal = castlings(position(OPEN_WHITE, castling="RKR-"))
    # KRD-DE: the Rook passes D2 (King's destination); KRD-EF passes E5; KRK-FE passes F6
    assert {"KRD-DE", "KRD-EF", "KRK-FE"} <= legal


def test_double_castling_rook_may_cross_the_other_rooks_destination():
    pos = position(OPEN_WHITE, castling="RKR-")
    assert {"KRR-EEF", "KRR-FEE"} <= castlings(pos)
    play(pos, "KRR-EEF")  # the king's rook crossed F6, where the queen's rook ends
    assert at(pos, "E7").type == PieceType.ROOK and at(pos, "F6").type == PieceType.ROOK
    assert at(pos, "E5").type == PieceType.KING


def test_castling_destination_must_not_be_attacked_before_even_if_the_rook_would_shelter():
    # the Black Rook on K4 attacks I5 and, through I5, H6: after KRK-HIO the Rook on I5 would shelter H6,
    # but the King may not castle onto a hex attacked before the move
    pos = position("KG1 RI3 rK4 kP21", castling="KR-")
    assert castlings(pos) == {"KRK-FG", "KRK-FE", "KRK-EF", "KRK-EE"}
    assert not {"I5", "H6"} & moves_from(pos, "G1")


def test_pinned_rook_may_still_castle():
    # the king's rook on I3 is pinned along K4-I3-H2-G1; the King leaves G1, so castling is legal
    pos = position("KG1 RI3 rK4 kP21", castling="KR-")
    assert moves_from(pos, "I3") == {"H2", "K4"}  # alone, it may only move along the pin line
    assert "KRK-FG" in castlings(pos)


def test_castling_illegal_when_rook_leaving_uncovers_an_attack():
    # the Black Rook on B4 is blocked by the queen's rook on C3; once C3 is empty it attacks D2
    pos = position("KG1 RC3 rB4 kP21", castling="RK-")
    assert castlings(pos) == {"KRD-ED", "KRD-EF", "KRD-FE", "KRD-FG", "KRD-HH", "KRD-HG"}
    assert "D2" in moves_from(pos, "G1")  # the plain leap leaves the Rook on C3: legal


def test_worked_example_castling_lists():
    # RULES.md 8.7, first example
    pos = Position.from_pdtl("/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1")
    assert castlings(pos) == set(
        [
            "KRD-DD",
            "KRD-FE",
            "KRD-FG",
            "KRD-HG",
            "KRD-HH",
            "KRK-FE",
            "KRK-FG",
            "KRK-HG",
            "KRK-HH",
            "KRK-HIO",
            "KRK-HIOO",
            "KRR-FEE",
            "KRR-FGG",
            "KRR-HGG",
            "KRR-HIH",
        ]
    )
    assert moves_from(pos, "G1") == {"D2", "F0", "F2", "F4", "F6", "G3", "H2", "H4", "H6"}


def test_worked_example_discovered_attack_on_castling():
    # RULES.md 8.7, second example: KRD-DE meets conditions 1-5 but not 6
    pos = Position.from_pdtl(
        "/28:v/27:1k/26:1jg/25:r3/24:Rejep/23:1pder1/22:p1pj3/21:4p1p1/20:4p2/19:3p1p2/18:2P4/17:7n/12:N6"
        "/10:4P2/9:3PP3/8:3K3/7:1PVP4/4:P1JEP/3:2N1/2:2G/1:RG/0:D/ b -rk - 0 29"
    )
    assert pos.castling_rights(BLACK).queens_rook
    assert at(pos, "D26") is None and at(pos, "E27") is None
    assert not pos.is_attacked(parse_hex("D26"), WHITE)
    assert "KRD-DE" not in castlings(pos)


# --- 8.6 rights after moves ------------------------------------------------------------------------


def test_king_move_removes_all_castling_rights():
    pos = position(OPEN_WHITE, castling="RKR-")
    play(pos, "G1-G3")
    assert tuple(pos.castling_rights(WHITE)) == (False, False, False)


def test_rook_move_removes_its_right_permanently():
    pos = position(OPEN_WHITE, castling="RKR-")
    play(pos, "RI3-I5", "P21-P19", "RI5-I3", "P19-P21")
    assert tuple(pos.castling_rights(WHITE)) == (True, True, False)
    assert castlings(pos) == {t for t in TOKENS if t.startswith("KRD")}
    assert pos.to_pdtl().split()[2] == "RK-"


def test_rook_captured_on_initial_hex_loses_its_right():
    pos = position(f"{OPEN_WHITE} jK6", turn="b", castling="RKR-")
    play(pos, "JK6×RI3")
    assert tuple(pos.castling_rights(WHITE)) == (True, True, False)


def test_rook_arriving_on_initial_hex_later_gets_no_right():
    # a Rook regained by promotion walks to I3: it never has a castling right
    pos = position("KG1 RC3 PX20 kP13", castling="RK-")
    play(pos, "X20-X22=R", "P13-P15", "RX22-X6", "P15-P17", "RX6-I3", "P17-P15")
    assert at(pos, "I3") == (PieceType.ROOK, WHITE)
    assert tuple(pos.castling_rights(WHITE)) == (True, True, False)
    assert not {t for t in castlings(pos) if t.startswith(("KRK", "KRR"))}


def test_castling_increments_halfmove_clock():
    pos = position(OPEN_WHITE, castling="RKR-", clock=12)
    play(pos, "KRK-II")
    assert pos.halfmove_clock == 13


# --- 11.1 playing without castling ---------------------------------------------------------------


def test_no_castling_option_forbids_all_castling():
    pos = position(OPEN_WHITE, castling_option=False, castling="RKR-")
    assert castlings(pos) == set()
    assert moves_from(pos, "G1") >= LEAPS_WHITE  # the leap remains
    with pytest.raises(IllegalMoveError):
        pos.parse_move("KRK-HH")


def test_no_castling_option_leap_may_not_capture():
    assert "H6" in moves_from(position("KG1 kZ19 jH6", castling="K-"), "G1")
    pos = position("KG1 kZ19 jH6", castling_option=False, castling="K-")
    # the Bishop on H6 also controls G3, F0 (through G3) and F6
    assert moves_from(pos, "G1") == {"F2", "H2", "E1", "F4", "H4", "I5", "E5", "D2"}


def test_no_castling_option_unmoved_king_does_not_attack_leap_hexes():
    # H22 is a leap hex of the unmoved Black King on G27
    with_castling = position("KH20 kG27", castling="-k")
    assert with_castling.is_attacked(parse_hex("H22"), BLACK)
    assert "H22" not in moves_from(with_castling, "H20")
    without = position("KH20 kG27", castling_option=False, castling="-k")
    assert not without.is_attacked(parse_hex("H22"), BLACK)
    assert "H22" in moves_from(without, "H20")


def test_no_castling_option_initial_position():
    start = Position.initial(castling=False)
    assert not start.castling_enabled
    assert len(start.legal_moves()) == 68

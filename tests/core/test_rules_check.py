"""RULES.md 9-10: attacks, check and its kinds, mate, stalemate, draws, the clocks.

The four special situations of RULES.md 14.3 are checked against their exact
printed move lists; the other positions are hand-built and their expected
moves worked out from the rules text.
"""

from __future__ import annotations

import re

import pytest

from cescacs_tui.core import BLACK, WHITE, CheckKind, Position, parse_hex
from tests.helpers.builders import moves_from, pdtl, play, position


def canonical(ctl_an: str) -> str:
    """``KK14-H14`` -> ``K14-H14``, ``GG9×EH12`` -> ``G9-H12``, ``G11@H14`` -> ``G11-H14``."""
    text = re.sub(r"^[A-Z](?=[A-Z]\d)", "", ctl_an)
    return re.sub(r"(×|@@|@)[A-Z]?(?=[A-Z]\d)", "-", text)


def unmarked(text: str) -> str:
    return re.sub(r"(\+∞|\+\^|\+\+|\+|#)$", "", text)


def by_name(pos: Position, name: str):
    return next(m for m in pos.legal_moves() if str(m) == name)


# --- 9.1 attacks ---------------------------------------------------------------------------------


def test_pinned_piece_still_attacks():
    # the Black Rook on F16 is pinned to its King on F20 by the White Rook on F10, yet it still
    # controls its file G15-H14-I13-K12-L11: the White King on I11 may not step onto I13
    pos = position("KI11 kF20 rF16 RF10")
    assert pos.is_attacked(parse_hex("I13"), BLACK)
    assert moves_from(pos, "I11") == {"I9", "K10", "H12", "H10", "G11", "K14", "K8", "H8"}


def test_pinned_piece_still_gives_check():
    pos = position("KI13 kF20 rF16 RF10")
    assert pos.is_check()
    assert pos.check_kind() == CheckKind.AFAR


def test_attacks_do_not_depend_on_the_side_to_move():
    for turn in ("w", "b"):
        pos = position("KT14 kX14 rF16 RF10 pE13", turn=turn)
        assert pos.is_attacked(parse_hex("K12"), BLACK)  # Rook F16 along its file
        assert pos.is_attacked(parse_hex("D10"), BLACK)  # pawn E13 forward-diagonally
        assert pos.is_attacked(parse_hex("F8"), WHITE)  # Rook F10 down column F
        assert not pos.is_attacked(parse_hex("E11"), BLACK)  # a pawn does not attack straight ahead


def test_rides_never_attack():
    pos = position("KT14 kX14 NF14")
    assert pos.is_attacked(parse_hex("I15"), WHITE)  # jump
    assert not pos.is_attacked(parse_hex("X16"), WHITE)  # ride


def test_elephant_attacks_its_six_destinations():
    pos = position("KT14 kX14 eF14")
    attacked = {h for h in ("F12", "F10", "G17", "E17", "G11", "E11") if pos.is_attacked(parse_hex(h), BLACK)}
    assert attacked == {"F12", "F10", "G17", "E17", "G11", "E11"}
    assert not pos.is_attacked(parse_hex("F16"), BLACK)  # never backwards
    assert not pos.is_attacked(parse_hex("H14"), BLACK)  # never along the cross-line


def test_piece_between_elephant_and_king_is_pinned():
    # the Black Elephant on K18 would reach K14 in two steps if K16 were empty
    pos = position("KK14 eK18 NK16 kB14")
    assert not pos.is_check()
    assert moves_from(pos, "K16") == set()


def test_elephant_two_step_check_can_be_blocked():
    pos = position("KK14 eK18 NH12 kB14")
    assert pos.check_kind() == CheckKind.AFAR
    assert moves_from(pos, "H12") == {"K16"}


def test_king_shadow_against_a_slider():
    # the Rook on F16 checks the King on F10: stepping back to F8 stays on its line
    pos = position("KF10 kZ19 rF16")
    assert moves_from(pos, "F10") == {"G11", "G9", "E11", "E9", "H10", "D10", "G13", "G7", "E13", "E7"}


def test_unmoved_king_attacks_its_leap_hexes():
    pos = position("KG23 kG27", castling="-k")
    assert "H22" not in moves_from(pos, "G23")
    assert pos.is_attacked(parse_hex("H22"), BLACK)
    assert "H22" in moves_from(position("KG23 kG27"), "G23")  # no leap right, no leap attack


def test_unmoved_king_in_check_does_not_attack_its_leap_hexes():
    # KG23-H22 uncovers the Rook on G19: the Black King is then in check, so it cannot leap and H22 is safe
    pos = position("KG23 RG19 kG27", castling="-k")
    assert {"H22", "F22", "I23"} <= moves_from(pos, "G23")
    assert "H24" not in moves_from(pos, "G23")  # a plain King step of G27 attacks H24


# --- 14.3 special situations -------------------------------------------------------------------

SPECIAL_SITUATIONS = {
    "elephant-check-from-two-hexes": (
        "/18:5e1/14:1k1P1K1/13:4E3/9:1p1P4/7:2E1E3/6:5P1/ w -- - 2 101",
        "KK14-H14 KK14-I11 KK14-I13 KK14-I17 KK14-K12 KK14-L11 KK14-L13 KK14-L17 KK14-X14",
        CheckKind.AFAR,
    ),
    "king-shadow-against-elephant": (
        "/25:3v/24:4e/23:2n3/22:1j2pk1/17:2J1N3/13:3E4/12:2e1er1/11:5E2/10:4K2/9:1J2G3/8:4j2/5:g5/1:1V/ w -- - 8 99",
        "GG9×EH12 KH10-F10 KH10-G13 KH10-G7 KH10-I7 KH10×EH12 NG17×EH12",
        CheckKind.ADJOINING,
    ),
    "en-passant-removes-checking-pawn": (
        "/24:k2e1/19:1p4p1/18:3v3/16:5p1/14:5j1/12:4p2/11:4P3/10:2P4/9:2R1KP2/7:2P5/6:5P1/5:2E3/4:3EN/2:E2/0:R/"
        " w -- H12@14 0 64",
        "G11@H14 I9×H12 KG9-E9 KG9-G7 KG9-H10 KG9-H6 KG9×H12",
        CheckKind.ADJOINING,
    ),
    "double-check-and-shadow": (
        "/26:2j/25:R1e1/23:2k3/20:2e4/19:1D6/18:V6/17:4r1G1/15:6g1/14:3E1p1/12:4p2/10:5P1/7:7R/6:2E4/5:2KE2/4:3E1/2:1J1/"
        " b -- C25@23 0 105",
        "KE23-E21 KE23-E25 KE23-F20 KE23-F26 KE23-G23",
        CheckKind.DOUBLE,
    ),
}


@pytest.mark.parametrize("name", list(SPECIAL_SITUATIONS))
def test_special_situation_exact_legal_moves(name):
    text, moves, kind = SPECIAL_SITUATIONS[name]
    pos = Position.from_pdtl(text)
    expected = moves.split()
    assert pos.is_check()
    assert pos.check_kind() == kind
    assert {str(m) for m in pos.legal_moves()} == {canonical(t) for t in expected}
    assert {unmarked(pos.ctl_an(m)) for m in pos.legal_moves()} == set(expected)


def test_elephant_two_hex_check_cannot_be_escaped_along_its_line():
    pos = Position.from_pdtl(SPECIAL_SITUATIONS["elephant-check-from-two-hexes"][0])
    assert "K14-K12" in {str(m) for m in pos.legal_moves()}
    assert "K14-K16" not in {str(m) for m in pos.legal_moves()}  # the Elephant takes there


def test_king_shadow_against_elephant():
    pos = Position.from_pdtl(SPECIAL_SITUATIONS["king-shadow-against-elephant"][0])
    assert "H10-H8" not in {str(m) for m in pos.legal_moves()}


def test_scornful_capture_is_a_legal_answer_to_check():
    # the scornful pawn E13-F14 checks the King on G17; the faced pawn E15 takes it orthogonally
    pos = position("KP11 kG17 PE13 pE15")
    play(pos, "E13-F14")
    assert pos.check_kind() == CheckKind.ADJOINING
    assert "E15-F14" in {str(m) for m in pos.legal_moves()}


def test_double_check_only_king_moves_help():
    pos = Position.from_pdtl(SPECIAL_SITUATIONS["double-check-and-shadow"][0])
    assert all(m.origin == parse_hex("E23") for m in pos.legal_moves())
    assert "E23-F24" not in {str(m) for m in pos.legal_moves()}


def test_en_passant_capture_is_a_legal_answer_to_check():
    pos = Position.from_pdtl(SPECIAL_SITUATIONS["en-passant-removes-checking-pawn"][0])
    move = by_name(pos, "G11-H14")
    pos.push(move)
    assert pos.piece_at(parse_hex("H12")) is None


# --- 9.4 kinds of check and their CTL-AN marks -----------------------------------------------------

# Black King F20; the White Rook on F10 is masked by the White Bishop on F14; White Knight on D10.
CHECKS = "KP7 kF20 RF10 JF14 ND10"


@pytest.mark.parametrize(
    ("move", "written", "kind"),
    [
        ("JF14-G11", "JF14-G11+∞", CheckKind.AFAR),  # discovered Rook check from afar
        ("JF14-H14", "JF14-H14++", CheckKind.DOUBLE),  # Rook + Bishop two hexes away
        ("JF14-G17", "JF14-G17++", CheckKind.DOUBLE),  # Rook + adjacent Bishop
        ("ND10-E15", "ND10-E15+^", CheckKind.ADJOINING),  # knight-jump check
        ("KP7-P9", "KP7-P9", None),
    ],
)
def test_check_kinds_and_marks(move, written, kind):
    pos = position(CHECKS)
    assert not pos.is_check()
    parsed = pos.parse_move(written)
    assert pos.ctl_an(parsed) == written
    pos.push(parsed)
    assert pos.check_kind() == kind
    assert pos.is_check() == (kind is not None)


def test_adjoining_check_by_a_slider_next_to_the_king():
    pos = position("KP7 kF20 RX12")
    move = pos.parse_move("RX12-F18+^")
    assert pos.ctl_an(move) == "RX12-F18+^"
    pos.push(move)
    assert pos.check_kind() == CheckKind.ADJOINING


# --- 9.5 / 10.1 checkmate and stalemate ------------------------------------------------------------


def test_checkmate_by_white_scores_3_0():
    pos = position("KP7 kF28 NG21 DB22")
    move = pos.parse_move("DB22-F26#")
    assert pos.ctl_an(move) == "DB22-F26#"
    pos.push(move)
    assert pos.is_checkmate()
    assert pos.legal_moves() == []
    assert pos.result() == "3-0"


def test_checkmate_by_black_scores_0_3():
    pos = position("kP21 KF0 nG7 dB6", turn="b")
    move = pos.parse_move("DB6-F2#")
    assert pos.ctl_an(move) == "DB6-F2#"
    pos.push(move)
    assert pos.is_checkmate()
    assert pos.result() == "0-3"


def test_stalemate_of_black_scores_2_1_without_mark():
    pos = position("KG23 kF28 DD14")
    move = pos.parse_move("DD14-D24")
    assert pos.ctl_an(move) == "DD14-D24"
    pos.push(move)
    assert not pos.is_check()
    assert pos.legal_moves() == []
    assert pos.is_stalemate()
    assert pos.result() == "2-1"


def test_stalemate_of_white_scores_1_2_without_mark():
    pos = position("kG5 KF0 dD14", turn="b")
    move = pos.parse_move("DD14-D4")
    assert pos.ctl_an(move) == "DD14-D4"
    pos.push(move)
    assert pos.is_stalemate()
    assert pos.result() == "1-2"


def test_game_goes_on_while_moves_remain():
    assert Position.initial().result() is None


# --- 10.3-2 insufficient material --------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    ["", "JP13", "NP13", "EP13", "jP15", "nP15", "eP15"],
    ids=["K-v-K", "KJ-v-K", "KN-v-K", "KE-v-K", "K-v-KJ", "K-v-KN", "K-v-KE"],
)
def test_insufficient_material_is_an_automatic_draw(extra):
    pos = position(f"KF10 kF18 {extra}")
    assert pos.is_insufficient_material()
    assert pos.result() == "1-1"


@pytest.mark.parametrize(
    "extra",
    [
        *("GP13", "JP13 NZ13", "JP13 jP15", "EP13 EZ13", "JP13 EZ13", "NP13 NZ13"),
        *("NP13 nP15", "RP13", "DP13", "VP13", "PP13", "pP15"),
    ],
    ids=[
        "KG-v-K",
        "KJN-v-K",
        "KJ-v-KJ",
        "KEE-v-K",
        "KJE-v-K",
        "KNN-v-K",
        "KN-v-KN",
        "KR-v-K",
        "KD-v-K",
        "KV-v-K",
        "KP-v-K",
        "K-v-KP",
    ],
)
def test_sufficient_material_is_not_a_draw(extra):
    pos = position(f"KF10 kF18 {extra}")
    assert not pos.is_insufficient_material()
    assert pos.result() is None


# --- 10.3-3 the seventy-five-move rule --------------------------------------------------------------


def test_seventy_five_move_rule_at_clock_150():
    assert position("KF10 kF18 RP13", clock=150).result() == "1-1"
    assert position("KF10 kF18 RP13", clock=149).result() is None


def test_seventy_five_move_rule_reached_by_a_move():
    pos = position("KF10 kF18 RP13", clock=149)
    play(pos, "RP13-P15")
    assert pos.halfmove_clock == 150
    assert pos.result() == "1-1"


def test_checkmate_on_the_150th_half_move_wins():
    pos = position("KP7 kF28 NG21 DB22", clock=149)
    play(pos, "DB22-F26#")
    assert pos.halfmove_clock == 150
    assert pos.result() == "3-0"


# --- 10.3-4 what makes two positions "the same" ---------------------------------------------------


def test_repetition_key_ignores_clocks_and_move_number():
    assert position("KF10 kF18 RP13", clock=3, number=5).state_key() == position("KF10 kF18 RP13", clock=40).state_key()


def test_repetition_key_includes_side_to_move_and_castling_rights():
    base = position("KG1 RC3 RI3 kP21", castling="RKR-")
    assert base.state_key() != position("KG1 RC3 RI3 kP21", castling="KR-").state_key()
    assert position("KF10 kF18").state_key() != position("KF10 kF18", turn="b").state_key()


def test_repetition_key_counts_en_passant_only_when_a_capture_is_legal():
    plain = "/15:4P3/14:5k1/10:K6/ b -- - 0 9"
    # nobody can take G15 en passant on G13: the field does not make a different position
    assert Position.from_pdtl(plain.replace(" - 0", " G15@13 0")).state_key() == Position.from_pdtl(plain).state_key()
    # the Black pawn on H16 can: now it does
    with_capturer = "/16:4p2/15:4P3/14:5k1/10:K6/ b -- - 0 9"
    assert (
        Position.from_pdtl(with_capturer.replace(" - 0", " G15@13 0")).state_key()
        != Position.from_pdtl(with_capturer).state_key()
    )


def test_repetition_key_ignores_an_en_passant_capture_that_would_be_illegal():
    # the only en passant capture (E15-F18) would open the file H18-C13 onto the White King
    with_field = position("KC13 kZ11 PE15 pF16 rH18", special="F16@18")
    assert with_field.state_key() == position("KC13 kZ11 PE15 pF16 rH18").state_key()


# --- 10.4 the half-move clock ----------------------------------------------------------------------


def _clock_after(spec: str, move: str, clock: int = 9, **fields) -> int:
    pos = position(spec, clock=clock, **fields)
    play(pos, move)
    return pos.halfmove_clock


def test_halfmove_clock_increments_on_a_quiet_piece_move():
    assert _clock_after("KF10 kF18 RP13", "RP13-P15") == 10


def test_halfmove_clock_resets_on_a_pawn_move():
    assert _clock_after("KF10 kF18 PP13", "P13-P15") == 0


def test_halfmove_clock_resets_on_a_capture():
    assert _clock_after("KF10 kF18 RP13 nP19", "RP13×NP19") == 0


def test_halfmove_clock_resets_on_en_passant():
    assert _clock_after("KT10 kZ11 PE15 pF16", "E15@F18", turn="w", special="F16@18") == 0


def test_halfmove_clock_resets_on_leap_capture_but_not_on_plain_leap():
    assert _clock_after("KG1 kZ19 jH6", "KG1×JH6", castling="K-") == 0
    assert _clock_after("KG1 kZ19 jH6", "KG1-D2", castling="K-") == 10


def test_halfmove_clock_resets_on_in_place_promotion():
    assert _clock_after("KT14 kX14 PF28", "F28=D") == 0


def test_halfmove_clock_resets_on_promotion_on_arrival():
    assert _clock_after("KT14 kX14 PF26", "F26-F28=N") == 0


def test_halfmove_clock_increments_on_castling():
    assert _clock_after("KG1 RC3 RI3 kP21", "KRK-HH", castling="RKR-") == 10


def test_halfmove_clock_increments_on_a_king_step():
    assert _clock_after("KF10 kF18", "KF10-F8") == 10


# --- 10.5 the move number ---------------------------------------------------------------------------


def test_move_number_increments_after_black_only():
    pos = position("KF10 kF18", number=7)
    play(pos, "KF10-F8")
    assert pos.fullmove_number == 7
    play(pos, "KF18-F20")
    assert pos.fullmove_number == 8
    pos.pop()
    assert pos.fullmove_number == 7


def test_unknown_move_number_stays_unknown():
    pos = Position.from_pdtl(pdtl("KF10 kF18", turn="b").rsplit(" ", 1)[0] + " ?")
    assert pos.fullmove_number is None
    play(pos, "KF18-F20")
    assert pos.fullmove_number is None

"""NOTATION.md 4: writing and reading CTL-AN (and CTL-FAN) moves.

Each example of the table in NOTATION.md 4.1 is rebuilt in a position where
it can be played; the reader is tested on every alternative form NOTATION.md
4.8 lets a tolerant reader accept, and on the errors it must raise.
"""

from __future__ import annotations

import pytest

from cescacs_tui.core import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    PGNError,
    PieceType,
    Position,
    notation,
    read_pgn,
)
from cescacs_tui.core.build_info import COMPILED, build
from tests.helpers.builders import position


def by_name(pos: Position, name: str):
    matches = [m for m in pos.legal_moves() if str(m) == name]
    assert len(matches) == 1, name
    return matches[0]


def quietly(pos: Position, text: str, strict: bool = False):
    """Parse ``text`` and return the move with the warnings the reader reported."""
    found: list[str] = []
    move = pos.parse_move(text, strict=strict, warnings=found)
    return move, found


COURT = "KG1 DE1 VF0 RC3 RI3 GD2 GH2 NE3 NG3 JF2 JF4 JF6"  # White's court pieces on their initial hexes


def court(*removed: str) -> str:
    return " ".join(t for t in COURT.split() if t not in removed)


EXAMPLE_6 = (  # NOTATION.md 5.8 example 6: game Cescacs-A0001-24 after 5. G7-G13
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/20:3e3/16:3P3/13:4P3/12:3p3/8:3E3"
    "/6:2PJP2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr G13@9-11 0 5"
)


def scornful_position() -> Position:
    # RULES.md 6.5: 1. E7-E13, E21-E15 2. E13-F14
    pos = Position.initial()
    for text in ("E7-E13", "E21-E15", "E13-F14"):
        pos.push(pos.parse_move(text))
    return pos


def scornful_promotion_position() -> Position:
    # Black L23 faces White L21 and steps to X22; White's white-hex Bishop (F4) is missing
    pos = position(f"{court('JF4')} kZ15 PL21 pL23", turn="b")
    pos.push(pos.parse_move("L23-X22"))
    return pos


# (position factory, canonical move, CTL-AN token): the 17 examples of NOTATION.md 4.1
TABLE_4_1 = [
    (Position.initial, "E7-E13", "E7-E13"),
    (Position.initial, "F8-F12", "F8-F12"),
    (Position.initial, "F8-E9", "F8-E9"),
    (lambda: position("KP11 kZ11 PE13 pF16"), "E13-F16", "E13×F16"),
    (lambda: position("KP11 kZ11 PE15 jD18"), "E15-D18", "E15×JD18"),
    (lambda: position("KP11 kZ11 EF12 nF14"), "F12-F14", "EF12×NF14"),
    (lambda: position("KP11 kZ11 JF6 pG9"), "F6-G9", "JF6×G9"),
    (lambda: position("KP11 kZ11 nE25", turn="b"), "E25-C15", "NE25-C15"),
    (lambda: position("KG1 kZ19"), "G1-E1", "KG1-E1"),
    (lambda: position("KP11 kZ11 PE15 pD16", special="D16@18-20"), "E15-D18", "E15@D18"),
    (lambda: Position.from_pdtl(EXAMPLE_6), "F12-G9", "F12@@G9"),
    (lambda: position("KP11 kZ11 PC11 pD12", special="D12@14"), "C11-D14", "C11@D14"),
    (scornful_position, "E15-F14", "E15@F14"),
    (lambda: position(f"{court('GH2')} kZ19 PB20"), "B20-B24=G", "B20-B24=G"),
    (lambda: position(f"{court('DE1')} kZ19 PA21 nB24"), "A21-B24=D", "A21×NB24=D"),
    (scornful_promotion_position, "L21-X22=J", "L21@X22=J"),
    (lambda: position(f"{court()} kZ19 PA19"), "A19-A23", "A19-A23=&"),
]


@pytest.mark.parametrize(("factory", "name", "token"), TABLE_4_1, ids=[row[2] for row in TABLE_4_1])
def test_table_4_1_example_is_written_in_ctl_an(factory, name, token):
    pos = factory()
    assert pos.ctl_an(by_name(pos, name)) == token


@pytest.mark.parametrize(("factory", "name", "token"), TABLE_4_1, ids=[row[2] for row in TABLE_4_1])
def test_table_4_1_example_is_read_back(factory, name, token):
    pos = factory()
    move, found = quietly(pos, token)
    assert str(move) == name
    assert found == []


def test_promotion_examples_offer_only_the_written_piece():
    pos = position(f"{court('GH2')} kZ19 PB20")
    assert {str(m) for m in pos.legal_moves() if str(m).startswith("B20-B24")} == {"B20-B24=G"}
    pos = position(f"{court('DE1')} kZ19 PA21 nB24")
    assert {str(m) for m in pos.legal_moves() if str(m).startswith("A21-B24")} == {"A21-B24=D"}


def test_in_place_promotion_is_written_hex_equals_piece():
    # NOTATION.md 4.2 / RULES.md 7.5
    pos = position(f"{court('JF4')} kZ19 PF28")
    assert [pos.ctl_an(m) for m in pos.legal_moves()] == ["F28=J"]
    assert str(pos.parse_move("F28=J")) == "F28=J"


def test_castling_tokens_are_written_as_such_with_their_check_mark():
    pos = position("KG1 RC3 RI3 kK20", castling="RKR-")
    assert pos.ctl_an(by_name(pos, "KRK-HIO")) == "KRK-HIO"
    # KRK-IK brings the Rook to K4, from where it checks the King on K20 up column K
    assert pos.ctl_an(by_name(pos, "KRK-IK")) == "KRK-IK+∞"


# --- CTL-FAN -------------------------------------------------------------------------------------


def test_fan_writes_glyphs_of_each_pieces_own_colour():
    start = Position.initial()
    assert start.ctl_an(by_name(start, "E3-D8"), fan=True) == "\u2658E3-D8"  # ♘
    assert start.ctl_an(by_name(start, "E7-E13"), fan=True) == "E7-E13"  # pawns keep no letter
    pos = position("KP11 kZ11 PE15 jD18")
    assert pos.ctl_an(by_name(pos, "E15-D18"), fan=True) == "E15×\u265dD18"  # ♝ captured Black Bishop
    pos = position("KP11 kZ11 nE25", turn="b")
    assert pos.ctl_an(by_name(pos, "E25-C15"), fan=True) == "\u265eE25-C15"  # ♞
    pos = position(f"{court('DE1')} kZ19 PA21 nB24")
    assert pos.ctl_an(by_name(pos, "A21-B24=D"), fan=True) == "A21×\u265eB24=\u2655"  # ♞ taken, ♕ regained
    pos = position("KP11 kZ11 EF12 nF14")
    assert pos.ctl_an(by_name(pos, "F12-F14"), fan=True) == "\u2616F12×\u265eF14"  # ☖ ♞


def test_fan_castling_keeps_its_letters():
    pos = position("KG1 RC3 RI3 kK20", castling="RKR-")
    assert pos.ctl_an(by_name(pos, "KRK-HIO"), fan=True) == "KRK-HIO"


@pytest.mark.parametrize("text", ["\u2658E3-D8", "\u265eE3-D8"])
def test_fan_glyphs_of_either_colour_are_read(text):
    move, found = quietly(Position.initial(), text)
    assert str(move) == "E3-D8"
    assert found == []


def test_fan_captured_glyph_is_read():
    pos = position("KP11 kZ11 PE15 jD18")
    assert str(pos.parse_move("E15×\u265dD18")) == "E15-D18"
    assert str(pos.parse_move("E15×\u2657D18")) == "E15-D18"


# --- 4.8 tolerated alternative characters ------------------------------------------------------------


@pytest.mark.parametrize("hyphen", ["-", "\u2010", "\u2011", "\u2013", "\u2212"])
def test_hyphen_alternatives_are_read(hyphen):
    start = Position.initial()
    assert str(start.parse_move(f"NE3{hyphen}D8")) == "E3-D8"
    assert str(start.parse_move(f"E7{hyphen}E13")) == "E7-E13"


def test_castling_token_with_typographic_hyphen():
    pos = position("KG1 RC3 RI3 kK20", castling="RKR-")
    assert pos.parse_move("KRK\u2010HIO").castling == "KRK-HIO"
    assert pos.parse_move("KRK\u2013HIOO").castling == "KRK-HIOO"


# --- castling under [Redefine "T@R"] (NOTATION.md 3.2, 4.3) ---------------------------------------------

AUDIT_CASTLING = "/27:1k/3:R2R/1:1K/ w RKR- - 0 1"
"""The audit's position (issue 9): White's King and both Rooks unmoved."""
T_FOR_R = {"T": PieceType.ROOK}


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("KTT-HIH", "KRR-HIH"), ("KTK-II", "KRK-II"), ("KTK-HIO", "KRK-HIO"), ("KTD-DD", "KRD-DD")],
)
def test_castling_prefixes_use_the_declared_rook_letter(text, canonical):
    parsed = notation.parse_move(Position.from_pdtl(AUDIT_CASTLING), text, aliases=T_FOR_R, canonical=False)
    assert parsed.move.castling == canonical
    assert parsed.warnings == []


def test_standard_castling_prefix_under_redefine_is_tolerated_but_not_strictly():
    pos = Position.from_pdtl(AUDIT_CASTLING)
    parsed = notation.parse_move(pos, "KRR-HIH", aliases=T_FOR_R, canonical=False)  # as a record is read
    assert parsed.move.castling == "KRR-HIH" and parsed.warnings
    with pytest.raises(InvalidMoveError):
        notation.parse_move(pos, "KRR-HIH", aliases=T_FOR_R, canonical=False, strict=True)


@pytest.mark.parametrize("text", ["KTQ-HIH", "KTN-HIH", "KTX-HIH"])
def test_a_castling_side_letter_must_be_k_d_or_the_rook(text):
    with pytest.raises(InvalidMoveError):
        notation.parse_move(Position.from_pdtl(AUDIT_CASTLING), text, aliases=T_FOR_R)


def test_a_redefined_record_castles_with_ktt():
    for pdtl in (AUDIT_CASTLING, "/27:1k/3:T2T/1:1K/ w TKT- - 0 1"):  # standard letters are tolerated in its PDTL
        record = f'[Variant "C\'escacs"]\n[Redefine "T@R"]\n[PDTL "{pdtl}"]\n\n1. KTT-HIH :\n*\n'
        (game,) = read_pgn(record)
        assert game.nodes[0].san == "KRR-HIH"
        assert str(game.nodes[0].move) == "KRR-HIH"
    with pytest.raises(PGNError):  # a strict reader refuses the standard letters a Redefine replaced
        read_pgn(record.replace("T2T/1:1K/ w TKT-", "R2R/1:1K/ w RKR-"), strict=True)


# --- digits are ASCII ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["E\u0667-E13", "E7-E\u0661\u0663", "E7-E1\u00b3", "NE\uff13-D8", "P2\u0661=J"])
def test_only_ascii_digits_make_a_hex(text):
    with pytest.raises(InvalidMoveError):
        Position.initial().parse_move(text)


def test_move_errors_are_printable_even_for_control_characters():
    with pytest.raises(MoveError) as caught:
        Position.initial().parse_move("E7-E13\x1b]0;pwned\x07")
    assert str(caught.value).isprintable() and caught.value.reason.isprintable()
    assert "\x1b" in caught.value.token


def test_asterisk_is_read_as_capture():
    pos = position("KP11 kZ11 PE13 pF16")
    move, found = quietly(pos, "E13*F16")
    assert str(move) == "E13-F16"
    assert found == []
    pos = position("KP11 kZ11 JF6 pG9")
    assert str(pos.parse_move("JF6*G9")) == "F6-G9"


def test_legacy_caret_plus_is_read_as_adjoining_check():
    pos = position("KP7 kF20 RF10 JF14 ND10")
    assert str(pos.parse_move("ND10-E15^+")) == "D10-E15"


def test_plain_plus_is_always_acceptable():
    pos = position("KP7 kF20 RF10 JF14 ND10")
    for text, name in (("ND10-E15+", "D10-E15"), ("JF14-G11+", "F14-G11"), ("JF14-H14+", "F14-H14")):
        move, found = quietly(pos, text)
        assert str(move) == name
        assert found == []
        assert str(pos.parse_move(text, strict=True)) == name


@pytest.mark.parametrize(
    ("text", "alias_spec"),
    [
        ("QE1-E5", "DE1"),
        ("WF0-F4", "VF0"),
        ("TC3-C7", "RC3"),
        ("CE3-D8", "NE3"),
        ("SE3-D8", "NE3"),
        ("AF6-E9", "JF6"),
        ("BB4-C7", "JB4"),
        ("FF6-E9", "JF6"),
        ("LF6-E9", "JF6"),
        ("HE5-E7", "EE5"),
    ],
)
def test_letter_aliases_are_read_with_a_warning(text, alias_spec):
    pos = position(f"KP11 kZ19 {alias_spec}")
    move, found = quietly(pos, text)
    assert str(move) == text[1:]
    assert found, "an undeclared alias is accepted only with a warning"


@pytest.mark.parametrize(
    "suffix", ["??", " ??", "!?", " ?!", "!", " !!", " ?", "◇", " ◇", " :", ":", " (=)", " ?!(=)", " (=):", "??:"]
)
def test_assessments_and_indicators_are_stripped(suffix):
    move, found = quietly(Position.initial(), f"E7-E13{suffix}")
    assert str(move) == "E7-E13"
    assert found == []


def test_glued_assessment_after_a_capture():
    pos = position("KP11 kZ11 PE15 jD18")
    assert str(pos.parse_move("E15×JD18??")) == "E15-D18"


# --- 4.8 errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        ("hello", "hello"),
        ("E7xE13", "x"),
        ("F1-F3", "F1"),
        ("KRK-HI", "KRK-HI"),
        ("", ""),
        ("E7-", "E7"),
        ("ME3-D8", "M"),
        ("NE3—D8", "NE3"),
    ],
)
def test_malformed_move_raises_invalid_move_error(text, mentions):
    with pytest.raises(InvalidMoveError) as caught:
        Position.initial().parse_move(text)
    assert mentions in str(caught.value)
    assert not isinstance(caught.value, IllegalMoveError | AmbiguousMoveError)


@pytest.mark.parametrize(
    "text",
    ["E7-E15", "F8-F14", "NE3-E5", "E9-E11", "E21-E19", "KRK-HIO", "KG1-I5", "A5-A11", "GD2-D6"],
)
def test_well_formed_but_illegal_move_raises_illegal_move_error(text):
    with pytest.raises(IllegalMoveError) as caught:
        Position.initial().parse_move(text)
    assert caught.value.token == text
    assert not isinstance(caught.value, InvalidMoveError | AmbiguousMoveError)


def test_in_place_promotion_without_a_regainable_piece_is_illegal():
    pos = position(f"{court()} kZ19 PF28")
    with pytest.raises(IllegalMoveError, match="F28"):
        pos.parse_move("F28=J")


def test_in_place_promotion_waits_while_in_check():
    pos = position("KT14 kX14 rT20 PF28")
    with pytest.raises(IllegalMoveError, match="check"):
        pos.parse_move("F28=D")


def test_missing_promotion_piece_raises_ambiguous_move_error():
    pos = position("KT14 kX14 PF26")
    with pytest.raises(AmbiguousMoveError) as caught:
        pos.parse_move("F26-F28")
    assert "promotion piece required" in str(caught.value)
    assert str(pos.parse_move("F26-F28=N")) == "F26-F28=N"


def test_illegal_message_explains_a_pinned_piece():
    # the Black Rook on F16 is pinned: moving it along its file would leave the King in check
    pos = position("KP7 kF20 rF16 RF10", turn="b")
    with pytest.raises(IllegalMoveError, match="check"):
        pos.parse_move("RF16-G17")


# --- 4.8 algebraic coherence ---------------------------------------------------------------------


def test_wrong_piece_letter_is_rejected():
    with pytest.raises(IllegalMoveError, match="Knight"):
        Position.initial().parse_move("GE3-D8")


def test_missing_piece_letter_in_a_ctl_an_capture_is_rejected():
    with pytest.raises(IllegalMoveError):
        position("KP11 kZ11 JF6 pG9").parse_move("F6×G9")


def test_hyphen_for_a_capture_is_rejected():
    with pytest.raises(IllegalMoveError):
        position("KP11 kZ11 JF6 pG9").parse_move("JF6-G9")
    with pytest.raises(IllegalMoveError):
        position("KP11 kZ11 EF12 nF14").parse_move("EF12-NF14")


def test_capture_sign_on_a_quiet_move_is_rejected():
    with pytest.raises(IllegalMoveError):
        Position.initial().parse_move("NE3×D8")


def test_wrong_captured_letter_is_rejected():
    with pytest.raises(IllegalMoveError, match="Bishop"):
        position("KP11 kZ11 PE15 jD18").parse_move("E15×ND18")
    with pytest.raises(IllegalMoveError, match="Pawn"):
        position("KP11 kZ11 JF6 pG9").parse_move("JF6×NG9")


def test_missing_captured_letter_is_tolerated_with_a_warning():
    move, found = quietly(position("KP11 kZ11 PE15 jD18"), "E15×D18")
    assert str(move) == "E15-D18"
    assert found


def test_at_sign_for_an_ordinary_capture_is_rejected():
    with pytest.raises(IllegalMoveError):
        position("KP11 kZ11 PE13 pF16").parse_move("E13@F16")


def test_capture_sign_for_en_passant_is_tolerated_with_a_warning():
    move, found = quietly(position("KP11 kZ11 PE15 pD16", special="D16@18-20"), "E15×D18")
    assert str(move) == "E15-D18"
    assert found
    # the reference code writes L21×X22=J for a scornful capture with promotion
    move, found = quietly(scornful_promotion_position(), "L21×X22=J")
    assert str(move) == "L21-X22=J"
    assert found


def test_single_and_double_at_swapped_are_tolerated_with_a_warning():
    move, found = quietly(Position.from_pdtl(EXAMPLE_6), "F12@G9")
    assert str(move) == "F12-G9"
    assert found
    move, found = quietly(position("KP11 kZ11 PE15 pD16", special="D16@18-20"), "E15@@D18")
    assert str(move) == "E15-D18"
    assert found


def test_file_reader_rejects_a_hyphen_for_a_pawn_capture():
    # A CTL-AN reader (as for files: no canonical coordinate form) rejects E13-F16 for E13×F16
    pos = position("KP11 kZ11 PE13 pF16")
    with pytest.raises(IllegalMoveError):
        notation.parse_move(pos, "E13-F16", canonical=False)


def test_file_reader_tolerates_a_missing_awaiting_mark_with_a_warning():
    pos = position(f"{court()} kZ19 PA19")
    parsed = notation.parse_move(pos, "A19-A23", canonical=False)
    assert str(parsed.move) == "A19-A23"
    assert parsed.warnings
    with pytest.raises(MoveError):
        notation.parse_move(pos, "A19-A23", canonical=False, strict=True)


def test_awaiting_mark_when_a_piece_is_eligible_is_rejected():
    with pytest.raises(IllegalMoveError):
        position(f"{court('DE1')} kZ19 PA21 nB24").parse_move("A21×NB24=&")


def test_missing_awaiting_mark_is_tolerated_with_a_warning():
    # E25×RF28 reaches F28 with nothing to regain: canonically E25×RF28=&
    pos = position(f"{court()} kZ19 PE25 rF28")
    assert pos.ctl_an(by_name(pos, "E25-F28")) == "E25×RF28=&"
    move, found = quietly(pos, "E25×RF28")
    assert str(move) == "E25-F28"
    assert found


def test_promotion_to_a_piece_that_cannot_be_regained_is_rejected():
    with pytest.raises(IllegalMoveError):
        position(f"{court('DE1')} kZ19 PA21 nB24").parse_move("A21×NB24=R")


# --- 4.4 check marks only warn -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("E7-E13+", "E7-E13"),  # no check at all
        ("E7-E13#", "E7-E13"),
        ("NE3-D8+∞", "E3-D8"),
    ],
)
def test_check_mark_on_a_quiet_move_only_warns(text, name):
    move, found = quietly(Position.initial(), text)
    assert str(move) == name
    assert found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("ND10-E15", "D10-E15"),  # missing mark
        ("ND10-E15+∞", "D10-E15"),  # wrong classification (+^)
        ("JF14-H14+^", "F14-H14"),  # double check written as adjoining
        ("JF14-G11++", "F14-G11"),  # single check written as double
        ("JF14-G11#", "F14-G11"),  # not mate
    ],
)
def test_wrong_check_mark_only_warns(text, name):
    move, found = quietly(position("KP7 kF20 RF10 JF14 ND10"), text)
    assert str(move) == name
    assert found


def test_missing_mate_mark_only_warns():
    move, found = quietly(position("KP7 kF28 NG21 DB22"), "DB22-F26+^")
    assert str(move) == "B22-F26"
    assert found


# --- strict mode -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("factory", "text"),
    [
        (Position.initial, "E7-E13+"),  # wrong check mark
        (lambda: position("KP7 kF20 RF10 JF14 ND10"), "ND10-E15+∞"),  # wrong classification
        (lambda: position("KP11 kZ11 PE15 jD18"), "E15×D18"),  # missing captured letter
        (lambda: position("KP11 kZ11 PE15 pD16", special="D16@18-20"), "E15×D18"),  # × for @
        (lambda: Position.from_pdtl(EXAMPLE_6), "F12@G9"),  # @ for @@
        (lambda: position(f"{court()} kZ19 PE25 rF28"), "E25×RF28"),  # missing =&
        # NOTATION.md 3.2: "A strict reader rejects an undeclared alias"
        (lambda: position("KP11 kZ19 DE1"), "QE1-E5"),
        (lambda: position("KP11 kZ19 NE3"), "CE3-D8"),
        (lambda: position("KP11 kZ19 RC3"), "TC3-C7"),
    ],
)
def test_strict_mode_turns_warnings_into_errors(factory, text):
    pos = factory()
    _, found = quietly(pos, text)  # a tolerant reader accepts the move...
    assert found  # ...with a warning
    with pytest.raises(MoveError):
        pos.parse_move(text, strict=True)


def test_strict_mode_accepts_the_canonical_form():
    pos = position("KP7 kF20 RF10 JF14 ND10")
    for move in pos.legal_moves():
        text = pos.ctl_an(move)
        assert pos.parse_move(text, strict=True) == move


# --- round trip ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("factory", "name", "token"), TABLE_4_1, ids=[row[2] for row in TABLE_4_1])
def test_every_legal_move_reads_back_from_its_ctl_an(factory, name, token):
    pos = factory()
    for move in pos.legal_moves():
        assert pos.parse_move(pos.ctl_an(move)) == move
        assert pos.parse_move(pos.ctl_an(move, fan=True)) == move


# --- reading a move generates only its piece's moves: the answers stay those of the whole list ------------

_FORCED = f"{court('JF4', 'RI3', 'NG3')} kZ19 PF28 PP21"  # a forced promotion turn: two pawns await
ANSWERS = [
    (_FORCED, {}, "NE3-D8", "a pawn awaiting promotion must be promoted this turn (on F28, P21, e.g. P21=R)"),
    (_FORCED, {}, "P21=J", "a Bishop cannot be regained on P21"),
    (_FORCED, {}, "F28=D", "a Queen cannot be regained on F28"),
    (f"{court()} kZ19 PF28", {}, "F28=J", "nothing can be regained on F28 now"),
    ("KT14 kX14 rT20 PF28", {}, "F28=D", "an in-place promotion waits while the King is in check"),
    ("KT14 kX14 PF26", {}, "F26-F28", "promotion piece required: =D, =V, =R, =G, =N, =J"),
    ("KT14 kX14 rT20 PF26", {}, "F26-F28=D",
     "the Pawn on F26 cannot go to F28: the King is in check and stays in check"),
    ("KP7 kF20 rF16 RF10", {"turn": "b"}, "RF16-G17",
     "the Rook on F16 cannot go to G17: it would leave its King in check"),
    ("KT14 kX14 rT20 NE3", {}, "NE3-D8", "the Knight on E3 cannot go to D8: the King is in check and stays in check"),
    ("KG1 RC3 RI3 kZ19 rH20", {"castling": "KR"}, "KRK-HIO",
     "KRK-HIO is not possible here (a Rook has moved, the way is blocked, or the King would be attacked)"),
    ("KG1 RC3 RI3 kZ19 dG21", {"castling": "KR"}, "KRD-DD", "no castling while in check"),
    ("KG1 RC3 RI3 kZ19", {}, "KRK-HIO", "the King has moved: no castling any more"),
    ("KG1 RC3 RI3 kZ19", {}, "Z99-A1", "Z99 is not a hex of the board"),
    ("KG1 RC3 RI3 kZ19", {}, "F10-F12", "there is no piece on F10, not a White piece"),
    ("KG1 RC3 RI3 kZ19 pF12", {}, "RC3-F12", "the Rook on C3 cannot go to F12"),
]  # fmt: skip
"""Answers that depend on other pieces than the one the move names: the forced promotion turn, the choices of a
promotion, checks and pins, castling; measured before the reader stopped generating every legal move."""


@pytest.mark.parametrize(
    ("spec", "fields", "text", "said"), ANSWERS, ids=[f"{a[2]}-{i}" for i, a in enumerate(ANSWERS)]
)
def test_a_move_that_cannot_be_read_is_explained_from_the_whole_position(spec, fields, text, said):
    with pytest.raises(MoveError) as caught:
        position(spec, **fields).parse_move(text)
    assert str(caught.value) == f"{text!r}: {said}"


@pytest.mark.skipif(build() == COMPILED, reason="spies on a method, which compiled code calls without looking it up")
def test_reading_a_legal_move_generates_only_the_moves_of_its_piece(monkeypatch: pytest.MonkeyPatch):
    """Reading a move was a large share of the suite's CPU when it generated every legal move: it asks for the
    named piece's (a castling's King's), and the whole list only to judge a check mark (is it mate?)."""
    asked: list[int | None] = []
    generate = Position._legal

    def spy(self: Position, origin: int | None = None):
        asked.append(origin)
        return generate(self, origin)

    positions = [Position.from_pdtl(EXAMPLE_6), position("KG1 RC3 RI3 kZ19 pF12", castling="KR")]
    texts = [(pos, pos.ctl_an(move)) for pos in positions for move in pos.legal_moves()]
    assert any("@" in text for _, text in texts) and any(text.startswith("KR") for _, text in texts)
    monkeypatch.setattr(Position, "_legal", spy)
    for pos, text in texts:
        asked.clear()
        pos.parse_move(text)
        assert asked and (None not in asked or text[-1] in "+^∞#"), text

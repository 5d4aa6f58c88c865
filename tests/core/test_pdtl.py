"""NOTATION.md 5: PDTL, writing and reading positions.

The worked examples of NOTATION.md 5.8 are produced by playing their moves
from the start position and compared character for character; the legacy
forms of 5.3-5.6 are read with a warning; errors name the field, the column
and the token at fault.
"""

from __future__ import annotations

import pytest

from cescacs_tui.core import BLACK, WHITE, EnPassant, PDTLError, PieceType, Position, parse_hex
from cescacs_tui.core.pdtl import FAN_LETTERS, letters_with_aliases
from tests.helpers.builders import pdtl

START = (
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP"
    "/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1"
)


def played(*moves: str) -> Position:
    pos = Position.initial()
    for text in moves:
        pos.push(pos.parse_move(text))
    return pos


def read_cleanly(text: str, **options) -> Position:
    """Read a PDTL that must not give any warning."""
    found: list[str] = []
    position = Position.from_pdtl(text, warnings=found, **options)
    assert found == []
    return position


def read_with_warning(text: str, **options) -> Position:
    found: list[str] = []
    position = Position.from_pdtl(text, warnings=found, **options)
    assert found, "a tolerated irregularity is reported"
    return position


def rights(pos: Position, colour) -> tuple[bool, ...]:
    return tuple(pos.castling_rights(colour))


# --- 5.8 worked examples, produced by playing the moves ----------------------------------------------


def test_start_position_pdtl():
    assert Position.initial().to_pdtl() == START
    assert read_cleanly(START) == Position.initial()


def test_worked_example_1_triple_step():
    assert played("E7-E13").to_pdtl() == (
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP"
        "/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1"
    )


def test_worked_example_2_black_triple_step_lines_ascending():
    assert played("E7-E13", "E21-E15").to_pdtl().split()[3] == "E15@17-19"


def test_worked_example_3_double_step():
    assert played("E7-E13", "E21-E15", "F8-F12").to_pdtl() == (
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/13:3P4/12:3P3/7:4P3/6:2PJP2"
        "/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F12@10 0 2"
    )


def test_worked_example_4_scornful_bare_form():
    assert played("E7-E13", "E21-E15", "E13-F14").to_pdtl() == (
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/14:3P3/8:3P3/7:4P3/6:2PJP2"
        "/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F14 0 2"
    )


EXAMPLE_5 = (
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/20:3p3/15:3pp3/14:3P3/13:4P3/8:3P3/6:2PJP2"
    "/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E15@F14 0 3"
)


def test_worked_example_5_scornful_form_names_the_faced_pawn_when_ambiguous():
    assert played("E7-E13", "E21-E15", "G7-G13", "G21-G15", "E13-F14").to_pdtl() == EXAMPLE_5


def test_worked_example_6_long_en_passant_pending():
    pos = played(*("E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13×F16", "E15×F12", "EG5-F8", "EG23-F20", "G7-G13"))
    assert pos.to_pdtl() == (
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/20:3e3/16:3P3/13:4P3/12:3p3/8:3E3"
        "/6:2PJP2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr G13@9-11 0 5"
    )


REAL_GAMES = {
    "A0001-43-both-kings-moved": (
        "/25:2n1/24:3ep/23:p1vekp/22:2r1p2/21:4pr2/20:3p3/19:5p2/18:1j5/17:jn6/16:2e3G/15:4N3/14:1NPE3/13:2p5"
        "/11:2P5/8:3P3/7:4P3/6:4P2/5:3EPP/4:3EP/3:1J2/2:1J1/1:KV/ w -- - 2 42",
        (False, False, False),
        (False, False, False),
    ),
    "A0001-24-kings-rook-moved": (
        "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1"
        "/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b RKrkr - 2 20",
        (True, True, False),
        (True, True, True),
    ),
    "A0001-91-leap-rights-only": (
        "/27:1k/26:eej/25:2n1/24:pD1j1/23:p5/22:3j3/21:4n1G1/20:3pe2/19:4g3/18:5p1/17:5p2/16:g2rpJN/15:5P2"
        "/14:4P2/13:4p3/11:4PE1V/10:2P4/9:3p4/8:N1E4/7:3R4/5:P4P/4:3EP/3:2G1/2:1d1/1:1K/ w Kk - 0 44",
        (True, False, False),
        (True, False, False),
    ),
    "partial-record-en-passant-pending": (
        "/28:r/27:r1/26:k2/25:1g2/24:pe1ep/23:ppve1G/22:2p1p2/20:3jn2/19:5p2/14:2P4/11:2P5/9:2R5/7:4P3/6:4P2"
        "/5:P2EPP/4:PE1EP/3:3R/2:1JG/1:1K/0:V/ w KR- I19@21 0 25",
        (True, False, True),
        (False, False, False),
    ),
}


@pytest.mark.parametrize("name", list(REAL_GAMES))
def test_worked_example_7_castling_fields_from_real_games(name):
    text, white, black = REAL_GAMES[name]
    pos = read_cleanly(text)
    assert pos.to_pdtl() == text
    assert rights(pos, WHITE) == white
    assert rights(pos, BLACK) == black


def test_en_passant_field_names_pawn_hex_and_crossed_line():
    pos = read_cleanly(REAL_GAMES["partial-record-en-passant-pending"][0])
    assert pos.special == EnPassant(parse_hex("I19"), (parse_hex("I21"),))


def test_placement_entries_list_a_line_left_to_right():
    # "22:2pjp2": T22 and B22 empty, D22 pawn, F22 Bishop, H22 pawn, K22 and X22 empty
    start = Position.initial()
    expected = {"D22": (PieceType.PAWN, BLACK), "F22": (PieceType.BISHOP, BLACK), "H22": (PieceType.PAWN, BLACK)}
    for h in ("T22", "B22", "D22", "F22", "H22", "K22", "X22"):
        assert start.piece_at(parse_hex(h)) == expected.get(h)


def test_writer_omits_empty_lines_and_merges_runs():
    # two empty runs in a row and an all-empty line are tolerated on input, never written
    pos = read_with_warning("/21:1p33/20:7/14:1k5/0:K/ w -- - 0 1")
    assert pos.to_pdtl() == "/21:1p6/14:1k5/0:K/ w -- - 0 1"
    assert "0" not in pos.to_pdtl().split()[0].replace("/0:", "/")


# --- Redefine and CTL-FAN ------------------------------------------------------------------------------


def test_worked_example_8_redefined_letters_a_c_t():
    text = (
        "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP"
        "/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1"
    )
    letters = letters_with_aliases({"A": PieceType.BISHOP, "C": PieceType.KNIGHT, "T": PieceType.ROOK})
    assert read_cleanly(text, letters=letters) == Position.initial()


def test_worked_example_9_redefined_letters_b_q_w():
    text = (
        "/28:w/27:qk/26:gbg/25:rnnr/24:pebep/23:ppeepp/22:2pbp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PBP2/5:PPEEPP"
        "/4:PEBEP/3:RNNR/2:GBG/1:QK/0:W/ w RKRrkr - 0 1"
    )
    letters = letters_with_aliases({"B": PieceType.BISHOP, "Q": PieceType.QUEEN, "W": PieceType.WYVERN})
    assert read_cleanly(text, letters=letters) == Position.initial()


FAN_START = (
    "/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞♞♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:3♟♟3/20:3♟3/8:3♙3/7:3♙♙3/6:2♙♗♙2"
    "/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 0 1"
)


def test_worked_example_10_fan_output():
    assert Position.initial().to_pdtl(fan=True) == FAN_START


def test_worked_example_10_fan_input():
    assert read_cleanly(FAN_START, letters=FAN_LETTERS) == Position.initial()


def test_fan_round_trip_of_a_played_position():
    pos = played("E7-E13", "E21-E15", "E13-F14")
    assert read_cleanly(pos.to_pdtl(fan=True), letters=FAN_LETTERS) == pos


# --- 5.4 the special field -----------------------------------------------------------------------------


def test_bare_scornful_form_with_two_candidates_allows_either_capture():
    pos = read_cleanly(EXAMPLE_5.replace("E15@F14", "F14"))
    captures = {str(m) for m in pos.legal_moves() if str(m).endswith("-F14")}
    assert captures == {"E15-F14", "G15-F14"}
    assert pos.to_pdtl().split()[3] == "F14"


def test_named_scornful_form_allows_only_the_named_pawn():
    pos = read_cleanly(EXAMPLE_5)
    assert {str(m) for m in pos.legal_moves() if str(m).endswith("-F14")} == {"E15-F14"}
    # the same pawns, the scornful pawn having come from G13 (E13 is still occupied)
    other = played("E7-E13", "E21-E15", "G7-G13", "G21-G15", "G13-F14")
    assert other.to_pdtl().split()[3] == "G15@F14"
    pos = read_cleanly(other.to_pdtl())
    assert {str(m) for m in pos.legal_moves() if str(m).endswith("-F14")} == {"G15-F14"}


def test_named_scornful_form_is_refused_when_the_pawn_cannot_have_come_from_the_faced_pawns_side():
    # example 5 names G15: the scornful pawn would have come from G13, which holds a White pawn
    with pytest.raises(PDTLError, match="cannot have just left G13") as caught:
        Position.from_pdtl(EXAMPLE_5.replace("E15@F14", "G15@F14"))
    assert caught.value.field == "special"


def test_bare_scornful_form_is_refused_when_no_origin_is_free():
    # White F14 faced Black E15 (from E13) or G15 (from G13): both origins are occupied
    text = pdtl("KG1 kG27 PE13 PG13 PF14 pE15 pG15", turn="b", special="F14")
    with pytest.raises(PDTLError, match="cannot have just left E13 or G13"):
        Position.from_pdtl(text)
    assert Position.from_pdtl(text.replace(" b -- F14", " b -- -"))  # the same pieces without the field are fine


# --- 5.4 / 5.7: the special field names a pawn that may be taken that way -------------------------------


def test_en_passant_field_naming_a_king_is_refused():
    # the audit's position: it used to offer a Black move capturing the White King "en passant"
    text = "/27:1k/24:p4/23:K5/ b -- A23@21 0 30"
    with pytest.raises(PDTLError, match="White King") as caught:
        Position.from_pdtl(text)
    assert caught.value.field == "special"


@pytest.mark.parametrize(
    ("spec", "special", "piece"),
    [
        ("KG1 kG27 NG15", "G15@13", "Knight"),  # not a promotion hex: only a pawn
        ("KG1 kG27 EA23 pB24", "A23@21", "Elephant"),  # a promotion hex, but a pawn never becomes an Elephant
        ("KG1 kG27 RF14 pE15", "F14", "Rook"),  # scornful field, not a promotion hex
        ("KA23 kG27 pB24", "A23", "King"),  # scornful field on a promotion hex
    ],
)
def test_special_field_naming_a_piece_that_no_pawn_step_leaves_is_refused(spec, special, piece):
    with pytest.raises(PDTLError, match=piece) as caught:
        Position.from_pdtl(pdtl(spec, turn="b", special=special))
    assert caught.value.field == "special"


def test_en_passant_field_naming_the_side_to_move_is_refused():
    with pytest.raises(PDTLError, match="has just moved"):
        Position.from_pdtl(pdtl("KG1 kG27 pG15", turn="b", special="G15@13"))


def test_en_passant_on_a_promotion_hex_may_name_the_promoted_piece():
    # A19-A23 promoting to a Queen: it may be taken en passant on A21 (RULES.md 6.4)
    pos = read_cleanly(pdtl("KG1 kG27 DA23 pB24", turn="b", special="A23@21"))
    assert "B24-A21" in {str(m) for m in pos.legal_moves()}


def test_en_passant_field_with_an_occupied_origin_is_refused():
    # G15@13: a White pawn that came from G11 over G13, but G11 holds a White Knight
    with pytest.raises(PDTLError, match="cannot have just left G11") as caught:
        Position.from_pdtl(pdtl("KG1 kG27 PG15 NG11 pH16", turn="b", special="G15@13"))
    assert caught.value.field == "special"
    assert Position.from_pdtl(pdtl("KG1 kG27 PG15 pH16", turn="b", special="G15@13"))


def test_en_passant_field_with_an_occupied_crossed_hex_is_refused():
    with pytest.raises(PDTLError, match="crossed hex G13 is not empty"):
        Position.from_pdtl(pdtl("KG1 kG27 PG15 NG13", turn="b", special="G15@13"))


def test_legacy_en_passant_form_must_name_a_passed_hex_in_the_pawns_column():
    # P@C9[E11]: the pawn is on E11 but the passed hex C9 is in column C
    with pytest.raises(PDTLError, match="C9 is not in the column") as caught:
        Position.from_pdtl(pdtl("KG1 kG27 PE11 pF12", turn="b", special="P@C9[E11]"))
    assert caught.value.field == "special"
    legacy = read_with_warning(pdtl("KG1 kG27 PE11 pF12", turn="b", special="P@E9[E11]"))
    assert legacy.to_pdtl().split()[3] == "E11@9"


@pytest.mark.parametrize(("number", "field"), [("01", "move number"), ("007", "move number")])
def test_move_number_with_a_leading_zero_is_refused_strictly_and_tolerated_otherwise(number, field):
    text = pdtl("KG1 kG27").rsplit(" ", 1)[0] + f" {number}"
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text, strict=True)
    assert caught.value.field == field
    assert read_with_warning(text).fullmove_number == int(number)


def test_half_move_clock_with_a_leading_zero_is_refused_strictly():
    text = pdtl("KG1 kG27").replace(" - 0 1", " - 00 1")
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text, strict=True)
    assert caught.value.field == "half-move clock"
    assert read_with_warning(text).halfmove_clock == 0


# --- digits are ASCII, numbers are bounded ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:\u00b3p3/8:3P3/7:3PP3/6:2PJP2"
        "/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1",  # a superscript three (the audit's crash)
        "/\u0662\u0667:1k/1:1K/ w -- - 0 1",  # line "27" in Arabic-Indic digits
        "/27:1k/1:1K/ w -- - \u0660 1",  # an Arabic-Indic zero as the half-move clock
        "/27:1k/1:1K/ w -- - 0 \uff11",  # a full-width one as the move number
        "/27:1k/15:6P1/1:1K/ b -- G15@\u0661\u0663 0 1",  # en passant line 13 in Arabic-Indic digits
        "/27:1k/15:6P1/1:1K/ b -- G\u0661\u0665@13 0 1",  # hex G15 in Arabic-Indic digits
    ],
)
def test_only_ascii_digits_are_digits(text):
    with pytest.raises(PDTLError):
        Position.from_pdtl(text)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("/27:1k/1:1K/ w -- - " + "9" * 5001 + " 1", "half-move clock"),
        ("/27:1k/1:1K/ w -- - 0 " + "9" * 5001, "move number"),
        ("/27:1k/1:1K/ w -- - 0 1234567", "move number"),
        ("/" + "9" * 5001 + ":1k/1:1K/ w -- - 0 1", "placement"),
        ("/27:1k/15:6P1/1:1K/ b -- G15@" + "1" * 5001 + " 0 1", "special"),
        ("/27:1k/15:6P1/1:1K/ b -- G" + "1" * 5001 + "@13 0 1", "special"),
        ("/27:1k/15:6P1/1:1K/ b -- P@G" + "1" * 5001 + "[G15] 0 1", "special"),
    ],
)
def test_huge_numbers_are_a_pdtl_error(text, field):
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text)
    assert caught.value.field == field


def test_a_six_digit_move_number_is_read():
    assert Position.from_pdtl("/27:1k/1:1K/ w -- - 99 999999").fullmove_number == 999999


def test_error_messages_never_carry_control_characters():
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl("/27:1k/1:1K/ w -- \x1b]52;c;Y3VybA==\x07 0 1")
    message = str(caught.value)
    assert message.isprintable() and caught.value.reason.isprintable()
    assert "\\x1b]52" in message  # the token is quoted, escaped
    assert "\x1b" in str(caught.value.token)  # the attribute keeps the input for programs


def test_scornful_named_form_is_written_only_when_needed():
    # example 4: only E15 could have been faced, so the bare form is written even if read in the long form
    text = played("E7-E13", "E21-E15", "E13-F14").to_pdtl()
    pos = Position.from_pdtl(text.replace(" F14 ", " E15@F14 "))
    assert pos.to_pdtl() == text


def test_special_field_may_name_a_promoted_piece():
    # NOTATION.md 5.4: the pawn named may have promoted on that move
    pos = Position.from_pdtl("/24:p4/19:1P6/15:7k/11:K7/ w -- - 0 9")  # White A19, Black B24
    pos.push(pos.parse_move("A19-A23=R"))
    text = pos.to_pdtl()
    assert text.split()[3] == "A23@21"
    again = read_cleanly(text)
    assert "B24-A21" in {str(m) for m in again.legal_moves()}
    pos = Position.from_pdtl("/24:p4/22:1P5/15:7k/11:K7/ w -- - 0 9")  # White B22 faces Black B24
    pos.push(pos.parse_move("B22-A23=R"))
    text = pos.to_pdtl()
    assert text.split()[3] == "A23"
    assert "B24-A23" in {str(m) for m in read_cleanly(text).legal_moves()}


def test_typographic_hyphen_in_castling_and_special_fields():
    pos = Position.from_pdtl(START.replace("RKRrkr -", "\u2010\u2010 \u2010"))
    assert pos.to_pdtl() == START.replace("RKRrkr", "--")


def test_byte_order_mark_is_skipped():
    assert Position.from_pdtl("\ufeff" + START) == Position.initial()


# --- legacy forms (5.3-5.6), read with a warning ---------------------------------------------------------

LEGACY = [
    # (legacy PDTL, canonical PDTL it stands for)
    ("/15:4P3/14:5k1/10:K6/ b -- P@G13[G15] 0 9", "/15:4P3/14:5k1/10:K6/ b -- G15@13 0 9"),
    ("/14:5k1/13:4P3/10:K6/ b -- P@G9,11[G13] 0 9", "/14:5k1/13:4P3/10:K6/ b -- G13@9-11 0 9"),
    ("/18:5K1/15:4p3/10:k6/ w -- P@G19,17[G15] 0 9", "/18:5K1/15:4p3/10:k6/ w -- G15@17-19 0 9"),
    ("/18:5K1/15:4p3/10:k6/ w -- G15@19-17 0 9", "/18:5K1/15:4p3/10:k6/ w -- G15@17-19 0 9"),
    (START.replace("RKRrkr", "-"), START.replace("RKRrkr", "--")),
    (START.replace("RKRrkr", "RKR"), START.replace("RKRrkr", "RKR-")),
    (START.replace("RKRrkr", "kr"), START.replace("RKRrkr", "-kr")),
    (START.replace(" 0 1", " - 1"), START),
    (START.replace(" 0 1", " 0 -"), START.replace(" 0 1", " 0 ?")),
]


@pytest.mark.parametrize(("legacy", "canonical"), LEGACY)
def test_legacy_form_is_read_with_a_warning(legacy, canonical):
    pos = read_with_warning(legacy)
    assert pos.to_pdtl() == canonical
    assert pos == read_cleanly(canonical)


@pytest.mark.parametrize(("legacy", "canonical"), LEGACY)
def test_legacy_form_is_rejected_in_strict_mode(legacy, canonical):
    with pytest.raises(PDTLError):
        Position.from_pdtl(legacy, strict=True)


def test_legacy_castling_omitted_side_gives_no_rights():
    pos = read_with_warning(START.replace("RKRrkr", "kr"))
    assert rights(pos, WHITE) == (False, False, False)
    assert rights(pos, BLACK) == (True, False, True)


def test_missing_fields_5_and_6_read_as_clock_0_and_unknown_move_number():
    pos = Position.from_pdtl(START.rsplit(" ", 2)[0])
    assert pos.halfmove_clock == 0
    assert pos.fullmove_number is None
    assert pos.to_pdtl() == START.replace(" 0 1", " 0 ?")
    pos = Position.from_pdtl(START.rsplit(" ", 2)[0] + " 7")
    assert pos.halfmove_clock == 7
    assert pos.fullmove_number is None


def test_unknown_move_number_question_mark_round_trips():
    text = START.replace(" 0 1", " 3 ?")
    pos = read_cleanly(text)
    assert pos.fullmove_number is None
    assert pos.to_pdtl() == text


def test_legacy_scornful_capturer_form_in_unambiguous_case_is_written_bare():
    text = played("E7-E13", "E21-E15", "E13-F14").to_pdtl()
    pos = Position.from_pdtl(text.replace(" F14 ", " E15@F14 "))
    assert pos.to_pdtl().split()[3] == "F14"
    assert {str(m) for m in pos.legal_moves() if str(m).endswith("-F14")} == {"E15-F14"}


@pytest.mark.parametrize(
    "irregular",
    [
        "/10:K6/14:5k1/ w -- - 0 1",  # entries out of order
        "/14:5k/10:K6/ w -- - 0 1",  # entry ends early
        "/20:7/14:5k1/10:K6/ w -- - 0 1",  # all-empty entry
        "/14:5k1/10:K6/  w -- - 0 1",  # two spaces between fields
    ],
)
def test_irregular_placement_tolerated_with_warning_rejected_when_strict(irregular):
    pos = read_with_warning(irregular)
    assert pos.to_pdtl() == "/14:5k1/10:K6/ w -- - 0 1"
    with pytest.raises(PDTLError):
        Position.from_pdtl(irregular, strict=True)


def test_unusable_castling_rights_dropped_with_warning_or_rejected_when_strict():
    # White's king's rook is not on I3: the KR right cannot be kept
    text = START.replace("3:RNNR", "3:RNN1")
    pos = read_with_warning(text)
    assert rights(pos, WHITE) == (True, True, False)
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text, strict=True)
    assert caught.value.field == "castling"


# --- errors name the field, the column and the token ------------------------------------------------


FIELD_INDEX = {"turn": 1, "castling": 2, "special": 3, "half-move clock": 4, "move number": 5}


def _column_of(text: str, field: str, token: str) -> int:
    """1-based column of ``token``: inside the placement, or at the start of its field."""
    if field == "placement":
        return text.index(token) + 1
    fields = text.split(" ")
    return len(" ".join(fields[: FIELD_INDEX[field]])) + 2


@pytest.mark.parametrize(
    ("text", "field", "token"),
    [
        (START.replace(" w ", " x "), "turn", "x"),
        (START.replace("RKRrkr", "RKRrkX"), "castling", "RKRrkX"),
        (START.replace("/28:v/", "/28:m/"), "placement", "m"),
        (START.replace("/28:v/", "/28:y/"), "placement", "y"),
        (START.replace(" - 0 1", " Q99 0 1"), "special", "Q99"),
        (START.replace(" - 0 1", " - x 1"), "half-move clock", "x"),
        (START.replace(" - 0 1", " - 0 0"), "move number", "0"),
    ],
)
def test_pdtl_error_names_field_column_and_token(text, field, token):
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text)
    error = caught.value
    assert error.field == field
    assert error.token == token
    assert error.column == _column_of(text, field, token)
    assert field in str(error)


def test_pdtl_error_for_a_line_with_too_many_hexes():
    text = START.replace("/28:v/", "/28:v1/")
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text)
    assert caught.value.field == "placement"
    assert "28" in str(caught.value.token)
    assert caught.value.column is not None


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("/14:5k1/10:K5K/ w -- - 0 1", "position"),  # two White Kings
        ("/14:7/10:K6/ w -- - 0 1", "position"),  # no Black King
        ("/14:5k1/10:K6/4:PPPPP/5:PPPPPP/6:P6/ w -- - 0 1", "position"),  # twelve White pawns
        ("/14:5k1/10:K6/4:J1J2/ w -- - 0 1", "position"),  # two Bishops on white hexes
        ("/16:5k1/14:5R1/10:K6/ w -- - 0 1", "position"),  # Black, not to move, in check
        ("/14:5k1/10:K6/ b -- G15@13 0 1", "special"),  # no pawn on G15
        ("/15:6P1/14:5k1/13:6p1/10:K6/ b -- G15@13 0 1", "special"),  # crossed hex occupied
        ("/14:5k1/10:K6/ w -- - 0 1 9", "fields"),  # seven fields
        ("/14:5k1/10:K6/ w --", "fields"),  # field 4 missing
        ("/14:5k1/14:K6/ w -- - 0 1", "placement"),  # duplicate line
        ("/29:K/14:5k1/ w -- - 0 1", "placement"),  # no line 29
        ("/15:4P3/14:5k1/10:K6/ b -- g15@13 0 9", "special"),  # lower-case column letter
        ("/15:4P3/14:5k1/10:K6/ b -- F14 0 9", "special"),  # no scornful pawn on F14
    ],
)
def test_invalid_position_is_rejected_naming_the_field(text, field):
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text)
    assert caught.value.field == field


def test_grand_cescacs_almogaver_is_rejected_clearly():
    with pytest.raises(PDTLError, match="M"):
        Position.from_pdtl("/14:5k1/10:K5M/ w -- - 0 1")

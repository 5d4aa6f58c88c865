"""The plain mode's questions about the board, typed as a player types them, on constructed positions.

Neighbours and directions follow RULES.md 3 (F14's orthogonal neighbours are
F16 F12 G15 G13 E15 E13, its diagonal ones H14 D14 G17 G11 E17 E11), so the
expected answers do not come from the code under test.
"""

from __future__ import annotations

from typing import Any

import pytest

from cescacs_tui.core import BLACK, HEXES, WHITE, Position, parse_hex
from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.plain.questions import DIRECTIONS, ray
from tests.helpers.builders import pdtl
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.plain import Typist
from tests.helpers.reference import POSITIONS, RULE_VECTOR_BY_RULE


def at(spec: str, **fields: Any) -> Typist:
    """The plain mode on a game from the builder's position ``spec``."""
    return Typist(Game.new(pdtl=pdtl(spec, **fields)))


def vector(rule: str) -> Typist:
    return Typist(Game.new(pdtl=RULE_VECTOR_BY_RULE[rule]["pdtl"]))


# --- p: the pieces ------------------------------------------------------------------------


def test_p_with_a_letter_lists_one_kind_of_one_side_by_its_case() -> None:
    typist = Typist()
    assert typist.answer("p N") == "White Knights: E3, G3."
    assert typist.answer("p n") == "Black Knights: E25, G25."
    assert typist.answer("p K") == "White King: G1."
    assert typist.answer("p Q") == "White Queen: E1."  # an ASCII alias of D
    assert typist.answer("pieces g") == "Black Pegasi: D26, H26."


def test_p_says_when_a_side_has_none_and_refuses_what_is_no_piece_letter() -> None:
    typist = at("KG1 kG27 NE3")
    assert typist.answer("p n") == "Black has no Knight."
    assert typist.answer("p x").startswith("x: not a piece letter")


def test_p_alone_reads_every_piece_of_both_sides_by_kind() -> None:
    assert at("KG1 kG27 NE3 NG3 PE7 pE21 jF24").type("p") == [
        "White, 4 pieces: King G1; 2 Knights E3, G3; Pawn E7.",
        "Black, 3 pieces: King G27; Bishop F24; Pawn E21.",
    ]
    assert Typist().type("p white")[0].startswith("White, 27 pieces: King G1; Queen E1; Wyvern F0; 2 Rooks C3, I3;")
    assert Typist().type("p black")[0].startswith("Black, 27 pieces:")


# --- s: a column or a line ----------------------------------------------------------------


def test_s_reads_a_column_from_whites_side_saying_empty_runs_once() -> None:
    typist = at("KG1 kG27 RF6 pF20")
    assert typist.answer("s F") == (
        "Column F, 15 hexes from White's side: F0 to F4 empty, F6 White Rook, F8 to F18 empty, "
        "F20 Black Pawn, F22 to F28 empty."
    )
    assert typist.answer("s f") == typist.answer("scan F")


def test_s_reads_a_line_left_to_right() -> None:
    typist = Typist()
    assert typist.answer("s 0") == "Line 0, 1 hex from White's left: F0 White Wyvern."
    assert typist.answer("s 5") == (
        "Line 5, 6 hexes from White's left: A5 White Pawn, C5 White Pawn, E5 White Elephant, "
        "G5 White Elephant, I5 White Pawn, L5 White Pawn."
    )
    assert typist.answer("s 14") == "Line 14, 7 hexes from White's left: T14 to X14 empty."


@pytest.mark.parametrize("argument", ["29", "Y", "F14", "-1"])
def test_s_explains_what_it_needs(argument: str) -> None:
    assert Typist().answer(f"s {argument}").startswith(f"{argument}: give a column letter")


# --- x: around a hex --------------------------------------------------------------------


def test_x_goes_round_a_hex_ray_by_ray_in_the_twelve_directions() -> None:
    lines = at("KG1 kG27 pF18 NH14 jE11").type("x F14")
    assert lines[0] == "F14: empty."
    assert len(lines) == 13  # the hex, then one line per direction: a central hex has all twelve
    assert [line.split(":")[0] for line in lines[1:]] == [name for name, _ in DIRECTIONS]
    assert "up: F16 empty, then Black Pawn on F18." in lines
    assert "right: White Knight on H14." in lines
    assert "steep down-left: Black Bishop on E11." in lines
    assert "down: F12, F10, F8, F6, F4, F2, F0 empty, then the edge." in lines


def test_x_at_the_corner_names_the_directions_that_leave_the_board() -> None:
    lines = at("KG1 kG27").type("x F0")
    assert lines[0] == "F0: empty."
    assert "up-right: White King on G1." in lines
    assert lines[-1] == ("Off the board: right, down-right, steep down-right, down, steep down-left, down-left, left.")


def test_x_with_a_direction_reads_that_ray_only_and_refuses_an_unknown_one() -> None:
    typist = Typist()
    assert typist.type("x E7 up") == [
        "E7: White Pawn.",
        "up: E9, E11, E13, E15, E17, E19 empty, then Black Pawn on E21.",
    ]
    assert typist.type("x e7 Steep  Up-Right")[1].startswith("steep up-right: ")
    assert typist.answer("x E7 sideways").startswith("sideways: not a direction; the directions are up, ")
    assert typist.answer("x E99").startswith("E99: not a hex of the board")


def test_the_rays_are_those_of_rules_3() -> None:
    f14 = parse_hex("F14")
    nearest = {name: ray(f14, delta)[0] for name, delta in DIRECTIONS}
    assert {name: f"{h}" for name, h in nearest.items()} == {
        name: str(parse_hex(hex_name))
        for name, hex_name in [
            ("up", "F16"), ("steep up-right", "G17"), ("up-right", "G15"), ("right", "H14"),
            ("down-right", "G13"), ("steep down-right", "G11"), ("down", "F12"), ("steep down-left", "E11"),
            ("down-left", "E13"), ("left", "D14"), ("up-left", "E15"), ("steep up-left", "E17"),
        ]
    }  # fmt: skip


# --- m: the legal moves of a piece ------------------------------------------------------------


def test_m_lists_the_targets_of_a_piece() -> None:
    typist = Typist()
    assert typist.answer("m E7") == "White Pawn E7, 4 moves: D8; E9; E11; E13."
    assert typist.answer("m e3") == "White Knight E3, 4 moves: A11; C7; C13; D8."


def test_m_groups_promotions_by_target_and_names_the_regained_pieces() -> None:
    assert vector("promotion-choices").answer("m B22") == (
        "White Pawn B22, 6 moves: A23 promoting to Rook or Knight; "
        "B24 promoting to Rook, Knight or Bishop of the black hexes; C23."
    )


def test_m_of_the_king_says_its_leaps_and_castlings() -> None:
    said = vector("castling-krk").answer("m G1")
    assert "H6 by leap" in said and "F2;" in said
    assert said.endswith(
        "castling KRK-II, KRK-IK, KRK-IH, KRK-HIO, KRK-HIOO, KRK-HH, KRK-HG, KRK-FG, KRK-FE, KRK-EF, KRK-EE."
    )


def test_m_says_captures_and_checks() -> None:
    said = vector("promotion-capture").answer("m A21")
    assert "B24 taking Black Knight promoting to Queen" in said
    said = vector("promotion-capture").answer("m F6")
    assert "K18 taking Black Pawn, check from afar" in said


def test_m_says_why_a_piece_has_no_move() -> None:
    assert vector("king-leap-not-in-check").answer("m A5") == "The Pawn on A5 cannot move: it cannot answer the check."
    assert vector("forced-promotion").answer("m G1") == "A waiting pawn must be promoted this turn (P21)."
    assert vector("forced-promotion").answer("m P21") == (
        "White Pawn P21, 1 move: promotion where it stands to Bishop of the black hexes."
    )
    typist = Typist()
    assert typist.answer("m E27") == "Black Queen E27: it is White's turn, so it has no legal move now."
    assert typist.answer("m E9") == "E9 is empty."
    assert typist.answer("m").startswith("m needs HEX")


# --- a: what attacks a hex ------------------------------------------------------------------


def test_a_lists_the_attackers_of_both_sides() -> None:
    typist = Typist()
    assert typist.answer("a E9") == "E9 (empty): attacked by White: Pawn D6, Bishop F6; attacked by Black: nothing."
    assert typist.answer("a E7") == (
        "E7 (White Pawn): protected by White: Pegasus D2, Elephant D4, Elephant E5, Bishop F4, Knight G3; "
        "attacked by Black: nothing."
    )


def test_a_counts_the_unmoved_kings_leap() -> None:
    # RULES.md 8.2: the unmoved White King on G1 attacks H6 by its leap
    assert (
        at("KG1 kG27", castling="K-").answer("a H6")
        == "H6 (empty): attacked by White: King G1; attacked by Black: nothing."
    )
    assert at("KG1 kG27").answer("a H6") == "H6 (empty): attacked by White: nothing; attacked by Black: nothing."


@pytest.mark.slow
def test_position_attackers_are_exactly_the_attacks_is_attacked_sees() -> None:
    for row in POSITIONS[::7]:
        position = Position.from_pdtl(row["pdtl"])
        for side in (WHITE, BLACK):
            for h in HEXES:
                attackers = position.attackers(h, side)
                assert bool(attackers) == position.is_attacked(h, side), (row["pdtl"], h, side)
                assert all(getattr(position.piece_at(x), "colour", None) == side for x in attackers)


# --- the game: l, c, r, b, moves, pdtl, pgn, a hex alone -------------------------------------------------


def test_l_says_the_last_move_and_whose_turn() -> None:
    typist = Typist()
    assert typist.answer("l") == "No move has been played yet. White to move."
    typist.type("e7-e13")
    assert typist.answer("l") == "Last move 1: White Pawn E7 to E13, triple step. Black to move."


def test_c_reads_the_clocks_and_which_one_runs() -> None:
    assert Typist().answer("c") == "This game has no clock."
    time = FakeTime()
    typist = Typist(Game.new(time_control=TimeControl.from_tag("300+2"), time_source=time))
    assert typist.answer("c") == "Clock 5 min + 2 s: White 5 min; Black 5 min. The clock starts with the first move."
    time.advance(4)  # the clock starts with the first move: these seconds count for nobody
    typist.type("e7-e13")
    time.advance(7.5)
    assert typist.answer("c") == "Clock 5 min + 2 s: White 5 min 2 s; Black 4 min 53 s, running."
    typist.type("pause")
    assert typist.answer("clock").endswith("The clock is paused: pause restarts it.")


def test_r_says_what_each_side_could_regain() -> None:
    assert Typist().type("r") == ["White can regain nothing.", "Black can regain nothing."]
    assert vector("promotion-choices").type("r")[0] == "White can regain Rook, 2 Knights, Bishop of the black hexes."


def test_b_reads_the_whole_position() -> None:
    assert vector("en-passant-triple").type("b") == [
        "Black to move.",
        "White's King has moved; Black's King has moved; the White Pawn on G13 can be taken en passant on G9 or G11; "
        "move 30.",
        "White, 2 pieces: King G1; Pawn G13.",
        "Black, 3 pieces: King G27; 2 Pawns F12, H14.",
    ]
    board = vector("scornful-capture").type("b")
    assert board[1] == (
        "White may still castle with the Rooks on C3 and I3; Black may still castle with the Rooks on C25 and I25; "
        "the scornful White Pawn on F14 can be taken from E15; move 2."
    )


def test_b_reads_the_position_reviewed() -> None:
    typist = Typist()
    typist.type("e7-e13", "i23-i19", "back")
    board = typist.type("b")
    assert board[0] == "Reviewing, after 1 half-move of 2: Black to move."
    assert "Pawns A23, B24, C23, D22, E21, F20, G21, H22, I23, K24, L23." in board[3]


def test_moves_pdtl_and_pgn() -> None:
    game = Game.new()
    play(game, *FOOLS_MATE)
    typist = Typist(game)
    moves = typist.type("moves")
    assert moves[0].startswith("1. H6-H12 I23-I19 2. JF6-C15 GH26-Z11 3. L5-L7")
    assert moves[-1].endswith("GL5-H6# 0-3")
    assert all(len(line) <= 80 for line in moves)
    assert typist.type("pdtl") == [typist.session.position_text()]
    assert typist.type("pgn") == typist.session.record_text().rstrip("\n").split("\n")
    assert Typist().type("moves") == ["No move has been played yet."]


def test_a_hex_alone_says_its_tile_and_what_stands_there() -> None:
    typist = Typist()
    assert typist.answer("e7") == "E7, a white hex: White Pawn."
    assert typist.answer("F14") == "F14, a colour hex: empty."
    assert typist.session.game.ply == 0

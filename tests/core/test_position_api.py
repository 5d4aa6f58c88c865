"""The public Position API beyond legal moves: checking moves, history, copies, descriptions."""

from __future__ import annotations

import pytest

from cescacs_tui.core import BLACK, HEX_NAMES, WHITE, IllegalMoveError, Move, PieceType, Position, parse_hex
from cescacs_tui.core.move import CASTLING
from tests.helpers.games import FOOLS_MATE
from tests.helpers.mates import mates_by_playing_every_move
from tests.helpers.reference import POSITIONS, RULE_VECTORS

SAMPLE = [*RULE_VECTORS, *POSITIONS[::4]]
"""The rule vectors and a quarter of the reference positions: the sweeps below compare cheap answers with the
whole legal list (the property tests do it in random games too)."""


def test_gives_check_and_is_castling() -> None:
    position = Position.initial()
    for text in FOOLS_MATE[:-1]:
        position.push(position.parse_move(text))
    mate = position.parse_move("GL5-H6#")
    quiet = position.parse_move("A23-A21")
    assert position.gives_check(mate) and not position.gives_check(quiet)
    assert not mate.is_castling
    castling = Position.from_pdtl("/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1").parse_move("KRK-HIO")
    assert castling.is_castling and str(castling) == "KRK-HIO"


def test_push_checked_refuses_an_illegal_move_and_keeps_the_position() -> None:
    position = Position.initial()
    before = position.to_pdtl()
    with pytest.raises(IllegalMoveError):
        position.push_checked(Move(parse_hex("E5"), parse_hex("E11")))  # an Elephant cannot go three hexes
    assert position.to_pdtl() == before
    position.push_checked(position.parse_move("E7-E13"))
    assert position.peek() == position.move_stack[-1] and str(position.peek()) == "E7-E13"


def test_copy_is_independent_and_equality_compares_the_state() -> None:
    position = Position.initial()
    twin = position.copy()
    assert twin == position
    twin.push(twin.parse_move("E7-E13"))
    assert twin != position and position.to_pdtl() == Position.initial().to_pdtl()
    assert twin.move_stack and not position.move_stack  # the history is not copied with the state


def test_pieces_kings_rights_and_descriptions() -> None:
    position = Position.initial()
    assert len(list(position.pieces())) == 54 and len(list(position.pieces(WHITE))) == 27
    assert position.king(WHITE) == parse_hex("G1") and position.king(BLACK) == parse_hex("G27")
    assert position.castling_rights(WHITE) == (True, True, True)
    move = position.parse_move("NE3-D8")
    assert position.moving_piece(move).type == PieceType.KNIGHT
    assert position.captured_piece(move) is None and not position.is_capture(move)
    assert position.regainable(WHITE) == []


def test_check_lines_give_the_hexes_a_block_would_stand_on() -> None:
    from tests.helpers.builders import pdtl

    line = Position.from_pdtl(pdtl("KF10 rF20 kG27"))
    assert [(HEX_NAMES[x], [HEX_NAMES[h] for h in between]) for x, between in line.check_lines()] == [
        ("F20", ["F12", "F14", "F16", "F18"])
    ]
    jump = Position.from_pdtl(pdtl("KF10 nI11 kG27"))
    assert jump.check_lines() == [(parse_hex("I11"), ())]
    assert Position.initial().check_lines() == []


@pytest.mark.parametrize("castling", [True, False], ids=["castling", "no-castling"])
def test_the_moves_of_one_piece_are_those_of_the_whole_list_that_start_there(castling: bool) -> None:
    """``legal_moves(origin)`` generates one piece's moves alone (reading a move needs no more): in every
    rule vector's position and the reference sample (checks from afar, double checks, the King's leap giving
    check, en passant, forced promotion turns, pins), from every hex (each piece's, in the reference games),
    exactly the whole list's moves from there, in order."""
    for row in SAMPLE:
        position = Position.from_pdtl(row["pdtl"], castling=castling)
        legal = position.legal_moves()
        hexes = range(len(HEX_NAMES)) if row in RULE_VECTORS else {h for h, _ in position.pieces(position.turn)}
        for h in hexes:
            assert position.legal_moves(h) == [m for m in legal if m.origin == h], (row["pdtl"], HEX_NAMES[h])
        assert all(position.is_legal(m) for m in legal)


@pytest.mark.parametrize("castling", [True, False], ids=["castling", "no-castling"])
def test_the_moves_giving_check_are_found_without_playing_those_that_cannot(castling: bool) -> None:
    """``giving_check`` (a mate search asks it of every position) plays only the moves that could give check: it
    finds exactly the moves that do, in the rule vectors' positions and the reference sample."""
    for row in SAMPLE:
        position = Position.from_pdtl(row["pdtl"], castling=castling)
        legal = position.legal_tuples()
        assert position.giving_check(legal) == [m for m in legal if position.gives_check(Move._make(m))], row["pdtl"]


def assert_mating_tuples_are_the_mates(position: Position, where: object) -> None:
    """``mating_tuples`` (all, and the first only) against every legal move played, and the moves it says it
    looked at: the whole list but the King's steps it may leave out, and up to the mate with ``first``."""
    mates, looked_at = position.mating_tuples()
    first, looked_at_first = position.mating_tuples(first=True)
    legal = position.legal_tuples()
    steps = sum(1 for m in legal if m[0] == position.king(position.turn) and m[2] != CASTLING)
    expected = mates_by_playing_every_move(position)
    assert sorted(mates) == sorted(expected), where
    assert mates == [m for m in legal if m in set(mates)], where  # in the list's order
    assert first == mates[:1], where
    assert len(legal) - steps <= looked_at <= len(legal), where
    assert looked_at_first <= looked_at and (looked_at_first == looked_at or first), where


@pytest.mark.parametrize("castling", [True, False], ids=["castling", "no-castling"])
def test_the_mating_moves_are_found_playing_only_checks(castling: bool) -> None:
    """``mating_tuples`` (a mate search asks it of every position it ends in) plays only the moves that could give
    check, and leaves out the King's steps when none could: in the rule vectors' positions and the reference
    sample, exactly the mating moves (tests/learn sweeps the bundled puzzles, which have mates)."""
    for row in SAMPLE:
        assert_mating_tuples_are_the_mates(Position.from_pdtl(row["pdtl"], castling=castling), row["pdtl"])


def test_a_kings_step_that_uncovers_a_check_can_mate() -> None:
    """The King's steps are left out only when none could give check: here every mate is a step of the King that
    uncovers the Bishop's check."""
    from tests.helpers.builders import pdtl

    position = Position.from_pdtl(pdtl("kF0 KH6 JZ21 pF2 pG1 pE1 pE3"))
    mates, _ = position.mating_tuples()
    assert "KH6-H8#" in [position.ctl_an(Move._make(m)) for m in mates]
    assert all(m[0] == parse_hex("H6") for m in mates)
    assert_mating_tuples_are_the_mates(position, "discovered")


def test_a_side_has_legal_moves_exactly_when_the_list_is_not_empty() -> None:
    """``has_legal_moves`` looks for a King's move first: the answer is the whole list's, mates and stalemates
    included (the rule vectors have both, and forced promotion turns where the King may not move)."""
    for row in SAMPLE:
        for castling in (True, False):
            position = Position.from_pdtl(row["pdtl"], castling=castling)
            assert position.has_legal_moves() == bool(position.legal_moves()), row["pdtl"]
            for move in position.giving_check(position.legal_tuples()):  # and after each check, where it is asked
                position.push(move)
                assert position.has_legal_moves() == bool(position.legal_moves()), (row["pdtl"], move)
                position.pop()

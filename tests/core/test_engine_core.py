"""The rules core's interface for search engines: noisy moves, the null move, the raw board.

``noisy_tuples`` has its own generator (captures without the quiet moves), so
it is checked against the legal-move generator on every reference position
and on random games: exactly the legal moves that capture or promote.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core import BLACK, INITIAL_PDTL, WHITE, Move, Position
from cescacs_tui.core.move import CASTLING, EN_PASSANT, IN_PLACE_PROMOTION, SCORNFUL_CAPTURE
from tests.helpers.builders import pdtl
from tests.helpers.random_games import budget, random_game
from tests.helpers.reference import POSITIONS, RULE_VECTORS

STARTS = [INITIAL_PDTL] + [row["pdtl"] for row in RULE_VECTORS] + [row["pdtl"] for row in POSITIONS]


def noisy_by_filter(position: Position) -> set[tuple]:
    """The specification of noisy moves, written from the legal moves and the board alone."""
    board = position.board_codes
    sign = 1 if position.turn == 0 else -1
    out = set()
    for move in position.legal_tuples():
        _, target, kind, promotion, _ = move
        captures = kind in (EN_PASSANT, SCORNFUL_CAPTURE) or (kind != CASTLING and board[target] * sign < 0)
        if captures or promotion:
            out.add(move)
    return out


@pytest.mark.slow
def test_noisy_moves_are_the_legal_captures_and_promotions_of_every_reference_position():
    kinds_seen: set[int | str] = set()
    for text in STARTS:
        for castling in (True, False):
            position = Position.from_pdtl(text, castling=castling)
            noisy = position.noisy_tuples()
            assert len(noisy) == len(set(noisy)), text
            assert set(noisy) == noisy_by_filter(position), text
            kinds_seen.update(m[2] for m in noisy)
            kinds_seen.update("promotion" for m in noisy if m[3])
    # the reference data exercise every special kind of noisy move
    assert {EN_PASSANT, SCORNFUL_CAPTURE, IN_PLACE_PROMOTION, "promotion"} <= kinds_seen


@pytest.mark.slow
@budget(40)
@given(st.data())
def test_noisy_moves_match_the_legal_generator_in_random_games(data):
    for position in random_game(data, 80):
        assert set(position.noisy_tuples()) == noisy_by_filter(position), position.to_pdtl()


def test_a_kings_leap_capture_is_noisy_and_tested_for_safety():
    # the unmoved King on G1 may leap onto the Black pawn on F6 (a knight jump away)
    position = Position.from_pdtl(pdtl("KG1 pF6 kG27", castling="K-"))
    assert [str(Move._make(m)) for m in position.noisy_tuples()] == ["G1-F6"]
    # not when a Black rook guards F6, nor without castling (the beginners' leap may not capture, RULES.md 11.1)
    assert Position.from_pdtl(pdtl("KG1 pF6 rF20 kG27", castling="K-")).noisy_tuples() == []
    assert Position.from_pdtl(pdtl("KG1 pF6 kG27", castling="K-"), castling=False).noisy_tuples() == []


def test_the_null_move_passes_the_turn_and_is_undone_exactly():
    position = Position.from_pdtl(INITIAL_PDTL)
    position.push(position.parse_move("E7-E11"))  # a double step: en passant state
    before = (position.to_pdtl(), position.legal_tuples())
    assert position.special is not None
    position.push_null()
    assert position.turn == 1 - 1  # White again
    assert position.special is None
    assert sorted(position.legal_tuples()) != sorted(before[1])
    position.pop_null()
    assert (position.to_pdtl(), position.legal_tuples()) == before


def test_the_raw_board_is_the_live_board():
    position = Position.initial()
    board = position.raw_board
    assert tuple(board) == position.board_codes
    position.push(position.parse_move("F8-F10"))
    assert tuple(board) == position.board_codes  # the same list, not a copy
    assert position.rights == 63


def test_piece_hexes_are_the_live_sets_of_each_side():
    position = Position.initial()
    white = position.piece_hexes(WHITE)
    assert white == {h for h, piece in position.pieces(WHITE)}
    assert len(white) == 27 and not white & position.piece_hexes(BLACK)
    position.push(position.parse_move("F8-F10"))
    assert white == {h for h, piece in position.pieces(WHITE)}  # the same set, kept up to date

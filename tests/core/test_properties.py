"""Property tests: random legal games keep push/pop, PDTL and CTL-AN consistent.

Hypothesis chooses a start position and the move to play at every ply
(:mod:`tests.helpers.random_games`).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core import BLACK, WHITE, Move, PieceType, Position
from cescacs_tui.core.position import MoveTuple
from tests.helpers.random_games import budget, random_game


def names(position: Position) -> Counter[MoveTuple]:
    """The legal moves, in any order (a copy may list them in another: its piece sets iterate in another)."""
    return Counter(position.legal_tuples())


def snapshot(position: Position) -> tuple:
    return (
        position.to_pdtl(),
        names(position),
        position.check_kind(),
        position.state_key(),
        position.castling_rights(WHITE),
        position.castling_rights(BLACK),
    )


@budget(60)
@given(st.data())
def test_pop_restores_the_exact_previous_position(data):
    seen = []
    position = None
    for position in random_game(data, 60):
        seen.append((snapshot(position), position.copy()))
    assert position is not None
    played = position.move_stack
    assert len(played) == len(seen) - 1
    for move in reversed(played):
        assert position.peek() == move
        position.pop()
        seen.pop()
        state, copy = seen[-1]
        assert snapshot(position) == state
        assert position == copy


@budget(40)
@given(st.data())
def test_push_then_pop_is_the_identity_at_every_ply(data):
    for position in random_game(data, 60):
        before = (position.to_pdtl(), names(position), position.halfmove_clock, position.fullmove_number)
        snapshot = position.copy()
        for move in position.legal_moves()[:8]:
            position.push(move)
            position.pop()
        assert position == snapshot
        assert (position.to_pdtl(), names(position), position.halfmove_clock, position.fullmove_number) == before


@budget(50)
@given(st.data())
def test_pdtl_round_trip_keeps_legal_moves_and_check_kind(data):
    for position in random_game(data, 60):
        text = position.to_pdtl()
        again = Position.from_pdtl(text, castling=position.castling_enabled)
        assert again.to_pdtl() == text
        assert again == position
        assert names(again) == names(position)
        assert again.check_kind() == position.check_kind()
        assert again.result() == position.result()


@budget(20)
@given(st.data())
def test_every_legal_move_reads_back_from_its_ctl_an(data):
    for position in random_game(data, 25):
        for move in position.legal_moves():
            text = position.ctl_an(move)
            assert position.parse_move(text) == move, text
            assert position.parse_move(text, strict=True) == move, text


@budget(12)
@given(st.data())
def test_every_legal_move_reads_back_from_its_ctl_fan(data):
    for position in random_game(data, 20):
        for move in position.legal_moves():
            assert position.parse_move(position.ctl_an(move, fan=True)) == move


@budget(50)
@given(st.data())
def test_clock_and_move_number_follow_the_rules_in_random_games(data):
    game = random_game(data, 60)
    position = next(game)
    for _ in game:  # the same position object, one more ply each time
        pass
    stack = position.move_stack
    while position.move_stack:
        position.pop()
    for move in stack:
        clock, number, turn = position.halfmove_clock, position.fullmove_number, position.turn
        # RULES.md 10.4: any pawn move (in-place promotion included) or capture resets, anything else counts
        resets = position.moving_piece(move).type == PieceType.PAWN or position.is_capture(move)
        position.push(move)
        assert position.halfmove_clock == (0 if resets else clock + 1)
        # RULES.md 10.5: the move number grows after Black's half-move
        if number is not None:
            assert position.fullmove_number == (number + 1 if turn == BLACK else number)


@budget(15)
@given(st.data())
def test_the_moves_from_each_hex_are_the_whole_lists_from_there(data):
    for position in random_game(data, 40):
        legal = position.legal_moves()
        for h, _ in position.pieces(position.turn):
            assert position.legal_moves(h) == [m for m in legal if m.origin == h]


@budget(15)
@given(st.data())
def test_the_moves_giving_check_are_those_after_which_the_king_is_in_check(data):
    for position in random_game(data, 60):
        legal = position.legal_tuples()
        assert position.giving_check(legal) == [m for m in legal if position.gives_check(Move._make(m))]


@budget(15)
@given(st.data())
def test_the_mating_moves_are_those_after_which_the_king_is_checkmated(data):
    for position in random_game(data, 60):
        mates, looked_at = position.mating_tuples()
        legal = position.legal_tuples()
        played = []
        for move in legal:
            position.push(move)
            if position.is_check() and not position.legal_moves():
                played.append(move)
            position.pop()
        assert sorted(mates) == sorted(played)
        assert looked_at <= len(legal)

"""Fewer keys a move, decided by the session: each side's cursor in the hot seat, a typed target, the hint played."""

from __future__ import annotations

from cescacs_tui.core import BLACK, WHITE, parse_hex
from cescacs_tui.core.game import Game
from cescacs_tui.session import Choice, GameSession, Tone
from cescacs_tui.session.players import HUMAN, parse_player


def test_each_side_starts_its_turn_where_its_last_move_went() -> None:
    session = GameSession()
    position = session.game.position
    assert session.turn_cursor() == position.king(WHITE)  # no move yet: the King
    session.play_text("E7-E13")
    assert session.turn_cursor() == session.game.position.king(BLACK)
    session.play_text("E21-E15")
    assert session.turn_cursor() == parse_hex("E13")  # not Black's E15, where one shared cursor would be
    session.play_text("F8-F12")
    assert session.turn_cursor() == parse_hex("E15")


def test_a_side_that_picked_a_piece_since_its_last_move_finds_it_again() -> None:
    session = GameSession()
    session.play_text("E7-E13")
    session.play_text("E21-E15")
    session.pick(parse_hex("H6"))  # White picks a pawn, then plays another piece by typing
    session.play_text("F8-F12")
    session.play_text("F20-F16")
    assert session.turn_cursor() == parse_hex("F12")  # its move came after the pick
    session.takeback()
    session.takeback()  # White's move taken back: the piece White picked last
    assert session.game.position.turn == WHITE
    assert session.turn_cursor() == parse_hex("H6")


def test_a_move_taken_back_leaves_the_cursor_on_the_piece_that_made_it() -> None:
    session = GameSession()
    session.pick(parse_hex("E7"))
    session.pick(parse_hex("E13"))  # played on the board: picked, then its target
    session.takeback()
    assert session.turn_cursor() == parse_hex("E7")


def test_only_the_hot_seat_keeps_a_cursor_per_side() -> None:
    session = GameSession()
    session.players = (HUMAN, parse_player("computer:3"))
    assert session.turn_cursor() is None


def test_a_hex_typed_after_the_pieces_plays_its_target() -> None:
    session = GameSession()
    picked = session.play_text("e7")
    assert picked.done and "E7" in (picked.text or "")
    played = session.play_text("e13")  # before: the cursor went to E13, nothing was played
    assert played.done and session.game.moves and session.game.position.turn == BLACK
    assert (played.text or "").endswith("E7-E13")


def test_a_hex_typed_that_is_no_target_still_goes_there() -> None:
    session = GameSession()
    session.play_text("e7")
    said = session.play_text("e15")  # three hexes is no pawn move: the cursor goes there
    assert said.done and said.cursor == parse_hex("E15") and not session.game.moves


def test_a_typed_target_that_needs_a_choice_asks_it_and_empties_the_box() -> None:
    session = GameSession(Game.new(pdtl="/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"))
    session.play_text("g1")
    asked = session.play_text("h6")  # the King's leap or a castling
    assert isinstance(asked.question, Choice) and asked.done


def test_the_hint_shown_is_played_with_one_command() -> None:
    session = GameSession()
    refused = session.play_hint()
    assert refused.tone is Tone.ERROR and "h asks the engine" in (refused.text or "")
    move = session.game.position.parse_move("H6-H12")
    session.show_hint(tuple(session.game.moves), move)
    assert session.available("play_hint")
    played = session.play_hint()
    assert played.done and session.game.moves == [move]
    assert not session.available("play_hint")  # a hint belongs to the position it was given for


def test_a_hint_for_a_position_left_behind_is_not_played() -> None:
    session = GameSession()
    session.show_hint((), session.game.position.parse_move("H6-H12"))
    session.play_text("E7-E13")
    session.takeback()  # the same number of moves, the same position: still the hint's
    assert session.hinted is not None
    session.play_text("E7-E13")
    session.review_back()
    assert session.refusal("play_hint") is not None  # reviewing an earlier position

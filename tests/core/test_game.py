"""The game model: history, review, takeback/redo, every ending of RULES.md 10, clocks."""

from __future__ import annotations

import pytest

from cescacs_tui.core import BLACK, WHITE, Ending, Position
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game, GameError
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, play

# --- history -------------------------------------------------------------------


def test_new_game_starts_from_the_initial_position_with_the_roster_tags() -> None:
    game = Game.new(white="Ros, Xus", black="Sasal, Cesc")
    assert game.position == Position.initial()
    assert game.tags["Variant"] == "C'escacs"
    assert (game.tags["White"], game.tags["Black"], game.tags["Result"]) == ("Ros, Xus", "Sasal, Cesc", "*")
    assert game.result == "*" and game.termination == "" and game.moves == []


def test_game_from_pdtl_records_the_pdtl_tag() -> None:
    pdtl = "/27:1k/19:2r5/9:5R2/1:1K/ w -- - 0 120"
    game = Game.new(pdtl=pdtl)
    assert game.position.to_pdtl() == pdtl
    assert game.tags["PDTL"] == pdtl


def test_moves_are_kept_with_their_ctl_an_and_numbers() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15", "F8-F12")
    assert [node.san for node in game.nodes] == ["E7-E13", "E21-E15", "F8-F12"]
    assert [node.number for node in game.nodes] == [1, 1, 2]
    assert [node.colour for node in game.nodes] == [WHITE, BLACK, WHITE]
    assert [str(m) for m in game.moves] == ["E7-E13", "E21-E15", "F8-F12"]
    assert game.position.to_pdtl().endswith("b RKRrkr F12@10 0 2")


def test_review_cursor_shows_earlier_plies_without_losing_later_ones() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15", "F8-F12")
    game.go_to(1)
    assert not game.is_live
    assert game.reviewed_position().to_pdtl() == game.position_at(1).to_pdtl()
    assert game.reviewed_position().turn == BLACK
    assert game.ply == 3  # nothing was lost
    with pytest.raises(GameError, match="reviewing"):
        game.play_text("E15-E13")
    game.go_to(99)
    assert game.is_live and game.cursor == 3


def test_takeback_then_redo_until_a_new_move_is_played() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15")
    taken = game.takeback()
    assert taken is not None and str(taken.move) == "E21-E15"
    assert game.ply == 1 and game.position.turn == BLACK
    assert game.can_redo
    game.redo()
    assert [n.san for n in game.nodes] == ["E7-E13", "E21-E15"]
    game.takeback()
    play(game, "F20-F16")  # a different move drops the redo list
    assert not game.can_redo
    assert game.takeback() is not None and game.takeback() is not None and game.takeback() is None


def test_redo_while_reviewing_replays_at_the_live_end() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15", "F8-F12")
    game.takeback()
    game.go_to(0)  # reviewing the start
    replayed = game.redo()
    assert replayed is not None and replayed.san == "F8-F12"
    assert game.ply == 3 and game.is_live


def test_redo_after_the_game_has_ended_is_a_game_error() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15")
    game.takeback()
    game.resign(WHITE)
    with pytest.raises(GameError, match="over"):
        game.redo()
    assert game.ply == 1


def test_captured_pieces_are_listed_per_side() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13×F16", "E15×F12")
    assert [str(p) for p in game.captured_pieces(BLACK)] == ["Black Pawn"]
    assert [str(p) for p in game.captured_pieces(WHITE)] == ["White Pawn"]


# --- endings -------------------------------------------------------------------


def test_checkmate_ends_the_game_three_nil() -> None:
    game = Game.new()
    play(game, *FOOLS_MATE)
    assert game.result == "0-3"
    assert game.termination == "Black mates"
    assert game.outcome is not None and game.outcome.ending is Ending.CHECKMATE
    assert game.tags["Result"] == "0-3"
    with pytest.raises(GameError, match="over"):
        game.play_text("KG1-H2")


def test_takeback_reopens_a_finished_game() -> None:
    game = Game.new()
    play(game, *FOOLS_MATE)
    game.takeback()
    assert game.result == "*" and not game.is_over


def test_stalemate_is_a_minimum_win_for_the_stalemating_side() -> None:
    # RULES.md 9.5 / 10.1: after DB14-B20 Black (king C25) has no move and is not in check.
    game = Game.new(pdtl="/25:k3/24:2K2/14:1D5/ w -- - 0 30")
    play(game, "DB14-B20")
    assert game.result == "2-1"
    assert game.outcome is not None and game.outcome.ending is Ending.STALEMATE
    assert "stalemated" in game.termination


def test_fivefold_repetition_draws_automatically() -> None:
    game = Game.new()
    for cycle in range(4):
        play(game, *KNIGHT_SHUFFLE)
        assert game.repetitions() == cycle + 2
        assert game.is_over == (cycle == 3)
    assert game.result == "1-1"
    assert game.outcome is not None and game.outcome.ending is Ending.FIVEFOLD_REPETITION
    assert game.termination == "draw by fivefold repetition"


def test_threefold_repetition_can_be_claimed_by_the_player_to_move() -> None:
    game = Game.new()
    play(game, *KNIGHT_SHUFFLE)
    assert game.claimable_draw() is None  # twice is not enough
    with pytest.raises(GameError):
        game.claim_draw()
    play(game, *KNIGHT_SHUFFLE)
    assert game.repetitions() == 3
    assert game.claimable_draw() is Ending.THREEFOLD_REPETITION
    outcome = game.claim_draw()
    assert outcome.result == "1-1"
    assert game.termination == "draw by threefold repetition (claimed by White)"


def test_repetition_counts_castling_rights() -> None:
    # Moving the king's rook and back loses its right: the position is not the same again.
    game = Game.new(pdtl="/27:1k/23:p5/5:P5/3:R2R/1:1K/ w RKR- - 0 30")
    play(game, "RI3-I5", "KG27-F26", "RI5-I3", "KF26-G27")
    assert game.position.castling_rights(WHITE).kings_rook is False
    assert game.repetitions() == 1


def test_seventy_five_move_rule_draws_automatically() -> None:
    game = Game.new(pdtl="/27:1k/19:2r5/9:5R2/1:1K/ w -- - 149 120")
    play(game, "RI9-I11")
    assert game.position.halfmove_clock == 150
    assert game.result == "1-1"
    assert game.outcome is not None and game.outcome.ending is Ending.SEVENTY_FIVE_MOVES


def test_mate_on_the_hundred_and_fiftieth_half_move_wins() -> None:
    # RULES.md 10.2: mate takes precedence over the seventy-five-move rule.
    start = Game.new()
    play(start, *FOOLS_MATE[:-1])
    before_mate = start.position.to_pdtl().rsplit(" ", 2)[0] + " 149 6"
    game = Game.new(pdtl=before_mate)
    play(game, "GL5-H6#")
    assert game.position.halfmove_clock == 150
    assert game.result == "0-3"
    assert game.outcome is not None and game.outcome.ending is Ending.CHECKMATE


def test_fifty_move_rule_can_be_claimed() -> None:
    game = Game.new(pdtl="/27:1k/19:2r5/9:5R2/1:1K/ w -- - 98 120")
    play(game, "RI9-I11")
    assert game.claimable_draw() is None  # 99
    play(game, "RC19-C21")
    assert game.claimable_draw() is Ending.FIFTY_MOVES
    assert game.claim_draw().result == "1-1"
    assert "fifty-move" in game.termination


def test_insufficient_material_draws_automatically() -> None:
    # King takes the last Black piece: King and Bishop against a lone King (RULES.md 10.3-2).
    game = Game.new(pdtl="/27:1k/6:3J3/4:3n1/1:1K/ w -- - 0 30")
    play(game, "KG1×NH4")
    assert game.result == "1-1"
    assert game.outcome is not None and game.outcome.ending is Ending.INSUFFICIENT_MATERIAL


def test_draw_by_agreement_needs_an_offer_from_the_player_who_just_moved() -> None:
    game = Game.new()
    with pytest.raises(GameError):
        game.offer_draw()  # an offer goes with a move
    play(game, "E7-E13")
    game.offer_draw()
    assert game.draw_offered_by == WHITE and game.nodes[-1].draw_offer
    assert game.accept_draw().result == "1-1"
    assert game.termination == "draw by agreement"


def test_a_declined_or_ignored_draw_offer_lapses() -> None:
    game = Game.new()
    play(game, "E7-E13")
    game.offer_draw()
    game.decline_draw()
    with pytest.raises(GameError):
        game.accept_draw()
    game.offer_draw()
    play(game, "E21-E15")  # answering with a move declines
    assert game.draw_offered_by is None
    with pytest.raises(GameError):
        game.accept_draw()


def test_resignation_gives_the_opponent_three_points() -> None:
    game = Game.new()
    play(game, "E7-E13")
    assert game.resign(BLACK).result == "3-0"
    assert game.termination == "Black resigns"
    game2 = Game.new()
    assert game2.resign(WHITE).result == "0-3"


# --- clocks --------------------------------------------------------------------


def test_fischer_increment_is_recorded_after_each_move() -> None:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, base=60, increment=2), time_source=now)
    assert game.tags["TimeControl"] == "60+2"
    play(game, "E7-E13")  # the first move starts the clocks
    now.now += 10
    play(game, "E21-E15")
    assert game.nodes[0].clock == 62
    assert game.nodes[1].clock == 52
    assert game.clock is not None and game.clock.running == WHITE


def test_loss_on_time_ends_the_game() -> None:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.SUDDEN_DEATH, base=30), time_source=now)
    play(game, "E7-E13")
    now.now += 29.9
    assert game.check_time() is None
    now.now += 0.1
    outcome = game.check_time()
    assert outcome is not None and outcome.ending is Ending.TIME_FORFEIT
    assert game.result == "3-0" and game.termination == "White wins on time"
    assert game.tags["Termination"] == "time forfeit"
    with pytest.raises(GameError):
        game.play_text("E21-E15")


def test_takeback_restores_both_clocks() -> None:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, base=60, increment=5), time_source=now)
    play(game, "E7-E13")
    now.now += 7
    play(game, "E21-E15")
    assert game.clock is not None
    now.now += 3
    times = (game.clock.remaining(WHITE), game.clock.remaining(BLACK))  # just before the move
    play(game, "F8-F12")
    game.takeback()
    assert (game.clock.remaining(WHITE), game.clock.remaining(BLACK)) == times
    assert game.clock.running == WHITE


def test_a_move_while_the_clock_is_paused_resumes_it() -> None:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.SUDDEN_DEATH, base=60), time_source=now)
    play(game, "E7-E13")
    assert game.clock is not None
    game.clock.pause()
    now.now += 100
    play(game, "E21-E15")
    assert game.nodes[-1].clock == 60  # no time passed while paused

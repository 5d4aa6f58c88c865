"""The game session: every decision the players' commands lead to, tested without a screen (milliseconds).

The app only shows what these commands return; the pilot tests keep what
needs the screen (keys, clicks, focus, layout).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cescacs_tui.core import WHITE, parse_hex
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.autosave import SavedGame, load_autosave
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.slots import AutosaveSlot
from cescacs_tui.session import Choice, Confirm, Feedback, GameSession, Redraw, Tone
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, annotated
from tests.helpers.stores import kept_in_memory

PROMOTION = "/27:1k/22:1P5/18:5p1/4:2J2/3:R3/2:GJG/1:DK/0:V/ w -- - 0 30"
"""RULES.md 7.1: the pawn on B22 may regain a Rook, a Knight or the black-hex Bishop on B24."""
CASTLING = "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"


def played(session: GameSession, *moves: str) -> Feedback:
    feedback = Feedback()
    for move in moves:
        feedback = session.play_text(move)
        assert feedback.done, feedback.text
    return feedback


def answer(feedback: Feedback, value: Any) -> Feedback:
    assert feedback.question is not None, feedback
    return feedback.question.answer(value)


# --- a plain Python object ---------------------------------------------------------------


@pytest.mark.slow
def test_a_session_plays_in_a_plain_python_shell_without_textual_or_rich() -> None:
    code = (
        "import sys\n"
        "from cescacs_tui.session import GameSession\n"
        "s = GameSession()\n"
        "print(s.play_text('H6-H12').text)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.splitlines() == ["White played H6-H12", "[]"]


def test_the_fools_mate_through_play_text_ends_0_3_and_a_later_move_is_refused_with_the_reason() -> None:
    session = GameSession()
    end = played(session, *FOOLS_MATE)
    assert (session.game.result, session.game.termination) == ("0-3", "Black mates")
    assert end.notice is not None and "Black mates" in end.notice.text
    before = write_pgn(session.game)
    after = session.play_text("E7-E13")
    assert not after.done and after.tone is Tone.ERROR
    assert "the game is over (Black mates)" in (after.text or "")
    assert write_pgn(session.game) == before


# --- typed moves --------------------------------------------------------------------------


def test_an_illegal_typed_move_is_explained_and_changes_nothing() -> None:
    session = GameSession()
    feedback = session.play_text("ee5-e11")
    assert not feedback.done and feedback.tone is Tone.ERROR
    assert "Elephant on E5 cannot go to E11" in (feedback.text or "")
    assert session.game.ply == 0


@pytest.mark.parametrize("typed", ["/e7-e13", ":E7-E13", " //e7-e13 ", "/:e7-e13"])
def test_the_keys_that_open_the_move_box_are_ignored_when_typed_inside_it(typed: str) -> None:
    session = GameSession()
    assert session.play_text(typed).done
    assert [node.san for node in session.game.nodes] == ["E7-E13"]


def test_the_move_being_typed_is_previewed_once_it_reads_as_a_legal_move() -> None:
    session = GameSession()
    assert session.preview_text("ne3-d").redraw is Redraw.NOTHING  # nothing to show yet: the board stays as it is
    assert session.preview == ()
    feedback = session.preview_text("ne3-d8")
    assert session.preview == (parse_hex("E3"), parse_hex("D8")) and feedback.redraw is Redraw.BOARD
    assert feedback.text == "Enter plays NE3-D8"
    assert session.preview_text("ne3-d8").redraw is Redraw.NOTHING  # the same preview again
    assert session.preview_text("").redraw is Redraw.BOARD and session.preview == ()  # the box emptied: it goes
    assert session.game.ply == 0


def test_a_hex_name_typed_puts_the_cursor_there_and_plays_nothing() -> None:
    session = GameSession()
    feedback = session.play_text("f14")
    assert feedback.done and feedback.cursor == parse_hex("F14")
    assert session.game.ply == 0
    assert "F14" in (feedback.text or "")


def test_a_hex_name_of_the_movers_piece_also_selects_it() -> None:
    session = GameSession()
    feedback = session.play_text("E7")
    assert feedback.cursor == parse_hex("E7")
    selection = session.selection
    assert selection is not None and selection.selected == parse_hex("E7")
    assert session.play_text("E27").cursor == parse_hex("E27")  # Black's piece: the cursor only
    assert selection.selected == parse_hex("E7")  # going to look at a Black piece keeps the selection
    assert session.game.ply == 0


# --- picking on the board -----------------------------------------------------------------


def test_a_refused_pick_says_why() -> None:
    session = GameSession()
    assert "White is to move" in (session.pick(parse_hex("E27")).text or "")
    assert "F14 is empty" in (session.pick(parse_hex("F14")).text or "")


def test_picking_a_piece_then_its_target_plays_the_move() -> None:
    session = GameSession()
    assert "pick its target" in (session.pick(parse_hex("E7")).text or "")
    assert session.pick(parse_hex("E13")).done
    assert session.game.nodes[-1].san == "E7-E13"


def test_a_promotion_asks_only_for_the_pieces_that_may_be_regained_and_cancel_plays_nothing() -> None:
    session = GameSession(Game.new(pdtl=PROMOTION))
    session.pick(parse_hex("B22"))
    feedback = session.pick(parse_hex("B24"))
    question = feedback.question
    assert isinstance(question, Choice)
    assert [option.key for option in question.options] == ["R", "N", "J"]
    assert "black hexes" in question.options[2].label
    assert question.answer(None).text == "choice cancelled"
    assert session.game.ply == 0
    chosen = session.pick(parse_hex("B24"))  # the pawn is still selected
    assert isinstance(chosen.question, Choice)
    assert chosen.question.answer(chosen.question.options[0].value).done
    assert session.game.nodes[-1].san == "B22-B24=R"


def test_the_castling_choice_names_and_previews_each_way() -> None:
    session = GameSession(Game.new(pdtl=CASTLING))
    session.pick(parse_hex("G1"))
    question = session.pick(parse_hex("H6")).question
    assert isinstance(question, Choice) and question.preview is not None
    assert question.options[0].label.startswith("King's leap G1→H6")
    castling = question.options[1].value
    question.preview(castling)
    assert len(session.preview) > 2  # the King's and the Rook's hexes
    question.preview(None)
    assert session.preview == ()


def test_the_selection_follows_the_position_after_a_takeback_and_another_move() -> None:
    session = GameSession()
    played(session, "e7-e13", "e21-e15")
    session.pick(parse_hex("F8"))
    session.takeback()
    session.takeback()
    played(session, "f8-f12", "f20-f16")
    session.pick(parse_hex("F12"))
    selection = session.selection
    assert selection is not None and selection.selected == parse_hex("F12")
    assert parse_hex("F14") in selection.targets()


# --- takeback, redo, review ---------------------------------------------------------------


def test_takeback_and_redo_say_what_they_did_and_why_not() -> None:
    session = GameSession()
    assert session.takeback().text == "no move to take back: this is the start of the game"
    assert session.redo().text == "nothing to redo: no move has been taken back"
    played(session, "E7-E13")
    assert session.takeback().text == "took back E7-E13"
    assert session.redo().text == "replayed E7-E13"


def test_redo_while_reviewing_replays_at_the_live_end() -> None:
    """Found by a random-key run: redo used to crash the app when the review cursor was not at the end."""
    session = GameSession()
    played(session, "E7-E13", "E21-E15")
    session.takeback()
    session.review_start()
    assert session.redo().done
    assert [node.san for node in session.game.nodes] == ["E7-E13", "E21-E15"] and session.game.is_live


def test_redo_after_the_game_has_ended_says_why() -> None:
    session = GameSession()
    played(session, "E7-E13", "E21-E15")
    session.takeback()
    session.game.resign(WHITE)
    feedback = session.redo()
    assert feedback.tone is Tone.ERROR and "over" in (feedback.text or "")


def test_review_keys_say_when_they_cannot_go_further() -> None:
    session = GameSession()
    assert session.review_back().text == "this is already the start of the game"
    played(session, "E7-E13", "E21-E15")
    assert session.review_live().text == "this is already the last move played"
    session.review_start()
    assert session.game.cursor == 0
    assert session.play_text("F8-F12").tone is Tone.ERROR  # reviewing: no move is played
    assert session.review_forward().redraw is Redraw.GAME and session.game.cursor == 1
    session.review_live()
    assert session.game.is_live


# --- variations -------------------------------------------------------------------------


def test_inside_a_variation_the_game_cannot_be_changed() -> None:
    game = annotated()
    game.takeback()
    session = GameSession(game)
    before = write_pgn(game)
    assert session.follow_variation().tone is Tone.INFO
    for feedback in (session.play_text("GL5-H6"), session.takeback(), session.resign(), session.pick(0)):
        assert feedback.tone is Tone.ERROR and "Esc returns to the game" in (feedback.text or "")
    assert write_pgn(game) == before
    assert session.leave_variation().text == "back in the game"
    assert session.leave_variation().text == "no variation is being followed"


def test_following_where_the_record_gives_no_variation_says_so() -> None:
    session = GameSession()
    assert session.follow_variation().text == "the record gives no other line instead of this move"


# --- the end of a game --------------------------------------------------------------------


def test_resigning_asks_first_and_no_is_the_safe_answer() -> None:
    session = GameSession()
    question = session.resign()
    assert isinstance(question.question, Confirm) and question.question.default is False
    assert answer(question, False).text == "the game goes on"
    assert not session.game.is_over
    ended = answer(session.resign(), True)
    assert session.game.result == "0-3" and ended.notice is not None


def test_a_draw_is_offered_by_the_player_who_just_moved_and_answered_by_the_opponent() -> None:
    session = GameSession()
    refused = session.offer_draw()
    assert refused.tone is Tone.ERROR and "with a move" in (refused.text or "")
    played(session, "E7-E13")
    offer = session.offer_draw()
    assert isinstance(offer.question, Confirm)
    assert offer.question.prompt.startswith("White offers a draw. Black, do you accept?")
    assert answer(offer, True).done
    assert session.game.result == "1-1"


def test_a_declined_draw_offer_leaves_no_mark_in_the_record_and_cannot_be_repeated_with_the_same_move() -> None:
    session = GameSession()
    played(session, "E7-E13")
    declined = answer(session.offer_draw(), False)
    assert declined.text == "Black declines the draw"
    assert "(=)" not in write_pgn(session.game)
    assert "already offered" in (session.offer_draw().text or "")
    played(session, "E21-E15")
    assert isinstance(session.offer_draw().question, Confirm)  # Black's offer, with its own move


def test_a_move_typed_with_a_draw_offer_plays_it_and_asks_the_opponent() -> None:
    session = GameSession()
    feedback = session.play_text("E7-E13 (=)")
    assert feedback.done and feedback.text == "White played E7-E13"
    assert isinstance(feedback.question, Confirm)
    assert "(=)" in write_pgn(session.game)  # pending: the record shows the offer
    answer(feedback, False)
    assert "(=)" not in write_pgn(session.game)


def test_claiming_a_draw_without_grounds_says_what_the_counts_are() -> None:
    session = GameSession()
    reason = session.claim_draw().text or ""
    assert "this position has occurred once (a claim needs 3)" in reason
    assert "0 half-moves have passed without a capture or pawn move (a claim needs 100" in reason
    played(session, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    assert session.available("claim_draw")
    assert session.claim_draw().done and session.game.result == "1-1"


def test_the_clock_pause_says_why_without_a_clock() -> None:
    session = GameSession()
    assert session.pause_clock().text == "this game has no clock"


# --- saving -------------------------------------------------------------------------------


def test_every_move_is_saved_and_a_finished_game_goes_to_the_archive() -> None:
    store, slot = kept_in_memory()
    session = GameSession(store=store)
    played(session, *FOOLS_MATE[:-1])
    assert len(slot.saved) == len(FOOLS_MATE) - 1 and not slot.finished
    end = played(session, FOOLS_MATE[-1])
    assert len(slot.finished) == 1 and "0-3" in slot.finished[0]
    assert "saved in games/finished.ctl-pgn" in (end.text or "")


def test_a_new_game_keeps_the_unfinished_one_in_the_archive() -> None:
    store, slot = kept_in_memory()
    session = GameSession(store=store)
    played(session, "E7-E13")
    feedback = session.start_game(Game.new())
    assert len(slot.kept) == 1 and "E7-E13" in slot.kept[0]
    assert "the unfinished game was kept in games/kept.ctl-pgn" in (feedback.text or "")


def test_the_resume_question_defaults_to_resume_and_new_game_keeps_the_saved_one() -> None:
    store, slot = kept_in_memory()
    old = Game.new()
    old.play_text("E7-E13")
    session = GameSession(store=store)
    question = session.offer_resume(SavedGame(old, {"flipped": True}))
    assert isinstance(question.question, Confirm) and question.question.default is True
    fresh = answer(question, False)
    assert session.game is not old and len(slot.kept) == 1
    assert "kept in games/kept.ctl-pgn" in (fresh.text or "")
    resumed = answer(GameSession(store=store).offer_resume(SavedGame(old, {"flipped": True})), True)
    assert resumed.done


def test_resuming_restores_the_options_saved_with_the_game() -> None:
    old = Game.new()
    old.play_text("E7-E13")
    session = GameSession()
    answer(session.offer_resume(SavedGame(old, {"flipped": True})), True)
    assert session.game is old and session.options == {"flipped": True}


def test_a_failing_save_is_kept_in_view_until_a_save_succeeds() -> None:
    store, slot = kept_in_memory()
    session = GameSession(store=store)
    slot.failing = True
    played(session, "E7-E13")
    assert session.save_problem == "the game is not being saved: No space left on device"
    slot.failing = False
    played(session, "E21-E15")
    assert session.save_problem is None


def test_a_running_clock_is_saved_between_moves(tmp_path: Path) -> None:
    now = FakeTime()
    path = tmp_path / "autosave.json"
    game = Game.new(time_control=TimeControl(ClockKind.SUDDEN_DEATH, base=300), time_source=now)
    session = GameSession(game, store=AutosaveStore(AutosaveSlot.acquire(path)))
    played(session, "e7-e13")
    now.advance(42)
    session.save_running_clock()  # what the app's 10-second timer does
    saved = load_autosave(path).saved
    assert saved is not None and saved.game.clock is not None
    assert saved.game.clock.remaining(saved.game.position.turn) == pytest.approx(258, abs=0.01)


def test_the_suggested_file_name_comes_from_the_date_and_players() -> None:
    session = GameSession(Game.new(white="Ros, Xus", black="Sasal"))
    date = session.game.tags["Date"]
    assert session.suggested_file_name() == f"cescacs-{date}-Ros_Xus-Sasal.ctl-pgn"


def test_a_record_of_many_games_opens_its_first_and_a_fifo_is_refused(tmp_path: Path) -> None:
    many = tmp_path / "many.ctl-pgn"
    many.write_text(
        "\n".join(f'[Variant "C\'escacs"]\n[Round "{n}"]\n\n1. H6-H12 *\n' for n in range(1, 2001)), encoding="utf-8"
    )
    fifo = tmp_path / "fifo.ctl-pgn"
    os.mkfifo(fifo)
    session = GameSession()
    played(session, "F8-F12")
    refused = session.open_record(fifo)
    assert refused.tone is Tone.ERROR and "not a regular file" in (refused.text or "")
    assert [n.san for n in session.game.nodes] == ["F8-F12"]
    opened = session.open_record(many)
    assert "the file holds 2000 games: the first is shown" in (opened.text or "")
    assert session.game.tags["Round"] == "1" and [n.san for n in session.game.nodes] == ["H6-H12"]

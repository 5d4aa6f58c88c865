"""The plain front end: moves in and out in words, the session's questions as lettered choices, every command.

Driven through :class:`~cescacs_tui.plain.PlainGame` line by line (no
process: milliseconds); ``tests/processes/test_plain_cli.py`` runs the real command in a
pipe and in a pseudo-terminal.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from cescacs_tui.core import HEX_NAMES, find_hex, parse_hex
from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.autosave import SavedGame
from cescacs_tui.plain import COMMANDS, PlainGame
from cescacs_tui.plain.commands import help_lines
from cescacs_tui.plain.front_end import help_wrapped, plain_how
from cescacs_tui.plain.output import LineWriter
from cescacs_tui.session import ACTIONS, Feedback, GameSession, Scope
from tests.helpers.builders import pdtl
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, annotated
from tests.helpers.plain import Typist
from tests.helpers.reference import RULE_VECTOR_BY_RULE
from tests.helpers.stores import ARCHIVED, KEPT, kept_in_memory


def vector(rule: str) -> Typist:
    return Typist(Game.new(pdtl=RULE_VECTOR_BY_RULE[rule]["pdtl"]))


# --- the table of commands ----------------------------------------------------------------


def test_help_lists_every_command_once_from_the_table() -> None:
    lines = Typist().type("help")
    for command in COMMANDS.values():
        assert sum(line.startswith(f"{command.usage}") and ":" in line for line in lines) >= 1, command.name
    assert lines == [wrapped for line in help_lines() for wrapped in help_wrapped(line)]
    assert Typist().type("help m") == ["m HEX (also legal): the legal moves of the piece on a hex (m E7)"]
    assert Typist().answer("? takeback") == "takeback (also u, undo): " + ACTIONS["takeback"].help
    assert Typist().answer("help flip") == "flip: no such command. Type help for the list."


def test_every_command_runs_a_session_action_or_a_method_of_the_front_end() -> None:
    words: list[str] = []
    for command in COMMANDS.values():
        if command.action is not None:
            assert ACTIONS[command.action].scope is Scope.SESSION
            assert callable(getattr(GameSession, command.action))
            assert command.help == ACTIONS[command.action].help  # the action's own words
        else:
            assert command.method is not None and callable(getattr(PlainGame, command.method))
        words += [command.name, *command.aliases]
    assert len(words) == len(set(words))  # no word names two commands
    assert not [word for word in words if find_hex(word.upper()) is not None]  # and none is a hex


def test_an_unknown_word_gets_a_one_line_hint_and_arguments_are_checked() -> None:
    typist = Typist()
    assert typist.type("hello") == ["hello: not a command or a move. Type help for the commands."]
    assert typist.answer("takeback now").startswith("takeback takes nothing after it")
    assert typist.answer("open").startswith("open needs FILE")
    assert typist.type("", "   ", "# a comment in a script") == []
    assert typist.session.game.ply == 0


# --- moves in and out ---------------------------------------------------------------------


def test_a_typed_move_is_played_and_confirmed_in_words() -> None:
    typist = Typist()
    assert typist.type("jf6-c15") == ["White Bishop F6 to C15. Black to move."]
    assert typist.type("NG25-H20") == ["Black Knight G25 to H20. White to move."]


@pytest.mark.parametrize("typed", ["e13xnf16", "E13*NF16", "e13×nf16", "/e13xnf16"])
def test_lower_case_and_ascii_capture_signs_are_accepted(typed: str) -> None:
    game = Game.new(pdtl=pdtl("KG1 kG27 PE13 nF16"))  # a pawn captures forward-diagonally (RULES.md 6.3)
    assert Typist(game).type(typed) == ["White Pawn E13 takes Black Knight on F16. Black to move."]


def test_an_ascii_alias_of_a_piece_letter_is_accepted() -> None:
    game = Game.new(pdtl=pdtl("KG1 kG27 DE1"))
    assert Typist(game).type("qe1-e9") == ["White Queen E1 to E9. Black to move."]


def test_an_illegal_move_is_explained_and_the_game_goes_on() -> None:
    typist = Typist()
    assert typist.type("ee5-e11") == ["ee5-e11: the Elephant on E5 cannot go to E11."]
    assert typist.type("e7-e13") == ["White Pawn E7 to E13, triple step. Black to move."]


def test_a_line_of_movetext_plays_its_moves_in_turn_and_stops_at_the_first_refused() -> None:
    typist = Typist()
    assert typist.type("1. h6-h12 i23-i19 2.jf6-c15 e7-e99 gh26-z11") == [
        "White Pawn H6 to H12, triple step. Black to move.",
        "Black Pawn I23 to I19, double step. White to move.",
        "White Bishop F6 to C15. Black to move.",
        "e7-e99: E99 is not a hex of the board.",
    ]
    assert typist.session.game.ply == 3


def test_the_fools_mate_is_announced_move_by_move_then_the_result() -> None:
    typist = Typist()
    said = typist.type(*FOOLS_MATE)
    assert len(said) == len(FOOLS_MATE)
    assert said[-1] == "Black Pegasus L5 to H6, checkmate. Game over: Black mates (0-3)."
    assert typist.answer("e7-e9") == (
        "e7-e9: the game is over (Black mates): takeback takes back a move, new starts a new game."
    )


def test_two_hexes_move_the_piece_as_two_clicks_would() -> None:
    typist = Typist()
    assert typist.type("e7 e13") == ["White Pawn E7 to E13, triple step. Black to move."]
    assert typist.type("e21 e13") == ["The Pawn on E21 cannot go to E13."]
    assert typist.type("e5 e9") == ["That is a White Elephant: Black is to move."]
    assert typist.type("g25 f20") == ["F20 holds your own Black Pawn."]
    assert typist.type("g25 g25") == ["G25 twice: give the piece's hex, then the hex it goes to."]
    assert typist.session.game.ply == 1


def test_a_promotion_is_asked_as_lettered_choices_and_answered_by_a_letter() -> None:
    typist = vector("promotion-choices")
    assert typist.type("b22 b24") == [
        "Regain which piece on B24?",
        "R or 1: Rook B22-B24=R",
        "N or 2: Knight B22-B24=N",
        "J or 3: Bishop (black hexes) B22-B24=J",
        "Type the key of your choice; an empty line cancels.",
    ]
    assert typist.type("q") == ["q: not an answer.", "Regain which piece on B24? Keys: R, N, J; an empty line cancels."]
    assert typist.type("r") == ["White Pawn B22 to B24, promoting to Rook. Black to move."]


def test_a_promotion_typed_without_its_piece_is_asked_and_one_with_it_is_played() -> None:
    typist = vector("promotion-choices")
    assert typist.type("b22-b24")[0] == "Regain which piece on B24?"
    assert typist.type("j") == ["White Pawn B22 to B24, promoting to Bishop of the black hexes. Black to move."]
    typist = vector("promotion-choices")
    assert typist.type("nb22-b24") == ["nb22-b24: the piece on B22 is a Pawn, not a Knight."]  # still checked
    assert typist.type("b22xb24") == ["b22xb24: promotion piece required: =R, =N, =J."]  # not asked: it is wrong
    assert typist.type("b22-b24=n") == ["White Pawn B22 to B24, promoting to Knight. Black to move."]


@pytest.mark.filterwarnings("error")  # the core gives its warnings as values: nothing for a front end to silence
def test_a_wrong_check_mark_is_tolerated_also_on_a_promotion_asked_for() -> None:
    typist = vector("promotion-choices")
    assert typist.type("b22-b24+")[0] == "Regain which piece on B24?"
    assert typist.type("r") == ["White Pawn B22 to B24, promoting to Rook. Black to move."]
    assert Typist().type("h6-h12#") == ["White Pawn H6 to H12, triple step. Black to move."]


@pytest.mark.parametrize(
    ("answer", "piece"), [("2", "Knight"), ("n", "Knight"), ("bishop", "Bishop of the black hexes")]
)
def test_a_choice_is_answered_by_its_key_its_number_or_its_name(answer: str, piece: str) -> None:
    typist = vector("promotion-choices")
    typist.type("b22 b24")
    assert typist.type(answer) == [f"White Pawn B22 to B24, promoting to {piece}. Black to move."]


def test_an_empty_line_cancels_a_choice_and_a_look_at_the_board_keeps_it_open() -> None:
    typist = vector("castling-krk")
    asked = typist.type("g1 h6")
    assert asked[0] == "The King can go there in several ways:"
    assert asked[1] == "1: King's leap G1 to H6 (KG1-H6)"
    assert "2: KRK-HIO: King G1 to H6, Rook I3 to I5" in asked
    looked = typist.type("p R")
    assert looked == [
        "White Rook: I3.",
        "The King can go there in several ways: Keys: 1, 2, 3, 4, 5; an empty line cancels.",
    ]
    assert typist.type("") == ["Choice cancelled."]
    assert typist.session.game.ply == 0
    typist.type("g1 h6")
    assert typist.type("2") == ["White castles KRK-HIO: King G1 to H6, Rook I3 to I5. Black to move."]


def test_the_forced_promotion_turn_is_said_and_played_in_place() -> None:
    typist = vector("forced-promotion")
    typist.type("l")
    assert typist.type("b")[0] == "White to move. White must first promote the Pawn on P21: Bishop (P21=J)."
    assert typist.type("e7-e9")[0].startswith("e7-e9: a pawn awaiting promotion must be promoted this turn")
    assert typist.type("p21=j") == ["White promotes the Pawn on P21 to Bishop of the black hexes. Black to move."]


# --- confirmations: resign, draws, a new game ---------------------------------------------------


def test_resign_asks_first_and_no_is_the_safe_answer() -> None:
    typist = Typist()
    assert typist.type("resign") == ["White resigns: Black wins the game. Sure? y: Yes, n: No (an empty line: No)."]
    assert typist.type("") == ["The game goes on."]
    typist.type("resign")
    assert typist.type("maybe") == ["maybe: not an answer.", "White resigns: Black wins the game. Sure? y or n."]
    assert typist.type("yes") == ["Game over: White resigns (0-3)."]


def test_a_draw_offered_with_a_move_or_after_it_is_answered_by_the_opponent() -> None:
    typist = Typist()
    assert typist.type("e7-e13 (=)") == [
        "White Pawn E7 to E13, triple step. Black to move. White offers a draw.",
        "White offers a draw. Black, do you accept? y: Accept, n: Decline (an empty line: Decline).",
    ]
    assert typist.type("n") == ["Black declines the draw."]
    typist.type("e21-e15")
    assert typist.type("draw") == [
        "Black offers a draw. White, do you accept? y: Accept, n: Decline (an empty line: Decline)."
    ]
    assert typist.type("accept") == ["Game over: draw by agreement (1-1)."]


def test_a_draw_is_claimed_in_words() -> None:
    typist = Typist()
    assert typist.answer("claim").startswith("No draw to claim: this position has occurred once")
    typist.type(*KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    assert typist.type("claim") == ["Game over: draw by threefold repetition (claimed by White) (1-1)."]


def test_new_asks_before_abandoning_a_game_and_takes_a_time_control() -> None:
    typist = Typist()
    assert typist.type("new") == ["New game.", "White to move."]
    typist.type("e7-e13")
    assert typist.type("new 300+5") == ["Abandon this game and start a new one? y: Yes, n: No (an empty line: No)."]
    assert typist.type("n") == ["The game goes on."]
    typist.type("new 300+5")
    assert typist.type("y") == ["New game.", "White to move."]
    assert typist.session.game.time_control == TimeControl.from_tag("300+5")
    assert typist.answer("new 9x9").startswith("TimeControl '9x9' is not understood")


# --- takeback, review, variations ---------------------------------------------------------------


def test_takeback_and_redo_say_the_move_in_words() -> None:
    typist = Typist()
    assert typist.answer("u") == "No move to take back: this is the start of the game."
    typist.type("jf6-c15")
    assert typist.type("takeback") == ["Took back: White Bishop F6 to C15. White to move."]
    assert typist.type("redo") == ["White Bishop F6 to C15. Black to move."]


def test_review_commands_say_the_position_shown_and_moves_wait_for_live() -> None:
    typist = Typist()
    typist.type("e7-e13", "e21-e15")
    assert typist.type("back") == ["Last move 1: White Pawn E7 to E13, triple step. Reviewing: after 1 half-move of 2."]
    assert typist.type("start") == ["No move has been played yet. "]
    assert typist.answer("h6-h12") == "h6-h12: you are reviewing an earlier move: live returns to the live position."
    assert typist.type("live") == ["Last move 1: Black Pawn E21 to E15, triple step. White to move."]
    assert typist.answer("forward") == "This is already the last move played."


def test_a_variation_of_an_annotated_record_is_followed_and_left() -> None:
    typist = Typist(annotated())
    typist.type("start", *["forward"] * 7)
    followed = typist.type("variation")
    assert followed[0].startswith("Variation instead of 4. EH4-H8: back and forward step through it, leave returns")
    assert followed[1].startswith("Last move 4: White ")
    assert typist.answer("e7-e9").endswith("is on the board: leave returns to the game.")
    assert typist.type("leave")[0] == "Back in the game."


# --- words from the session, words from files --------------------------------------------------


def test_the_sessions_hints_name_the_plain_commands() -> None:
    """The session asks the front end how an action is done: here, the command typed for it."""
    for action in ("review_live", "leave_variation", "takeback", "new_game", "offer_draw", "pause_clock"):
        assert plain_how(action) in COMMANDS, action
    session = GameSession()
    PlainGame(session, lambda text: None)
    session.play_text("E7-E13")
    session.review_start()
    assert (
        session.play_text("E21-E15").text
        == "E21-E15: you are reviewing an earlier move: live returns to the live position"
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain", "plain"),
        ("\x1b[31mred\x1b[0m", "\u241b[31mred\u241b[0m"),
        ("bell\x07", "bell\u2407"),
        ("del\x7f", "del\u2421"),
        ("csi\x9b2J", "csi\ufffd2J"),
        ("rtl\u202eevil", "rtl\ufffdevil"),
        ("tab\tand\rreturn", "tab\u2409and\u240dreturn"),
        ("Sasal, Cesc — 1-1 ½ ∞ 𝕏", "Sasal, Cesc — 1-1 ½ ∞ 𝕏"),
    ],
)
def test_control_characters_are_shown_as_visible_placeholders(text: str, shown: str) -> None:
    screen = io.StringIO()
    LineWriter(screen)(text)
    assert screen.getvalue() == shown + "\n"


def test_text_from_a_record_never_reaches_the_terminal_as_an_escape(tmp_path: Path) -> None:
    game = Game.new(white="Evil\x1b]52;c;cm0gLXJmIH4=\x07", black="Name\x9b2J")
    game.play_text("E7-E13")
    game.nodes[-1].comments.append("clear \x1b[2J the screen")
    record = tmp_path / "hostile.ctl-pgn"
    record.write_text(write_pgn(game), encoding="utf-8")
    screen = io.StringIO()
    plain = PlainGame(GameSession(), LineWriter(screen))
    for line in (f"open {record}", "pgn", "b", "l", "moves"):
        plain.handle(line)
    output = screen.getvalue()
    assert "\x1b" not in output and "\x07" not in output and "\x9b" not in output
    assert "Evil\\u001b]52" in output  # shown, not hidden (the record escapes it: issue 22)
    assert "Name\ufffd2J" in output


def test_save_and_open_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    typist = Typist()
    typist.type("h6-h12", "i23-i19")
    target = tmp_path / "two moves.ctl-pgn"
    assert typist.type(f"save {target}") == [f"Saved {target}."]
    again = Typist()
    assert again.type(f"open {target}") == ["Opened two moves.ctl-pgn: 2 half-moves.", "White to move."]
    assert [node.san for node in again.session.game.nodes] == ["H6-H12", "I23-I19"]
    assert again.answer(f"open {tmp_path / 'missing.ctl-pgn'}") == "missing.ctl-pgn: No such file or directory."
    monkeypatch.chdir(tmp_path)
    assert again.answer("save").startswith(f"Saved {tmp_path / again.session.suggested_file_name()}")


def test_a_file_name_quoted_at_the_start_of_an_answer_keeps_its_case(tmp_path: Path) -> None:
    """A name is quoted as typed, not capitalised as the first word of a sentence (``game`` is not ``Game``)."""
    typist = Typist()
    assert typist.answer(f"open {tmp_path / 'game'}") == "game: No such file or directory."
    assert typist.answer("open zero") == "zero: No such file or directory."
    assert typist.answer("hello") == "hello: not a command or a move. Type help for the commands."
    assert typist.answer("claim").startswith("No ")  # the session's own sentences are still capitalised


# --- what the session says besides moves --------------------------------------------------------


def test_an_opponents_move_played_through_the_session_is_announced_the_same_way() -> None:
    screen = io.StringIO()
    session = GameSession()
    plain = PlainGame(session, LineWriter(screen))
    move = session.game.position.parse_move("NG3-H8")
    plain.show(session.play(move))  # what a computer or a remote opponent's front end does
    assert screen.getvalue() == "White Knight G3 to H8. Black to move.\n"


def test_a_new_copy_of_the_game_with_one_more_move_is_announced_once() -> None:
    # a remote client's session puts a fresh copy of the game on the table for every snapshot it receives
    screen = io.StringIO()
    session = GameSession()
    plain = PlainGame(session, LineWriter(screen))
    plain.handle("e7-e13")
    copy = Game.new()
    copy.play_text("E7-E13")
    session.game = copy
    plain.show(Feedback())
    assert screen.getvalue().splitlines()[-1] == "White Pawn E7 to E13, triple step. Black to move."
    longer = Game.new()
    longer.play_text("E7-E13")
    longer.play_text("E21-E15")
    session.game = longer
    plain.show(Feedback())
    assert screen.getvalue().splitlines()[-2:] == [
        "White Pawn E7 to E13, triple step. Black to move.",
        "Black Pawn E21 to E15, triple step. White to move.",
    ]


def test_a_flag_fall_is_noticed_at_the_next_line() -> None:
    time = FakeTime()
    typist = Typist(Game.new(time_control=TimeControl.from_tag("60"), time_source=time))
    typist.type("e7-e13")
    time.advance(61)
    assert typist.type("l")[0] == "Game over: White wins on time (3-0)."


def test_a_save_problem_is_said_once_and_its_end_too() -> None:
    store, slot = kept_in_memory()
    typist = Typist(store=store)
    slot.failing = True
    assert typist.type("e7-e13") == [
        "White Pawn E7 to E13, triple step. Black to move.",
        "Warning: the game is not being saved: No space left on device.",
    ]
    assert typist.type("e21-e15") == ["Black Pawn E21 to E15, triple step. White to move."]
    slot.failing = False
    assert typist.type("h6-h12")[-1] == "The game is saved again."


def test_the_archive_of_a_game_that_ends_is_said() -> None:
    typist = Typist(store=kept_in_memory()[0])
    typist.type(*FOOLS_MATE[:-1])
    assert typist.type(FOOLS_MATE[-1]) == [
        "Black Pegasus L5 to H6, checkmate. Game over: Black mates (0-3).",
        f"The game is archived in {ARCHIVED}.",
    ]


# --- start, resume, quit ------------------------------------------------------------------------


def saved_game() -> SavedGame:
    game = Game.new()
    game.play_text("E7-E13")
    return SavedGame(game, {}, "2026-11-29T14:05:00+00:00")


def test_start_offers_to_resume_and_enter_resumes() -> None:
    screen = io.StringIO()
    session = GameSession(store=kept_in_memory()[0])
    plain = PlainGame(session, LineWriter(screen))
    plain.start(session.offer_resume(saved_game()))
    lines = screen.getvalue().splitlines()
    assert lines[0].startswith("C'escacs in plain text.")
    assert lines[1] == (
        "An unfinished game was found (1 half-move, Black to move). Resume it? y: Resume, n: New game "
        "(an empty line: Resume)."
    )
    plain.handle("")
    assert re.fullmatch(r"Resumed the game saved at \d\d:\d\d on 2026-11-\d\d\.", screen.getvalue().splitlines()[2])
    assert plain.session.game.ply == 1


def test_start_answers_the_offer_as_told() -> None:
    screen = io.StringIO()
    session = GameSession(store=kept_in_memory()[0])
    plain = PlainGame(session, LineWriter(screen))
    plain.start(session.offer_resume(saved_game()), answer=False, why="as asked.")
    assert screen.getvalue().splitlines()[2:] == [
        "New game: as asked.",
        f"New game; the unfinished one was kept in {KEPT}.",
    ]
    assert plain.session.game.ply == 0


def test_quit_ends_the_run_and_finish_saves() -> None:
    store, slot = kept_in_memory()
    screen = io.StringIO()
    plain = PlainGame(GameSession(store=store), LineWriter(screen))
    plain.run(["e7-e13", "quit", "e21-e15"])
    assert not plain.running and plain.session.game.ply == 1
    saves = len(slot.saved)
    plain.finish()
    assert len(slot.saved) == saves + 1 and slot.released  # saved, and the autosave free for another cescacs
    assert screen.getvalue().splitlines()[-1] == "Goodbye. The game is saved: cescacs offers to resume it."


def test_every_hex_name_typed_alone_is_answered_and_plays_nothing() -> None:
    typist = Typist()
    for name in HEX_NAMES:
        assert typist.answer(name.lower()).startswith(f"{name}, a ")
    assert typist.session.game.ply == 0
    assert typist.session.selection is not None and typist.session.selection.selected is None
    assert parse_hex("F14") == find_hex("F14")


def test_the_guides_section_shows_what_the_plain_mode_says_and_names_every_command() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    section = guide.split("## Playing without the board (screen readers)")[1].split("\n## ")[0]
    transcript = section.split("```\n")[1]
    typist = Typist()
    expected: list[str] = []
    for line in transcript.splitlines():
        if line.startswith("> "):
            expected += typist.type(line[2:])
        else:
            assert expected.pop(0) == line
    assert expected == []
    for command in COMMANDS.values():
        assert f"`{command.name}" in section, command.name

"""What a real terminal sends, in a pseudo-terminal: bursts, Esc, bytes that are not UTF-8, and crashes.

Every burst is written in one write, so the app reads it in one read, as it
does over SSH or from a fast typist (see tests/helpers/terminal.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from textual import constants

from cescacs_tui.core import HEX_NAMES, WHITE, Position, parse_hex
from cescacs_tui.core.pieces import KNIGHT
from cescacs_tui.data.autosave import read_autosave
from cescacs_tui.data.settings import Settings
from cescacs_tui.tui.board_layout import reading_order
from tests.helpers.app import key_path
from tests.helpers.terminal import (
    ARROW_BYTES,
    CRASHING_MAIN,
    POSIX_ONLY,
    Terminal,
    crash_by_flipping,
    saved_moves,
    terminal_environment,
)

pytestmark = POSIX_ONLY

TOO_SOON = "Too soon to be an answer"

RUN_CESCACS = "from cescacs_tui.cli import main\nraise SystemExit(main())\n"
"""The cescacs command, after a test's own set-up code."""


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return terminal_environment(tmp_path)


@pytest.fixture
def terminal(env: dict[str, str]):
    terminal = Terminal(env)
    terminal.wait_for("Move:")  # the whole screen is up
    yield terminal
    terminal.close()


def test_a_move_typed_in_one_burst_from_the_board_is_played(terminal, tmp_path):
    terminal.type("/E7-E13\r")
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == ["E7-E13"], "the move in the autosave")


def test_bursts_of_several_moves_from_the_board_then_from_the_move_box_are_played_in_order(terminal, tmp_path):
    data = tmp_path / "data"
    terminal.type("/e7-e13\re21-e15\r/f8-f12\r:f20-f16\r")  # from the board; "/" and ":" again in the box
    terminal.read_until(lambda: len(saved_moves(data)) == 4, "four moves in the autosave")
    terminal.type("h6-h12\r/i23-i19\rgd2-b7\x7f6\r")  # from the move box, a typo corrected with Backspace
    terminal.read_until(lambda: len(saved_moves(data)) == 7, "seven moves in the autosave")
    assert saved_moves(data) == ["E7-E13", "E21-E15", "F8-F12", "F20-F16", "H6-H12", "I23-I19", "GD2-B6"]


def test_a_piece_picked_by_its_hex_plays_its_target_by_number_or_by_hex_in_one_burst(terminal, tmp_path):
    from cescacs_tui.core.position import Position
    from cescacs_tui.tui.board_layout import reading_order

    start = Position.initial()
    targets = reading_order({m.target for m in start.legal_moves() if m.origin == parse_hex("E7")})
    number = targets.index(parse_hex("E13")) + 1
    terminal.type(f"/e7\r{number}e21\re15\r")  # a number typed after the piece's hex; then a target's hex
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == ["E7-E13", "E21-E15"], "both moves saved")


def cursor_hex(terminal: Terminal) -> str | None:
    """The board cursor's hex, as the move row names it at its right end ("H12 White Pawn", "F12")."""
    row = next((line for line in terminal.screen.display if line.lstrip().startswith("Move:")), "")
    found = re.search(r"\s([A-Z]\d{1,2})(?: \w+ \w+)?\s*$", row)
    return found.group(1) if found else None


TWO_MOVES = ["H6-H12", "I23-I19"]
"""The moves the burst tests below play first (typed in the move box), opening the Bishop F6's diagonal."""


def two_moves_played(env: dict[str, str], data: Path, *, resumed_with: str | None = None) -> Terminal:
    """``cescacs`` in a terminal with :data:`TWO_MOVES` played; with ``resumed_with``, quit after them and started
    again, the resume question answered with those keys in one write.  The caller closes the terminal."""
    terminal = Terminal(env)
    try:
        terminal.wait_for("Move:")
        terminal.type("/h6-h12\ri23-i19\r")
        terminal.read_until(
            lambda: saved_moves(data) == TWO_MOVES and terminal.in_move_box(), "the two moves, the move box focused"
        )
        if resumed_with is not None:
            assert terminal.quit() == 0
            terminal.close()
            terminal = Terminal(env)
            terminal.answer("An unfinished game was found (2 half-moves", resumed_with)
            terminal.wait_for(TWO_MOVES[-1])
    except BaseException:
        terminal.close()
        raise
    return terminal


def take_both_back_then_redo_them_and_slash(terminal: Terminal, data: Path) -> None:
    """From the move box: to the board, both moves taken back, then ``UU/`` in one write (both redone, then the
    move box again)."""
    terminal.leave_move_box()
    terminal.type("uu")
    terminal.read_until(lambda: saved_moves(data) == [], "both moves taken back")
    terminal.type("UU/")


@pytest.mark.parametrize("before", ["two moves", "takeback and redo", "resume"])
def test_enter_selecting_a_piece_and_the_arrows_among_its_targets_in_one_burst_play_the_move(env, tmp_path, before):
    """Enter on a piece asks the screen to select it; the arrows after it, in the same read, must jump among its
    targets, not walk the board as if nothing were selected (they did: tui/input_order.py) — in a game just
    played, after two takebacks and their redos, and in a resumed game."""
    data = tmp_path / "data"
    terminal = two_moves_played(env, data, resumed_with="y/" if before == "resume" else None)  # "/": to the box
    try:
        if before == "takeback and redo":
            take_both_back_then_redo_them_and_slash(terminal, data)
            terminal.read_until(lambda: saved_moves(data) == TWO_MOVES and terminal.in_move_box(), "both redone, /")
        terminal.leave_move_box()
        terminal.read_until(lambda: cursor_hex(terminal) is not None, "the cursor's hex beside the move box")
        position = Position.initial()
        for text in TWO_MOVES:
            position.push(position.parse_move(text))
        bishop, target = parse_hex("F6"), parse_hex("C15")
        targets = [move.target for move in position.legal_moves() if move.origin == bishop]
        to_bishop = key_path(parse_hex(cursor_hex(terminal) or ""), bishop, mode="full")  # 120x40: the full board
        to_target = key_path(bishop, target, targets=targets, mode="full")
        arrows = "".join(ARROW_BYTES[key] for key in to_bishop) + "\r" + "".join(ARROW_BYTES[key] for key in to_target)
        terminal.type(arrows + "\r")
        terminal.read_until(lambda: len(saved_moves(data)) == 3 or b"cannot go" in terminal.output, "a third move")
        assert saved_moves(data)[2] == "JF6-C15"
    finally:
        terminal.close()


@pytest.mark.parametrize("before", ["two moves", "resume"])
def test_two_redos_and_a_slash_in_one_burst_redo_both_moves_then_the_move_box_takes_a_move(env, tmp_path, before):
    """``U`` goes to the board, which hands it back up to the app for the screen's redo binding; the ``/`` after it
    in the same read must not focus the move box before that (the ``U`` were then judged from the box: 0, 1 or 2
    moves redone: tui/input_order.py) — in a game just played, and in a resumed game."""
    data = tmp_path / "data"
    terminal = two_moves_played(env, data, resumed_with="y" if before == "resume" else None)
    try:
        take_both_back_then_redo_them_and_slash(terminal, data)
        terminal.type("e7-e13\r")  # White's move after both redos, in the move box
        refused = "e7-e13: "  # the move box says why it cannot play a move (Black's turn after one redo)
        terminal.read_until(
            lambda: "E7-E13" in saved_moves(data) or terminal.shows(refused), "the move played or refused"
        )
        assert saved_moves(data) == [*TWO_MOVES, "E7-E13"]
    finally:
        terminal.close()


def test_letters_of_board_commands_after_a_slash_go_to_the_move_box_and_never_resign(terminal):
    terminal.type("/RC25-C23\r")  # R picks a Rook on the board, C and digits are board keys
    terminal.wait_for("RC25-C23: there is a Black Rook on C25")  # the whole move reached the box
    assert b"resigns" not in terminal.output


def test_a_pieces_letter_and_a_targets_number_in_one_burst_play_a_move(terminal, tmp_path):
    start = Position.initial()
    knights = reading_order(h for h, piece in start.pieces(WHITE) if piece.type == KNIGHT)
    targets = reading_order({m.target for m in start.legal_moves() if m.origin == knights[0]})
    terminal.type("N1")  # the first Knight as the board is read, its first target
    wanted = f"N{HEX_NAMES[knights[0]]}-{HEX_NAMES[targets[0]]}"
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == [wanted], "the Knight's move saved")


def test_a_move_starting_with_a_command_letter_is_played_and_changes_no_setting(terminal, tmp_path):
    terminal.type("/gd2-b6\r")  # g changes the piece set, d moves the cursor
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == ["GD2-B6"], "the Pegasus move in the autosave")
    assert Settings.load(tmp_path / "config" / "settings.toml") == Settings()


@pytest.mark.parametrize(
    ("burst", "question", "answered"),
    [
        ("r\r", "Sure?", "0-3: White resigns"),  # Enter with the key that asks
        ("ry", "Sure?", "0-3: White resigns"),
        ("n\r", "Abandon this game", "Enter starts"),  # the new-game dialog would be next
        ("ny", "Abandon this game", "Enter starts"),
    ],
)
def test_a_burst_that_asks_a_question_never_answers_it(terminal, tmp_path, burst, question, answered):
    data = tmp_path / "data"
    terminal.type("/e7-e13\r")  # a game in progress
    terminal.read_until(lambda: saved_moves(data) == ["E7-E13"] and terminal.in_move_box(), "the move, in the box")
    terminal.leave_move_box()
    terminal.type(burst)
    terminal.wait_for(question)
    terminal.wait_for_screen(TOO_SOON)  # the burst's answer reached the question, which asks for it again
    after_burst = terminal.output.split(question.encode(), 1)[1]
    assert answered.encode() not in after_burst
    session = read_autosave(data / "autosave.json")
    assert session is not None and session.game.outcome is None and len(session.game.nodes) == 1


def test_a_question_takes_an_answer_once_seen_and_enter_gives_the_safe_default(terminal):
    terminal.type("r")
    terminal.answer("Sure?", "\r")  # Enter on the focused button: No
    terminal.read_until(lambda: not terminal.shows("Sure?"), "the question to close")
    assert b"0-3: White resigns" not in terminal.output
    terminal.type("r")
    terminal.answer("Sure?", "y")
    terminal.wait_for("0-3: White resigns")


def test_esc_then_a_key_read_apart_are_two_keys_and_alt_sequences_stay_alt(env):
    terminal = Terminal(env | {"ESCDELAY": "3000"})  # 3 s in which an escape sequence may go on, as Textual reads it
    try:
        _esc_then_a_key(terminal)
    finally:
        terminal.close()


def _esc_then_a_key(terminal: Terminal) -> None:
    terminal.wait_for("Move:")
    terminal.type("/e7-e13")  # in the move box
    terminal.read_until(terminal.in_move_box, "the move box to have the focus")
    terminal.type("\x1b")
    terminal.wait_until_read()  # the Esc read alone
    terminal.type("f")  # the next key, read apart but well within ESCDELAY: Esc took the focus to the board,
    terminal.wait_for("Black at the bottom")  # where f flips it
    terminal.type("\x1bf")  # Alt+F in one write, as terminals send it (Textual: a word jump), not Esc, f
    arrows = key_path(parse_hex("G1"), parse_hex("G3"), flipped=True, mode="full")  # from the King, flipped
    terminal.type("".join(ARROW_BYTES[key] for key in arrows))  # arrow keys still arrive as arrows
    terminal.wait_for("G3")  # the hex under the cursor is named, after Alt+F was handled (keys keep their order)
    assert b"White at the bottom" not in terminal.output


@pytest.mark.parametrize("garbage", [b"\xff", b"\xe9a", b"/\xe9\xff\x1b"], ids=["0xFF", "Latin-1", "in the box"])
def test_bytes_that_are_not_utf8_are_replaced_the_player_is_told_and_the_game_goes_on(terminal, tmp_path, garbage):
    terminal.type(garbage)
    terminal.wait_for_screen("not UTF-8")
    assert terminal.process.poll() is None
    terminal.type("/E7-E13\r")
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == ["E7-E13"], "the move in the autosave")
    assert terminal.quit() == 0


BROKEN = {"CSI": b"\x1b[99;99", "Esc [": b"\x1b[", "long": b"\x1b[" + b"1;" * 30 + b"X", "cut": b"\x1b[<0;12\x1b[99"}


@pytest.mark.parametrize("broken", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_escape_sequence_leaves_nothing_in_the_move_box(terminal, tmp_path, broken):
    """Its characters were typed as keys and went before the next move typed there, which was refused (issue 22)."""
    terminal.type("/")
    terminal.type(broken)
    terminal.wait_until_read()
    # The terminal never finishes it: once its Esc delay has run out, the driver's next look drops it (its input
    # thread waits for input no longer than that; the rest of the pause is for a thread that runs late).
    terminal.pause(3 * constants.ESCAPE_DELAY)
    terminal.type("e7-e13\r")
    terminal.read_until(lambda: saved_moves(tmp_path / "data") == ["E7-E13"], "the move in the autosave")
    assert terminal.quit() == 0


CRASHES = {
    "in a key's action": (
        "from cescacs_tui.tui.screens.game import GameScreen\nGameScreen.action_flip = lambda self: 1 / 0\n"
    ),
    "in the input thread": (
        "from textual import _xterm_parser as parser\n"
        "feed = parser.XTermParser.feed\n"
        "def failing(self, data):\n"
        "    if 'f' in data:\n"
        "        raise RuntimeError('a parser bug')\n"
        "    return feed(self, data)\n"
        "parser.XTermParser.feed = failing\n"
    ),
}


@pytest.mark.parametrize("crash", list(CRASHES))
def test_a_crash_restores_the_terminal_says_so_and_exits_non_zero(env, crash):
    crash_by_flipping(Terminal(env, program=(sys.executable, "-c", CRASHES[crash] + CRASHING_MAIN)), "Move:")

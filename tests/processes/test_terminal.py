"""The cescacs command in a pseudo-terminal, with Textual's real terminal driver: keys arrive as bytes.

The pilot tests post key events directly. This test types into a terminal, as
a person does, so the escape sequences of a real session go through Textual's
input parser and the command's own start-up path (settings, autosave, resume).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pyte

from cescacs_tui.core import Position, parse_hex
from cescacs_tui.data.autosave import read_autosave
from tests.helpers.app import key_path
from tests.helpers.terminal import ARROW_BYTES, POSIX_ONLY, Terminal

pytestmark = POSIX_ONLY


def bishop_targets() -> tuple[int, ...]:
    """Where the Bishop on F6 may go after H6-H12 I23-I19: the hexes the arrows jump among once it is selected."""
    position = Position.initial()
    for text in ("H6-H12", "I23-I19"):
        position.push(position.parse_move(text))
    return tuple(move.target for move in position.legal_moves() if move.origin == parse_hex("F6"))


def saved_moves(data: Path) -> list[str]:
    session = read_autosave(data / "autosave.json")
    return [] if session is None else [node.san for node in session.game.nodes]


def test_typed_and_arrow_key_moves_are_saved_ctrl_q_quits_and_the_next_start_offers_to_resume(environment, tmp_path):
    data = tmp_path / "data"
    terminal = Terminal(environment)
    try:
        terminal.wait_for("Move:")  # the move box: the whole screen is up
        terminal.type("/h6-h12\r")
        terminal.read_until(lambda: saved_moves(data) == ["H6-H12"], "the first move in the autosave")
        terminal.type("i23-i19\r")
        terminal.read_until(
            lambda: saved_moves(data) == ["H6-H12", "I23-I19"] and terminal.in_move_box(), "the second move saved"
        )
        terminal.leave_move_box()  # White's cursor on its last move (H12)
        cursor, targets = parse_hex("H12"), tuple[int, ...]()
        for name in ("F6", "C15"):  # the Bishop's move by arrow keys and Enter (once selected, among its targets)
            arrows = key_path(cursor, parse_hex(name), False, targets, mode="full")  # 120x40: the full board
            terminal.type("".join(ARROW_BYTES[key] for key in arrows) + "\r")
            cursor, targets = parse_hex(name), bishop_targets()
        terminal.read_until(lambda: len(saved_moves(data)) == 3, "the move made with the arrow keys")
        assert saved_moves(data)[2] == "JF6-C15"
        terminal.type("\x11")  # Ctrl+Q, from the move box
        terminal.read_until(lambda: terminal.process.poll() is not None, "the app to quit")
    finally:
        code = terminal.close()
    assert code == 0

    again = Terminal(environment)
    try:
        again.answer("An unfinished game was found (3 half-moves", "y")
        again.wait_for("JF6-C15")  # the move list shows the resumed game
    finally:
        again.close()


def backgrounds(screen: pyte.Screen, columns: range, lines: range) -> Counter[str]:
    return Counter(screen.buffer[y][x].bg for y in lines for x in columns)


def test_a_16_colour_terminal_shows_three_tile_colours_of_equal_area(environment):
    """TERM=xterm without COLORTERM: 16 colours.  The board keeps its three tile colours, in the default theme."""
    env = {name: value for name, value in environment.items() if name not in ("COLORTERM", "NO_COLOR")}
    terminal = Terminal({**env, "TERM": "xterm"})

    def tiles() -> dict[str, int]:  # ANSI_BOARD's three tiles, on the full board, 79 cells wide, at the left
        board = backgrounds(terminal.screen, range(79), range(38))
        return {colour: board[colour] for colour in ("magenta", "red", "blue")}

    try:
        terminal.wait_for_screen("Move:")
        terminal.read_until(lambda: min(tiles().values()) > 400, "the whole board")  # drawn over frames when busy
    finally:
        terminal.close()
    assert b"\x1b[38;2;" not in terminal.output and b"\x1b[48;2;" not in terminal.output  # no true colour sent
    screen = terminal.screen
    board = backgrounds(screen, range(79), range(38))
    shown = tiles()
    assert max(shown.values()) / min(shown.values()) < 1.2, shown  # 57, 57 and 55 hexes, a few pieces each
    assert sum(shown.values()) > 0.8 * sum(count for colour, count in board.items() if colour != "black"), board
    # The rest of the screen is the default theme (cescacs-dark) as 16 colours: a black screen.
    assert backgrounds(screen, range(80, 120), range(38)).most_common(1)[0][0] == "black"


def test_the_screen_keeps_what_the_reader_thread_adds_while_the_emulator_plays_the_output(environment):
    """A live terminal's thread adds to the output at any moment: a chunk it adds while the screen is being played
    is played next time.  (It was skipped: the screen then never showed that redraw, which made the SSH lobby test
    wait in vain for a title the app had drawn.)"""
    terminal = Terminal(environment, program=[sys.executable, "-c", "pass"])
    emulator = terminal._emulator

    class ReaderAddsMeanwhile:
        def feed(self, data: bytes) -> None:
            emulator.feed(data)
            if b"second" not in terminal.output:
                terminal.output += b"\x1b[2;1Hsecond"  # as the reader thread does, while this one plays

    try:
        terminal._emulator = ReaderAddsMeanwhile()  # type: ignore[assignment]
        terminal.output = b"\x1b[1;1Hfirst"
        assert terminal.shows("first")
        assert terminal.shows("second")
    finally:
        terminal.close()

"""The cescacs command in a pseudo-terminal, with Textual's real terminal driver: keys arrive as bytes.

The pilot tests post key events directly. This test types into a terminal, as
a person does, so the escape sequences of a real session go through Textual's
input parser and the command's own start-up path (settings, autosave, resume).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cescacs_tui.core import parse_hex
from tests.helpers.app import key_path
from tests.helpers.terminal import ARROW_BYTES, Terminal, saved_moves
from tests.helpers.terminal import environment as terminal_environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    return terminal_environment(tmp_path)


def test_typed_and_arrow_key_moves_are_saved_ctrl_q_quits_and_the_next_start_offers_to_resume(environment, tmp_path):
    data = tmp_path / "data"
    terminal = Terminal(environment)
    try:
        terminal.wait_for("Move:")  # the move box: the whole screen is up
        terminal.type("/")
        terminal.type("h6-h12\r")
        terminal.read_until(lambda: saved_moves(data) == ["H6-H12"], "the first move in the autosave")
        terminal.type("i23-i19\r")
        terminal.read_until(lambda: saved_moves(data) == ["H6-H12", "I23-I19"], "the second move in the autosave")
        terminal.type("\x1b")  # Esc: from the move box back to the board, its cursor still on the King (G1)
        cursor = parse_hex("G1")
        for name in ("F6", "C15"):  # the Bishop's move by arrow keys and Enter
            terminal.type("".join(ARROW_BYTES[key] for key in key_path(cursor, parse_hex(name))) + "\r")
            cursor = parse_hex(name)
        terminal.read_until(lambda: len(saved_moves(data)) == 3, "the move made with the arrow keys")
        assert saved_moves(data)[2] == "JF6-C15"
        terminal.type("\x11")  # Ctrl+Q, from the move box
        terminal.read_until(lambda: terminal.process.poll() is not None, "the app to quit")
    finally:
        code = terminal.close()
    assert code == 0

    again = Terminal(environment)
    try:
        again.wait_for("An unfinished game was found (3 half-moves")
        again.settle(1.0)  # a question is answered once it has been seen (tui/dialogs.py)
        again.type("y")
        again.wait_for("JF6-C15")  # the move list shows the resumed game
    finally:
        again.close()

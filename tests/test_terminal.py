"""The cescacs command in a pseudo-terminal, with Textual's real terminal driver: keys arrive as bytes.

The pilot tests post key events directly. This test types into a terminal, as
a person does, so the escape sequences of a real session go through Textual's
input parser and the command's own start-up path (settings, autosave, resume).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cescacs_tui.core import parse_hex
from cescacs_tui.data.autosave import read_autosave
from tests.helpers.app import key_path

ARROW_BYTES = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")

PATIENCE = 20.0
"""Seconds to wait for any one thing: generous, for a loaded CI machine."""


class Terminal:
    """``python -m cescacs_tui`` running in a 120x40 pseudo-terminal."""

    def __init__(self, env: dict[str, str]) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui"], stdin=terminal, stdout=terminal, stderr=terminal, env=env
        )
        os.close(terminal)
        self.output = b""

    def read_until(self, done: Callable[[], bool], what: str) -> None:
        """Keep reading the screen output until ``done()``; fail with ``what`` after :data:`PATIENCE`."""
        deadline = time.monotonic() + PATIENCE
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {PATIENCE} s for {what}; the terminal shows: {self.output[-600:]!r}")
            if select.select([self.controller], [], [], 0.05)[0]:
                try:
                    self.output += os.read(self.controller, 1 << 16)
                except OSError:  # the process has closed the terminal
                    return

    def wait_for(self, text: str) -> None:
        self.read_until(lambda: text.encode() in self.output, repr(text))

    def type(self, keys: str, settle: float = 0.3) -> None:
        """Type ``keys``, then keep reading the screen for ``settle`` seconds while the app handles them."""
        os.write(self.controller, keys.encode())
        until = time.monotonic() + settle
        self.read_until(lambda: time.monotonic() > until, "the app to settle")

    def close(self) -> int | None:
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=PATIENCE)
        os.close(self.controller)
        return code


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    return env | {
        "TERM": "xterm-256color",
        "CESCACS_DATA_DIR": str(tmp_path / "data"),
        "CESCACS_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHONPATH": str(Path(__file__).parent.parent),
    }


def saved_moves(data: Path) -> list[str]:
    session = read_autosave(data / "autosave.json")
    return [] if session is None else [node.san for node in session.game.nodes]


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
        again.type("y")
        again.wait_for("JF6-C15")  # the move list shows the resumed game
    finally:
        again.close()

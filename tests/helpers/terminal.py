"""The real ``cescacs`` command in a pseudo-terminal, with Textual's real terminal driver: keys arrive as bytes.

The pilot tests post key events one by one and wait for each.  A person's
terminal delivers bytes: an escape sequence for an arrow, or a whole burst
(``/E7-E13⏎``) in one read over SSH.  :class:`Terminal` writes such bytes,
in one write, and reads everything the app writes back.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from cescacs_tui.data.autosave import read_autosave

PATIENCE = 20.0
"""Seconds to wait for any one thing: generous, for a loaded CI machine."""

ROOT = Path(__file__).parent.parent.parent

ARROW_BYTES = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")


def terminal_environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a test's ``cescacs``: its own data and config directories, no Textual overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    return env | {
        "TERM": "xterm-256color",
        "CESCACS_DATA_DIR": str(tmp_path / "data"),
        "CESCACS_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHONPATH": str(ROOT),
    }


class Terminal:
    """``python -m cescacs_tui ARGS`` (or ``python -c CODE``) running in a 120x40 pseudo-terminal."""

    def __init__(self, env: dict[str, str], *args: str, code: str | None = None) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        command: Sequence[str] = ["-m", "cescacs_tui", *args] if code is None else ["-c", code, *args]
        self.process = subprocess.Popen(
            [sys.executable, *command], stdin=terminal, stdout=terminal, stderr=terminal, env=env
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

    def wait_for_new(self, text: str) -> None:
        """Wait for ``text`` to be written again, after what the screen shows now."""
        start = len(self.output)
        self.read_until(lambda: text.encode() in self.output[start:], repr(text))

    def settle(self, seconds: float = 0.3) -> None:
        """Keep reading the screen for ``seconds`` while the app handles what it was sent."""
        until = time.monotonic() + seconds
        self.read_until(lambda: time.monotonic() > until, "the app to settle")

    def type(self, keys: str | bytes, settle: float = 0.3) -> None:
        """Write ``keys`` in one write (a burst, as one read delivers it), then :meth:`settle`."""
        os.write(self.controller, keys.encode() if isinstance(keys, str) else keys)
        self.settle(settle)

    def quit(self) -> int:
        """Ctrl+Q, and the exit status."""
        self.type("\x11", settle=0)
        return self.wait_for_exit()

    def wait_for_exit(self) -> int:
        self.read_until(lambda: self.process.poll() is not None, "the app to exit")
        code = self.process.wait(timeout=PATIENCE)  # it may close the terminal a moment before it exits
        self.settle(0.2)  # what it wrote last
        return code

    def close(self) -> int | None:
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=PATIENCE)
        os.close(self.controller)
        return code


def saved_moves(data: Path) -> list[str]:
    """The moves of the game in the autosave of the data directory ``data``."""
    session = read_autosave(data / "autosave.json")
    return [] if session is None else [node.san for node in session.game.nodes]

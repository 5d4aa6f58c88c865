"""The real ``cescacs`` command in a pseudo-terminal, with Textual's real driver: keys arrive as bytes.

Pilot tests post key events one at a time; a terminal delivers bytes, often
several keys in one read (a paste, an SSH link).  :class:`Terminal` types
into a pseudo-terminal as a person (or a burst of input) does.
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

ARROW_BYTES = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")

PATIENCE = 20.0
"""Seconds to wait for any one thing: generous, for a loaded CI machine."""


class Terminal:
    """``python -m cescacs_tui [args]`` running in a 120x40 pseudo-terminal."""

    def __init__(self, env: dict[str, str], args: Sequence[str] = ()) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.controller, terminal = pty.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", *args], stdin=terminal, stdout=terminal, stderr=terminal, env=env
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


def terminal_environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a test's ``cescacs``: its own data and config directories, no Textual overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    return env | {
        "TERM": "xterm-256color",
        "CESCACS_DATA_DIR": str(tmp_path / "data"),
        "CESCACS_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHONPATH": str(Path(__file__).parent.parent.parent),
    }

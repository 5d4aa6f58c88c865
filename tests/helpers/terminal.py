"""The real ``cescacs`` command in a pseudo-terminal, with Textual's real terminal driver: keys arrive as bytes.

The pilot tests post key events one by one and wait for each.  A person's
terminal delivers bytes: an escape sequence for an arrow, or a whole burst
(``/E7-E13⏎``) in one read over SSH.  :class:`Terminal` writes such bytes,
in one write, and reads everything the app writes back.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pyte
import pytest

from cescacs_tui.cli.launch import CRASH_NOTE
from cescacs_tui.data.autosave import read_autosave
from cescacs_tui.tui.dialogs.questions import SETTLE_SECONDS
from tests.helpers.waiting import PATIENCE

_ESCAPES = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")
"""Escape sequences: CSI (colours, cursor moves), OSC (titles, clipboard), character sets, keypad modes."""


ROOT = Path(__file__).parent.parent.parent

KERNEL_MOMENT = 0.5
"""Seconds the kernel takes at most to put what was written in the terminal's input queue: a worker thread of its
own empties the terminal's flip buffer, a moment after the write (far less than this on a starved machine too).
Once it has, whether the program has read the queue is a condition (:meth:`Terminal.wait_until_read`)."""

READING_SECONDS = 2 * SETTLE_SECONDS
"""How long a person takes to read a question before answering it: twice the quarter of a second in which a
question takes no key (the time of its first frame is read a moment after the frame is handed to the terminal)."""

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
    """``python -m cescacs_tui [args]`` running in a 120x40 pseudo-terminal.

    ``live`` reads the screen all the time, from a thread: several apps can
    then run side by side (one whose screen is not read would block on its
    next write, as an app does in a terminal nobody reads).  ``program``
    runs another command instead (``ssh``, to reach the app over SSH).
    """

    def __init__(
        self,
        env: dict[str, str],
        args: Sequence[str] = (),
        *,
        live: bool = False,
        program: Sequence[str] = (sys.executable, "-m", "cescacs_tui"),
    ) -> None:
        import pty

        self.controller, terminal = pty.openpty()
        self.output = b""
        self._screen = pyte.Screen(120, 40)
        self._emulator = pyte.ByteStream(self._screen)
        self._shown = 0
        self.terminal_size(120, 40, terminal)
        self.process = subprocess.Popen([*program, *args], stdin=terminal, stdout=terminal, stderr=terminal, env=env)
        self._terminal_name = os.ttyname(terminal)
        os.close(terminal)
        self.closed = False
        """Whether the program, and every process it started on this terminal, has closed it (all it wrote is read)."""
        self._reader: threading.Thread | None = None
        if live:
            self._reader = threading.Thread(target=self._read_all, daemon=True)
            self._reader.start()

    def _read_all(self) -> None:
        while self._read_once():
            pass

    def _read_once(self) -> bool:
        """Read what the program wrote (waiting for it); ``False`` once it has closed the terminal."""
        try:
            chunk = os.read(self.controller, 1 << 16)
        except OSError:  # the program (and every process it started on this terminal) has closed it
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.output += chunk
        return True

    def terminal_size(self, columns: int, rows: int, fd: int | None = None) -> None:
        """Resize the terminal (as a window resized); the program gets ``SIGWINCH``."""
        import fcntl
        import struct
        import termios

        fcntl.ioctl(self.controller if fd is None else fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.screen.resize(rows, columns)
        if fd is None:
            self.process.send_signal(signal.SIGWINCH)

    def read_until(self, done: Callable[[], bool], what: str) -> None:
        """Keep reading the screen output until ``done()``; fail with ``what`` after :data:`PATIENCE`."""
        deadline = time.monotonic() + PATIENCE
        while not done():
            if time.monotonic() > deadline:
                lines = "\n".join(line.rstrip() for line in self.screen.display if line.strip())
                raise AssertionError(f"waited {PATIENCE} s for {what}; the screen shows:\n{lines}")
            if self._reader is not None or self.closed:
                time.sleep(0.05)
            elif select.select([self.controller], [], [], 0.05)[0]:
                self._read_once()

    def text(self, since: int = 0) -> str:
        """What the program wrote (after the first ``since`` bytes), its escape sequences taken out.

        Styled runs of one line come out joined (``White: Ana (you)``); text
        from different places of the screen may come out joined too.
        """
        return _ESCAPES.sub(b"", self.output[since:]).decode(errors="replace")

    @property
    def screen(self) -> pyte.Screen:
        """What a terminal of this size shows now: the output so far, played on a terminal emulator (pyte).

        The output is read once: a ``live`` terminal's reader thread adds to it meanwhile (a new bytes object
        each time), and what it adds while the emulator plays the rest is played next time, never skipped (a
        skipped chunk left a screen that never showed a redraw the app had made, or a cut escape sequence).
        """
        output = self.output
        self._emulator.feed(output[self._shown :])
        self._shown = len(output)
        return self._screen

    def shows(self, text: str) -> bool:
        """Whether ``text`` is on the screen now, on one line."""
        return any(text in line for line in self.screen.display)

    def wait_for_screen(self, text: str) -> None:
        """Read until the screen shows ``text`` on one of its lines.

        Textual redraws only what changed, and a loaded machine makes it draw a
        screen over more updates: a text may then reach the screen in pieces,
        never whole in the bytes that were written.  The screen has it whole.
        """
        self.read_until(lambda: self.shows(text), f"{text!r} on the screen")

    def wait_for_text(self, text: str, *, since: int = 0) -> None:
        """Read until ``text`` is on the screen, whatever styles it is written in (see :meth:`text`)."""
        self.read_until(lambda: text in self.text(since), repr(text))

    def wait_for(self, text: str, *, since: int = 0) -> None:
        """Read until ``text`` is on the screen, in what came after the first ``since`` bytes of output."""
        self.read_until(lambda: text.encode() in self.output[since:], repr(text))

    def wait_for_new(self, text: str) -> None:
        """Wait for ``text`` to be written again, after what the screen shows now."""
        start = len(self.output)
        self.read_until(lambda: text.encode() in self.output[start:], repr(text))

    def type(self, keys: str | bytes) -> None:
        """Write ``keys`` in one write: a burst, as a terminal delivers a fast typist's keys, or a paste.

        Nothing is waited for here: a test waits for what the keys do by what the screen (or the data directory)
        shows, and keys typed before the program is ready for them wait in order (tui/input_order.py).
        """
        os.write(self.controller, keys.encode() if isinstance(keys, str) else keys)

    def type_move(self, move: str) -> None:
        """``move`` and Enter in the move box, Ctrl+U first clearing a refused move the box gave back."""
        self.type(f"\x15{move}\r")

    def pause(self, seconds: float) -> None:
        """Let ``seconds`` pass, reading the screen meanwhile: a person's time (a pace, a reaction), never a guess
        at how long the program takes, which is waited for by what it shows."""
        until = time.monotonic() + seconds
        self.read_until(lambda: time.monotonic() > until, f"{seconds} s to pass")

    def wait_until_read(self) -> None:
        """Wait until the program has read what was typed: what is typed next comes in a read of its own."""
        self.pause(KERNEL_MOMENT)
        self.read_until(self._input_read, "the program to read what was typed")

    def _input_read(self) -> bool:
        """Whether the program has read everything that the kernel has put in the terminal's input queue."""
        import fcntl
        import struct
        import termios

        try:
            terminal = os.open(self._terminal_name, os.O_RDWR | os.O_NOCTTY)
        except OSError:  # the terminal is gone with the program: nothing more will be read
            return True
        try:
            waiting = fcntl.ioctl(terminal, termios.FIONREAD, struct.pack("i", 0))
        finally:
            os.close(terminal)
        return struct.unpack("i", waiting)[0] == 0

    def footer(self) -> str:
        """The screen's last line: the footer, whose keys are those of the widget with the focus."""
        return self.screen.display[-1]

    def on_board(self) -> bool:
        """Whether the board has the focus: the footer offers its keys (Flip among them)."""
        return "Flip" in self.footer()

    def in_move_box(self) -> bool:
        """Whether the move box has the focus: the footer is drawn and offers no board key.  (A blank footer, not
        yet drawn after the first frame, says nothing of the focus.)"""
        footer = self.footer()
        return bool(footer.strip()) and "Flip" not in footer

    def leave_move_box(self) -> None:
        """Esc, alone, from the move box; back once the board has the focus (the footer offers its keys).

        Esc and a key in one read are Alt and the key, as terminals send Alt; an Esc that ends a read is an Esc
        (tui/driver.py).  So the key typed next waits for the Esc to be read and handled, however slowly the
        program is scheduled.  (A caller that has just typed ``/`` first waits for the move box's footer.)
        """
        self.type("\x1b")
        self.read_until(self.on_board, "the board to have the focus")

    def answer(self, question: str, keys: str) -> None:
        """Once ``question`` is on the screen and has been read, type ``keys``.

        A question takes a key only if it arrived a quarter of a second after the question's first frame
        (tui/dialogs/questions.py): a person's reaction time, which no speed of the machine shortens; a person
        takes :data:`READING_SECONDS` from seeing it.
        """
        self.wait_for_screen(question)
        self.pause(READING_SECONDS)
        self.type(keys)

    def quit(self) -> int:
        """Ctrl+Q, and the exit status."""
        self.type("\x11")
        return self.wait_for_exit()

    def wait_for_exit(self) -> int:
        """The exit status, once the program has exited and everything it wrote has been read."""
        self.read_until(lambda: self.process.poll() is not None and self.closed, "the app to exit")
        return self.process.wait(timeout=PATIENCE)

    def close(self) -> int | None:
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=PATIENCE)
        if self._reader is not None:
            self._reader.join(timeout=PATIENCE)
        os.close(self.controller)
        return code


CRASHING_MAIN = "from cescacs_tui.cli import main\nraise SystemExit(main())\n"
"""The end of a ``python -c`` program that first breaks something on purpose, then runs ``cescacs``."""


def crash_by_flipping(terminal: Terminal, ready: str) -> None:
    """Once ``ready`` shows, press ``f`` (whose action the program broke): the app must restore the terminal, say
    what happened and exit 1."""
    try:
        terminal.wait_for(ready)
        terminal.type("f")
        code = terminal.wait_for_exit()
    finally:
        terminal.close()
    assert code == 1
    assert b"\x1b[?1049l" in terminal.output  # the alternate screen is left: the terminal is restored
    assert CRASH_NOTE.encode() in terminal.output


def saved_moves(data: Path) -> list[str]:
    """The moves of the game in the autosave of the data directory ``data``."""
    session = read_autosave(data / "autosave.json")
    return [] if session is None else [node.san for node in session.game.nodes]

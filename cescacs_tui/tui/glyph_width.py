"""Ask the terminal how many cells it draws a glyph in, before Textual takes the terminal over.

Rich measures text with Unicode's width tables, and Textual lays the screen
out with Rich's measure; a terminal whose tables or fonts differ (the Chess
Symbols block of the CTL-FAN Pegasus and Wyvern is recent: many draw it two
cells wide, or fall back to an emoji font) pushes the rest of the row one
cell to the right, and the board's grid breaks.  The only sure measure is the
terminal's own: print the glyph at the start of a line and ask where the
cursor went (the "cursor position report", ``ESC [ 6 n``, answered with
``ESC [ row ; column R``).  All the questions go out at once, so the cost is
one round trip, bounded by ``timeout`` for a terminal that does not answer.

:func:`wide_glyphs` is what an app calls (the board draws the glyphs it
returns as letters: :attr:`~cescacs_tui.tui.widgets.board.HexBoard.wide_glyphs`).
"""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Iterable
from typing import Final

__all__ = ["measure_widths", "wide_glyphs"]

QUERY: Final = "\x1b[6n"
_REPORT: Final = re.compile(rb"\x1b\[(\d+);(\d+)R")
_CLEAR_LINE: Final = "\r\x1b[2K"


def measure_widths(glyphs: Iterable[str], fd_in: int, fd_out: int, timeout: float = 0.3) -> dict[str, int]:
    """The cells each glyph takes as the terminal on ``fd_in``/``fd_out`` draws it.

    The terminal must be in a mode that hands its answers over unechoed and
    at once (see :func:`wide_glyphs`).  Glyphs the terminal did not answer
    for within ``timeout`` seconds are left out; the line is cleared after.
    """
    asked = list(dict.fromkeys(glyphs))
    if not asked:
        return {}
    os.write(fd_out, ("".join(f"\r{glyph}{QUERY}" for glyph in asked) + _CLEAR_LINE).encode())
    answers: list[int] = []
    received = b""
    deadline = time.monotonic() + timeout
    while len(answers) < len(asked):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd_in], [], [], left)[0]:
            break
        chunk = os.read(fd_in, 1024)
        if not chunk:
            break
        received += chunk
        answers = [int(column) - 1 for _, column in _REPORT.findall(received)]
    return dict(zip(asked, answers, strict=False))


def wide_glyphs(glyphs: Iterable[str], fd_in: int = 0, fd_out: int = 1, timeout: float = 0.3) -> frozenset[str]:
    """Of ``glyphs``, those the terminal draws wider than one cell (none when it is not a terminal or is silent).

    Turns off the terminal's echo and line editing for the questions (the
    answers would be shown, or held back until Enter), and back on after.
    Call it before the app runs: Textual's driver reads the terminal from
    then on.
    """
    if not (os.isatty(fd_in) and os.isatty(fd_out)):
        return frozenset()
    import termios

    saved = termios.tcgetattr(fd_in)
    quiet = termios.tcgetattr(fd_in)
    quiet[3] &= ~(termios.ECHO | termios.ICANON)  # the local modes
    quiet[6][termios.VMIN], quiet[6][termios.VTIME] = 1, 0
    try:
        termios.tcsetattr(fd_in, termios.TCSANOW, quiet)
        widths = measure_widths(glyphs, fd_in, fd_out, timeout)
    finally:
        termios.tcsetattr(fd_in, termios.TCSADRAIN, saved)
    return frozenset(glyph for glyph, width in widths.items() if width > 1)

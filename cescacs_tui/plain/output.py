"""Lines of plain text, safe for any terminal, braille display or pipe.

Every line the plain mode writes goes through the core's one sanitiser
(:func:`~cescacs_tui.core.safe_text.printable`): a control character from a
record's tags or comments, a file name or a peer can never reach the
terminal as an escape sequence, a cursor movement or a bell, and text cannot
be reordered by bidirectional controls.  Each is shown as a visible
placeholder instead (``␛``), so the player still learns that it was there.
"""

from __future__ import annotations

from typing import TextIO

from ..core.safe_text import printable

__all__ = ["LineWriter"]


class LineWriter:
    """Writes whole lines to ``stream`` and flushes each answer, so a pipe or an SSH link sees it at once."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, text: str) -> None:
        """Write ``text``, one or several lines (each made :func:`~cescacs_tui.core.safe_text.printable`)."""
        for line in text.split("\n"):
            self.stream.write(printable(line) + "\n")
        self.stream.flush()

"""Lines of plain text, safe for any terminal, braille display or pipe.

Every line the plain mode writes goes through :func:`visible`: a control
character (from a record's tags or comments, a file name, a peer) can never
reach the terminal as an escape sequence, a cursor movement or a bell, and
text cannot be reordered by bidirectional controls.  Each is shown as a
visible placeholder instead, so the player still sees that it was there.
"""

from __future__ import annotations

import unicodedata
from typing import Final, TextIO

__all__ = ["LineWriter", "visible"]

_BIDI_CONTROLS: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
REPLACEMENT: Final = "\ufffd"


def _placeholder(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control pictures: ␛ for ESC, ␇ for BEL
    if code == 0x7F:
        return "\u2421"  # ␡
    return REPLACEMENT


def visible(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1, bidirectional controls) replaced by a placeholder."""
    if text.isprintable():  # the common case: nothing to replace (spaces and letters of every script)
        return text
    return "".join(
        _placeholder(char) if char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp") else char
        for char in text
    )


class LineWriter:
    """Writes whole lines to ``stream`` and flushes each answer, so a pipe or an SSH link sees it at once."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, text: str) -> None:
        """Write ``text``, one or several lines (each made :func:`visible`)."""
        for line in text.split("\n"):
            self.stream.write(visible(line) + "\n")
        self.stream.flush()

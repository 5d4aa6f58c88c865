"""Text from outside, made safe to show: nothing in it can reach the terminal as a control sequence.

Records, file names, settings, the autosave and peers are written by anyone.
A tag such as ``[White "\\x1b]52;c;Y3VybCBldmlsIHwgc2g=\\x07"]`` would, printed
as it is, put a command on the player's clipboard (OSC 52), retitle the
window, draw hidden links or clear the screen, and bidirectional overrides
would make the text read differently from what it is.  Neither Rich nor
Textual removes these (Rich drops only BEL, BS, VT, FF and CR).

:func:`safe_text` replaces each such character by a visible placeholder of the
same length, one code point for one, so styled :class:`rich.text.Text` keeps
its spans (:func:`cescacs_tui.tui.safe_display.safe_rich`).  It is applied
where text is shown or echoed (the app's panels, dialogs and notifications);
records keep their text.  :func:`printable` is the one-line form every error
message of the core is made with, so the command line and the app show the
same placeholders.  It lives in the core, which needs it and imports no UI.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
"""What stands for a character that has no picture of its own (C1 controls, bidi controls, lone surrogates)."""

_C0_KEPT = {"\t", "\n"}
_ONE_LINE = {"\t": "\u2409", "\n": "\u240a"}
"""Where one line is wanted, tab and newline are shown too: "␉", "␊"."""

_BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they reorder what follows them."""


def _placeholders() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):  # C0: the control pictures U+2400-U+241F (ESC is "␛")
        if chr(code) not in _C0_KEPT:
            table[code] = chr(0x2400 + code)
    table[0x7F] = "\u2421"  # DEL: "␡"
    for code in range(0x80, 0xA0):  # C1 (0x9B alone is a CSI for many terminals)
        table[code] = REPLACEMENT
    for char in _BIDI_CONTROLS:
        table[ord(char)] = REPLACEMENT
    for code in range(0xD800, 0xE000):  # lone surrogates (undecodable file names): no terminal can print them
        table[code] = REPLACEMENT
    return table


_PLACEHOLDERS = _placeholders()
_UNSAFE = re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(_PLACEHOLDERS)) + "]")


def is_safe(text: str) -> bool:
    """Whether ``text`` can be shown as it is."""
    return _UNSAFE.search(text) is None


def safe_text(text: str) -> str:
    """``text`` with every control character made visible (``"\\x1b[2J"`` → ``"␛[2J"``); same length.

    Tab and newline stay: they lay text out and cannot start a sequence.
    """
    return text if _UNSAFE.search(text) is None else text.translate(_PLACEHOLDERS)


def printable(text: str) -> str:
    """``text`` as one line that can only show itself: :func:`safe_text`, and tab, newline and every
    other character :meth:`str.isprintable` refuses (line separators, invisible format characters)
    made visible too (``"a\nb"`` → ``"a␊b"``).  For error messages, which quote what they refuse.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() else _PLACEHOLDERS.get(ord(ch), _ONE_LINE.get(ch, REPLACEMENT)) for ch in text
    )

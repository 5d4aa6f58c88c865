"""Text from outside, made safe to show: nothing in it can reach the terminal as a control sequence.

Records, file names, settings, the autosave and peers are written by anyone.
A tag such as ``[White "\\x1b]52;c;Y3VybCBldmlsIHwgc2g=\\x07"]`` would, printed
as it is, put a command on the player's clipboard (OSC 52), retitle the
window, draw hidden links or clear the screen, and bidirectional overrides
would make the text read differently from what it is.  Neither Rich nor
Textual removes these (Rich drops only BEL, BS, VT, FF and CR).

:func:`safe_text` replaces each such character by a visible placeholder of the
same length, one code point for one, so styled :class:`rich.text.Text` keeps
its spans (:func:`safe_rich`).  It is applied where text is shown or echoed
(the app's panels, dialogs and notifications, the command's error lines);
records keep their text.  This module imports nothing from the UI: the core
and the command line use it too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for the annotation: the command line must not pay for importing Rich
    from rich.text import Text

REPLACEMENT = "\ufffd"
"""What stands for a character that has no picture of its own (C1 controls, bidi controls, lone surrogates)."""

_C0_KEPT = {"\t", "\n"}

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


def safe_rich(text: Text) -> Text:
    """A styled text with :func:`safe_text` applied to its characters; its styles stay where they were."""
    plain = text.plain
    if is_safe(plain):
        return text
    safe = text.copy()
    safe.plain = safe_text(plain)  # one code point for one: the spans still cover the same characters
    return safe

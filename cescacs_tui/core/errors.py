"""The exceptions of the rules core.

Every error is a :class:`ValueError`, so callers that only want "bad input"
can catch that; the subclasses say which kind of input was bad, and their
attributes say where, so a front end can point at the offending character.
What a tolerant reader accepts but reports (a legacy form, a wrong check
mark) is not an exception nor a :mod:`warnings` warning: the readers append
sentences to a list the caller passes, or keep them on the game they return.

Messages often quote the input they refuse, and that input may come from a
file crafted to attack a terminal.  So every message (and ``reason``) is made
printable when the error is created (:func:`~cescacs_tui.core.safe_text.printable`:
a control character is shown as its picture, ``␛`` for ESC, and other
characters that cannot be shown as U+FFFD).  The ``token`` attributes keep
the input as it was, for programs.
"""

from __future__ import annotations

from typing import Final

from .message import N_, Message
from .safe_text import printable

__all__ = [
    "PDTL_FIELDS",
    "AmbiguousMoveError",
    "CescacsError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "PDTLError",
    "PGNError",
    "printable",
]


class CescacsError(ValueError):
    """Base class of every error about C'escacs text or moves; its message is always printable.

    ``explanation`` is what a player reads, for a front end to say in its own
    language (:mod:`~cescacs_tui.core.message`); subclasses keep there only
    the reason, without the English framing ``str()`` adds.
    """

    def __init__(self, message: str | Message = "") -> None:
        super().__init__(printable(str(message)))
        self.explanation = message if isinstance(message, Message) else Message.verbatim(str(self))


PDTL_FIELDS: Final = {
    "fields": N_("fields"),
    "placement": N_("placement"),
    "turn": N_("turn"),
    "castling": N_("castling"),
    "special": N_("special"),
    "half-move clock": N_("half-move clock"),
    "move number": N_("move number"),
    "position": N_("position"),
}
"""The PDTL fields as an error names them (the attribute ``field`` keeps the English key)."""


class PDTLError(CescacsError):
    """A PDTL string is malformed, or describes an impossible position.

    ``field`` names the PDTL field at fault (``"placement"``, ``"turn"``,
    ``"castling"``, ``"special"``, ``"half-move clock"``, ``"move number"``,
    ``"position"`` for whole-position rules); ``column`` is the 1-based
    character position of the offending token in the text, when known.
    ``message`` may be a :class:`~cescacs_tui.core.message.Message`:
    :attr:`explanation` frames it (the field, the column) for a front end to
    say in its language, ``str()`` in English.
    """

    def __init__(self, message: str | Message, *, field: str, column: int | None = None, token: str | None = None):
        reason = message if isinstance(message, Message) else Message.verbatim(printable(message))
        name = Message(PDTL_FIELDS[field]) if field in PDTL_FIELDS else Message.verbatim(printable(field))
        if column is None:
            said = Message(N_("PDTL {field}: {reason}"), field=name, reason=reason)
        else:
            said = Message(N_("PDTL {field} (column {column}): {reason}"), field=name, column=column, reason=reason)
        super().__init__(said)
        self.reason = printable(str(message))
        self.field = field
        self.column = column
        self.token = token


class MoveError(CescacsError):
    """A move given as text cannot be played in the position.

    ``explanation`` is ``reason`` for a front end to say in its own language
    (:mod:`~cescacs_tui.core.message`).
    """

    def __init__(self, message: str | Message, *, token: str):
        super().__init__(f"{token!r}: {message}")
        self.reason = printable(str(message))
        self.explanation = message if isinstance(message, Message) else Message.verbatim(self.reason)
        self.token = token


class InvalidMoveError(MoveError):
    """The text is not CTL-AN (nor the canonical coordinate form) at all."""


class IllegalMoveError(MoveError):
    """The text is well formed but names no legal move, or contradicts the board."""


class AmbiguousMoveError(MoveError):
    """The text fits several legal moves (a promotion without its piece, say)."""


class PGNError(CescacsError):
    """A CTL-PGN record is malformed or cannot be replayed.

    ``line`` and ``column`` are 1-based and point at ``token``; ``expected``
    says what would have been valid there, when that is known.  ``message``
    and ``expected`` may be messages (:class:`~cescacs_tui.core.message.Message`);
    :attr:`explanation` frames them (the line, the column) for a front end to
    say in its language, ``str()`` in English.
    """

    def __init__(
        self,
        message: str | Message,
        *,
        line: int | None = None,
        column: int | None = None,
        token: str | None = None,
        expected: str | Message | None = None,
    ) -> None:
        reason = message if isinstance(message, Message) else Message.verbatim(printable(message))
        said = reason
        if expected:
            wanted = expected if isinstance(expected, Message) else Message.verbatim(printable(expected))
            said = Message(N_("{reason} (expected {expected})"), reason=reason, expected=wanted)
        if line is not None:
            said = Message(N_("line {line}, column {column}: {reason}"), line=line, column=column, reason=said)
        super().__init__(said)
        self.reason = printable(str(message))
        self.line = line
        self.column = column
        self.token = token
        self.expected = expected

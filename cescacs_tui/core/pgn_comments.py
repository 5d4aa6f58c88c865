"""A half-move's comments: one on the record, as NOTATION.md 7.4.2 asks, and one per command in memory.

NOTATION.md 7.4.2 allows at most one comment per player's half-move, yet a
half-move may carry several things: a person's words, the mover's clock
(``[%clk]``) and a review's score (``[%eval]``), each written by another part
of the program.  In memory each stays its own: the person's words verbatim in
:attr:`Node.comments <cescacs_tui.core.game.Node.comments>`, the clock in
``Node.clock``, and every other command as a program comment of its own
(``: @W [%eval 0.35]``), so the part that wrote it finds it again whole.  On
the record they are one comment: :func:`merge` joins them, :func:`split`
takes them apart again, and a record written here reads back as it was.

The one comment is a program comment when there are no words
(``{: @W [%clk 0:04:59] [%eval 0.35] }``); with words, they come first and
the commands follow on a last line of their own::

    {@W: the Wyvern is out early
    [%clk 0:04:59] [%eval 0.35]}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from .pgn_clock import format_clk, parse_clk

__all__ = ["Annotations", "merge", "split"]

_COMMAND: Final = re.compile(r"\[%[A-Za-z][A-Za-z0-9_]*\s[^\[\]{}\n]*\]")
"""One command: ``[%name value]``, on one line, holding no bracket or brace."""
_COMMANDS: Final = re.compile(rf"\s*(?:{_COMMAND.pattern}\s*)+")
_PROGRAM_COMMANDS: Final = re.compile(rf"\s*:?\s*(?:@[WB]\s*)?({_COMMANDS.pattern})")
"""A comment that holds only commands (``: @W [%clk 0:04:59] [%eval 0.35]``; other programs leave out the
``:`` and the mover)."""
_CLOCK: Final = re.compile(r"\[%clk\s")


def _commands(text: str) -> list[str]:
    return _COMMAND.findall(text)


@dataclass
class Annotations:
    """What one half-move's comments on a record hold, taken apart (see :func:`split`)."""

    words: list[str] = field(default_factory=list)
    """A person's (or a program's) comments in words, verbatim."""
    clock: float | None = None
    """The mover's time left (``[%clk]``), if a comment gave it."""
    commands: list[str] = field(default_factory=list)
    """Every other command, each as a program comment of its own (``: @W [%eval 0.35]``)."""


def split(comments: list[str], who: str) -> Annotations:
    """The words, clock and commands of a half-move's comments as read (``who``: ``@W`` or ``@B``, the mover).

    Comments written otherwise than :func:`merge` writes are kept whole as words (their ``[%clk]``, if any,
    still gives the clock), and so is one whose ``[%clk]`` is not a time.
    """
    found = Annotations()
    for comment in comments:
        words, commands = comment, ""
        if (program := _PROGRAM_COMMANDS.fullmatch(comment)) is not None:
            words, commands = "", program.group(1)
        else:
            before, _, last = comment.rpartition("\n")
            if before and _COMMANDS.fullmatch(last):
                words, commands = before, last
        if not commands or not _take(_commands(commands), found, who):
            words = comment  # words only, or commands this module did not write: kept whole
            if (seconds := parse_clk(comment)) is not None:
                found.clock = seconds
        if words:
            found.words.append(words)
    return found


def _take(commands: list[str], found: Annotations, who: str) -> bool:
    """Add ``commands`` to ``found``; ``False`` (and nothing added) if a ``[%clk]`` among them is not a time."""
    clocks = [parse_clk(command) for command in commands if _CLOCK.match(command)]
    if any(seconds is None for seconds in clocks):
        return False
    for seconds in clocks:
        found.clock = seconds
    found.commands.extend(f": {who} {command}" for command in commands if not _CLOCK.match(command))
    return True


def merge(comments: list[str], clock: float | None, who: str) -> str | None:
    """The one comment a half-move is written with (without its braces), or ``None`` when it has none.

    ``comments`` are the half-move's comments in memory: words, and program comments that hold only
    commands (whose commands join the clock's on the comment's last line).
    """
    commands = [f"[%clk {format_clk(clock)}]"] if clock is not None else []
    words = []
    for comment in comments:
        if (program := _PROGRAM_COMMANDS.fullmatch(comment)) is not None:
            commands.extend(_commands(program.group(1)))
        else:
            words.append(comment)
    if not words:
        return f": {who} {' '.join(commands)} " if commands else None
    return "\n".join([*words, *([" ".join(commands)] if commands else [])])

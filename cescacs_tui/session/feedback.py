"""What a session command tells its front end: the words, what to redraw, and any question to ask.

Every :class:`~cescacs_tui.session.GameSession` command returns a
:class:`Feedback` instead of touching a screen, so the full-screen app, a
plain line-oriented front end and the tests all drive the same session and
only differ in how they *show* the answer.  A question (a promotion piece, a
confirmation) carries its own continuation: the front end asks it in its own
way and hands the answer back with :meth:`Confirm.answer` or
:meth:`Choice.answer`, which return the next :class:`Feedback`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from pathlib import Path
from typing import Generic, TypeVar

from ..core import Move

__all__ = ["Choice", "Confirm", "Feedback", "Notice", "Option", "Question", "Redraw", "Tone"]


class Tone(StrEnum):
    """How a message reads: the front end styles it (the values are the app's CSS classes)."""

    PLAIN = ""
    INFO = "info"
    """Something happened as asked: a move, a result, a file saved."""
    ERROR = "error"
    """Nothing happened, and the text says why."""


class Redraw(Flag):
    """What changed and must be shown again."""

    NOTHING = 0
    BOARD = auto()
    """Only the board's marks: a selection, a preview, an overlay."""
    PANELS = auto()
    """The side panels: move list, status, clocks, material, notes."""
    GAME = BOARD | PANELS


@dataclass(frozen=True)
class Notice:
    """Worth more than the message line: a game's end, a flag fall (the app pops it up)."""

    title: str
    text: str


T = TypeVar("T")


@dataclass(frozen=True)
class Option(Generic[T]):
    """One answer of a :class:`Choice`: the key that picks it, its words, and its value."""

    key: str
    label: str
    value: T


@dataclass(frozen=True)
class Choice:
    """Several moves share the picked target (promotion pieces, leap or castlings): which one?

    ``preview`` (when given) shows what the highlighted option would do;
    ``answer(None)`` cancels.
    """

    prompt: str
    options: tuple[Option[Move], ...]
    answer: Callable[[Move | None], Feedback]
    preview: Callable[[Move | None], Feedback] | None = None


@dataclass(frozen=True)
class Confirm:
    """A yes/no question; ``default`` is the answer that is safe to give by accident (Esc, a stray Enter)."""

    prompt: str
    answer: Callable[[bool], Feedback]
    yes: str = "Yes"
    no: str = "No"
    default: bool = False


Question = Choice | Confirm


@dataclass(frozen=True)
class Feedback:
    """The outcome of one command, for a front end to show.

    ``text`` is the one line for the message area (``None``: leave it as it
    is, ``""``: clear it); ``done`` is true when the command did what was
    asked (a typed move was played, so the move box can be emptied); a
    refusal has ``done`` false and ``tone`` :attr:`Tone.ERROR`.  ``cursor``
    asks the board to put its cursor on that hex (go to a hex, a new game);
    ``new_game`` says another game is on the table (what the front end
    remembered of the last one, such as each side's cursor, is stale).
    ``archived`` is where a game that has just ended was archived, for front
    ends that say it in their own words instead of showing ``text``.
    """

    text: str | None = None
    tone: Tone = Tone.PLAIN
    redraw: Redraw = Redraw.NOTHING
    done: bool = False
    question: Question | None = None
    notice: Notice | None = None
    cursor: int | None = None
    new_game: bool = False
    archived: Path | None = None

    @classmethod
    def refused(cls, reason: str) -> Feedback:
        """Nothing happened, because of ``reason``."""
        return cls(reason, Tone.ERROR)

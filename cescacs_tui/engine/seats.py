"""Who plays each side, and how far a takeback goes against the computer: the engine's words a session needs.

Kept apart from :mod:`.computer` (which talks to the engine process) so that
a session, the plain mode or a remote front end can know its seats without
loading the search or the asyncio client.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.move import Move
from ..core.pieces import BLACK, WHITE, Colour

__all__ = ["DEFAULT_LEVEL", "HUMAN", "LEVEL_COUNT", "Seat", "parse_seat", "takeback_plies"]

LEVEL_COUNT: Final = 10
"""The playing levels, 1 to 10 (:data:`~cescacs_tui.engine.levels.LEVELS` describes each)."""
DEFAULT_LEVEL: Final = 3
"""The level ``computer`` alone means: weak enough for a beginner to win."""


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person (``level is None``) or the computer at ``level`` (1-10)."""

    level: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def __str__(self) -> str:
        return "human" if self.level is None else f"computer:{self.level}"


HUMAN: Final = Seat()


def parse_seat(text: str) -> Seat:
    """``human``, ``computer`` (level :data:`DEFAULT_LEVEL`) or ``computer:N`` with N from 1 to 10.

    Case and surrounding spaces do not matter; anything else is a
    ``ValueError`` saying what is accepted (argparse shows it as it is).
    """
    word, colon, rest = text.strip().lower().partition(":")
    if word == "human" and not colon:
        return HUMAN
    if word == "computer":
        if not colon:
            return Seat(DEFAULT_LEVEL)
        if rest.isascii() and rest.isdigit() and 1 <= int(rest) <= LEVEL_COUNT:  # not '٣': ASCII digits only
            return Seat(int(rest))
    shown = text if len(text) <= 40 and text.isprintable() else repr(text[:40])
    raise ValueError(f"{shown!s} is not a player: use 'human', 'computer' or 'computer:N' with N from 1 to 10")


def takeback_plies(moves: Sequence[Move], start_turn: Colour, seats: tuple[Seat, Seat]) -> int:
    """How many half-moves to take back so that a person is to move before their last move.

    Against the computer a takeback undoes the computer's reply too (or,
    while it is thinking, just the person's move); between two people, or
    two computers, it is one half-move.  0 when there is nothing to undo.
    """
    if not moves:
        return 0
    if seats[0].is_computer == seats[1].is_computer:
        return 1
    human = WHITE if not seats[WHITE].is_computer else BLACK
    plies = len(moves)
    for undone in range(1, plies + 1):
        mover = Colour((start_turn + plies - undone) % 2)  # who played the half-move being undone
        if mover == human:
            return undone
    return plies  # only the computer has moved: back to the start

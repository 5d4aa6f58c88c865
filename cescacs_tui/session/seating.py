"""Who sits at each side of the game on the table: a person or the computer at a level.

The seats live in the session's options (``"players"``: ``["human",
"computer:3"]``), which are saved with the autosave, so a game against the
computer resumed later goes on against it.  What is read back is checked: a
damaged or hand-edited autosave gives two people, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core.pieces import BLACK, WHITE, Colour
from ..engine.seats import HUMAN, Seat, parse_seat

__all__ = [
    "HUMAN",
    "PLAYERS_OPTION",
    "TWO_PEOPLE",
    "Seats",
    "computer_name",
    "human_side",
    "player_names",
    "seats_from",
    "seats_option",
]

Seats = tuple[Seat, Seat]
"""White's seat, then Black's."""

TWO_PEOPLE: Final[Seats] = (HUMAN, HUMAN)
PLAYERS_OPTION: Final = "players"
"""The key of the seats in the session's options (the remote mode's ``"seats"`` are its clients')."""


def computer_name(level: int) -> str:
    """The name the computer plays under in the record's White or Black tag (data, not translated)."""
    return f"cescacs-tui level {level}"


def player_names(seats: Seats, white: str, black: str) -> tuple[str, str]:
    """The White and Black tags of a new game: the computer's name for a side it plays, else ``white``/``black``."""
    white_seat, black_seat = seats
    return (
        computer_name(white_seat.level) if white_seat.level is not None else white,
        computer_name(black_seat.level) if black_seat.level is not None else black,
    )


def seats_option(seats: Seats) -> list[str]:
    """The seats as the options (and the autosave) keep them."""
    return [str(seats[WHITE]), str(seats[BLACK])]


def seats_from(options: Mapping[str, Any]) -> Seats:
    """The seats kept in ``options``; two people when there are none or they cannot be read."""
    kept = options.get(PLAYERS_OPTION)
    if not isinstance(kept, list) or len(kept) != 2 or not all(isinstance(seat, str) for seat in kept):
        return TWO_PEOPLE
    try:
        return parse_seat(kept[0]), parse_seat(kept[1])
    except ValueError:
        return TWO_PEOPLE


def human_side(seats: Seats) -> Colour | None:
    """The one side a person plays against the computer; ``None`` between two people or two computers."""
    white, black = (seat.is_computer for seat in seats)
    if white == black:
        return None
    return BLACK if white else WHITE

"""Who plays each side of the game on the table, a person or the computer at a level, and what that changes.

The players live in the session's options (``"players"``: ``["human",
"computer:3"]``), which are saved with the autosave, so a game against the
computer resumed later goes on against it.  What is read back is checked: a
damaged or hand-edited autosave gives two people, never an error.  Against
the computer a takeback undoes its reply too (:func:`takeback_plies`).

Nothing here needs the engine: a session, the plain mode or a remote front
end knows its players without loading the search or the engine's client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core.move import Move
from ..core.pieces import BLACK, WHITE, Colour

__all__ = [
    "DEFAULT_LEVEL",
    "HUMAN",
    "LEVEL_COUNT",
    "PLAYERS_OPTION",
    "TWO_PEOPLE",
    "Contender",
    "Players",
    "computer_name",
    "human_side",
    "parse_player",
    "player_names",
    "players_from",
    "players_option",
    "takeback_plies",
]

LEVEL_COUNT: Final = 10
"""The playing levels, 1 to 10 (:data:`~cescacs_tui.engine.levels.LEVELS` describes each)."""
DEFAULT_LEVEL: Final = 3
"""The level ``computer`` alone means: weak enough for a beginner to win."""


@dataclass(frozen=True)
class Contender:
    """Who plays one side: a person (``level is None``) or the computer at ``level`` (1-10).

    Not a :class:`~cescacs_tui.engine.players.Player` (what plays a side in an engine match) nor a
    remote :class:`~cescacs_tui.remote.protocol.Seat` (which side a connection holds, or watching).
    """

    level: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def __str__(self) -> str:
        return "human" if self.level is None else f"computer:{self.level}"


HUMAN: Final = Contender()

Players = tuple[Contender, Contender]
"""White's player, then Black's."""

TWO_PEOPLE: Final[Players] = (HUMAN, HUMAN)
PLAYERS_OPTION: Final = "players"
"""The key of the players in the session's options (a remote coordinator's ``"seats"`` are its clients')."""


def parse_player(text: str) -> Contender:
    """``human``, ``computer`` (level :data:`DEFAULT_LEVEL`) or ``computer:N`` with N from 1 to 10.

    Case and surrounding spaces do not matter; anything else is a
    ``ValueError`` saying what is accepted (argparse shows it as it is).
    """
    word, colon, rest = text.strip().lower().partition(":")
    if word == "human" and not colon:
        return HUMAN
    if word == "computer":
        if not colon:
            return Contender(DEFAULT_LEVEL)
        if rest.isascii() and rest.isdigit() and 1 <= int(rest) <= LEVEL_COUNT:  # not '٣': ASCII digits only
            return Contender(int(rest))
    shown = text if len(text) <= 40 and text.isprintable() else repr(text[:40])
    raise ValueError(f"{shown!s} is not a player: use 'human', 'computer' or 'computer:N' with N from 1 to 10")


def computer_name(level: int) -> str:
    """The name the computer plays under in the record's White or Black tag (data, not translated)."""
    return f"cescacs-tui level {level}"


def player_names(players: Players, white: str, black: str) -> tuple[str, str]:
    """The White and Black tags of a new game: the computer's name for a side it plays, else ``white``/``black``."""
    white_player, black_player = players
    return (
        computer_name(white_player.level) if white_player.level is not None else white,
        computer_name(black_player.level) if black_player.level is not None else black,
    )


PEER_TO_PEER: Final = "TC"
"""The ``Mode`` of a game played from two places over TCP (``cescacs host``, ``cescacs join``)."""
CHESS_SERVER: Final = "ICS"
"""The ``Mode`` of a game played on a server's rooms (``cescacs serve-ssh``)."""


def play_tags(mode: str, players: Players) -> dict[str, str]:
    """The spec's ``Mode``, ``WhiteType`` and ``BlackType`` tags of a game played this way by ``players``."""
    white, black = ("program" if player.is_computer else "human" for player in players)
    return {"Mode": mode, "WhiteType": white, "BlackType": black}


def players_option(players: Players) -> list[str]:
    """The players as the options (and the autosave) keep them."""
    return [str(players[WHITE]), str(players[BLACK])]


def players_from(options: Mapping[str, Any]) -> Players:
    """The players kept in ``options``; two people when there are none or they cannot be read."""
    kept = options.get(PLAYERS_OPTION)
    if not isinstance(kept, list) or len(kept) != 2 or not all(isinstance(player, str) for player in kept):
        return TWO_PEOPLE
    try:
        return parse_player(kept[0]), parse_player(kept[1])
    except ValueError:
        return TWO_PEOPLE


def human_side(players: Players) -> Colour | None:
    """The one side a person plays against the computer; ``None`` between two people or two computers."""
    white, black = (player.is_computer for player in players)
    if white == black:
        return None
    return BLACK if white else WHITE


def takeback_plies(moves: Sequence[Move], start_turn: Colour, players: Players) -> int:
    """How many half-moves to take back so that a person is to move before their last move.

    Against the computer a takeback undoes the computer's reply too (or,
    while it is thinking, just the person's move); between two people, or
    two computers, it is one half-move.  0 when there is nothing to undo.
    """
    if not moves:
        return 0
    if players[0].is_computer == players[1].is_computer:
        return 1
    human = WHITE if not players[WHITE].is_computer else BLACK
    plies = len(moves)
    for undone in range(1, plies + 1):
        mover = Colour((start_turn + plies - undone) % 2)  # who played the half-move being undone
        if mover == human:
            return undone
    return plies  # only the computer has moved: back to the start

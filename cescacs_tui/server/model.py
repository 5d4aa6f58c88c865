"""What the server keeps: accounts and their keys, games and their moves, ratings; as every backend returns them.

These are plain frozen records, the same whatever the storage is (SQLite
or PostgreSQL): the storage reads and writes them, the lobby
decides with them, the commands print them.  Times are aware datetimes in
UTC; a game's clocks are seconds.  The errors the storage raises for a
request the data refuses (a name taken, a key already used, a code that
does not work) are here too, so every backend raises the same ones.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from enum import StrEnum

from ..core.outcome import UNFINISHED
from ..core.pieces import BLACK, WHITE, Colour
from ..data.ratings import Rating

__all__ = [
    "Account",
    "Change",
    "ChangeKind",
    "CodeKind",
    "CodeRefused",
    "GameKind",
    "GameStatus",
    "KeyTaken",
    "NameTaken",
    "NewGame",
    "PoolRating",
    "SchemaError",
    "SidePreference",
    "StorageError",
    "StoredGame",
    "StoredKey",
    "StoredMove",
    "Update",
    "colour_of",
    "colour_word",
]


class GameKind(StrEnum):
    """How a game is timed; each kind is its own rating pool."""

    LIVE = "live"
    """A chess clock (a :class:`~cescacs_tui.core.clock.TimeControl`): both players there at once."""
    CORRESPONDENCE = "correspondence"
    """Days per move: the clock is a deadline, and the players come and go."""


class GameStatus(StrEnum):
    SEEK = "seek"
    """Offered to anyone: the first who accepts it plays."""
    CHALLENGE = "challenge"
    """Offered to one player, who accepts or declines it."""
    PLAYING = "playing"
    FINISHED = "finished"


class SidePreference(StrEnum):
    """The side the player who offers a game wants."""

    WHITE = "white"
    BLACK = "black"
    RANDOM = "random"


class CodeKind(StrEnum):
    INVITATION = "invitation"
    """Lets a new key register an account (invite-only servers)."""
    LINK = "link"
    """Lets a new key join the account that made the code."""


class ChangeKind(StrEnum):
    GAME = "game"
    """A game was offered, started, moved or ended: its id and ply."""
    ACCOUNT = "account"
    """An account was made or its keys changed."""
    PRESENCE = "presence"
    """A player came or went (their account's id; 0 when a server process was found gone with its visitors)."""
    RESYNC = "resync"
    """A listener fell behind and lost changes: it reads again what it shows."""


def colour_word(colour: Colour | None) -> str | None:
    """How the storage writes a side: ``"white"``, ``"black"`` (or ``None``)."""
    return None if colour is None else ("white" if colour == WHITE else "black")


def colour_of(word: str | None) -> Colour | None:
    """The side the storage wrote as ``word``."""
    return None if word is None else (WHITE if word == "white" else BLACK)


class StorageError(Exception):
    """Something the storage refused; subclasses say what."""


class SchemaError(StorageError):
    """The database cannot be used by this program (made by a newer version, or not the server's)."""


class NameTaken(StorageError):
    """The name looks like ``existing``, an account's name already."""

    def __init__(self, existing: str) -> None:
        super().__init__(f"the name looks like {existing!r}, which is taken")
        self.existing = existing


class KeyTaken(StorageError):
    """The key belongs to an account already."""


class CodeRefused(StorageError):
    """The code is unknown, used up, expired, or of another kind."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created: datetime.datetime
    notify: bool
    """Whether the operator's notification hook runs for this player when it becomes their move."""


@dataclass(frozen=True)
class StoredKey:
    fingerprint: str
    key: str
    """The OpenSSH line of the key, without comment."""
    added: datetime.datetime


@dataclass(frozen=True)
class NewGame:
    """A game offered: to anyone (``opponent`` ``None``, a seek) or to one player (a challenge)."""

    kind: GameKind
    time_control: str
    """The ``TimeControl`` tag: ``900+10`` for a live game, ``*259200`` (seconds per move) for 3 days a move."""
    creator: int
    creator_plays: SidePreference
    opponent: int | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game as the storage holds it; the moves are apart (:class:`StoredMove`)."""

    id: int
    status: GameStatus
    kind: GameKind
    time_control: str
    creator: int
    creator_name: str
    creator_plays: SidePreference
    opponent: int | None
    opponent_name: str | None
    white: int | None
    white_name: str | None
    black: int | None
    black_name: str | None
    ply: int
    draw_offer: Colour | None
    """The side whose draw offer waits for an answer."""
    result: str
    ending: str | None
    """How it ended (an :class:`~cescacs_tui.core.outcome.Ending` value), once finished."""
    white_clock: float | None
    black_clock: float | None
    """A live game's time left for each side when its last move was made (seconds)."""
    deadline: datetime.datetime | None
    """When the side to move loses on time (a playing game with a clock or days per move)."""
    turn_started: datetime.datetime | None
    """When the side to move's turn began (the start, or the last move)."""
    created: datetime.datetime
    started: datetime.datetime | None
    finished: datetime.datetime | None
    white_ratings: tuple[float, float] | None = None
    black_ratings: tuple[float, float] | None = None
    """Each side's rating before and after the game, once it is rated."""

    @property
    def to_move(self) -> Colour:
        """The side to move (every server game starts from the initial position: White first)."""
        return WHITE if self.ply % 2 == 0 else BLACK

    @property
    def over(self) -> bool:
        return self.result != UNFINISHED

    def player(self, colour: Colour) -> int | None:
        return self.white if colour == WHITE else self.black

    def colour_of(self, account: int) -> Colour | None:
        """The side ``account`` plays in this game, if any."""
        if account == self.white:
            return WHITE
        if account == self.black:
            return BLACK
        return None


@dataclass(frozen=True)
class StoredMove:
    ply: int
    """1 for White's first move."""
    move: str
    """The move in canonical CTL-AN, as the record writes it."""
    played: datetime.datetime
    clock: float | None = None
    """The mover's time left after it (a live game's ``[%clk]``)."""
    draw_offer: bool = False


@dataclass(frozen=True)
class Update:
    """What one action changes in a game under way: written at once, or not at all.

    ``move`` (if any) becomes half-move ``ply + 1`` of the game; the other
    fields are the game's state after the action.  A ``result`` other than
    ``*`` ends the game, and both players are rated in the same transaction.
    """

    move: StoredMove | None
    draw_offer: Colour | None
    result: str
    ending: str | None
    white_clock: float | None
    black_clock: float | None
    deadline: datetime.datetime | None
    turn_started: datetime.datetime | None
    marks_offer: bool = False
    """The draw offer is made after the last move (by the player who made it): that move gets the ``(=)``."""


@dataclass(frozen=True)
class PoolRating:
    account: int
    name: str
    pool: GameKind
    rating: Rating
    games: int
    rated: datetime.datetime | None


@dataclass(frozen=True)
class Change:
    """Something other processes (and this one's screens) may want to show again; read the state from the
    storage (:mod:`.fanout` tells every listening process: PostgreSQL sends the kind, the id and the ply with
    ``NOTIFY``)."""

    kind: ChangeKind
    id: int = 0
    ply: int = 0

"""What the lobby app shows, read through the link: the server's ``--json`` answers sorted into the lobby's lists.

:func:`read_lobby` asks the server (through a
:class:`~cescacs_tui.remote.lobby_link.LobbyLink`) for everything the lobby
screen shows, in one round of requests, and sorts it for the visitor: the
games where it is their move first, soonest deadline first, then challenges
to them, their own offers, the other games they play, the open seeks, the
games to watch, their finished games, and the rating tables.  A change the
link hears is a reason to call it again; nothing is kept between calls.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from .lobby_link import LobbyLink, Reply

__all__ = ["GameEntry", "LobbyView", "RatingEntry", "read_lobby"]


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e9:
        return None
    return float(value)


def _moment(value: object) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


@dataclass(frozen=True)
class GameEntry:
    """One game (a seek, a challenge, a game under way or finished) as the server's JSON says it."""

    id: int
    status: str
    kind: str
    time_control: str
    days_per_move: int | None = None
    white: str | None = None
    black: str | None = None
    creator: str | None = None
    creator_plays: str = "random"
    opponent: str | None = None
    your_side: str | None = None
    ply: int = 0
    to_move: str | None = None
    your_move: bool = False
    deadline: datetime.datetime | None = None
    draw_offer: str | None = None
    result: str | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    """A live game's times left at the start of the turn under way (seconds)."""

    @classmethod
    def from_json(cls, value: Any) -> GameEntry | None:
        """The entry a JSON object describes, or ``None`` if it is not a game."""
        if not isinstance(value, dict) or not isinstance(value.get("id"), int):
            return None
        days = value.get("days_per_move")
        ply = value.get("ply")
        return cls(
            id=value["id"],
            status=_text(value.get("status")) or "",
            kind=_text(value.get("kind")) or "",
            time_control=_text(value.get("time_control")) or "-",
            days_per_move=days if isinstance(days, int) else None,
            white=_text(value.get("white")),
            black=_text(value.get("black")),
            creator=_text(value.get("creator")),
            creator_plays=_text(value.get("creator_plays")) or "random",
            opponent=_text(value.get("opponent")),
            your_side=_text(value.get("your_side")),
            ply=ply if isinstance(ply, int) else 0,
            to_move=_text(value.get("to_move")),
            your_move=value.get("your_move") is True,
            deadline=_moment(value.get("deadline")),
            draw_offer=_text(value.get("draw_offer")),
            result=_text(value.get("result")),
            white_clock=_seconds(value.get("white_clock")),
            black_clock=_seconds(value.get("black_clock")),
        )

    @property
    def players(self) -> str:
        if self.white is None or self.black is None:
            return f"{self.creator or '?'} - {self.opponent or '?'}"
        return f"{self.white} - {self.black}"

    @property
    def mover(self) -> str | None:
        """The name of the player to move."""
        return {"white": self.white, "black": self.black}.get(self.to_move or "")


@dataclass(frozen=True)
class RatingEntry:
    name: str
    pool: str
    rating: float
    deviation: float
    games: int

    @classmethod
    def from_json(cls, value: Any) -> RatingEntry | None:
        if not isinstance(value, dict):
            return None
        name, pool = _text(value.get("name")), _text(value.get("pool"))
        rating, deviation, games = value.get("rating"), value.get("deviation"), value.get("games")
        if name is None or pool is None or not isinstance(games, int):
            return None
        if not isinstance(rating, int | float) or not isinstance(deviation, int | float):
            return None
        return cls(name, pool, float(rating), float(deviation), games)


@dataclass
class LobbyView:
    """The lobby as the visitor sees it now."""

    name: str | None = None
    """The visitor's name, or ``None`` while their key has no account."""
    unregistered: str = ""
    """Why the visitor's key has no account yet, and how to make one (the server's words)."""
    online: list[str] = field(default_factory=list)
    your_move: list[GameEntry] = field(default_factory=list)
    challenges: list[GameEntry] = field(default_factory=list)
    """Challenges to the visitor, to accept or decline."""
    offers: list[GameEntry] = field(default_factory=list)
    """The visitor's own seeks and challenges, waiting for someone."""
    their_move: list[GameEntry] = field(default_factory=list)
    seeks: list[GameEntry] = field(default_factory=list)
    """Others' open seeks."""
    watch: list[GameEntry] = field(default_factory=list)
    """Games being played by others."""
    finished: list[GameEntry] = field(default_factory=list)
    ratings: list[RatingEntry] = field(default_factory=list)


def _games(reply: Reply) -> list[GameEntry]:
    if not reply.ok:
        return []
    try:
        values = reply.json()
    except ValueError:
        return []
    entries = [GameEntry.from_json(value) for value in values] if isinstance(values, list) else []
    return [entry for entry in entries if entry is not None]


def _far(entry: GameEntry) -> datetime.datetime:
    return entry.deadline or datetime.datetime.max.replace(tzinfo=datetime.UTC)


async def read_lobby(link: LobbyLink) -> LobbyView:
    """Everything the lobby shows, asked of the server at once (:class:`~.lobby_link.LinkClosed` if gone)."""
    whoami, who, seeks, playing, ratings, games, finished = await link.ask_all(
        [
            ["whoami"],
            ["who", "--json"],
            ["seeks", "--json"],
            ["playing", "--json"],
            ["ratings", "--json"],
            ["games", "--json"],
            ["games", "--finished", "--json"],
        ]
    )
    view = LobbyView(name=whoami.text if whoami.ok else None, unregistered="" if whoami.ok else whoami.text)
    try:
        names = who.json() if who.ok else []
    except ValueError:
        names = []
    view.online = [name for name in names if isinstance(name, str)] if isinstance(names, list) else []
    try:
        table = ratings.json() if ratings.ok else []
    except ValueError:
        table = []
    rated = [RatingEntry.from_json(value) for value in table] if isinstance(table, list) else []
    view.ratings = [entry for entry in rated if entry is not None]
    mine = _games(games)
    view.your_move = sorted((g for g in mine if g.status == "playing" and g.your_move), key=_far)
    view.their_move = sorted((g for g in mine if g.status == "playing" and not g.your_move), key=_far)
    view.challenges = [g for g in mine if g.status == "challenge" and g.creator != view.name]
    view.offers = [g for g in mine if g.status in ("seek", "challenge") and g.creator == view.name]
    view.seeks = [g for g in _games(seeks) if g.creator != view.name]
    view.watch = [g for g in _games(playing) if g.your_side is None]
    view.finished = _games(finished)
    return view

"""Rows to records: what every backend's ``SELECT`` returns, made into :mod:`.model`'s records in one place.

A row is anything indexed by column name (``sqlite3.Row``, psycopg's
``dict_row``); the tables are the same on every backend (:mod:`.migrations`),
and the only thing read differently is a time, which each backend converts
with its own ``time`` function (SQLite keeps milliseconds, PostgreSQL a
``timestamptz``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, Final, Protocol

from ..data.ratings import Rating
from .model import (
    Account,
    GameKind,
    GameStatus,
    PoolRating,
    SidePreference,
    StoredGame,
    StoredKey,
    StoredMove,
    colour_of,
)

__all__ = ["GAME_SELECT", "Row", "TimeOf", "account", "game", "key", "move", "pool_rating"]

GAME_SELECT: Final = """
    SELECT g.*, c.name AS creator_name, o.name AS opponent_name, w.name AS white_name, b.name AS black_name
    FROM games AS g
    JOIN accounts AS c ON c.id = g.creator
    LEFT JOIN accounts AS o ON o.id = g.opponent
    LEFT JOIN accounts AS w ON w.id = g.white
    LEFT JOIN accounts AS b ON b.id = g.black
"""
"""A game with its players' names (a ``WHERE`` follows, on ``g``)."""


class Row(Protocol):
    def __getitem__(self, column: str, /) -> Any: ...


TimeOf = Callable[[Any], datetime.datetime]
"""A backend's stored time (never ``NULL``) as an aware datetime in UTC."""


def account(row: Row, time: TimeOf) -> Account:
    return Account(row["id"], row["name"], time(row["created"]), bool(row["notify"]))


def key(row: Row, time: TimeOf) -> StoredKey:
    return StoredKey(row["fingerprint"], row["key"], time(row["added"]))


def move(row: Row, time: TimeOf) -> StoredMove:
    return StoredMove(row["ply"], row["move"], time(row["played"]), row["clock"], bool(row["draw_offer"]))


def pool_rating(row: Row, pool: GameKind, time: TimeOf) -> PoolRating:
    """A row of ``ratings`` with the account's ``name``."""
    rating = Rating(row["rating"], row["deviation"], row["volatility"])
    return PoolRating(row["account"], row["name"], pool, rating, row["games"], time(row["rated"]))


def game(row: Row, time: TimeOf) -> StoredGame:
    """A row of :data:`GAME_SELECT`."""

    def maybe(column: str) -> datetime.datetime | None:
        value = row[column]
        return None if value is None else time(value)

    def pair(side: str) -> tuple[float, float] | None:
        before, after = row[f"{side}_rating_before"], row[f"{side}_rating_after"]
        return None if before is None or after is None else (before, after)

    return StoredGame(
        id=row["id"],
        status=GameStatus(row["status"]),
        kind=GameKind(row["kind"]),
        time_control=row["time_control"],
        creator=row["creator"],
        creator_name=row["creator_name"],
        creator_plays=SidePreference(row["creator_plays"]),
        opponent=row["opponent"],
        opponent_name=row["opponent_name"],
        white=row["white"],
        white_name=row["white_name"],
        black=row["black"],
        black_name=row["black_name"],
        ply=row["ply"],
        draw_offer=colour_of(row["draw_offer"]),
        result=row["result"],
        ending=row["ending"],
        white_clock=row["white_clock"],
        black_clock=row["black_clock"],
        deadline=maybe("deadline"),
        turn_started=maybe("turn_started"),
        created=time(row["created"]),
        started=maybe("started"),
        finished=maybe("finished"),
        white_ratings=pair("white"),
        black_ratings=pair("black"),
    )

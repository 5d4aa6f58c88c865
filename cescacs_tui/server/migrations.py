"""The server database's schema, as ordered migrations: each backend applies those its database lacks.

A database records every migration applied to it in ``schema_version``
(version, name, when); opening it applies the missing ones in order, each in
a transaction of its own, so a database is always at one known version and a
crash mid-migration leaves it at the previous one.  A migration is never
changed once released: a change to the schema is a new migration at the end.

SQL differs between databases (SQLite's ``INTEGER PRIMARY KEY
AUTOINCREMENT`` is PostgreSQL's ``GENERATED ALWAYS AS IDENTITY``; times are
SQLite integers of milliseconds and PostgreSQL ``timestamptz``), so each
backend keeps its own list, parallel to :data:`SQLITE`: the same versions, in
the same order, with the same names and the same tables, columns and
constraints (the storage tests run on every backend, and check the lists
agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["SCHEMA_TABLE", "SQLITE", "Migration"]

SCHEMA_TABLE: Final = "schema_version"


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its version (1, 2...), what it does, and its statements in order."""

    version: int
    name: str
    statements: tuple[str, ...]


SQLITE: Final = (
    Migration(
        1,
        "accounts, keys, codes, games, moves, ratings",
        (
            """CREATE TABLE accounts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                name_fold TEXT NOT NULL UNIQUE,
                name_shape TEXT NOT NULL UNIQUE,
                created INTEGER NOT NULL,
                notify INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1))
            )""",
            """CREATE TABLE keys (
                fingerprint TEXT PRIMARY KEY,
                account INTEGER NOT NULL REFERENCES accounts (id),
                key TEXT NOT NULL,
                added INTEGER NOT NULL
            )""",
            "CREATE INDEX keys_account ON keys (account)",
            """CREATE TABLE codes (
                digest TEXT PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('invitation', 'link')),
                account INTEGER REFERENCES accounts (id),
                uses_left INTEGER NOT NULL CHECK (uses_left >= 0),
                expires INTEGER NOT NULL,
                CHECK (kind = 'invitation' OR account IS NOT NULL)
            )""",
            """CREATE TABLE games (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                status TEXT NOT NULL CHECK (status IN ('seek', 'challenge', 'playing', 'finished')),
                kind TEXT NOT NULL CHECK (kind IN ('live', 'correspondence')),
                time_control TEXT NOT NULL,
                creator INTEGER NOT NULL REFERENCES accounts (id),
                creator_plays TEXT NOT NULL CHECK (creator_plays IN ('white', 'black', 'random')),
                opponent INTEGER REFERENCES accounts (id),
                white INTEGER REFERENCES accounts (id),
                black INTEGER REFERENCES accounts (id),
                ply INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
                draw_offer TEXT CHECK (draw_offer IN ('white', 'black')),
                result TEXT NOT NULL DEFAULT '*' CHECK (result IN ('*', '3-0', '2-1', '1-1', '1-2', '0-3')),
                ending TEXT,
                white_clock REAL,
                black_clock REAL,
                deadline INTEGER,
                turn_started INTEGER,
                created INTEGER NOT NULL,
                started INTEGER,
                finished INTEGER,
                white_rating_before REAL,
                white_rating_after REAL,
                black_rating_before REAL,
                black_rating_after REAL,
                CHECK (status IN ('seek', 'challenge') OR (white IS NOT NULL AND black IS NOT NULL)),
                CHECK ((status = 'finished') = (result <> '*'))
            )""",
            "CREATE INDEX games_white ON games (white, status)",
            "CREATE INDEX games_black ON games (black, status)",
            "CREATE INDEX games_offers ON games (status, creator) WHERE status IN ('seek', 'challenge')",
            "CREATE INDEX games_opponent ON games (opponent) WHERE status = 'challenge'",
            "CREATE INDEX games_deadline ON games (deadline) WHERE status = 'playing' AND deadline IS NOT NULL",
            """CREATE TABLE moves (
                game INTEGER NOT NULL REFERENCES games (id),
                ply INTEGER NOT NULL CHECK (ply >= 1),
                move TEXT NOT NULL,
                played INTEGER NOT NULL,
                clock REAL,
                draw_offer INTEGER NOT NULL DEFAULT 0 CHECK (draw_offer IN (0, 1)),
                PRIMARY KEY (game, ply)
            ) WITHOUT ROWID""",
            """CREATE TABLE ratings (
                account INTEGER NOT NULL REFERENCES accounts (id),
                pool TEXT NOT NULL CHECK (pool IN ('live', 'correspondence')),
                rating REAL NOT NULL,
                deviation REAL NOT NULL,
                volatility REAL NOT NULL,
                games INTEGER NOT NULL,
                rated INTEGER NOT NULL,
                PRIMARY KEY (account, pool)
            ) WITHOUT ROWID""",
            "CREATE INDEX ratings_pool ON ratings (pool, rating)",
        ),
    ),
)
"""SQLite's migrations, oldest first."""

"""The server database's schema, as ordered migrations: every backend applies those its database lacks.

A database records every migration applied to it in ``schema_version``
(version, name, when); opening it applies the missing ones in order, each in
a transaction of its own, so a database is always at one known version and a
crash mid-migration leaves it at the previous one.  A migration is never
changed once released: a change to the schema is a new migration at the end.

There is one list, :data:`MIGRATIONS`, for every database: the few words in
which SQLite's and PostgreSQL's SQL differ are placeholders in it
(``{serial}``, ``{time}``, ``{without_rowid}``), which a :class:`Dialect`
fills in (:meth:`Dialect.statements`, which also writes the rules' results
in ``{results}``), so the tables, columns, constraints and indexes are
written once.  The differences, all here:

- an account's or a game's id: SQLite's ``INTEGER PRIMARY KEY AUTOINCREMENT``
  (ids never reused, as PostgreSQL's identity columns never reuse theirs);
- a time: a SQLite integer of milliseconds since the epoch, a PostgreSQL
  ``timestamptz``;
- SQLite keeps the tables whose key is a pair in the key's order
  (``WITHOUT ROWID``), as PostgreSQL's primary-key index serves them anyway.

Both understand ``BOOLEAN`` (SQLite stores 1 and 0), ``DOUBLE PRECISION``,
``TEXT``, ``CHECK``, partial indexes and ``ON DELETE CASCADE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..core.outcome import RESULTS

__all__ = ["MIGRATIONS", "POSTGRESQL", "SCHEMA_TABLE", "SQLITE", "Dialect", "Migration"]

SCHEMA_TABLE: Final = "schema_version"


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its version (1, 2...), what it does, and its statements in order (with the
    dialect's placeholders)."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class Dialect:
    """How one database spells the words :data:`MIGRATIONS` leaves open."""

    name: str
    serial: str
    """An id column the database numbers itself."""
    time: str
    """A moment's column type."""
    without_rowid: str
    """What follows a table whose primary key is a pair."""

    def statements(self, migration: Migration) -> tuple[str, ...]:
        """The migration's statements in this dialect."""
        words = {"serial": self.serial, "time": self.time, "without_rowid": self.without_rowid, "results": _RESULTS}
        return tuple(statement.format(**words) for statement in migration.statements)

    def schema_table(self) -> str:
        """The statement that makes :data:`SCHEMA_TABLE` if it is missing."""
        return (
            f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} "
            f"(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied {self.time} NOT NULL)"
        )


_RESULTS: Final = ", ".join(f"'{result}'" for result in RESULTS)
"""A game's results, as SQL strings (the rules' own, :data:`~cescacs_tui.core.outcome.RESULTS`)."""

SQLITE: Final = Dialect("sqlite", "INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", " WITHOUT ROWID")
POSTGRESQL: Final = Dialect("postgresql", "INTEGER PRIMARY KEY GENERATED ALWAYS AS IDENTITY", "TIMESTAMPTZ", "")

MIGRATIONS: Final = (
    Migration(
        1,
        "accounts, keys, codes, games, moves, ratings",
        (
            """CREATE TABLE accounts (
                id {serial},
                name TEXT NOT NULL,
                name_fold TEXT NOT NULL UNIQUE,
                name_shape TEXT NOT NULL UNIQUE,
                created {time} NOT NULL,
                notify BOOLEAN NOT NULL DEFAULT TRUE
            )""",
            """CREATE TABLE keys (
                fingerprint TEXT PRIMARY KEY,
                account INTEGER NOT NULL REFERENCES accounts (id),
                key TEXT NOT NULL,
                added {time} NOT NULL
            )""",
            "CREATE INDEX keys_account ON keys (account)",
            """CREATE TABLE codes (
                digest TEXT PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('invitation', 'link')),
                account INTEGER REFERENCES accounts (id),
                uses_left INTEGER NOT NULL CHECK (uses_left >= 0),
                expires {time} NOT NULL,
                CHECK (kind = 'invitation' OR account IS NOT NULL)
            )""",
            """CREATE TABLE games (
                id {serial},
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
                result TEXT NOT NULL DEFAULT '*' CHECK (result IN ({results})),
                ending TEXT,
                white_clock DOUBLE PRECISION,
                black_clock DOUBLE PRECISION,
                deadline {time},
                turn_started {time},
                created {time} NOT NULL,
                started {time},
                finished {time},
                white_rating_before DOUBLE PRECISION,
                white_rating_after DOUBLE PRECISION,
                black_rating_before DOUBLE PRECISION,
                black_rating_after DOUBLE PRECISION,
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
                played {time} NOT NULL,
                clock DOUBLE PRECISION,
                draw_offer BOOLEAN NOT NULL DEFAULT FALSE,
                PRIMARY KEY (game, ply)
            ){without_rowid}""",
            """CREATE TABLE ratings (
                account INTEGER NOT NULL REFERENCES accounts (id),
                pool TEXT NOT NULL CHECK (pool IN ('live', 'correspondence')),
                rating DOUBLE PRECISION NOT NULL,
                deviation DOUBLE PRECISION NOT NULL,
                volatility DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                rated {time} NOT NULL,
                PRIMARY KEY (account, pool)
            ){without_rowid}""",
            "CREATE INDEX ratings_pool ON ratings (pool, rating)",
        ),
    ),
    Migration(
        2,
        "presence: who is connected, through which server process",
        (
            """CREATE TABLE nodes (
                id TEXT PRIMARY KEY,
                seen {time} NOT NULL
            )""",
            """CREATE TABLE presence (
                account INTEGER NOT NULL REFERENCES accounts (id),
                node TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
                sessions INTEGER NOT NULL CHECK (sessions > 0),
                since {time} NOT NULL,
                PRIMARY KEY (account, node)
            ){without_rowid}""",
            "CREATE INDEX presence_node ON presence (node)",
        ),
    ),
)
"""The schema's migrations, oldest first, for every dialect."""

"""The server's storage interface: one :class:`Storage` protocol, a backend per database.

**Asynchronous.**  The server is one asyncio event loop (asyncssh's) serving
every visitor, so a storage call must never stop the loop: every method is a
coroutine.  The SQLite backend (:mod:`.sqlite`) runs its connection on a
thread of its own; the PostgreSQL backend (:mod:`.postgres`) is psycopg 3's
asynchronous connections, from a pool, one per call.

**One call, one transaction.**  Each method reads or writes in one
transaction and returns after it has committed: a move is on disk (SQLite:
WAL, ``synchronous=FULL``; PostgreSQL: its write-ahead log, flushed at
commit) before the lobby tells its player it was played, so a crash never
loses an acknowledged move.  Calls are whole domain operations, never SQL,
so each backend locks its own way.

**Conditional writes, no lost updates.**  A change to a game states what the
writer saw: :meth:`Storage.update_game` writes only if the game is still
under way at ``seen_ply`` (SQLite: the write lock taken first; PostgreSQL:
the game's row locked with ``SELECT ... FOR UPDATE``, so a second writer
waits and then reads the ply the first wrote), and the moves' primary key
``(game, ply)`` refuses a second move for one ply whatever happens.  So of
two moves for the same ply from two connections or two processes (or two
machines) exactly one is written; the other call returns ``None`` and the
lobby reads the game again (and finds it is no longer that player's move).
Starting a game from a seek or a challenge is conditional the same way: of
two players accepting a seek at once, one gets it.  Ratings are read and
written inside the transaction that ends the game, both players' accounts
locked first, so two games of one player ending at once both count.

**Changes fan out** (:mod:`.fanout`): every write that others may want to
show tells :attr:`Storage.fanout`'s listeners, in every process that shares
the database, what changed (never the state: they read it).

**Times come from the caller** (``now``): the storage never reads a clock,
so deadlines and time-outs are tested with an injected one.

Backends are opened with :func:`open_storage` from what ``--db`` says: a
path is SQLite, ``postgresql://...`` PostgreSQL.  Both apply the same
versioned migrations (:mod:`.migrations`) when they open.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Protocol

from ..data.ratings import Rating, idle, rate_game
from .fanout import Fanout
from .keys import PublicKey
from .model import (
    Account,
    CodeKind,
    GameKind,
    NewGame,
    PoolRating,
    StorageError,
    StoredGame,
    StoredKey,
    StoredMove,
    Update,
)
from .names import Name

__all__ = ["POSTGRESQL_SCHEMES", "RATING_PERIOD", "Storage", "is_postgresql", "open_storage", "ratings_after"]

POSTGRESQL_SCHEMES: Final = ("postgresql://", "postgres://")
"""How a PostgreSQL database's address begins (libpq's connection URIs)."""
RATING_PERIOD: Final = datetime.timedelta(days=7)
"""A rating period: each whole one a player spends without a rated game makes their rating less certain."""


class Storage(Protocol):
    """Everything the lobby keeps, behind one interface (see the module's description for the contract)."""

    # --- the database itself -------------------------------------------------------------------------------

    async def migrate(self) -> int:
        """Apply the migrations this database lacks, in order; the schema version it has now.

        Raises :class:`~.model.SchemaError` for a database a newer program made (its version is beyond
        this program's last migration): it is never written by code that does not know its tables.
        """

    async def close(self) -> None:
        """Finish every call under way and let the database go."""

    @property
    def fanout(self) -> Fanout:
        """Where this process listens for changes, its own and (on a shared database) other processes'."""

    # --- accounts and keys -----------------------------------------------------------------------------------

    async def create_account(
        self, name: Name, key: PublicKey, now: datetime.datetime, invitation: str | None = None
    ) -> Account:
        """A new account of ``name`` whose first key is ``key``.

        ``invitation`` is the digest of an invitation code (:func:`~.codes.code_digest`), one use of which
        is spent.  Raises :class:`~.model.NameTaken` (with the name it looks like),
        :class:`~.model.KeyTaken` or :class:`~.model.CodeRefused`, having written nothing.
        """

    async def account_by_key(self, fingerprint: str) -> Account | None:
        """The account a key (by its fingerprint) belongs to."""

    async def account_named(self, fold: str) -> Account | None:
        """The account whose name has this look-alike key (:attr:`~.names.Name.fold`): a name typed in any case,
        or written with look-alike characters, finds it."""

    async def account(self, account: int) -> Account | None:
        """The account of this id."""

    async def keys(self, account: int) -> Sequence[StoredKey]:
        """An account's keys, oldest first."""

    async def create_code(
        self, digest: str, kind: CodeKind, account: int | None, uses: int, expires: datetime.datetime
    ) -> None:
        """Keep a one-time code (its digest): an invitation (``account``: who invited, ``None`` for the
        operator) or a link adding a key to ``account``."""

    async def link_key(self, digest: str, key: PublicKey, now: datetime.datetime) -> Account:
        """Spend a link code to add ``key`` to the account that made it.

        Raises :class:`~.model.CodeRefused` or :class:`~.model.KeyTaken`, having written nothing.
        """

    async def remove_key(self, account: int, fingerprint: str) -> bool:
        """Take a key from an account; ``False`` if the account has no such key, or no other key."""

    async def set_notify(self, account: int, on: bool) -> None:
        """Switch the notification hook on or off for an account."""

    # --- games ----------------------------------------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime.datetime) -> StoredGame:
        """Offer a game: a seek, or a challenge to ``new.opponent``."""

    async def start_game(
        self,
        game: int,
        acceptor: int,
        white: int,
        black: int,
        now: datetime.datetime,
        clocks: tuple[float | None, float | None],
        deadline: datetime.datetime | None,
    ) -> StoredGame | None:
        """Start an offered game that ``acceptor`` accepts, between ``white`` and ``black``.

        ``None`` (nothing written) unless the game is still offered to ``acceptor``: a seek someone else
        made, or a challenge to them.
        """

    async def withdraw_game(self, game: int, account: int) -> bool:
        """Remove a seek or challenge that ``account`` made or was challenged with; ``False`` if there is
        none (accepted, or withdrawn already)."""

    async def game(self, game: int) -> StoredGame | None:
        """One game."""

    async def game_and_moves(self, game: int) -> tuple[StoredGame, Sequence[StoredMove]] | None:
        """One game and its moves, read together (one snapshot)."""

    async def games_of(self, account: int, *, finished: bool = False, limit: int = 100) -> Sequence[StoredGame]:
        """An account's games: those under way and offered (``finished`` ``False``: all of them), or its
        finished games, the latest first (``limit`` of them)."""

    async def seeks(self, limit: int = 100) -> Sequence[StoredGame]:
        """The open seeks, oldest first."""

    async def under_way(self, limit: int = 100) -> Sequence[StoredGame]:
        """The games being played now, by anyone, those that moved last first (to watch)."""

    async def offers_by(self, account: int) -> int:
        """How many seeks and challenges ``account`` has open."""

    async def games_under_way(self, account: int) -> int:
        """How many games ``account`` is playing now."""

    async def overdue(self, now: datetime.datetime, limit: int = 100) -> Sequence[StoredGame]:
        """Games under way whose deadline has passed, the earliest deadline first."""

    async def update_game(self, game: int, seen_ply: int, update: Update, now: datetime.datetime) -> StoredGame | None:
        """Apply ``update`` to a game under way at ``seen_ply``: the move appended, the state changed, and, if
        it ends the game, both players rated in its pool; all in one transaction.  ``None`` (nothing
        written) if the game has moved on or ended since it was read."""

    # --- presence: who is connected, through which server process ------------------------------------------

    async def arrive(self, account: int, node: str, now: datetime.datetime) -> None:
        """A session of ``account`` began on the server process ``node`` (which is alive at ``now``)."""

    async def leave(self, account: int, node: str) -> None:
        """A session of ``account`` on ``node`` ended (the player is online while any other session lasts)."""

    async def online(self, limit: int = 100) -> Sequence[Account]:
        """The players with a session on a server process, by name."""

    async def beat(self, node: str, now: datetime.datetime, stale: datetime.datetime) -> int:
        """The server process ``node`` is alive at ``now``; processes not heard of since ``stale`` (killed, or
        cut off from the database) are forgotten with their sessions.  How many were forgotten."""

    # --- ratings --------------------------------------------------------------------------------------------

    async def rating(self, account: int, pool: GameKind) -> Rating:
        """An account's rating in a pool (a new player's if they have played no rated game there)."""

    async def ratings(self, pool: GameKind, limit: int = 100) -> Sequence[PoolRating]:
        """A pool's players who have played, the best rated first."""


def ratings_after(
    white: tuple[Rating, datetime.datetime | None],
    black: tuple[Rating, datetime.datetime | None],
    result: str,
    now: datetime.datetime,
) -> tuple[Rating, Rating]:
    """White's and Black's ratings after a game that ended in ``result`` at ``now``, from each one's rating
    and when it was last rated (``None``: never): the rule every backend applies inside the game's last
    transaction.  Each whole :data:`RATING_PERIOD` since a player's last rated game widens their deviation
    first (Glicko-2's step 6), then the game is rated as a period of its own."""

    def before(rating: Rating, rated: datetime.datetime | None) -> Rating:
        return rating if rated is None else idle(rating, int((now - rated) / RATING_PERIOD))

    return rate_game(before(*white), before(*black), result)


def is_postgresql(db: str | Path) -> bool:
    """Whether ``db`` (what ``--db`` says) names a PostgreSQL database rather than a SQLite file."""
    return isinstance(db, str) and db.startswith(POSTGRESQL_SCHEMES)


async def open_storage(db: str | Path) -> Storage:
    """The storage ``db`` names, opened and migrated: ``postgresql://...`` (a libpq connection URI) is
    PostgreSQL, anything else a SQLite file's path (made if missing)."""
    storage: Storage
    if is_postgresql(db):
        try:
            from .postgres import PostgresStorage
        except ImportError as missing:
            raise StorageError(
                f"PostgreSQL storage needs psycopg 3 ({missing}): pip install 'cescacs-tui[postgres]'"
            ) from None
        storage = await PostgresStorage.open(str(db))
    else:
        from .sqlite import SqliteStorage

        storage = await SqliteStorage.open(Path(db))
    try:
        await storage.migrate()
    except BaseException:
        await storage.close()
        raise
    return storage

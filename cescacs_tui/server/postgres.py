"""The server's storage in PostgreSQL (psycopg 3): one lobby for server processes on one machine or many.

Selected by ``--db postgresql://user@host/dbname`` (a libpq connection URI:
a password is better kept in ``~/.pgpass`` or ``PGPASSWORD`` than in the
address).  The tables and migrations are SQLite's (:mod:`.migrations`, in
PostgreSQL's dialect); what differs is how several processes writing at once
are kept apart, all inside the one transaction of each call:

- a move: the game's row is locked (``SELECT ... FOR UPDATE``) before its
  ply is checked, so of two processes writing the same ply the second waits,
  reads the ply the first wrote and writes nothing; the moves' primary key
  would refuse a second move for one ply anyway;
- the end of a game: both players' accounts are locked (in the order of
  their ids, so two games never wait for each other) before their ratings
  are read, so two of one player's games ending at once both count;
- a code: spent by one ``UPDATE ... WHERE uses_left > 0 RETURNING``;
- a new account or key: checked first, and a unique index violated by a
  process that wrote the same name or key meanwhile makes the call run once
  more, when the check finds it;
- migrations: one process at a time (a transaction-level advisory lock), so
  several servers may start together on a new database.

Every write that others may want to show sends ``NOTIFY`` in its own
transaction (:mod:`.fanout`: heard by every process if and only if it
committed); :class:`PostgresFanout` keeps one connection that ``LISTEN`` s,
made again (with a ``RESYNC`` to the listeners) if it breaks.  The calls
run on a pool of connections (``psycopg_pool``), each one's session in UTC.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Final, TypeVar

import psycopg
from psycopg import AsyncConnection
from psycopg.conninfo import conninfo_to_dict
from psycopg.errors import UniqueViolation
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from ..core.outcome import UNFINISHED
from ..data.ratings import Rating
from ..tasks import stop_tasks
from . import rows
from .fanout import CHANNEL, LocalFanout, decode, encode
from .keys import PublicKey
from .migrations import MIGRATIONS, POSTGRESQL, SCHEMA_TABLE
from .model import (
    Account,
    Change,
    ChangeKind,
    CodeKind,
    CodeRefused,
    GameKind,
    GameStatus,
    KeyTaken,
    NameTaken,
    NewGame,
    PoolRating,
    SchemaError,
    StorageError,
    StoredGame,
    StoredKey,
    StoredMove,
    Update,
    colour_word,
)
from .names import Name
from .storage import ratings_after

__all__ = ["PostgresFanout", "PostgresStorage"]

log = logging.getLogger(__name__)

T = TypeVar("T")
Connection = AsyncConnection[DictRow]

POOL_SIZE: Final = 8
"""Connections one server process keeps at most (each call holds one for its transaction only)."""
CONNECT_SECONDS: Final = 10.0
"""How long opening the storage waits for the database."""
RECONNECT_SECONDS: Final = 1.0
"""How long the listening connection waits before it is made again after it broke."""
MIGRATION_LOCK: Final = 0x63657363  # "cesc"
"""The advisory lock that lets one process at a time migrate a database."""
CONNECTION: Final[dict[str, Any]] = {
    "autocommit": True,  # each call opens its own transaction
    "row_factory": dict_row,
    "connect_timeout": int(CONNECT_SECONDS),
    # TCP keepalives: a connection to a database that vanished (a cable, a firewall) breaks within about a minute.
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
}
"""How every connection is made (and then :func:`_configure`: its session in UTC)."""


def _utc(moment: datetime.datetime) -> datetime.datetime:
    return moment.astimezone(datetime.UTC)


def where(url: str) -> str:
    """The database ``url`` names, for a message: host, port and database, never a password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "an address that cannot be read"
    host = parts.get("host") or parts.get("hostaddr") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"{host}{port}/{parts.get('dbname') or '?'}"


async def _connect(url: str) -> Connection:
    connection = await AsyncConnection.connect(url, **CONNECTION)
    try:
        await _configure(connection)
    except BaseException:
        await connection.close()
        raise
    return connection


async def _configure(connection: Connection) -> None:
    """A new connection's session: its times in UTC."""
    await connection.execute("SET TIME ZONE 'UTC'")


class PostgresFanout:
    """Every process's changes, heard on one ``LISTEN`` ing connection and told to this process's listeners."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._local = LocalFanout()
        self._task: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def listen(self) -> AsyncIterator[AsyncIterator[Change]]:
        async with self._local.listen() as changes:
            await self._start()
            yield changes

    async def _start(self) -> None:
        """Make the listening connection, the first time: once this returns, every commit is heard."""
        async with self._starting:
            if self._task is None or self._task.done():
                connection = await self._listening()
                self._task = asyncio.create_task(self._hear(connection), name="cescacs-postgres-listen")

    async def _listening(self) -> Connection:
        connection = await _connect(self._url)
        try:
            await connection.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            await connection.close()
            raise
        return connection

    async def _hear(self, connection: Connection) -> None:
        while True:
            try:
                async with connection:
                    async for notice in connection.notifies():
                        change = decode(notice.payload)
                        if change is not None:
                            self._local.tell(change)
            except psycopg.Error as broken:
                log.warning("the connection listening for changes broke (%s): making it again", broken)
            while True:
                await asyncio.sleep(RECONNECT_SECONDS)  # a pause between attempts, never a wait for a state
                try:
                    connection = await self._listening()
                except psycopg.Error as refused:
                    log.warning("listening for changes again failed (%s)", refused)
                    continue
                self._local.tell(Change(ChangeKind.RESYNC))  # what was sent meanwhile was not heard
                break

    async def close(self) -> None:
        if self._task is not None:
            await stop_tasks(self._task)


class PostgresStorage:
    """The :class:`~.storage.Storage` of one PostgreSQL database (see the module's description)."""

    def __init__(self, url: str, pool: AsyncConnectionPool[Connection]) -> None:
        self.url = url
        self._pool = pool
        self._fanout = PostgresFanout(url)
        self._giving_back: set[asyncio.Task[None]] = set()

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStorage:
        """Connect to the database at ``url``; :meth:`migrate` brings its schema up to date.

        Raises :class:`~.model.StorageError` saying why when the database cannot be reached.
        """
        try:
            first = await _connect(url)  # a clear reason now, rather than a pool's time-out later
        except psycopg.Error as refused:
            raise StorageError(f"PostgreSQL at {where(url)}: {str(refused).strip()}") from None
        await first.close()
        pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
            url,
            connection_class=AsyncConnection[DictRow],
            kwargs=CONNECTION,
            configure=_configure,
            min_size=1,
            max_size=pool_size,
            open=False,
            name="cescacs",
        )
        try:
            await pool.open(wait=True, timeout=CONNECT_SECONDS)
        except PoolTimeout:
            await pool.close()
            raise StorageError(f"PostgreSQL at {where(url)}: no connection within {CONNECT_SECONDS:g} s") from None
        return cls(url, pool)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool, given back when the block ends (what ``pool.connection()`` does, but
        cancellable).

        The pool waits for a free connection with ``asyncio.wait_for``, which on Python 3.11 loses a
        cancellation that arrives as the connection is handed over (CPython gh-86296, fixed in 3.12 only;
        psycopg leaves it to its callers: psycopg#1345, psycopg#1413).  The call then went on as if never
        cancelled, and whoever waited for it to end (a visitor's session closing, a process stopping) could
        wait forever.  So the wait is shielded: the caller is cancelled at once, and a connection handed over
        after that goes straight back to the pool."""
        taking = asyncio.ensure_future(self._pool.getconn())
        try:
            connection = await asyncio.shield(taking)
        except asyncio.CancelledError:
            taking.add_done_callback(self._give_back)
            raise
        try:
            async with connection:
                yield connection
        finally:
            await self._pool.putconn(connection)

    def _give_back(self, taking: asyncio.Future[Connection]) -> None:
        """Return to the pool the connection it handed to a caller cancelled meanwhile (none if it failed)."""
        if taking.cancelled() or taking.exception() is not None:
            return
        giving = asyncio.ensure_future(self._pool.putconn(taking.result()))
        self._giving_back.add(giving)
        giving.add_done_callback(self._giving_back.discard)

    @contextlib.asynccontextmanager
    async def _transaction(self, *, snapshot: bool = False) -> AsyncIterator[Connection]:
        """A pooled connection in one transaction, committed when the block ends (rolled back on an error);
        ``snapshot``: a read-only one whose every statement sees the same snapshot."""
        async with self._connection() as connection, connection.transaction():
            if snapshot:
                await connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield connection

    async def _written(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work`` in a transaction, run once more if a unique index refused what another process wrote first
        (the second run's checks find it and say so)."""
        try:
            async with self._transaction() as connection:
                return await work(connection)
        except UniqueViolation:
            async with self._transaction() as connection:
                return await work(connection)

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> DictRow | None:
        async with self._transaction() as connection:
            return await (await connection.execute(sql, args)).fetchone()

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[DictRow]:
        async with self._transaction() as connection:
            return await (await connection.execute(sql, args)).fetchall()

    # --- the database itself -------------------------------------------------------------------------------

    async def migrate(self) -> int:
        latest = MIGRATIONS[-1].version
        async with self._connection() as connection:
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                await connection.execute(POSTGRESQL.schema_table())
            for migration in MIGRATIONS:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                    have = await _scalar(connection, f"SELECT COALESCE(MAX(version), 0) AS v FROM {SCHEMA_TABLE}")
                    if have > latest:
                        raise SchemaError(
                            f"the database is at schema version {have}, made by a newer program "
                            f"(this one knows {latest})"
                        )
                    if migration.version <= have:
                        continue
                    for statement in POSTGRESQL.statements(migration):
                        await connection.execute(statement)
                    await connection.execute(
                        f"INSERT INTO {SCHEMA_TABLE} (version, name, applied) VALUES (%s, %s, now())",
                        (migration.version, migration.name),
                    )
            return await _scalar(connection, f"SELECT MAX(version) AS v FROM {SCHEMA_TABLE}")

    async def close(self) -> None:
        try:
            await self._fanout.close()
            await asyncio.gather(*self._giving_back)
        finally:
            await self._pool.close()

    @property
    def fanout(self) -> PostgresFanout:
        return self._fanout

    # --- accounts and keys -----------------------------------------------------------------------------------

    async def create_account(
        self, name: Name, key: PublicKey, now: datetime.datetime, invitation: str | None = None
    ) -> Account:
        async def write(connection: Connection) -> Account:
            if invitation is not None:
                await _spend_code(connection, invitation, CodeKind.INVITATION, now)
            if await _fetch(connection, "SELECT 1 FROM keys WHERE fingerprint = %s", (key.fingerprint,)):
                raise KeyTaken(key.fingerprint)
            clash = await _fetch(
                connection, "SELECT name FROM accounts WHERE name_fold = %s OR name_shape = %s", (name.fold, name.shape)
            )
            if clash is not None:
                raise NameTaken(clash["name"])
            row = await _fetch(
                connection,
                "INSERT INTO accounts (name, name_fold, name_shape, created) VALUES (%s, %s, %s, %s) RETURNING *",
                (name.text, name.fold, name.shape, now),
            )
            assert row is not None
            await _add_key(connection, row["id"], key, now)
            await _notify(connection, Change(ChangeKind.ACCOUNT, row["id"]))
            return rows.account(row, _utc)

        return await self._written(write)

    async def account_by_key(self, fingerprint: str) -> Account | None:
        sql = "SELECT a.* FROM keys AS k JOIN accounts AS a ON a.id = k.account WHERE k.fingerprint = %s"
        row = await self._one(sql, (fingerprint,))
        return None if row is None else rows.account(row, _utc)

    async def account_named(self, fold: str) -> Account | None:
        row = await self._one("SELECT * FROM accounts WHERE name_fold = %s", (fold,))
        return None if row is None else rows.account(row, _utc)

    async def account(self, account: int) -> Account | None:
        row = await self._one("SELECT * FROM accounts WHERE id = %s", (account,))
        return None if row is None else rows.account(row, _utc)

    async def keys(self, account: int) -> Sequence[StoredKey]:
        found = await self._all("SELECT * FROM keys WHERE account = %s ORDER BY added, fingerprint", (account,))
        return [rows.key(row, _utc) for row in found]

    async def create_code(
        self, digest: str, kind: CodeKind, account: int | None, uses: int, expires: datetime.datetime
    ) -> None:
        async with self._transaction() as connection:
            await connection.execute(
                "INSERT INTO codes (digest, kind, account, uses_left, expires) VALUES (%s, %s, %s, %s, %s)",
                (digest, kind.value, account, uses, expires),
            )

    async def link_key(self, digest: str, key: PublicKey, now: datetime.datetime) -> Account:
        async def write(connection: Connection) -> Account:
            owner = await _spend_code(connection, digest, CodeKind.LINK, now)
            assert owner is not None  # a link code has its account (a constraint of the table)
            if await _fetch(connection, "SELECT 1 FROM keys WHERE fingerprint = %s", (key.fingerprint,)):
                raise KeyTaken(key.fingerprint)
            await _add_key(connection, owner, key, now)
            row = await _fetch(connection, "SELECT * FROM accounts WHERE id = %s", (owner,))
            assert row is not None
            await _notify(connection, Change(ChangeKind.ACCOUNT, owner))
            return rows.account(row, _utc)

        return await self._written(write)

    async def remove_key(self, account: int, fingerprint: str) -> bool:
        async with self._transaction() as connection:
            await connection.execute("SELECT id FROM accounts WHERE id = %s FOR UPDATE", (account,))
            others = await _scalar(
                connection,
                "SELECT COUNT(*) AS v FROM keys WHERE account = %s AND fingerprint <> %s",
                (account, fingerprint),
            )
            if not others:
                return False
            deleted = await connection.execute(
                "DELETE FROM keys WHERE account = %s AND fingerprint = %s", (account, fingerprint)
            )
            if deleted.rowcount == 1:
                await _notify(connection, Change(ChangeKind.ACCOUNT, account))
            return deleted.rowcount == 1

    async def set_notify(self, account: int, on: bool) -> None:
        async with self._transaction() as connection:
            await connection.execute("UPDATE accounts SET notify = %s WHERE id = %s", (on, account))

    # --- games ----------------------------------------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime.datetime) -> StoredGame:
        async with self._transaction() as connection:
            made = await _fetch(
                connection,
                "INSERT INTO games (status, kind, time_control, creator, creator_plays, opponent, created) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (
                    (GameStatus.SEEK if new.opponent is None else GameStatus.CHALLENGE).value,
                    new.kind.value,
                    new.time_control,
                    new.creator,
                    new.creator_plays.value,
                    new.opponent,
                    now,
                ),
            )
            assert made is not None
            game = await _read_game(connection, made["id"])
            assert game is not None
            await _notify(connection, Change(ChangeKind.GAME, game.id, 0))
            return game

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
        async with self._transaction() as connection:
            cursor = await connection.execute(
                "UPDATE games SET status = 'playing', opponent = %s, white = %s, black = %s, started = %s, "
                "turn_started = %s, white_clock = %s, black_clock = %s, deadline = %s WHERE id = %s AND "
                "((status = 'seek' AND creator <> %s) OR (status = 'challenge' AND opponent = %s))",
                (acceptor, white, black, now, now, clocks[0], clocks[1], deadline, game, acceptor, acceptor),
            )
            if cursor.rowcount != 1:
                return None
            await _notify(connection, Change(ChangeKind.GAME, game, 0))
            return await _read_game(connection, game)

    async def withdraw_game(self, game: int, account: int) -> bool:
        async with self._transaction() as connection:
            cursor = await connection.execute(
                "DELETE FROM games WHERE id = %s AND status IN ('seek', 'challenge') "
                "AND (creator = %s OR opponent = %s)",
                (game, account, account),
            )
            if cursor.rowcount == 1:
                await _notify(connection, Change(ChangeKind.GAME, game, 0))
            return cursor.rowcount == 1

    async def game(self, game: int) -> StoredGame | None:
        async with self._transaction() as connection:
            return await _read_game(connection, game)

    async def game_and_moves(self, game: int) -> tuple[StoredGame, Sequence[StoredMove]] | None:
        async with self._transaction(snapshot=True) as connection:
            stored = await _read_game(connection, game)
            if stored is None:
                return None
            cursor = await connection.execute("SELECT * FROM moves WHERE game = %s ORDER BY ply", (game,))
            return stored, [rows.move(row, _utc) for row in await cursor.fetchall()]

    async def games_of(self, account: int, *, finished: bool = False, limit: int = 100) -> Sequence[StoredGame]:
        if finished:
            condition = "(g.white = %s OR g.black = %s) AND g.status = 'finished' ORDER BY g.finished DESC, g.id DESC"
            args: tuple[int, ...] = (account, account, limit)
        else:
            condition = (
                "(g.white = %s OR g.black = %s OR g.creator = %s OR g.opponent = %s) AND g.status <> 'finished' "
                "ORDER BY g.id"
            )
            args = (account, account, account, account, limit)
        return await self._games(f"{rows.GAME_SELECT} WHERE {condition} LIMIT %s", args)

    async def _games(self, sql: str, args: Sequence[Any]) -> list[StoredGame]:
        return [rows.game(row, _utc) for row in await self._all(sql, args)]

    async def seeks(self, limit: int = 100) -> Sequence[StoredGame]:
        return await self._games(f"{rows.GAME_SELECT} WHERE g.status = 'seek' ORDER BY g.id LIMIT %s", (limit,))

    async def under_way(self, limit: int = 100) -> Sequence[StoredGame]:
        condition = "g.status = 'playing' ORDER BY g.turn_started DESC, g.id DESC LIMIT %s"
        return await self._games(f"{rows.GAME_SELECT} WHERE {condition}", (limit,))

    async def offers_by(self, account: int) -> int:
        async with self._transaction() as connection:
            sql = "SELECT COUNT(*) AS v FROM games WHERE status IN ('seek', 'challenge') AND creator = %s"
            return await _scalar(connection, sql, (account,))

    async def games_under_way(self, account: int) -> int:
        async with self._transaction() as connection:
            sql = "SELECT COUNT(*) AS v FROM games WHERE status = 'playing' AND (white = %s OR black = %s)"
            return await _scalar(connection, sql, (account, account))

    async def overdue(self, now: datetime.datetime, limit: int = 100) -> Sequence[StoredGame]:
        condition = "g.status = 'playing' AND g.deadline IS NOT NULL AND g.deadline <= %s ORDER BY g.deadline LIMIT %s"
        return await self._games(f"{rows.GAME_SELECT} WHERE {condition}", (now, limit))

    async def update_game(self, game: int, seen_ply: int, update: Update, now: datetime.datetime) -> StoredGame | None:
        async with self._transaction() as connection:
            row = await _fetch(connection, "SELECT * FROM games WHERE id = %s FOR UPDATE", (game,))
            if row is None or row["status"] != GameStatus.PLAYING or row["ply"] != seen_ply:
                return None
            ply = seen_ply
            if update.move is not None:
                ply += 1
                move = update.move
                await connection.execute(
                    "INSERT INTO moves (game, ply, move, played, clock, draw_offer) VALUES (%s, %s, %s, %s, %s, %s)",
                    (game, ply, move.move, move.played, move.clock, move.draw_offer),
                )
            elif update.marks_offer and seen_ply:
                await connection.execute(
                    "UPDATE moves SET draw_offer = TRUE WHERE game = %s AND ply = %s", (game, seen_ply)
                )
            finished = update.result != UNFINISHED
            ratings: tuple[float | None, ...] = (None, None, None, None)
            if finished:
                ratings = await _rate(connection, row, update.result, now)
            await connection.execute(
                "UPDATE games SET ply = %s, draw_offer = %s, result = %s, ending = %s, white_clock = %s, "
                "black_clock = %s, deadline = %s, turn_started = %s, status = %s, finished = %s, "
                "white_rating_before = %s, white_rating_after = %s, black_rating_before = %s, "
                "black_rating_after = %s WHERE id = %s",
                (
                    ply,
                    colour_word(update.draw_offer),
                    update.result,
                    update.ending,
                    update.white_clock,
                    update.black_clock,
                    update.deadline,
                    update.turn_started,
                    (GameStatus.FINISHED if finished else GameStatus.PLAYING).value,
                    now if finished else None,
                    *ratings,
                    game,
                ),
            )
            await _notify(connection, Change(ChangeKind.GAME, game, ply))
            return await _read_game(connection, game)

    # --- presence -------------------------------------------------------------------------------------------

    async def arrive(self, account: int, node: str, now: datetime.datetime) -> None:
        async with self._transaction() as connection:
            await _beat(connection, node, now)
            await connection.execute(
                "INSERT INTO presence (account, node, sessions, since) VALUES (%s, %s, 1, %s) "
                "ON CONFLICT (account, node) DO UPDATE SET sessions = presence.sessions + 1",
                (account, node, now),
            )
            await _notify(connection, Change(ChangeKind.PRESENCE, account))

    async def leave(self, account: int, node: str) -> None:
        async with self._transaction() as connection:
            condition = "WHERE account = %s AND node = %s"
            await connection.execute(f"DELETE FROM presence {condition} AND sessions = 1", (account, node))
            await connection.execute(f"UPDATE presence SET sessions = sessions - 1 {condition}", (account, node))
            await _notify(connection, Change(ChangeKind.PRESENCE, account))

    async def online(self, limit: int = 100) -> Sequence[Account]:
        found = await self._all(
            "SELECT * FROM accounts WHERE id IN (SELECT account FROM presence) ORDER BY name_fold, id LIMIT %s",
            (limit,),
        )
        return [rows.account(row, _utc) for row in found]

    async def beat(self, node: str, now: datetime.datetime, stale: datetime.datetime) -> int:
        async with self._transaction() as connection:
            await _beat(connection, node, now)
            forgotten = (await connection.execute("DELETE FROM nodes WHERE seen < %s", (stale,))).rowcount
            if forgotten:
                await _notify(connection, Change(ChangeKind.PRESENCE))
            return forgotten

    # --- ratings --------------------------------------------------------------------------------------------

    async def rating(self, account: int, pool: GameKind) -> Rating:
        async with self._transaction() as connection:
            return (await _read_rating(connection, account, pool))[0]

    async def ratings(self, pool: GameKind, limit: int = 100) -> Sequence[PoolRating]:
        found = await self._all(
            "SELECT r.*, a.name FROM ratings AS r JOIN accounts AS a ON a.id = r.account "
            "WHERE r.pool = %s ORDER BY r.rating DESC, a.name LIMIT %s",
            (pool.value, limit),
        )
        return [rows.pool_rating(row, pool, _utc) for row in found]


# --- inside a transaction -------------------------------------------------------------------------------------


async def _fetch(connection: Connection, sql: str, args: Sequence[Any] = ()) -> DictRow | None:
    return await (await connection.execute(sql, args)).fetchone()


async def _scalar(connection: Connection, sql: str, args: Sequence[Any] = ()) -> int:
    """The column ``v`` of the one row ``sql`` returns."""
    row = await _fetch(connection, sql, args)
    assert row is not None
    return int(row["v"])


async def _notify(connection: Connection, change: Change) -> None:
    """Tell every listening process of ``change`` when (and only if) this transaction commits."""
    await connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, encode(change)))


async def _beat(connection: Connection, node: str, now: datetime.datetime) -> None:
    await connection.execute(
        "INSERT INTO nodes (id, seen) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE SET seen = excluded.seen",
        (node, now),
    )


async def _spend_code(connection: Connection, digest: str, kind: CodeKind, now: datetime.datetime) -> int | None:
    """Spend one use of a code; the account that made it (``None`` for the operator's invitations)."""
    row = await _fetch(
        connection,
        "UPDATE codes SET uses_left = uses_left - 1 "
        "WHERE digest = %s AND kind = %s AND uses_left > 0 AND expires > %s RETURNING account",
        (digest, kind.value, now),
    )
    if row is None:
        raise CodeRefused(kind.value)
    account: int | None = row["account"]
    return account


async def _add_key(connection: Connection, account: int, key: PublicKey, now: datetime.datetime) -> None:
    await connection.execute(
        "INSERT INTO keys (fingerprint, account, key, added) VALUES (%s, %s, %s, %s)",
        (key.fingerprint, account, key.text, now),
    )


async def _read_game(connection: Connection, game: int) -> StoredGame | None:
    row = await _fetch(connection, f"{rows.GAME_SELECT} WHERE g.id = %s", (game,))
    return None if row is None else rows.game(row, _utc)


async def _read_rating(
    connection: Connection, account: int, pool: GameKind
) -> tuple[Rating, int, datetime.datetime | None]:
    row = await _fetch(connection, "SELECT * FROM ratings WHERE account = %s AND pool = %s", (account, pool.value))
    if row is None:
        return Rating(), 0, None
    return Rating(row["rating"], row["deviation"], row["volatility"]), row["games"], _utc(row["rated"])


async def _rate(connection: Connection, game: DictRow, result: str, now: datetime.datetime) -> tuple[float, ...]:
    """Rate both players of ``game`` in its pool, their accounts locked first; their ratings before and after
    (White's, then Black's)."""
    await connection.execute(
        "SELECT id FROM accounts WHERE id IN (%s, %s) ORDER BY id FOR UPDATE", (game["white"], game["black"])
    )
    pool = GameKind(game["kind"])
    white_rating, white_games, white_rated = await _read_rating(connection, game["white"], pool)
    black_rating, black_games, black_rated = await _read_rating(connection, game["black"], pool)
    new_white, new_black = ratings_after((white_rating, white_rated), (black_rating, black_rated), result, now)
    for account, rating, games in ((game["white"], new_white, white_games), (game["black"], new_black, black_games)):
        await connection.execute(
            "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, rated) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
            "rated = excluded.rated",
            (account, pool.value, rating.rating, rating.deviation, rating.volatility, games + 1, now),
        )
    return white_rating.rating, new_white.rating, black_rating.rating, new_black.rating

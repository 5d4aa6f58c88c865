"""The server's storage in one SQLite file (the standard library's ``sqlite3``): the embedded default.

The database is in WAL mode (readers never wait for the writer) with
``synchronous=FULL`` (a commit is on disk, the write-ahead log flushed,
before it returns: an acknowledged move survives a crash of the process and
of the machine) and foreign keys enforced; the file is made readable by its
owner only.  One connection serves the storage, on a thread of its own
(``sqlite3`` blocks, the server's event loop must not), so calls run one
after another; every write begins with ``BEGIN IMMEDIATE``, which takes
SQLite's write lock at once, so another process on the same file (a backup,
a second server by mistake) waits for it (``busy_timeout``) instead of
failing half-way, and a check made inside the transaction still holds when
it commits.  Changes are told to this process's listeners only
(:class:`~.fanout.LocalFanout`): a SQLite database serves one server process.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

from ..core.outcome import UNFINISHED
from ..core.safe_text import printable
from ..data.ratings import Rating
from . import rows
from .fanout import LocalFanout
from .keys import PublicKey
from .migrations import MIGRATIONS, SCHEMA_TABLE, SQLITE
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

__all__ = ["SqliteStorage"]

T = TypeVar("T")

BUSY_SECONDS: Final = 10.0
"""How long a write waits for another process's transaction on the same file before it gives up."""


def _ms(moment: datetime.datetime) -> int:
    """A time as the database keeps it: milliseconds since the epoch (UTC)."""
    return round(moment.timestamp() * 1000)


def _time(ms: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def _maybe_time(ms: int | None) -> datetime.datetime | None:
    return None if ms is None else _time(ms)


@contextlib.contextmanager
def _writing(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, holding the write lock from its first statement; rolled back on any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


@contextlib.contextmanager
def _reading(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction: every statement in it sees the same snapshot."""
    connection.execute("BEGIN")
    try:
        yield connection
    finally:
        connection.execute("COMMIT")


class SqliteStorage:
    """The :class:`~.storage.Storage` of one SQLite file (see the module's description)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, executor: ThreadPoolExecutor) -> None:
        self.path = path
        self._connection = connection
        self._executor = executor
        self._fanout = LocalFanout()

    @classmethod
    async def open(cls, path: Path, *, busy_seconds: float = BUSY_SECONDS) -> SqliteStorage:
        """Open (or make) the database at ``path``; :meth:`migrate` brings its schema up to date."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cescacs-sqlite")
        try:
            connection = await asyncio.get_running_loop().run_in_executor(executor, _connect, path, busy_seconds)
        except sqlite3.Error as error:  # not a database, or one SQLite cannot open: said, never a traceback
            executor.shutdown(wait=False)
            raise StorageError(f"{printable(str(path), 200)}: {error}") from None
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(path, connection, executor)

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        """Run ``work(connection, *args)`` on the connection's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(work, self._connection, *args))

    # --- the database itself -------------------------------------------------------------------------------

    async def migrate(self) -> int:
        return await self._run(_migrate)

    async def close(self) -> None:
        try:
            await self._run(lambda connection: connection.close())
        finally:
            self._executor.shutdown(wait=True)

    @property
    def fanout(self) -> LocalFanout:
        return self._fanout

    # --- accounts and keys -----------------------------------------------------------------------------------

    async def create_account(
        self, name: Name, key: PublicKey, now: datetime.datetime, invitation: str | None = None
    ) -> Account:
        account = await self._run(_create_account, name, key, _ms(now), invitation)
        self._fanout.tell(Change(ChangeKind.ACCOUNT, account.id))
        return account

    async def account_by_key(self, fingerprint: str) -> Account | None:
        sql = "SELECT a.* FROM keys AS k JOIN accounts AS a ON a.id = k.account WHERE k.fingerprint = ?"
        return await self._run(_one_account, sql, (fingerprint,))

    async def account_named(self, fold: str) -> Account | None:
        return await self._run(_one_account, "SELECT * FROM accounts WHERE name_fold = ?", (fold,))

    async def account(self, account: int) -> Account | None:
        return await self._run(_one_account, "SELECT * FROM accounts WHERE id = ?", (account,))

    async def keys(self, account: int) -> Sequence[StoredKey]:
        def read(connection: sqlite3.Connection) -> list[StoredKey]:
            found = connection.execute(
                "SELECT * FROM keys WHERE account = ? ORDER BY added, fingerprint", (account,)
            ).fetchall()
            return [rows.key(row, _time) for row in found]

        return await self._run(read)

    async def create_code(
        self, digest: str, kind: CodeKind, account: int | None, uses: int, expires: datetime.datetime
    ) -> None:
        def write(connection: sqlite3.Connection) -> None:
            with _writing(connection):
                connection.execute(
                    "INSERT INTO codes (digest, kind, account, uses_left, expires) VALUES (?, ?, ?, ?, ?)",
                    (digest, kind.value, account, uses, _ms(expires)),
                )

        await self._run(write)

    async def link_key(self, digest: str, key: PublicKey, now: datetime.datetime) -> Account:
        account = await self._run(_link_key, digest, key, _ms(now))
        self._fanout.tell(Change(ChangeKind.ACCOUNT, account.id))
        return account

    async def remove_key(self, account: int, fingerprint: str) -> bool:
        def write(connection: sqlite3.Connection) -> bool:
            with _writing(connection):
                others = connection.execute(
                    "SELECT COUNT(*) FROM keys WHERE account = ? AND fingerprint <> ?", (account, fingerprint)
                ).fetchone()[0]
                if not others:
                    return False
                deleted = connection.execute(
                    "DELETE FROM keys WHERE account = ? AND fingerprint = ?", (account, fingerprint)
                )
                return deleted.rowcount == 1

        removed = await self._run(write)
        if removed:
            self._fanout.tell(Change(ChangeKind.ACCOUNT, account))
        return removed

    async def set_notify(self, account: int, on: bool) -> None:
        def write(connection: sqlite3.Connection) -> None:
            with _writing(connection):
                connection.execute("UPDATE accounts SET notify = ? WHERE id = ?", (int(on), account))

        await self._run(write)

    # --- games ----------------------------------------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime.datetime) -> StoredGame:
        def write(connection: sqlite3.Connection) -> StoredGame:
            with _writing(connection):
                cursor = connection.execute(
                    "INSERT INTO games (status, kind, time_control, creator, creator_plays, opponent, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        (GameStatus.SEEK if new.opponent is None else GameStatus.CHALLENGE).value,
                        new.kind.value,
                        new.time_control,
                        new.creator,
                        new.creator_plays.value,
                        new.opponent,
                        _ms(now),
                    ),
                )
                game = _read_game(connection, cursor.lastrowid)
                assert game is not None
                return game

        game = await self._run(write)
        self._fanout.tell(Change(ChangeKind.GAME, game.id, 0))
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
        def write(connection: sqlite3.Connection) -> StoredGame | None:
            with _writing(connection):
                cursor = connection.execute(
                    "UPDATE games SET status = 'playing', opponent = ?, white = ?, black = ?, started = ?, "
                    "turn_started = ?, white_clock = ?, black_clock = ?, deadline = ? "
                    "WHERE id = ? AND ((status = 'seek' AND creator <> ?) OR (status = 'challenge' AND opponent = ?))",
                    (
                        acceptor,
                        white,
                        black,
                        _ms(now),
                        _ms(now),
                        clocks[0],
                        clocks[1],
                        None if deadline is None else _ms(deadline),
                        game,
                        acceptor,
                        acceptor,
                    ),
                )
                return _read_game(connection, game) if cursor.rowcount == 1 else None

        started = await self._run(write)
        if started is not None:
            self._fanout.tell(Change(ChangeKind.GAME, game, 0))
        return started

    async def withdraw_game(self, game: int, account: int) -> bool:
        def write(connection: sqlite3.Connection) -> bool:
            with _writing(connection):
                cursor = connection.execute(
                    "DELETE FROM games WHERE id = ? AND status IN ('seek', 'challenge') "
                    "AND (creator = ? OR opponent = ?)",
                    (game, account, account),
                )
                return cursor.rowcount == 1

        withdrawn = await self._run(write)
        if withdrawn:
            self._fanout.tell(Change(ChangeKind.GAME, game, 0))
        return withdrawn

    async def game(self, game: int) -> StoredGame | None:
        return await self._run(_read_game, game)

    async def game_and_moves(self, game: int) -> tuple[StoredGame, Sequence[StoredMove]] | None:
        def read(connection: sqlite3.Connection) -> tuple[StoredGame, Sequence[StoredMove]] | None:
            with _reading(connection):
                stored = _read_game(connection, game)
                if stored is None:
                    return None
                moves = connection.execute("SELECT * FROM moves WHERE game = ? ORDER BY ply", (game,)).fetchall()
                return stored, [rows.move(row, _time) for row in moves]

        return await self._run(read)

    async def games_of(self, account: int, *, finished: bool = False, limit: int = 100) -> Sequence[StoredGame]:
        if finished:
            where = "(g.white = ? OR g.black = ?) AND g.status = 'finished' ORDER BY g.finished DESC, g.id DESC"
            args: tuple[int, ...] = (account, account, limit)
        else:
            where = (
                "(g.white = ? OR g.black = ? OR g.creator = ? OR g.opponent = ?) AND g.status <> 'finished' "
                "ORDER BY g.id"
            )
            args = (account, account, account, account, limit)
        return await self._run(_read_games, f"{rows.GAME_SELECT} WHERE {where} LIMIT ?", args)

    async def seeks(self, limit: int = 100) -> Sequence[StoredGame]:
        return await self._run(
            _read_games, f"{rows.GAME_SELECT} WHERE g.status = 'seek' ORDER BY g.id LIMIT ?", (limit,)
        )

    async def under_way(self, limit: int = 100) -> Sequence[StoredGame]:
        where = "g.status = 'playing' ORDER BY g.turn_started DESC, g.id DESC LIMIT ?"
        return await self._run(_read_games, f"{rows.GAME_SELECT} WHERE {where}", (limit,))

    async def offers_by(self, account: int) -> int:
        def read(connection: sqlite3.Connection) -> int:
            sql = "SELECT COUNT(*) FROM games WHERE status IN ('seek', 'challenge') AND creator = ?"
            return int(connection.execute(sql, (account,)).fetchone()[0])

        return await self._run(read)

    async def games_under_way(self, account: int) -> int:
        def read(connection: sqlite3.Connection) -> int:
            sql = "SELECT COUNT(*) FROM games WHERE status = 'playing' AND (white = ? OR black = ?)"
            return int(connection.execute(sql, (account, account)).fetchone()[0])

        return await self._run(read)

    async def overdue(self, now: datetime.datetime, limit: int = 100) -> Sequence[StoredGame]:
        where = "g.status = 'playing' AND g.deadline IS NOT NULL AND g.deadline <= ? ORDER BY g.deadline LIMIT ?"
        return await self._run(_read_games, f"{rows.GAME_SELECT} WHERE {where}", (_ms(now), limit))

    async def update_game(self, game: int, seen_ply: int, update: Update, now: datetime.datetime) -> StoredGame | None:
        updated = await self._run(_update_game, game, seen_ply, update, now)
        if updated is not None:
            self._fanout.tell(Change(ChangeKind.GAME, game, updated.ply))
        return updated

    # --- presence -------------------------------------------------------------------------------------------

    async def arrive(self, account: int, node: str, now: datetime.datetime) -> None:
        def write(connection: sqlite3.Connection) -> None:
            with _writing(connection):
                _beat(connection, node, _ms(now))
                connection.execute(
                    "INSERT INTO presence (account, node, sessions, since) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT (account, node) DO UPDATE SET sessions = presence.sessions + 1",
                    (account, node, _ms(now)),
                )

        await self._run(write)
        self._fanout.tell(Change(ChangeKind.PRESENCE, account))

    async def leave(self, account: int, node: str) -> None:
        def write(connection: sqlite3.Connection) -> None:
            with _writing(connection):
                where = "WHERE account = ? AND node = ?"
                connection.execute(f"DELETE FROM presence {where} AND sessions = 1", (account, node))
                connection.execute(f"UPDATE presence SET sessions = sessions - 1 {where}", (account, node))

        await self._run(write)
        self._fanout.tell(Change(ChangeKind.PRESENCE, account))

    async def online(self, limit: int = 100) -> Sequence[Account]:
        def read(connection: sqlite3.Connection) -> list[Account]:
            found = connection.execute(
                "SELECT * FROM accounts WHERE id IN (SELECT account FROM presence) ORDER BY name_fold, id LIMIT ?",
                (limit,),
            ).fetchall()
            return [rows.account(row, _time) for row in found]

        return await self._run(read)

    async def beat(self, node: str, now: datetime.datetime, stale: datetime.datetime) -> int:
        def write(connection: sqlite3.Connection) -> int:
            with _writing(connection):
                _beat(connection, node, _ms(now))
                return connection.execute("DELETE FROM nodes WHERE seen < ?", (_ms(stale),)).rowcount

        forgotten = await self._run(write)
        if forgotten:
            self._fanout.tell(Change(ChangeKind.PRESENCE))
        return forgotten

    # --- ratings --------------------------------------------------------------------------------------------

    async def rating(self, account: int, pool: GameKind) -> Rating:
        def read(connection: sqlite3.Connection) -> Rating:
            return _read_rating(connection, account, pool)[0]

        return await self._run(read)

    async def ratings(self, pool: GameKind, limit: int = 100) -> Sequence[PoolRating]:
        def read(connection: sqlite3.Connection) -> list[PoolRating]:
            found = connection.execute(
                "SELECT r.*, a.name FROM ratings AS r JOIN accounts AS a ON a.id = r.account "
                "WHERE r.pool = ? ORDER BY r.rating DESC, a.name LIMIT ?",
                (pool.value, limit),
            ).fetchall()
            return [rows.pool_rating(row, pool, _time) for row in found]

        return await self._run(read)


# --- on the connection's thread -------------------------------------------------------------------------------


def _connect(path: Path, busy_seconds: float) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):  # the players' keys and the codes' digests: the owner's only
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
    connection = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None)
    try:
        connection.row_factory = sqlite3.Row
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise SchemaError(f"{path} cannot be put in WAL mode (it stays {mode})")
        connection.execute("PRAGMA synchronous = FULL")
        connection.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        connection.close()
        raise
    return connection


def _migrate(connection: sqlite3.Connection) -> int:
    with _writing(connection):
        connection.execute(SQLITE.schema_table())
    latest = MIGRATIONS[-1].version
    for migration in MIGRATIONS:
        with _writing(connection):
            have = connection.execute(f"SELECT COALESCE(MAX(version), 0) FROM {SCHEMA_TABLE}").fetchone()[0]
            if have > latest:
                raise SchemaError(
                    f"the database is at schema version {have}, made by a newer program (this one knows {latest})"
                )
            if migration.version <= have:
                continue
            for statement in SQLITE.statements(migration):
                connection.execute(statement)
            connection.execute(
                f"INSERT INTO {SCHEMA_TABLE} (version, name, applied) VALUES (?, ?, ?)",
                (migration.version, migration.name, _ms(datetime.datetime.now(datetime.UTC))),
            )
    return int(connection.execute(f"SELECT MAX(version) FROM {SCHEMA_TABLE}").fetchone()[0])


def _beat(connection: sqlite3.Connection, node: str, now: int) -> None:
    connection.execute(
        "INSERT INTO nodes (id, seen) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET seen = excluded.seen", (node, now)
    )


def _one_account(connection: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> Account | None:
    row = connection.execute(sql, args).fetchone()
    return None if row is None else rows.account(row, _time)


def _spend_code(connection: sqlite3.Connection, digest: str, kind: CodeKind, now: int) -> sqlite3.Row:
    row: sqlite3.Row | None = connection.execute(
        "SELECT * FROM codes WHERE digest = ? AND kind = ? AND uses_left > 0 AND expires > ?",
        (digest, kind.value, now),
    ).fetchone()
    if row is None:
        raise CodeRefused(kind.value)
    connection.execute("UPDATE codes SET uses_left = uses_left - 1 WHERE digest = ?", (digest,))
    return row


def _add_key(connection: sqlite3.Connection, account: int, key: PublicKey, now: int) -> None:
    try:
        connection.execute(
            "INSERT INTO keys (fingerprint, account, key, added) VALUES (?, ?, ?, ?)",
            (key.fingerprint, account, key.text, now),
        )
    except sqlite3.IntegrityError:
        raise KeyTaken(key.fingerprint) from None


def _create_account(
    connection: sqlite3.Connection, name: Name, key: PublicKey, now: int, invitation: str | None
) -> Account:
    with _writing(connection):
        if invitation is not None:
            _spend_code(connection, invitation, CodeKind.INVITATION, now)
        if connection.execute("SELECT 1 FROM keys WHERE fingerprint = ?", (key.fingerprint,)).fetchone():
            raise KeyTaken(key.fingerprint)
        clash = connection.execute(
            "SELECT name FROM accounts WHERE name_fold = ? OR name_shape = ?", (name.fold, name.shape)
        ).fetchone()
        if clash is not None:
            raise NameTaken(clash["name"])
        cursor = connection.execute(
            "INSERT INTO accounts (name, name_fold, name_shape, created) VALUES (?, ?, ?, ?)",
            (name.text, name.fold, name.shape, now),
        )
        account = cursor.lastrowid
        assert account is not None
        _add_key(connection, account, key, now)
        return Account(account, name.text, _time(now), True)


def _link_key(connection: sqlite3.Connection, digest: str, key: PublicKey, now: int) -> Account:
    with _writing(connection):
        code = _spend_code(connection, digest, CodeKind.LINK, now)
        _add_key(connection, code["account"], key, now)
        row = connection.execute("SELECT * FROM accounts WHERE id = ?", (code["account"],)).fetchone()
        return rows.account(row, _time)


def _read_game(connection: sqlite3.Connection, game: int | None) -> StoredGame | None:
    row = connection.execute(f"{rows.GAME_SELECT} WHERE g.id = ?", (game,)).fetchone()
    return None if row is None else rows.game(row, _time)


def _read_games(connection: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[StoredGame]:
    return [rows.game(row, _time) for row in connection.execute(sql, args).fetchall()]


def _read_rating(connection: sqlite3.Connection, account: int, pool: GameKind) -> tuple[Rating, int, int | None]:
    row = connection.execute("SELECT * FROM ratings WHERE account = ? AND pool = ?", (account, pool.value)).fetchone()
    if row is None:
        return Rating(), 0, None
    return Rating(row["rating"], row["deviation"], row["volatility"]), row["games"], row["rated"]


def _update_game(
    connection: sqlite3.Connection, game: int, seen_ply: int, update: Update, now: datetime.datetime
) -> StoredGame | None:
    with _writing(connection):
        row = connection.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()
        if row is None or row["status"] != GameStatus.PLAYING or row["ply"] != seen_ply:
            return None
        ply = seen_ply
        if update.move is not None:
            ply += 1
            move = update.move
            connection.execute(
                "INSERT INTO moves (game, ply, move, played, clock, draw_offer) VALUES (?, ?, ?, ?, ?, ?)",
                (game, ply, move.move, _ms(move.played), move.clock, int(move.draw_offer)),
            )
        elif update.marks_offer and seen_ply:
            connection.execute("UPDATE moves SET draw_offer = 1 WHERE game = ? AND ply = ?", (game, seen_ply))
        finished = update.result != UNFINISHED
        ratings: tuple[float | None, ...] = (None, None, None, None)
        if finished:
            ratings = _rate(connection, row, update.result, now)
        cursor = connection.execute(
            "UPDATE games SET ply = ?, draw_offer = ?, result = ?, ending = ?, white_clock = ?, black_clock = ?, "
            "deadline = ?, turn_started = ?, status = ?, finished = ?, white_rating_before = ?, "
            "white_rating_after = ?, black_rating_before = ?, black_rating_after = ? "
            "WHERE id = ? AND ply = ? AND status = 'playing'",
            (
                ply,
                colour_word(update.draw_offer),
                update.result,
                update.ending,
                update.white_clock,
                update.black_clock,
                None if update.deadline is None else _ms(update.deadline),
                None if update.turn_started is None else _ms(update.turn_started),
                (GameStatus.FINISHED if finished else GameStatus.PLAYING).value,
                _ms(now) if finished else None,
                *ratings,
                game,
                seen_ply,
            ),
        )
        if cursor.rowcount != 1:
            raise AssertionError("the game changed inside its own write transaction")
        return _read_game(connection, game)


def _rate(connection: sqlite3.Connection, game: sqlite3.Row, result: str, now: datetime.datetime) -> tuple[float, ...]:
    """Rate both players of ``game`` in its pool; their ratings before and after (White's, then Black's)."""
    pool = GameKind(game["kind"])
    white_rating, white_games, white_rated = _read_rating(connection, game["white"], pool)
    black_rating, black_games, black_rated = _read_rating(connection, game["black"], pool)
    new_white, new_black = ratings_after(
        (white_rating, _maybe_time(white_rated)), (black_rating, _maybe_time(black_rated)), result, now
    )
    for account, rating, games in ((game["white"], new_white, white_games), (game["black"], new_black, black_games)):
        connection.execute(
            "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
            "rated = excluded.rated",
            (account, pool.value, rating.rating, rating.deviation, rating.volatility, games + 1, _ms(now)),
        )
    return white_rating.rating, new_white.rating, black_rating.rating, new_black.rating

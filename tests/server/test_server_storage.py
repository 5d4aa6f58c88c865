"""The server's storage, on every backend (tests/helpers/server.py: BACKENDS): migrations, accounts, games,
conditional writes, ratings, presence, changes; a process killed in a burst of moves, and two processes racing
for a ply.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.data.ratings import Rating, rate_game
from cescacs_tui.server.codes import code_digest
from cescacs_tui.server.lobby import Caller, Lobby, Terms
from cescacs_tui.server.migrations import MIGRATIONS
from cescacs_tui.server.model import (
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
    SchemaError,
    SidePreference,
    StorageError,
    StoredMove,
    Update,
)
from cescacs_tui.server.names import parse_name
from cescacs_tui.server.postgres import PostgresStorage
from cescacs_tui.server.storage import RATING_PERIOD, Storage, is_postgresql, open_storage, ratings_after
from tests.helpers.postgres import PrivatePostgres
from tests.helpers.server import START, first, new_key, sqlite_path
from tests.helpers.waiting import PATIENCE, until

ROOT = Path(__file__).resolve().parents[2]


async def account(storage: Storage, name: str) -> Account:
    return await storage.create_account(parse_name(name), new_key(), START)


async def playing(storage: Storage, kind: GameKind = GameKind.CORRESPONDENCE) -> tuple[int, Account, Account]:
    """A game under way between two new players: its id, White, Black."""
    white, black = await account(storage, "white"), await account(storage, "black")
    game = await storage.create_game(NewGame(kind, "*259200", white.id, SidePreference.WHITE, black.id), START)
    started = await storage.start_game(game.id, black.id, white.id, black.id, START, (None, None), None)
    assert started is not None and started.status is GameStatus.PLAYING
    return game.id, white, black


def move_update(text: str, ply: int, *, result: str = "*", ending: str | None = None) -> Update:
    return Update(StoredMove(ply, text, START), None, result, ending, None, None, None, START)


# --- migrations ---------------------------------------------------------------------------------------------


async def test_a_new_database_is_migrated_to_the_last_version_and_again_changes_nothing(storage: Storage) -> None:
    assert await storage.migrate() == MIGRATIONS[-1].version
    await account(storage, "alice")
    assert await storage.migrate() == MIGRATIONS[-1].version
    assert await storage.account_named(parse_name("ALICE").fold) is not None


def test_the_migrations_are_numbered_from_one_without_gaps() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))


async def test_every_backend_makes_the_same_tables_columns_and_indexes(
    tmp_path: Path, postgres_server: PrivatePostgres
) -> None:
    import psycopg

    await (await open_storage(sqlite_path(tmp_path))).close()
    with sqlite3.connect(sqlite_path(tmp_path)) as connection:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        in_sqlite = {
            (table, column, bool(not_null or key))
            for table in tables
            if not table.startswith("sqlite_")
            for _, column, _, not_null, _, key in connection.execute(f"PRAGMA table_info({table})")
        }
        sqlite_indexes = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    url = postgres_server.new_database()
    await (await open_storage(url)).close()
    with psycopg.connect(url) as connection:
        in_postgres = {
            (table, column, nullable == "NO")
            for table, column, nullable in connection.execute(
                "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
                "WHERE table_schema = current_schema()"
            )
        }
        postgres_indexes = {
            row[0] for row in connection.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        }
    assert in_sqlite == in_postgres
    assert {name for name in sqlite_indexes if not name.startswith("sqlite_")} <= postgres_indexes
    assert ("presence", "sessions", True) in in_sqlite


async def test_sqlite_keeps_its_schema_versions_in_wal_mode_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = sqlite_path(tmp_path)
    await (await open_storage(path)).close()
    assert path.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        versions = connection.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
    assert versions == [(m.version, m.name) for m in MIGRATIONS]


def raw_sql(database: str, sql: str) -> list[tuple[object, ...]]:
    """Run ``sql`` on the database as another program would (committed), its rows."""
    if is_postgresql(database):
        import psycopg

        with psycopg.connect(database) as connection:
            cursor = connection.execute(sql)
            return list(cursor.fetchall()) if cursor.description else []
    with sqlite3.connect(database) as connection:
        return list(connection.execute(sql).fetchall())


async def test_a_database_from_a_newer_program_is_refused_untouched(database: str) -> None:
    await (await open_storage(database)).close()
    raw_sql(database, "INSERT INTO schema_version (version, name, applied) SELECT 99, 'from the future', applied "
                      "FROM schema_version WHERE version = 1")  # fmt: skip
    with pytest.raises(SchemaError, match="schema version 99"):
        await open_storage(database)
    assert raw_sql(database, "SELECT MAX(version) FROM schema_version") == [(99,)]


async def test_an_unreachable_postgresql_is_refused_saying_where_never_with_the_password() -> None:
    with pytest.raises(StorageError) as refused:
        await open_storage("postgresql://cescacs:hunter2@127.0.0.1:1/lobby")
    assert "127.0.0.1:1/lobby" in str(refused.value) and "hunter2" not in str(refused.value)


async def test_a_path_is_sqlite_and_a_postgresql_address_is_postgresql() -> None:
    assert is_postgresql("postgresql://host/db") and is_postgresql("postgres://host/db")
    assert not is_postgresql("postgresql.db") and not is_postgresql(Path("postgresql://x"))


# --- accounts, keys and codes ---------------------------------------------------------------------------------


async def test_an_account_is_found_by_its_key_and_by_any_spelling_of_its_name(storage: Storage) -> None:
    key = new_key()
    made = await storage.create_account(parse_name("Marcel·la"), key, START)
    assert (await storage.account_by_key(key.fingerprint)) == made
    assert (await storage.account_named(parse_name("MARCEŀLA").fold)) == made
    assert await storage.account_by_key(new_key().fingerprint) is None
    assert [k.fingerprint for k in await storage.keys(made.id)] == [key.fingerprint]


@pytest.mark.parametrize(("first", "second"), [("bob", "BOB"), ("bob", "b0b"), ("Iris", "lris"), ("pay", "рау")])
async def test_a_look_alike_of_a_name_is_refused_with_the_name_it_resembles(
    storage: Storage, first: str, second: str
) -> None:
    await account(storage, first)
    with pytest.raises(NameTaken) as taken:
        await account(storage, second)
    assert taken.value.existing == first


async def test_of_two_look_alike_names_registered_at_once_through_two_connections_one_is_refused(
    database: str,
) -> None:
    one, two = await open_storage(database), await open_storage(database)
    try:
        for number in range(4):
            made = await asyncio.gather(
                one.create_account(parse_name(f"bob{number}"), new_key(), START),
                two.create_account(parse_name(f"B0B{number}"), new_key(), START),
                return_exceptions=True,
            )
            assert sorted(type(result).__name__ for result in made) == ["Account", "NameTaken"], made
    finally:
        await one.close()
        await two.close()


async def test_a_key_belongs_to_one_account(storage: Storage) -> None:
    key = new_key()
    await storage.create_account(parse_name("alice"), key, START)
    with pytest.raises(KeyTaken):
        await storage.create_account(parse_name("bob"), key, START)
    assert await storage.account_named(parse_name("bob").fold) is None


async def test_an_invitation_is_spent_once_per_use_and_not_after_it_expires(storage: Storage) -> None:
    await storage.create_code(
        code_digest("AAAA-BBBB-CCCC"), CodeKind.INVITATION, None, 2, START + datetime.timedelta(days=1)
    )
    digest = code_digest("aaaa bbbb cccc")
    await storage.create_account(parse_name("one"), new_key(), START, digest)
    await storage.create_account(parse_name("two"), new_key(), START, digest)
    with pytest.raises(CodeRefused):
        await storage.create_account(parse_name("three"), new_key(), START, digest)
    await storage.create_code(code_digest("DDDD"), CodeKind.INVITATION, None, 5, START)
    with pytest.raises(CodeRefused):
        await storage.create_account(parse_name("four"), new_key(), START, code_digest("DDDD"))
    assert await storage.account_named(parse_name("four").fold) is None


async def test_a_link_code_adds_one_key_to_its_account(storage: Storage) -> None:
    alice = await account(storage, "alice")
    await storage.create_code(code_digest("LINK"), CodeKind.LINK, alice.id, 1, START + datetime.timedelta(minutes=5))
    laptop = new_key()
    assert await storage.link_key(code_digest("link"), laptop, START) == alice
    assert await storage.account_by_key(laptop.fingerprint) == alice
    with pytest.raises(CodeRefused):
        await storage.link_key(code_digest("LINK"), new_key(), START)
    with pytest.raises(CodeRefused):  # an invitation is no link
        await storage.create_code(code_digest("INV"), CodeKind.INVITATION, None, 1, START + datetime.timedelta(1))
        await storage.link_key(code_digest("INV"), new_key(), START)


async def test_the_last_key_of_an_account_stays(storage: Storage) -> None:
    alice = await account(storage, "alice")
    only = (await storage.keys(alice.id))[0].fingerprint
    assert not await storage.remove_key(alice.id, only)
    await storage.create_code(code_digest("L"), CodeKind.LINK, alice.id, 1, START + datetime.timedelta(minutes=5))
    second = new_key()
    await storage.link_key(code_digest("L"), second, START)
    assert await storage.remove_key(alice.id, only)
    assert [k.fingerprint for k in await storage.keys(alice.id)] == [second.fingerprint]
    assert not await storage.remove_key(alice.id, "SHA256:nothing")


async def test_notifications_are_switched_per_account(storage: Storage) -> None:
    alice = await account(storage, "alice")
    assert alice.notify
    await storage.set_notify(alice.id, False)
    assert not (await storage.account(alice.id) or alice).notify


# --- offers ---------------------------------------------------------------------------------------------------


async def test_a_seek_is_started_by_anyone_but_its_maker_and_only_once(storage: Storage) -> None:
    alice, bob, carol = [await account(storage, name) for name in ("alice", "bob", "carol")]
    seek = await storage.create_game(NewGame(GameKind.LIVE, "300+3", alice.id, SidePreference.RANDOM), START)
    assert seek.status is GameStatus.SEEK and [g.id for g in await storage.seeks()] == [seek.id]
    assert await storage.offers_by(alice.id) == 1
    assert await storage.start_game(seek.id, alice.id, alice.id, bob.id, START, (300, 300), None) is None
    started = await storage.start_game(seek.id, bob.id, bob.id, alice.id, START, (300.0, 300.0), None)
    assert started is not None and (started.white_name, started.black_name) == ("bob", "alice")
    assert await storage.start_game(seek.id, carol.id, carol.id, alice.id, START, (300, 300), None) is None
    assert await storage.seeks() == [] and await storage.offers_by(alice.id) == 0


async def test_a_challenge_is_for_its_opponent_and_can_be_withdrawn_or_declined(storage: Storage) -> None:
    alice, bob, carol = [await account(storage, name) for name in ("alice", "bob", "carol")]
    challenge = await storage.create_game(
        NewGame(GameKind.CORRESPONDENCE, "*86400", alice.id, SidePreference.BLACK, bob.id), START
    )
    assert challenge.status is GameStatus.CHALLENGE and challenge.opponent_name == "bob"
    assert await storage.start_game(challenge.id, carol.id, carol.id, alice.id, START, (None, None), None) is None
    assert not await storage.withdraw_game(challenge.id, carol.id)
    assert await storage.withdraw_game(challenge.id, bob.id)
    assert await storage.game(challenge.id) is None
    again = await storage.create_game(
        NewGame(GameKind.CORRESPONDENCE, "*86400", alice.id, SidePreference.BLACK, bob.id), START
    )
    assert await storage.withdraw_game(again.id, alice.id) and not await storage.withdraw_game(again.id, alice.id)


async def test_an_account_lists_its_offers_and_games_under_way_then_its_finished_games_latest_first(
    storage: Storage,
) -> None:
    game, white, black = await playing(storage)
    seek = await storage.create_game(NewGame(GameKind.LIVE, "60", white.id, SidePreference.RANDOM), START)
    assert [g.id for g in await storage.games_of(white.id)] == [game, seek.id]
    assert [g.id for g in await storage.games_of(black.id)] == [game]
    assert await storage.games_of(white.id, finished=True) == []
    await storage.update_game(game, 0, Update(None, None, "0-3", "resignation", None, None, None, START), START)
    assert [g.id for g in await storage.games_of(black.id, finished=True)] == [game]


# --- moves and endings ----------------------------------------------------------------------------------------


async def test_a_move_is_written_only_at_the_ply_its_player_saw(storage: Storage) -> None:
    game, _, _ = await playing(storage)
    first = await storage.update_game(game, 0, move_update("E7-E13", 1), START)
    assert first is not None and first.ply == 1 and first.to_move == BLACK
    assert await storage.update_game(game, 0, move_update("E7-E11", 1), START) is None
    found = await storage.game_and_moves(game)
    assert found is not None and [m.move for m in found[1]] == ["E7-E13"]


async def test_of_two_writes_for_one_ply_from_two_connections_exactly_one_lands(database: str) -> None:
    one = await open_storage(database)
    two = await open_storage(database)
    try:
        game, _, _ = await playing(one)
        for ply, (a, b) in enumerate([("E7-E13", "E7-E11"), ("E21-E17", "E21-E19"), ("F8-F10", "F8-F12")]):
            results = await asyncio.gather(
                one.update_game(game, ply, move_update(a, ply + 1), START),
                two.update_game(game, ply, move_update(b, ply + 1), START),
            )
            assert sum(result is not None for result in results) == 1
        found = await one.game_and_moves(game)
        assert found is not None and found[0].ply == 3 and [m.ply for m in found[1]] == [1, 2, 3]
    finally:
        await one.close()
        await two.close()


async def test_an_ended_game_takes_no_more_writes_and_both_players_are_rated_in_its_pool(storage: Storage) -> None:
    game, white, _ = await playing(storage)
    ended = await storage.update_game(game, 0, move_update("E7-E13", 1, result="2-1", ending="stalemate"), START)
    assert ended is not None and ended.status is GameStatus.FINISHED and ended.finished == START
    expected_white, expected_black = rate_game(Rating(), Rating(), "2-1")
    assert ended.white_ratings == (1500.0, pytest.approx(expected_white.rating))
    assert ended.black_ratings == (1500.0, pytest.approx(expected_black.rating))
    assert (await storage.rating(white.id, GameKind.CORRESPONDENCE)).rating == pytest.approx(expected_white.rating)
    assert await storage.rating(white.id, GameKind.LIVE) == Rating()
    table = await storage.ratings(GameKind.CORRESPONDENCE)
    assert [(r.name, r.games) for r in table] == [("white", 1), ("black", 1)]
    assert await storage.ratings(GameKind.LIVE) == []
    assert await storage.update_game(game, 1, move_update("E21-E17", 2), START) is None


async def test_two_games_of_one_player_ending_at_once_through_two_connections_both_count(database: str) -> None:
    one, two = await open_storage(database), await open_storage(database)
    try:
        alice = await account(one, "alice")
        rounds = 4
        for number in range(rounds):
            games = []
            for opponent in (f"bob{number}", f"carol{number}"):
                other = await account(one, opponent)
                offered = await one.create_game(
                    NewGame(GameKind.LIVE, "60", alice.id, SidePreference.WHITE, other.id), START
                )
                await one.start_game(offered.id, other.id, alice.id, other.id, START, (60.0, 60.0), None)
                games.append(offered.id)
            resign = Update(None, None, "0-3", "resignation", None, None, None, START)
            ended = await asyncio.gather(
                *(s.update_game(g, 0, resign, START) for s, g in zip((one, two), games, strict=True))
            )
            assert all(game is not None for game in ended)
        table = {r.name: r.games for r in await one.ratings(GameKind.LIVE)}
        assert table["alice"] == 2 * rounds
    finally:
        await one.close()
        await two.close()


def test_an_idle_players_deviation_grows_before_the_game_is_rated() -> None:
    settled = Rating(1600, 60)
    now = START + 3 * RATING_PERIOD + datetime.timedelta(hours=1)
    fresh, _ = ratings_after((settled, now), (Rating(), None), "1-1", now)
    idle, _ = ratings_after((settled, START), (Rating(), None), "1-1", now)
    assert idle.deviation > fresh.deviation


async def test_a_draw_offer_after_a_move_marks_that_move(storage: Storage) -> None:
    game, _, _ = await playing(storage)
    await storage.update_game(game, 0, move_update("E7-E13", 1), START)
    offer = Update(None, WHITE, "*", None, None, None, None, START, marks_offer=True)
    offered = await storage.update_game(game, 1, offer, START)
    assert offered is not None and offered.draw_offer == WHITE and offered.ply == 1
    found = await storage.game_and_moves(game)
    assert found is not None and found[1][0].draw_offer


async def test_overdue_games_come_earliest_deadline_first(storage: Storage) -> None:
    game, _, _ = await playing(storage)
    later, _, _ = await playing_again(storage)
    for number, hours in ((game, 5), (later, 9)):
        deadline = START + datetime.timedelta(hours=hours)
        await storage.update_game(number, 0, Update(None, None, "*", None, None, None, deadline, START), START)
    assert await storage.overdue(START + datetime.timedelta(hours=4)) == []
    assert [g.id for g in await storage.overdue(START + datetime.timedelta(hours=10))] == [game, later]


async def playing_again(storage: Storage) -> tuple[int, Account, Account]:
    white, black = await account(storage, "white2"), await account(storage, "black2")
    game = await storage.create_game(NewGame(GameKind.LIVE, "60", white.id, SidePreference.WHITE, black.id), START)
    await storage.start_game(game.id, black.id, white.id, black.id, START, (60.0, 60.0), None)
    return game.id, white, black


async def test_listeners_hear_each_change_in_the_order_it_was_committed(storage: Storage) -> None:
    async with storage.fanout.listen() as changes:
        game, white, _ = await playing(storage)
        await storage.update_game(game, 0, move_update("E7-E13", 1), START)
        await storage.arrive(white.id, "node-a", START)
        heard = [await asyncio.wait_for(anext(changes), PATIENCE) for _ in range(6)]
    kinds = [c.kind for c in heard]
    assert kinds == [ChangeKind.ACCOUNT, ChangeKind.ACCOUNT, ChangeKind.GAME, ChangeKind.GAME, ChangeKind.GAME,
                     ChangeKind.PRESENCE]  # fmt: skip
    assert (heard[4].id, heard[4].ply) == (game, 1) and heard[5].id == white.id


async def test_a_listening_connection_that_breaks_is_made_again_and_its_listeners_told_to_read_again(
    postgres_server: PrivatePostgres,
) -> None:
    import psycopg

    url = postgres_server.new_database()
    storage = await open_storage(url)
    try:
        async with storage.fanout.listen() as changes:
            with psycopg.connect(url, autocommit=True) as connection:  # as an operator, or a failover, would
                ended = connection.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%%'"
                ).fetchall()
            assert ended == [(True,)]
            assert (await asyncio.wait_for(anext(changes), PATIENCE)).kind is ChangeKind.RESYNC
            made = await account(storage, "alice")
            assert await asyncio.wait_for(anext(changes), PATIENCE) == Change(ChangeKind.ACCOUNT, made.id)
    finally:
        await storage.close()


async def test_a_call_cancelled_as_the_pool_hands_it_a_connection_is_cancelled_and_gives_it_back(
    postgres_server: PrivatePostgres,
) -> None:
    """Python 3.11's ``asyncio.wait_for``, through which the pool waits for a free connection, lost a
    cancellation that came as the connection was handed over: the call went on as if never cancelled, and a
    server process stopping its listener waited for it forever (a CI run's node never ended)."""
    storage = await PostgresStorage.open(postgres_server.new_database(), pool_size=1)
    try:
        await storage.migrate()
        async with storage._transaction():  # the pool's only connection, held
            waiting = asyncio.ensure_future(storage.seeks())
            await until(lambda: storage._pool.get_stats().get("requests_waiting"), "the call to wait for it")
        waiting.cancel()  # in the very step that handed the connection to the waiting call
        await asyncio.wait([waiting])
        assert waiting.cancelled()
        assert await storage.seeks() == []  # the connection it was handed is back in the pool (of one)
    finally:
        await storage.close()


async def test_a_call_cancelled_while_it_waits_for_a_connection_gives_back_the_one_it_is_handed_later(
    postgres_server: PrivatePostgres,
) -> None:
    storage = await PostgresStorage.open(postgres_server.new_database(), pool_size=1)
    try:
        await storage.migrate()
        async with storage._transaction():
            waiting = asyncio.ensure_future(storage.seeks())
            await until(lambda: storage._pool.get_stats().get("requests_waiting"), "the call to wait for it")
            waiting.cancel()
            await asyncio.wait([waiting])
            assert waiting.cancelled()  # at once, while the pool still had nothing to hand
        assert await storage.seeks() == []  # handed to the cancelled call, then given back
    finally:
        await storage.close()


# --- presence -------------------------------------------------------------------------------------------------


async def test_a_player_is_online_while_any_of_their_sessions_lasts_on_any_process(storage: Storage) -> None:
    alice, bob = await account(storage, "alice"), await account(storage, "bob")
    assert await storage.online() == []
    await storage.arrive(bob.id, "node-a", START)
    await storage.arrive(alice.id, "node-a", START)
    await storage.arrive(alice.id, "node-b", START)
    await storage.arrive(alice.id, "node-b", START)
    assert [a.name for a in await storage.online()] == ["alice", "bob"]
    await storage.leave(alice.id, "node-a")
    await storage.leave(alice.id, "node-b")
    assert [a.name for a in await storage.online()] == ["alice", "bob"]
    await storage.leave(alice.id, "node-b")
    await storage.leave(alice.id, "node-b")  # once more than it arrived: nothing to take
    assert [a.name for a in await storage.online()] == ["bob"]


async def test_a_process_not_heard_of_is_forgotten_with_its_visitors(storage: Storage) -> None:
    alice, bob = await account(storage, "alice"), await account(storage, "bob")
    await storage.arrive(alice.id, "killed", START)
    await storage.arrive(bob.id, "alive", START)
    later = START + datetime.timedelta(minutes=2)
    assert await storage.beat("alive", later, later - datetime.timedelta(minutes=1)) == 1
    assert [a.name for a in await storage.online()] == ["bob"]
    assert await storage.beat("alive", later, later - datetime.timedelta(minutes=1)) == 0


# --- crashes and races, with real processes ---------------------------------------------------------------------


def child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.server_child", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
async def test_a_process_killed_during_a_burst_of_moves_loses_no_acknowledged_move(database: str, seed: int) -> None:
    url = database
    storage = await open_storage(url)
    white, black = await account(storage, "white"), await account(storage, "black")
    await storage.close()
    burst = child("burst", url, str(white.id), str(black.id), str(seed))
    acknowledged: dict[tuple[int, int], str] = {}
    assert burst.stdout is not None
    try:
        for line in burst.stdout:
            if line.startswith("ACK"):
                _, number, ply_text, move = line.split()
                acknowledged[int(number), int(ply_text)] = move
            if len(acknowledged) >= 25 + 10 * seed:
                break
        os.kill(burst.pid, signal.SIGKILL)  # while it writes the next move
    finally:
        burst.kill()
        burst.wait(PATIENCE)
    assert len(acknowledged) >= 25 + 10 * seed
    storage = await open_storage(url)
    try:
        for (game, ply), move in acknowledged.items():
            found = await storage.game_and_moves(game)
            assert found is not None and found[0].ply >= ply
            stored, moves = found
            assert moves[ply - 1].move == move and len(moves) == stored.ply
            replayed = Game()  # every stored game replays legally
            for stored_move in moves:
                replayed.play_text(stored_move.move)
    finally:
        await storage.close()
    if not is_postgresql(url):
        with sqlite3.connect(url) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.slow
async def test_two_processes_playing_the_same_ply_get_exactly_one_move_accepted(database: str) -> None:
    url = database
    storage = await open_storage(url)
    lobby = Lobby(storage, choose=first)  # on the real clock, as the racers
    white = await lobby.register(Caller(new_key()), "white")
    black = await lobby.register(Caller(new_key()), "black")
    game = (await lobby.accept(black, (await lobby.challenge(white, "black", Terms.correspondence(1))).id)).id
    await storage.close()
    racers = [child("race", url, str(game), str(white.id), str(black.id), str(pick)) for pick in (0, 1)]
    rounds = 8
    try:
        for racer in racers:
            assert racer.stdout is not None and racer.stdout.readline().strip() == "READY"
        for number in range(rounds):
            for racer in racers:
                assert racer.stdin is not None
                racer.stdin.write(f"go {number}\n")
                racer.stdin.flush()
            answers = [racer.stdout.readline().strip() for racer in racers if racer.stdout is not None]
            assert sorted(answer.split()[0] for answer in answers) == ["OK", "REFUSED"], answers
            assert f"OK {number + 1}" in answers
            refused = next(answer for answer in answers if answer.startswith("REFUSED"))
            assert "it is not your move" in refused
    finally:
        for racer in racers:
            assert racer.stdin is not None
            racer.stdin.close()  # an end of input ends a racer, whatever happened
            racer.wait(PATIENCE)
    storage = await open_storage(url)
    try:
        found = await storage.game_and_moves(game)
        assert found is not None and found[0].ply == rounds and [m.ply for m in found[1]] == list(range(1, rounds + 1))
    finally:
        await storage.close()

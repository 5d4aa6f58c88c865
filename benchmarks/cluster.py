"""Moves per second through 1, 2 and 3 server processes sharing one PostgreSQL (loopback, bounded load).

    nice -n 10 python benchmarks/cluster.py                  # 1, 2 and 3 processes, 8 games each, 10 s
    nice -n 10 python benchmarks/cluster.py --games 4 --seconds 5 --processes 1 2

A private PostgreSQL server is started as the tests start theirs
(tests/helpers/postgres.py), but durable: every commit is flushed to disk,
as a real server's is (``--no-flush`` shows the disk's share; ``--sqlite``
adds one process on a SQLite file, the embedded default, for comparison).  Each server process is a real one
(``--worker``): a lobby on its own pool of connections, listening to every
change through LISTEN/NOTIFY as a server process does, with ``--games``
games in correspondence of its own players (two per game) played at once
as fast as they go: each player plays the next move of a random game made
before the clock starts (so the players' own choosing costs nothing) through
:meth:`Lobby.play`, which reads the game, validates the move in the rules
core, commits it and acknowledges it, as ``ssh host play GAME MOVE`` does; a
game played to its end (or to :data:`PLIES`) is followed by a new
challenge.  The processes start together and play for ``--seconds``; each
reports its moves, each move's time from the call to its acknowledgement,
its CPU time, and the changes it heard (every process hears every process's
moves: ``heard/s`` is per process); the database server's CPU time over the
run is read from /proc.  Both CPU columns are per move.

Bounded: at most 3 processes of at most 32 games, at most 60 s each run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cescacs_tui.core.game import Game  # noqa: E402
from cescacs_tui.server.lobby import Caller, Lobby, Refusal, Terms  # noqa: E402
from cescacs_tui.server.model import Account, ChangeKind, SidePreference  # noqa: E402
from cescacs_tui.server.storage import open_storage  # noqa: E402
from tests.helpers.postgres import PrivatePostgres  # noqa: E402
from tests.helpers.server import new_key  # noqa: E402

PATIENCE = 120.0
MAX_PROCESSES = 3
MAX_GAMES = 32
MAX_SECONDS = 60.0
PLIES = 200
"""The longest game played (a random game seldom ends sooner)."""


def random_game(rng: random.Random) -> list[str]:
    """The moves of a random legal game, to its end or to :data:`PLIES`."""
    game, moves = Game(), list[str]()
    while game.outcome is None and len(moves) < PLIES:
        legal = sorted(game.position.legal_moves(), key=str)
        if not legal:
            break
        moves.append(game.position.ctl_an(rng.choice(legal)))
        game.play_text(moves[-1])
    return moves


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def worker(url: str, number: int, games: int, seconds: float) -> None:
    """One server process: ``games`` games between its own players, played as fast as they go."""
    storage = await open_storage(url)
    lobby = Lobby(storage, choose=lambda sides: sides[0])
    rng = random.Random(number)
    heard = 0

    async def hear() -> None:
        nonlocal heard
        async with lobby.changes() as changes:
            listening.set()
            async for change in changes:
                heard += change.kind is ChangeKind.GAME

    async def new_game(white: Account, black: Account) -> int:
        offered = await lobby.challenge(white, black.name, Terms.correspondence(3, SidePreference.WHITE))
        return (await lobby.accept(black, offered.id)).id

    async def players(index: int) -> tuple[Account, Account]:
        white = await lobby.register(Caller(new_key()), f"w{number}x{index}")
        return white, await lobby.register(Caller(new_key()), f"b{number}x{index}")

    async def pair(white: Account, black: Account, moves: list[str], stop_at: float) -> list[float]:
        times: list[float] = []
        while time.monotonic() < stop_at:
            game = await new_game(white, black)
            for ply, text in enumerate(moves):
                if time.monotonic() >= stop_at:
                    break
                began = time.perf_counter()
                try:
                    await lobby.play(black if ply % 2 else white, game, text)
                except Refusal:  # the game ended by the rules before its last move: a new game follows
                    break
                times.append(time.perf_counter() - began)
        return times

    listening = asyncio.Event()
    hearing = asyncio.create_task(hear())
    await listening.wait()
    pairs = [(*await players(index), random_game(rng)) for index in range(games)]
    print("READY", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop_at = time.monotonic() + seconds
    heard_before, cpu_before = heard, time.process_time()
    results = await asyncio.gather(*(pair(white, black, moves, stop_at) for white, black, moves in pairs))
    times = [t for result in results for t in result]
    heard_during, cpu = heard - heard_before, time.process_time() - cpu_before
    hearing.cancel()
    await storage.close()
    print(json.dumps({"moves": len(times), "times": times, "heard": heard_during, "cpu": cpu}), flush=True)


def database_cpu(server: PrivatePostgres) -> float:
    """CPU seconds the PostgreSQL server has used so far: its main process, the children it has reaped (the
    backends of closed connections) and those still running."""
    assert server.process is not None
    ticks = os.sysconf("SC_CLK_TCK")

    def used(pid: int, reaped: bool) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        own = int(fields[11]) + int(fields[12])  # utime, stime
        return (own + (int(fields[13]) + int(fields[14]) if reaped else 0)) / ticks  # cutime, cstime

    main = server.process.pid
    children = Path(f"/proc/{main}/task/{main}/children").read_text().split()
    total = used(main, True)
    for child in children:
        with contextlib.suppress(OSError):  # ended meanwhile: counted in the main process's reaped time next time
            total += used(int(child), False)
    return total


def run(url: str, processes: int, games: int, seconds: float, server: PrivatePostgres | None) -> dict[str, float]:
    """One run; ``server``: the PostgreSQL ``url`` is on (``None`` for SQLite, in the worker's process)."""
    children = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", url, str(number), str(games), str(seconds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for number in range(processes)
    ]
    try:
        for child in children:
            assert child.stdout is not None
            if child.stdout.readline().strip() != "READY":
                raise SystemExit("a worker did not start")
        database_before = database_cpu(server) if server else 0.0
        for child in children:  # as close to together as the pipes allow
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        results = [json.loads(child.communicate(timeout=seconds + PATIENCE)[0]) for child in children]
        database = database_cpu(server) - database_before if server else float("nan")
    finally:
        for child in children:
            child.kill()
            child.wait()
    times = [t for result in results for t in result["times"]]
    moves = sum(result["moves"] for result in results)
    return {
        "processes": processes,
        "players": 2 * games * processes,
        "moves_per_second": moves / seconds,
        "p50_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * percentile(times, 0.95),
        "heard_per_process": statistics.mean(result["heard"] for result in results) / seconds,
        "cpu_ms_per_move": 1000 * sum(result["cpu"] for result in results) / max(moves, 1),
        "database_ms_per_move": 1000 * database / max(moves, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--games", type=int, default=8, help="games played at once by each process")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each run plays")
    parser.add_argument("--no-flush", action="store_true", help="commits not flushed to disk (its share)")
    parser.add_argument("--sqlite", action="store_true", help="first, one process on SQLite, for comparison")
    parser.add_argument("--worker", nargs=4, metavar=("URL", "NUMBER", "GAMES", "SECONDS"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        url, number, games, seconds = arguments.worker
        asyncio.run(worker(url, int(number), int(games), float(seconds)))
        return
    if not all(1 <= count <= MAX_PROCESSES for count in arguments.processes):
        parser.error(f"--processes: 1 to {MAX_PROCESSES}")
    if not (1 <= arguments.games <= MAX_GAMES and 0 < arguments.seconds <= MAX_SECONDS):
        parser.error(f"--games: 1 to {MAX_GAMES}; --seconds: at most {MAX_SECONDS:g}")
    server = PrivatePostgres(durable=not arguments.no_flush).start()
    baseline = Path(tempfile.mkdtemp(prefix="cescacs-cluster-"))
    try:
        flushes = "commits not flushed" if arguments.no_flush else "durable: each commit flushed to disk"
        print(f"PostgreSQL on 127.0.0.1:{server.port} ({flushes}), load average {os.getloadavg()[0]:.1f}")
        print("| processes | players | moves/s | move p50 | move p95 | CPU per move | database CPU | heard/s |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        databases = [(f"{count}", server.new_database(), count) for count in arguments.processes]
        if arguments.sqlite:
            databases.insert(0, ("1 (SQLite)", str(baseline / "server.sqlite"), 1))
        for label, url, count in databases:
            row = run(url, count, arguments.games, arguments.seconds, None if label.endswith("(SQLite)") else server)
            print(
                f"| {label} | {row['players']} | {row['moves_per_second']:.0f} | {row['p50_ms']:.1f} ms "
                f"| {row['p95_ms']:.1f} ms | {row['cpu_ms_per_move']:.1f} ms "
                f"| {row['database_ms_per_move']:.1f} ms | {row['heard_per_process']:.0f} |".replace("nan ms", "in it"),
                flush=True,
            )
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        server.stop()
        shutil.rmtree(baseline, ignore_errors=True)


if __name__ == "__main__":
    main()

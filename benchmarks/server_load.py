"""200 players making correspondence moves through the real ``ssh host play`` against a real ``serve-ssh --db``.

    nice -n 10 python benchmarks/server_load.py                     # 200 players, 2 moves each, 6 ssh at once
    nice -n 10 python benchmarks/server_load.py --players 50 --moves 1 --concurrency 4

The server is the real ``cescacs serve-ssh`` on a free loopback port with a
SQLite database (the embedded default).  Each player has a key of their own
(Ed25519, made for the run) and an account; the players are paired in
correspondence games (3 days a move), each game with a random legal game
chosen beforehand, so choosing costs nothing.  The accounts and games are
made through the lobby on the database before the server starts (only the
moves are measured).  Then every game is played at once: its White plays its
next move with ``ssh -i KEY -p PORT NAME@127.0.0.1 play GAME MOVE``, then
its Black, and so on, until each player has made ``--moves`` moves; at most
``--concurrency`` ``ssh`` clients run at once (all of them come from one
address, and the server lets at most 8 connections from one address be
logging in at once: beyond that it pushes the oldest out).  A move's time
runs from starting ``ssh`` to its exit, so it includes the client's start,
the key exchange and the login: what a script pays per move.

Afterwards the server is stopped and the database read back: every move the
server acknowledged (``ssh`` exited 0) must be in the game, in its order,
and nothing else.  Printed: the moves, failures, p50/p95/max latency, moves
per second, the server's CPU time per move, and the load average before and
after.

Bounded: at most 400 players, 10 moves each, 16 ``ssh`` at once, and
``--seconds`` (default 600) for the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cescacs_tui.core.game import Game  # noqa: E402
from cescacs_tui.server.keys import PublicKey  # noqa: E402
from cescacs_tui.server.lobby import Caller, Lobby, Terms  # noqa: E402
from cescacs_tui.server.model import SidePreference  # noqa: E402
from cescacs_tui.server.storage import open_storage  # noqa: E402

MAX_PLAYERS = 400
MAX_MOVES = 10
MAX_CONCURRENCY = 16
PLIES = 40
"""The length of each game's random line (a player makes at most half of it)."""


def random_line(rng: random.Random, plies: int) -> list[str]:
    """A random legal line of at most ``plies`` half-moves (shorter if the game ends)."""
    game, moves = Game(), list[str]()
    while game.outcome is None and len(moves) < plies:
        legal = sorted(game.position.legal_moves(), key=str)
        moves.append(game.position.ctl_an(rng.choice(legal)))
        game.play_text(moves[-1])
    return moves


def make_keys(folder: Path, count: int) -> list[PublicKey]:
    """A private key file per player in ``folder`` (``p0`` ...) and the host key; the players' public keys."""
    import asyncssh

    host = asyncssh.generate_private_key("ssh-ed25519")
    host.write_private_key(str(folder / "host"))
    keys = []
    for number in range(count):
        key = asyncssh.generate_private_key("ssh-ed25519")
        path = folder / f"p{number}"
        key.write_private_key(str(path))
        os.chmod(path, 0o600)
        public = key.convert_to_public()
        keys.append(PublicKey.from_blob(public.get_algorithm(), public.public_data))
    return keys


async def seed(db: Path, keys: list[PublicKey]) -> list[int]:
    """The players' accounts (``p0`` ...) and a game for each pair, White the even player; the games' ids."""
    storage = await open_storage(db)
    try:
        lobby = Lobby(storage)
        accounts = [await lobby.register(Caller(key), f"p{number}") for number, key in enumerate(keys)]
        games = []
        for white, black in zip(accounts[0::2], accounts[1::2], strict=True):
            offer = await lobby.challenge(white, black.name, Terms.correspondence(3, SidePreference.WHITE))
            games.append((await lobby.accept(black, offer.id)).id)
        return games
    finally:
        await storage.close()


async def stored_moves(db: Path, games: list[int]) -> dict[int, list[str]]:
    storage = await open_storage(db)
    try:
        found = {}
        for game in games:
            stored = await storage.game_and_moves(game)
            assert stored is not None
            found[game] = [move.move for move in stored[1]]
        return found
    finally:
        await storage.close()


def start_server(folder: Path, db: Path, players: int) -> tuple[subprocess.Popen[bytes], int]:
    log = (folder / "server.log").open("wb")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")} | {
        "CESCACS_DATA_DIR": str(folder / "data"),
        "CESCACS_CONFIG_DIR": str(folder / "config"),
        "PYTHONPATH": str(ROOT),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "serve-ssh", "--port", "0", "--host-key", str(folder / "host"),
         "--db", str(db), "--max-visitors", str(min(10_000, players))],
        stdout=log, stderr=subprocess.STDOUT, env=environment,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(rb"over SSH on 127\.0\.0\.1:(\d+)", (folder / "server.log").read_bytes())
        if found:
            return server, int(found.group(1))
        if server.poll() is not None:
            raise SystemExit(f"the server ended: {(folder / 'server.log').read_text()[-800:]}")
        time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start within 60 s")


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU time so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play(
    folder: Path, port: int, pair: int, game: int, line: list[str], plies: int, gate: asyncio.Semaphore, stop_at: float
) -> tuple[list[float], list[str], list[str]]:
    """Play ``plies`` half-moves of ``line`` in ``game`` between the players of ``pair`` (White ``2 * pair``,
    Black the next), each move by its player's ``ssh``; the acknowledged moves' times, the acknowledged moves,
    and the failures (what ``ssh`` said)."""
    times: list[float] = []
    played: list[str] = []
    failures: list[str] = []
    white, black = 2 * pair, 2 * pair + 1
    for ply, move in enumerate(line[:plies]):
        if time.monotonic() > stop_at:
            failures.append(f"game {game}: out of time before ply {ply + 1}")
            break
        player = white if ply % 2 == 0 else black
        command = [
            "ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
            "-i", str(folder / f"p{player}"), "-p", str(port), f"p{player}@127.0.0.1", "play", str(game), move,
        ]  # fmt: skip
        async with gate:
            started = time.monotonic()
            process = await asyncio.create_subprocess_exec(
                *command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
            output, _ = await process.communicate()
            took = time.monotonic() - started
        if process.returncode != 0:
            failures.append(f"game {game} ply {ply + 1} ({move}): status {process.returncode}: {output[-300:]!r}")
            break  # the game cannot go on without this move
        times.append(took)
        played.append(move)
    return times, played, failures


async def run(players: int, moves: int, concurrency: int, seconds: float, seed_value: int) -> int:
    rng = random.Random(seed_value)
    folder = Path(tempfile.mkdtemp(prefix="cescacs-load-"))
    try:
        started = time.monotonic()
        keys = make_keys(folder, players)
        lines = [random_line(rng, PLIES) for _ in range(players // 2)]
        db = folder / "server.sqlite"
        games = await seed(db, keys)
        print(f"{players} players, {len(games)} games made in {time.monotonic() - started:.1f} s")
        server, port = start_server(folder, db, players)
        load_before = os.getloadavg()
        cpu_before = cpu_seconds(server.pid)
        gate = asyncio.Semaphore(concurrency)
        stop_at = time.monotonic() + seconds
        began = time.monotonic()
        try:
            results = await asyncio.gather(
                *(
                    play(folder, port, pair, game, line, 2 * moves, gate, stop_at)
                    for pair, (game, line) in enumerate(zip(games, lines, strict=True))
                )
            )
            wall = time.monotonic() - began
            cpu = cpu_seconds(server.pid) - cpu_before
            load_after = os.getloadavg()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        stored = await stored_moves(db, games)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    times = [t for result in results for t in result[0]]
    failures = [f for result in results for f in result[2]]
    lost = [
        (game, played, stored[game])
        for game, (_, played, _) in zip(games, results, strict=True)
        if stored[game] != played
    ]
    total = len(times)
    ms = sorted(1000 * t for t in times)
    print(f"moves acknowledged: {total} of {players * moves} asked, in {wall:.1f} s ({total / wall:.1f} moves/s)")
    if ms:
        p50 = statistics.median(ms)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"move latency (ssh start to exit): p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms")
        print(f"server CPU: {cpu:.1f} s, {1000 * cpu / total:.1f} ms a move")
    print(
        f"concurrency: {concurrency} ssh at once; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    print(f"failures: {len(failures)}")
    for failure in failures[:10]:
        print("  " + failure)
    print(f"moves lost or extra in the database: {len(lost)} games")
    for game, played, found in lost[:10]:
        print(f"  game {game}: acknowledged {played}, stored {found}")
    return 1 if lost or failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200, help="players, an even number (default 200)")
    parser.add_argument("--moves", type=int, default=2, help="moves each player makes (default 2)")
    parser.add_argument("--concurrency", type=int, default=6, help="ssh clients at once (default 6, at most 8 log in)")
    parser.add_argument("--seconds", type=float, default=600.0, help="the whole run's bound (default 600)")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    players = max(2, min(MAX_PLAYERS, args.players // 2 * 2))
    moves = max(1, min(MAX_MOVES, args.moves))
    concurrency = max(1, min(MAX_CONCURRENCY, args.concurrency))
    return asyncio.run(run(players, moves, concurrency, min(args.seconds, 3600.0), args.seed))


if __name__ == "__main__":
    sys.exit(main())

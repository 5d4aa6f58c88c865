"""The engine's figures: speed, depth in 1 s and 5 s, mates, time keeping, and a match table.

python benchmarks/engine.py                 # everything (about an hour on a quiet 2-core machine)
python benchmarks/engine.py --short         # a quick version: fewer positions, one game pair per match
python benchmarks/engine.py --sections speed,mates --pairs 4 --movetime 300

Sections:

* ``speed``: nodes per second and the depth reached in 1 s and 5 s, from the
  start and from the two busiest middlegame positions of the test data; the
  time (and CPU time, the figure that does not depend on the machine's load)
  to finish depth 6 from the start; what the incremental key and
  evaluation cost per move against recomputing them.
* ``mates``: the mate suite (tests/data/mates.jsonl) at 1 s a position.
* ``movetime``: ``go movetime`` through the real ``cescacs engine`` command,
  from ``go`` sent to ``bestmove`` read: the latest answer against its time.
* ``matches``: each level against the next and against the level two below,
  level 10 against a random mover, a 1-ply greedy player and a 2-ply
  material searcher; every move refereed by the rules core.

Matches take CPU: on a shared machine run them in the background at low
priority (``nice``); the machine's load is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cescacs_tui.core import Position
from cescacs_tui.core.build_info import build
from cescacs_tui.engine import SearchBoard, Searcher, level
from cescacs_tui.engine.board import zobrist
from cescacs_tui.engine.match import GameRecord, MatchResult, play_match
from cescacs_tui.engine.players import EnginePlayer, MaterialPlayer, Player, RandomPlayer
from cescacs_tui.engine.search import Info, Limits

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SECTIONS = ("speed", "mates", "movetime", "matches")


def load_jsonl(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def busy_middlegames(count: int = 2) -> list[tuple[str, str]]:
    """The positions of the test data with the most legal moves, one per game."""
    rows = sorted(load_jsonl("positions.jsonl"), key=lambda row: -len(row["moves"]))  # type: ignore[arg-type]
    chosen: list[tuple[str, str]] = []
    games: set[str] = set()
    for row in rows:
        game = str(row["id"]).rsplit("-", 1)[0]
        if game not in games:
            games.add(game)
            chosen.append((f"{row['id']} ({len(row['moves'])} moves)", str(row["pdtl"])))  # type: ignore[arg-type]
        if len(chosen) == count:
            break
    return chosen


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


# --- speed ---------------------------------------------------------------------------------------


def depth_within(pdtl: str, seconds: float) -> Info:
    infos: list[Info] = []
    Searcher().search(SearchBoard(Position.from_pdtl(pdtl)), Limits(movetime=seconds), infos.append, overhead=0.0)
    return infos[-1]


def speed(short: bool) -> None:
    print(f"\n## Speed (one thread, the {build()} build)\n")
    positions = [("start", Position.initial().to_pdtl()), *busy_middlegames()]
    budgets = (1.0,) if short else (1.0, 5.0)
    print(f"{'position':<34} {'time':>5} {'depth':>5} {'seldepth':>8} {'nodes':>9} {'nodes/s':>9}")
    for name, pdtl in positions:
        for seconds in budgets:
            info = depth_within(pdtl, seconds)
            print(f"{name:<34} {seconds:4.0f}s {info.depth:>5} {info.seldepth:>8} {info.nodes:>9,} {info.nps:>9,}")
    start, cpu = time.perf_counter(), time.process_time()
    result = Searcher().search(SearchBoard(Position.initial()), Limits(depth=6))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"\ndepth 6 from the start: {wall:.2f} s ({cpu:.2f} s of CPU), {result.nodes:,} nodes,"
        f" {result.nodes / cpu:,.0f} nodes/s (goal: within 5 s on an idle 2-core machine)"
    )
    incremental_cost()


def incremental_cost() -> None:
    """Per move: push/pop alone, make/unmake with the incremental key and sums, and recomputing them instead."""
    _, pdtl = busy_middlegames(1)[0]
    board = SearchBoard(Position.from_pdtl(pdtl))
    position = board.position
    moves = position.legal_tuples()
    rounds = 200

    def timed(step: Callable[[object], None]) -> float:
        start = time.perf_counter()
        for _ in range(rounds):
            for move in moves:
                step(move)
        return (time.perf_counter() - start) / (rounds * len(moves)) * 1e6

    def push_pop(move: object) -> None:
        position.push(move)  # type: ignore[arg-type]
        position.pop()

    def make_unmake(move: object) -> None:
        board.make(move)  # type: ignore[arg-type]
        board.evaluate()
        board.unmake()

    def recompute(move: object) -> None:
        position.push(move)  # type: ignore[arg-type]
        zobrist(position)
        SearchBoard(position).evaluate()  # the sums from the 169 hexes
        position.pop()

    def tuple_hash(move: object) -> None:
        position.push(move)  # type: ignore[arg-type]
        hash((tuple(position.raw_board), position.turn, position.rights, position.special))
        position.pop()

    plain = timed(push_pop)
    print(f"\nper move, {len(moves)} moves of the busiest position:")
    print(f"  push + pop                                   {plain:6.2f} us")
    print(f"  make + evaluate + unmake (incremental)       {timed(make_unmake):6.2f} us")
    print(f"  push + Zobrist and evaluation from scratch   {timed(recompute):6.2f} us")
    print(f"  push + Python hash of the board (no Zobrist) {timed(tuple_hash):6.2f} us")


# --- mates -----------------------------------------------------------------------------------------


def mates(short: bool, seconds: float) -> None:
    print(f"\n## Mates (tests/data/mates.jsonl, {seconds:g} s a position)\n")
    rows = load_jsonl("mates.jsonl")
    if short:
        rows = rows[::4]
    for depth in (1, 2):
        chosen = [r for r in rows if r["mate_in"] == depth]
        found = 0
        first_seen: list[float] = []
        for row in chosen:
            infos: list[Info] = []
            board = SearchBoard(Position.from_pdtl(str(row["pdtl"])))
            result = Searcher().search(board, Limits(movetime=seconds), infos.append)
            if str(result.move) in row["solutions"] and result.mate == depth:  # type: ignore[operator]
                found += 1
                first_seen.append(next(i.time for i in infos if i.mate == depth))
        print(
            f"mate in {depth}: {found} of {len(chosen)} found ({100 * found / len(chosen):.0f}%);"
            f" seen after {max(first_seen, default=0):.2f} s at most"
        )


# --- movetime through the protocol ------------------------------------------------------------------


def movetime(short: bool) -> None:
    print("\n## go movetime through 'cescacs engine' (from go sent to bestmove read)\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert process.stdin is not None and process.stdout is not None
    stdout = process.stdout

    def send(command: str) -> None:
        process.stdin.write(command.encode() + b"\n")  # type: ignore[union-attr]

    def ask(command: str, answer: bytes) -> float:
        start = time.perf_counter()
        send(command)
        buffer = b""
        while answer not in buffer:
            select.select([stdout], [], [])
            buffer += os.read(stdout.fileno(), 1 << 16)
        return time.perf_counter() - start

    ask("isready", b"readyok")
    positions = ["position startpos"] + [f"position pdtl {pdtl}" for _, pdtl in busy_middlegames()]
    worst_ratio = 0.0
    for ms in (50, 100, 300, 1000) if not short else (100, 300):
        spent = []
        for command in positions * (1 if short else 3):
            send(command)
            spent.append(ask(f"go movetime {ms}", b"bestmove"))
        ratio = max(spent) / (ms / 1000)
        worst_ratio = max(worst_ratio, ratio)
        print(f"movetime {ms:>5} ms: {len(spent)} searches, latest answer {max(spent) * 1000:7.1f} ms ({ratio:.2f}x)")
    print(f"latest answer against its time: {worst_ratio:.2f}x (goal: at most 2x)")
    send("quit")
    process.wait(timeout=30)


# --- matches ------------------------------------------------------------------------------------------


def matches(pairs: int, milliseconds: int, short: bool) -> None:
    seconds = milliseconds / 1000
    print(f"\n## Matches ({pairs} openings x 2 colours per match, {milliseconds} ms a move for the engine)\n")
    moves_checked = 0

    def engine(number: int, seed: int) -> EnginePlayer:
        return EnginePlayer(Limits(movetime=seconds), level(number), seed=seed)

    def run(first: Player, second: Player, seed: int) -> MatchResult:
        nonlocal moves_checked
        started = time.perf_counter()

        def count(record: GameRecord) -> None:
            nonlocal moves_checked
            moves_checked += record.plies

        result = play_match(first, second, pairs, seed=seed, on_game=count)
        reasons = sorted({g.reason.split(":")[0].split(" (")[0] for g in result.games})
        print(f"{result.summary():<62} {time.perf_counter() - started:6.0f} s   ({'; '.join(reasons)})", flush=True)
        return result

    print("### Top level against the baselines\n")
    run(engine(10, 1), RandomPlayer(2), 11)
    run(engine(10, 3), MaterialPlayer(1, 4), 12)
    run(engine(10, 5), MaterialPlayer(2, 6), 13)
    levels = range(1, 11)
    print("\n### Each level against the level two below (goal: a clear majority)\n")
    for number in levels[2:] if not short else (3, 6, 10):
        run(engine(number, 20 + number), engine(number - 2, 40 + number), 100 + number)
    if not short:
        print("\n### Each level against the next\n")
        for number in levels[1:]:
            run(engine(number, 60 + number), engine(number - 1, 80 + number), 200 + number)
    print(f"\n{moves_checked} moves played, every one checked legal by the referee")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a quick version of every section")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--pairs", type=int, default=None, help="openings per match, each played twice (default 6)")
    parser.add_argument("--movetime", type=int, default=300, help="milliseconds a move in the matches")
    parser.add_argument("--mate-time", type=float, default=1.0, help="seconds a position for the mate suite")
    args = parser.parse_args()
    chosen = [s.strip() for s in args.sections.split(",")]
    unknown = set(chosen) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    print(f"# Engine benchmark\n\nstart: {load()}; Python {sys.version.split()[0]}")
    random.seed(0)
    if "speed" in chosen:
        speed(args.short)
    if "mates" in chosen:
        mates(args.short, args.mate_time)
    if "movetime" in chosen:
        movetime(args.short)
    if "matches" in chosen:
        matches(args.pairs or (1 if args.short else 6), args.movetime, args.short)
    print(f"\nend: {load()}")


if __name__ == "__main__":
    main()

"""The engine's time keeping on a starved processor: ``go movetime`` answers and clock games beside CPU hogs.

python benchmarks/engine_time.py                        # both sections (about 10 minutes)
python benchmarks/engine_time.py --sections movetime --calls 200 --hogs 1
python benchmarks/engine_time.py --sections clock --games 50 --clock 2+0 --hogs 2
python benchmarks/engine_time.py --engine "../base/.venv/bin/cescacs engine"   # another engine, to compare

Sections:

* ``movetime``: ``go movetime T`` through the real ``cescacs engine`` (T
  cycling through 50, 100, 300 and 1000 ms, from the start and from the two
  busiest positions of the test data), timed from ``go`` written to
  ``bestmove`` read, with ``--hogs`` busy processes beside it: the worst
  answer against its time (goal: at most 1.25x with one hog).
* ``clock``: games between two engine processes at a clock (``--clock``,
  2+0 by default: two seconds a side for the whole game), refereed and timed
  by scripts/match.py (the time from ``go`` written to ``bestmove`` read
  comes off the clock, as in a front end), with ``--hogs`` busy processes
  beside them: games lost on time (goal: none of 50 with two hogs), the least
  time left, and the longest move of the first ten against a twentieth of
  the time left plus the increment.

The hogs are started and stopped by the benchmark (``python -c 'while True:
pass'``); the machine's load is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # scripts/ is not installed: the match runner is imported from the checkout

from scripts.match import Control, EngineSpec, GameRecord, PairResult, load_book, run_match  # noqa: E402

SECTIONS = ("movetime", "clock")
DATA = ROOT / "tests" / "data"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


@contextlib.contextmanager
def hogs(count: int) -> Iterator[None]:
    """``count`` busy processes for the duration."""
    processes = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in processes:
            process.kill()
            process.wait()


def busy_positions(count: int = 2) -> list[str]:
    """The PDTL of the test data's positions with the most legal moves, one per game."""
    rows = [json.loads(line) for line in (DATA / "positions.jsonl").read_text(encoding="utf-8").splitlines() if line]
    rows.sort(key=lambda row: -len(row["moves"]))
    chosen: list[str] = []
    games: set[str] = set()
    for row in rows:
        game = str(row["id"]).rsplit("-", 1)[0]
        if game not in games:
            games.add(game)
            chosen.append(str(row["pdtl"]))
        if len(chosen) == count:
            break
    return chosen


def movetime(command: list[str], calls: int, count: int) -> None:
    print(f"\n## go movetime through the engine, {count} CPU hog(s) beside it ({calls} calls)\n")
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout
    buffer = b""

    def ask(command: str, answer: bytes) -> float:
        nonlocal buffer
        start = time.perf_counter()
        stdin.write(command.encode() + b"\n")
        while answer not in buffer:
            select.select([stdout], [], [])
            buffer += os.read(stdout.fileno(), 1 << 16)
        buffer = buffer[buffer.index(answer) + len(answer) :]
        return time.perf_counter() - start

    ask("isready", b"readyok")
    positions = ["position startpos"] + [f"position pdtl {pdtl}" for pdtl in busy_positions()]
    times = (50, 100, 300, 1000)
    ratios: dict[int, list[float]] = {ms: [] for ms in times}
    with hogs(count):
        for i in range(calls):
            ms = times[i % len(times)]
            stdin.write(positions[(i // len(times)) % len(positions)].encode() + b"\n")
            ratios[ms].append(ask(f"go movetime {ms}", b"bestmove") / (ms / 1000))
    stdin.write(b"quit\n")
    process.wait(timeout=30)
    worst = 0.0
    for ms, values in ratios.items():
        worst = max(worst, max(values))
        print(
            f"movetime {ms:>5} ms: {len(values)} calls, median {statistics.median(values):.2f}x,"
            f" worst {max(values):.2f}x ({max(values) * ms:.0f} ms)"
        )
    print(f"worst answer against its time: {worst:.2f}x (goal: at most 1.25x with one hog)")


def clock(command: list[str], games: int, base: float, increment: float, count: int) -> None:
    print(f"\n## Games at {base:g}+{increment:g}, {count} CPU hog(s) beside them ({games} games)\n")
    spec = EngineSpec("engine", tuple(command))
    records: list[GameRecord] = []

    def seen(pair: PairResult, _state: object) -> None:
        for record in pair.games:
            records.append(record)
            print(f"  {len(records):3d}: {record.white_score:g} in {len(record.moves)} plies ({record.reason})")

    with hogs(count):
        run_match(
            spec,
            spec,
            Control(base=base, increment=increment),
            load_book(ROOT / "scripts" / "data" / "openings.txt"),
            pairs=(games + 1) // 2,
            on_pair=seen,
        )
    flagged = sum(record.flagged for record in records)
    lowest = min((r.lowest_clock for r in records if r.lowest_clock is not None), default=0.0)
    opening = [
        spent / (before / 20 + increment) for record in records for spent, before in record.move_times[:20] if before
    ]
    plies = [len(record.moves) for record in records]
    print(f"\ngames lost on time: {flagged} of {len(records)} (goal: none)")
    print(f"least time left after a move: {lowest * 1000:.0f} ms")
    print(f"plies a game: median {statistics.median(plies):.0f}, longest {max(plies)}")
    print(
        f"longest of the first ten moves against (time left / 20 + increment): {max(opening):.2f}"
        " (goal: about 1 at most)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--engine", default=f"{shlex.quote(sys.executable)} -m cescacs_tui engine")
    parser.add_argument("--calls", type=int, default=200, help="go movetime calls")
    parser.add_argument("--games", type=int, default=50, help="clock games")
    parser.add_argument("--clock", default="2+0", help="BASE+INCREMENT in seconds")
    parser.add_argument("--hogs", type=int, default=None, help="CPU hogs (default 1 for movetime, 2 for clock)")
    args = parser.parse_args()
    chosen = [s.strip() for s in args.sections.split(",")]
    if set(chosen) - set(SECTIONS):
        parser.error(f"unknown sections: {', '.join(sorted(set(chosen) - set(SECTIONS)))}")
    command = shlex.split(args.engine)
    print(f"# Engine time keeping\n\nengine: {args.engine}\nstart: {load()}; Python {sys.version.split()[0]}")
    if "movetime" in chosen:
        movetime(command, args.calls, 1 if args.hogs is None else args.hogs)
    if "clock" in chosen:
        base, _, increment = args.clock.partition("+")
        clock(command, args.games, float(base), float(increment or 0), 2 if args.hogs is None else args.hogs)
    print(f"\nend: {load()}")


if __name__ == "__main__":
    main()

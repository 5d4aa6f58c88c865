"""Hostile protocol lines against a real ``cescacs host``, while two people play on it: tracebacks, hangs, memory.

    python benchmarks/remote_fuzz.py                  # 10,000 lines, in rounds of 2,500
    python benchmarks/remote_fuzz.py --lines 50000    # more

The host runs as its own process on a free port of 127.0.0.1, with its own
data folder.  Each round sends hostile lines (tests/helpers/hostile.py:
surrogates, control characters, huge, negative and infinite numbers, wrong
types, overlong and deeply nested lines, strangers who never say hello, a
flooder) through real sockets while White and Black play the model game on
it.  After each round the host's resident memory is read from /proc; at the
end its output is searched for tracebacks.  Every burst of lines must be
answered (a line a watcher sends after it is a marker whose refusal must come
back): the slowest answer is the figure for hangs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fuzzer lives with the tests

from tests.helpers.hostile import fuzz_host  # noqa: E402

TOKEN = "benchmark-token-0123456789"
ROUND = 2500


def resident_megabytes(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1)) / 1024


def start_host(folder: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    """``cescacs host`` on a free port; its output goes to a file (read for tracebacks at the end)."""
    log = folder / "host.log"
    environment = {**os.environ, "CESCACS_DATA_DIR": str(folder / "data"), "CESCACS_CONFIG_DIR": str(folder / "cfg")}
    with log.open("wb") as output:
        host = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", "host", "--port", "0", "--token", TOKEN],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    deadline = time.monotonic() + 30
    while (found := re.search(rb"hosting a game on 127\.0\.0\.1:(\d+)", log.read_bytes())) is None:
        if time.monotonic() > deadline or host.poll() is not None:
            raise SystemExit(f"the host did not start: {log.read_text()[-800:]}")
        time.sleep(0.05)
    return host, int(found.group(1)), log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lines", type=int, default=10_000, help="hostile lines in all (default: 10,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cescacs-fuzz-") as folder:
        host, port, log = start_host(Path(folder))
        try:
            asyncio.run(fuzz_host(port, TOKEN, lines=300, seed=999))  # warm up: every code path loaded once
            memory = [resident_megabytes(host.pid)]
            totals = {"lines": 0, "flood": 0, "bursts": 0, "moves": 0, "strangers": 0, "floods": 0}
            slowest = 0.0
            problems: list[str] = []
            started = time.monotonic()
            for number, start in enumerate(range(0, args.lines, ROUND)):
                report = asyncio.run(
                    fuzz_host(port, TOKEN, lines=min(ROUND, args.lines - start), seed=args.seed * 100 + number)
                )
                totals["lines"] += report.lines
                totals["flood"] += report.flood_lines
                totals["bursts"] += report.answered_bursts
                totals["moves"] += report.moves_played
                totals["strangers"] += report.strangers_shown_out
                totals["floods"] += report.floods_told
                slowest = max(slowest, report.slowest_answer)
                problems += report.problems
                memory.append(resident_megabytes(host.pid))
                print(f"round {number + 1}: {report.lines} lines, host {memory[-1]:.1f} MB", flush=True)
            seconds = time.monotonic() - started
        finally:
            host.terminate()
            host.wait(timeout=30)
        output = log.read_text(errors="replace")
    print(f"hostile lines: {totals['lines']:,} (and {totals['flood']:,} from flooders) in {seconds:.0f} s")
    print(f"bursts answered: {totals['bursts']:,}; slowest answer {slowest * 1000:.0f} ms (a hang: none unanswered)")
    print(f"strangers shown the door: {totals['strangers']}; flooders told 'flood': {totals['floods']}")
    print(f"the real game: {totals['moves']} moves played meanwhile")
    print(f"host memory after warm-up and each round (MB): {', '.join(f'{m:.1f}' for m in memory)}")
    print(f"tracebacks in the host's output: {output.count('Traceback')}; problems: {problems or 'none'}")


if __name__ == "__main__":
    main()

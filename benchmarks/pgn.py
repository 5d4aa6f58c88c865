"""How long reading and replaying the longest recorded game takes, and jumping to any of its plies."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from cescacs_tui.core.pgn import read_pgn, write_pgn

GAMES = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"
REPEAT = 20


def main() -> None:
    records = {p.name: p.read_text(encoding="utf-8").partition("\n")[2] for p in GAMES.glob("site-file*.txt")}
    name, text = max(records.items(), key=lambda item: len(read_pgn(item[1])[0].nodes))
    timings = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        (game,) = read_pgn(text)
        timings.append(time.perf_counter() - start)
    print(f"{name}: {game.ply} plies, {game.result} ({game.termination})")
    print(f"read + replay:   median {statistics.median(timings) * 1000:7.2f} ms   worst {max(timings) * 1000:7.2f} ms")
    start = time.perf_counter()
    written = write_pgn(game)
    print(f"write:           {(time.perf_counter() - start) * 1000:7.2f} ms ({len(written)} characters)")
    jumps = []
    for ply in range(game.ply + 1):
        start = time.perf_counter()
        game.position_at(ply)
        jumps.append(time.perf_counter() - start)
    print(f"jump to a ply:   median {statistics.median(jumps) * 1000:7.3f} ms   worst {max(jumps) * 1000:7.3f} ms")


if __name__ == "__main__":
    main()

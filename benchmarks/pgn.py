"""How long reading CTL-PGN takes: the longest recorded game, and a file of many short games.

python benchmarks/pgn.py            # the longest recorded game: read, write, jump to a ply
python benchmarks/pgn.py --many     # also a 4 MB file of 29,536 short games (about a minute)

The many-games figures: opening the file as the app does (``open_pgn_file``: read it, count the
games, replay the first one), streaming through every game with ``iter_pgn``, and ``read_pgn`` of
all of them at once, with the peak memory of the process (``ru_maxrss``) after it.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

from cescacs_tui.core.pgn import count_games, iter_pgn, read_pgn, write_pgn
from cescacs_tui.data.records import open_pgn_file

GAMES = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"
REPEAT = 20
MANY = 29_536
"""The audit's file (issue 17): 4 MB of short games."""


def longest_game() -> None:
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


def many_games_text(count: int = MANY) -> str:
    """``count`` short records (about 140 bytes each), every one a legal game of two half-moves."""
    return "".join(
        f'[Variant "C\'escacs"]\n[Event "Blitz {n}"]\n[Date "2026.12.01"]\n[Round "{n}"]\n'
        f'[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. H6-H12, I23-I19 *\n\n'
        for n in range(1, count + 1)
    )


def many_games() -> None:
    text = many_games_text()
    print(f"\n{MANY:,} short games, {len(text.encode()) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "many.ctl-pgn"
        path.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        opened = open_pgn_file(path)
        seconds = time.perf_counter() - start
    print(f"open_pgn_file (the app's open):     {seconds * 1000:6.1f} ms ({opened.games_in_file:,} games counted)")
    start = time.perf_counter()
    count_games(text)
    print(f"count_games alone:                  {(time.perf_counter() - start) * 1000:6.1f} ms")
    start = time.perf_counter()
    streamed = sum(1 for _ in iter_pgn(text))
    print(f"iter_pgn, every game one at a time: {time.perf_counter() - start:6.1f} s ({streamed:,} games)")
    start = time.perf_counter()
    games = read_pgn(text)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"read_pgn, all games in a list:      {seconds:6.1f} s ({len(games):,} games), peak memory {peak:,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--many", action="store_true", help="also the file of 29,536 short games")
    args = parser.parse_args()
    longest_game()
    if args.many:
        many_games()


if __name__ == "__main__":
    main()

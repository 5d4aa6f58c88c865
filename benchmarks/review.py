"""A game review's figures: the wall time of a whole review and how late the event loop answers meanwhile.

python benchmarks/review.py                      # the longest reference game, first 100 half-moves, 0.5 s each
python benchmarks/review.py --record G.ctl-pgn --plies 60 --movetime 0.2

The goal (issue 27): a 100-ply game reviewed at the default time in at most
60 s on an idle 2-core machine, the UI answering keys throughout.  The
review runs in an engine process; this process only waits on it, so a
ticker every 10 ms stands for the keys: its worst lateness is what a key
would wait.  The machine's load is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path

from cescacs_tui.core import CescacsError, Game, read_pgn
from cescacs_tui.learn import DEFAULT_MOVETIME
from cescacs_tui.learn.review import review_game

GAMES = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"
TICK = 0.01


def longest_reference_game() -> Game:
    games = []
    for path in sorted(GAMES.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("# source:"):  # the test data's provenance line
            text = text.partition("\n")[2]
        try:
            games += read_pgn(text)
        except CescacsError:  # the test data holds bad records on purpose
            continue
    return max(games, key=lambda g: g.ply)


def first_plies(game: Game, plies: int) -> Game:
    cut = Game(game.start, tags=game.tags)
    for node in game.nodes[:plies]:
        cut.play(node.move)
    return cut


async def measure(game: Game, movetime: float) -> tuple[float, float]:
    """The review's wall time and the ticker's worst lateness, in seconds."""
    worst = 0.0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        while not done.is_set():
            planned = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            worst = max(worst, time.perf_counter() - planned)

    ticking = asyncio.create_task(ticker())
    began = time.perf_counter()
    await review_game(game, movetime=movetime)
    elapsed = time.perf_counter() - began
    done.set()
    await ticking
    return elapsed, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--record", type=Path, help="a .ctl-pgn record (default: the longest reference game)")
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--movetime", type=float, default=DEFAULT_MOVETIME)
    args = parser.parse_args()
    source = read_pgn(args.record.read_text(encoding="utf-8"))[0] if args.record else longest_reference_game()
    game = first_plies(source, args.plies)
    print(f"load before: {os.getloadavg()[0]:.2f}")
    elapsed, worst = asyncio.run(measure(game, args.movetime))
    print(f"review of {game.ply} half-moves at {args.movetime:g} s a position: {elapsed:.1f} s")
    print(f"the event loop's worst lateness meanwhile: {worst * 1000:.0f} ms")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

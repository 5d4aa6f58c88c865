"""Make the opening book of scripts/match.py: varied, roughly balanced positions a few moves from the start.

    python scripts/make_book.py --openings 1000 --out scripts/data/openings.txt

Each opening is 6 to 9 plies of uniformly random legal moves from the start
position (C'escacs has no opening theory yet to draw lines from, and random
moves give every pawn structure and development a chance), kept only if it
is new (no other opening reaches the same position) and the engine, searching
it to ``--depth`` plies, finds it within ``--balance`` centipawns of equal, so
neither side starts a game pair already winning.  The seed makes the book
the same on every run.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from cescacs_tui.core import Position
from cescacs_tui.engine import SearchBoard, Searcher
from cescacs_tui.engine.search import Limits

OUT = Path(__file__).resolve().parent / "data" / "openings.txt"


def candidate(rng: random.Random) -> tuple[list[str], Position] | None:
    """Random plies from the start, or ``None`` when the game ended on the way."""
    position = Position.initial()
    moves = []
    for _ in range(rng.randint(6, 9)):
        legal = position.legal_moves()
        if not legal:
            return None
        move = rng.choice(legal)
        position.push(move)
        moves.append(str(move))
    return (moves, position) if position.has_legal_moves() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=3, help="plies of the balance search")
    parser.add_argument("--balance", type=int, default=60, help="centipawns from equal at most")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    searcher = Searcher(hash_entries=1 << 16)
    seen: set[tuple[object, ...]] = set()
    book: list[str] = []
    tried = 0
    started = time.monotonic()
    while len(book) < args.openings:
        tried += 1
        found = candidate(rng)
        if found is None:
            continue
        moves, position = found
        key = position.state_key()
        if key in seen:
            continue
        seen.add(key)
        searcher.new_game()
        result = searcher.search(SearchBoard(position), Limits(depth=args.depth))
        if result.mate is not None or abs(result.score) > args.balance:
            continue
        book.append(" ".join(moves))
        if len(book) % 50 == 0:
            print(f"{len(book)} openings of {tried} tried, {time.monotonic() - started:.0f} s", flush=True)
    header = (
        f"# {len(book)} openings for scripts/match.py, made by scripts/make_book.py --openings {args.openings}"
        f" --depth {args.depth} --balance {args.balance} --seed {args.seed}:\n"
        "# 6-9 random plies from the start, each position new and within the balance at that depth.\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(header + "\n".join(book) + "\n", encoding="utf-8")
    print(f"{len(book)} openings written to {args.out} ({tried} tried)")


if __name__ == "__main__":
    main()

"""Build tests/data/mates.jsonl: positions with a mate in one or two, proved by brute force.

    python scripts/make_mate_suite.py [--games 60] [--seed 1] [--out tests/data/mates.jsonl]

Positions come from games of the engine (quick, shallow) against a random
mover and a greedy player: such games end in mates, and their last plies
hold mating chances for either side.  Each candidate is solved by plain
enumeration of the legal moves (no search heuristics, nothing from the
engine), so the suite can judge the engine:

* mate in 1: a move after which the opponent is in check with no legal move;
* mate in 2 (and not in 1): a first move after which the opponent has legal
  moves, every one of which allows a mate in 1.

Each line: ``{"pdtl": ..., "mate_in": 1 or 2, "solutions": [first moves that mate that fast]}``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from cescacs_tui.core import Position
from cescacs_tui.engine.match import play_game, random_opening
from cescacs_tui.engine.players import EnginePlayer, MaterialPlayer, RandomPlayer
from cescacs_tui.engine.search import Limits

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "mates.jsonl"


def mates_now(position: Position) -> bool:
    """The side to move is checkmated."""
    return position.is_check() and not position.has_legal_moves()


def mating_moves(position: Position) -> list[str]:
    """Every move that mates at once."""
    out = []
    for move in position.legal_moves():
        position.push(move)
        if position.is_check() and not position.has_legal_moves():
            out.append(str(move))
        position.pop()
    return out


def has_mate_in_one(position: Position) -> bool:
    for move in position.legal_tuples():
        position.push(move)
        mated = position.is_check() and not position.has_legal_moves()
        position.pop()
        if mated:
            return True
    return False


def mate_in_two_moves(position: Position) -> list[str]:
    """First moves that force mate on the next move (the position has no mate in one)."""
    out = []
    for move in position.legal_moves():
        position.push(move)
        replies = position.legal_tuples()
        forced = bool(replies)
        for reply in replies:
            position.push(reply)
            ok = has_mate_in_one(position)
            position.pop()
            if not ok:
                forced = False
                break
        position.pop()
        if forced:
            out.append(str(move))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tail", type=int, default=20, help="plies before the end of each game to examine")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found: dict[str, dict[str, object]] = {}
    for number in range(args.games):
        engine = EnginePlayer(Limits(nodes=3000), seed=number)
        weak = RandomPlayer(number) if number % 2 else MaterialPlayer(1, number)
        white, black = (engine, weak) if number % 4 < 2 else (weak, engine)
        record = play_game(white, black, opening=random_opening(rng, 2), max_plies=400, crushing=None)
        position = Position.initial()
        positions = []
        for move in record.moves:
            positions.append(position.copy())
            position.push(move)
        for candidate in positions[-args.tail :]:
            pdtl = candidate.to_pdtl()
            if pdtl in found or not candidate.has_legal_moves():
                continue
            ones = mating_moves(candidate)
            if ones:
                found[pdtl] = {"pdtl": pdtl, "mate_in": 1, "solutions": sorted(ones)}
                continue
            twos = mate_in_two_moves(candidate)
            if twos:
                found[pdtl] = {"pdtl": pdtl, "mate_in": 2, "solutions": sorted(twos)}
        counts = [sum(1 for e in found.values() if e["mate_in"] == n) for n in (1, 2)]
        print(
            f"game {number + 1}: {record.result} {record.reason}; suite: {counts[0]} in 1, {counts[1]} in 2", flush=True
        )
    lines = [
        json.dumps(entry, separators=(",", ":"))
        for entry in sorted(found.values(), key=lambda e: (e["mate_in"], e["pdtl"]))
    ]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {args.out}")


if __name__ == "__main__":
    main()

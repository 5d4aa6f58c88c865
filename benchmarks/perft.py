"""Perft speed of the rules core: nodes per second and seconds, depth by depth.

python benchmarks/perft.py            # depths 1-3 from the start, and test-data positions
python benchmarks/perft.py --deep     # also perft(4) from the start (25,048,957 leaves)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cescacs_tui.core import Position, perft

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"
SAMPLES = ("castling-rights-midgame", "long-en-passant-available", "en-passant-and-promotions", "double-check")


def measure(name: str, position: Position, depth: int, expected: int | None) -> float:
    start = time.perf_counter()
    leaves = perft(position, depth)
    seconds = time.perf_counter() - start
    status = "" if expected is None else ("ok" if leaves == expected else f"WRONG (expected {expected})")
    rate = leaves / seconds
    print(f"{name:<28} depth {depth}  {leaves:>11,} leaves  {seconds:8.3f} s  {rate:>12,.0f} leaves/s  {status}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="also run perft(4) from the start")
    args = parser.parse_args()
    entries = {entry["name"]: entry for entry in json.loads(DATA.read_text(encoding="utf-8"))}
    start = entries["start"]
    for depth in (1, 2, 3, 4) if args.deep else (1, 2, 3):
        measure("start", Position.initial(), depth, start["perft"][str(depth)])
    for name in SAMPLES:
        entry = entries[name]
        measure(name, Position.from_pdtl(entry["pdtl"]), 3, entry["perft"]["3"])


if __name__ == "__main__":
    main()

"""Whether the record readers' cost grows linearly with their input, for the shapes that used to explode (issue 22).

python benchmarks/readers.py              # every shape at 16 KiB ... 4 MiB, then the largest accepted record
python benchmarks/readers.py --quick      # 16 KiB ... 256 KiB

Each shape fills a record with one unit repeated (a flat variation, a comment, a NAG, a move that is
illegal from its first repetition, a tag...) up to the size; each size is read by ``read_pgn`` in a
fresh process, which reports its time and its peak memory (``ru_maxrss``).  The ratio is the time at
this size over the time at half of it: about 2 means linear growth (below the limits); about 1 means the reader stopped
at a limit (see ``cescacs_tui.core.pgn_syntax``: tags, characters, half-moves, tokens) or at the first
error, whatever followed.  Before issue 22 the flat variations took 72 s at 4 MiB, a million comments
7 s, a 4 MB name 700 MB of memory, 280,000 tags 103 s, and ``parse_move`` of ``'C' + ' ' * 160 + 'x'``
two seconds (its time grew as the fourth power of the spaces).

The goal, not asserted anywhere: every record up to the 4 MiB file limit read, or refused at its
first error, within 5 s and 200 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable

HEADER = '[Variant "C\'escacs"]\n\n'
MIB = 1024 * 1024


def filled(head: str, unit: str, tail: str, size: int) -> str:
    """``head``, then ``unit`` as many times as fit, then ``tail``: about ``size`` characters."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


SHAPES: dict[str, Callable[[int], str]] = {
    "flat variations": lambda size: filled(HEADER + "1. E7-E13 ", "(1. E7-E11) ", " *\n", size),
    "comments on one move": lambda size: filled(HEADER + "1. E7-E13 ", "{c} ", " *\n", size),
    "NAGs on one move": lambda size: filled(HEADER + "1. E7-E13 ", "$1 ", " *\n", size),
    "move numbers": lambda size: filled(HEADER, "1. ", "*\n", size),
    "a move repeated (error at column 11)": lambda size: filled(HEADER + "1. E7-E13 ", "E7-E13 ", " *\n", size),
    "tags": lambda size: filled(HEADER, '[Annotator "x"]\n', "\n*\n", size),
    "one long name": lambda size: filled('[Variant "C\'escacs"]\n[White "', "x", '"]\n\n*\n', size),
    "one long comment": lambda size: filled(HEADER + "1. E7-E13 {", "x", "} *\n", size),
    "notes after moves": lambda size: filled(HEADER + "1. E7-E13 ", "x //", " *\n", size),
}


def largest_accepted() -> str:
    """A record the readers accept, as large as their limits allow: 10,000 half-moves (the limit), in flat
    variations with a comment each, under 100,000 tokens and the 4 MiB file limit."""
    comment = "{" + "a long annotation, " * 16 + "}"
    return HEADER + "1. E7-E13 " + f"(1. E7-E11 {comment}) " * 9_999 + "*\n"


def measure_one(kind: str, name: str, size: int) -> dict[str, float | str]:
    """Read one input in this process: seconds, peak megabytes, and what came of it."""
    from cescacs_tui.core.errors import CescacsError
    from cescacs_tui.core.pgn import read_pgn
    from cescacs_tui.core.position import Position

    if kind == "record":
        text = largest_accepted() if name == "largest accepted" else SHAPES[name](size)
        start = time.perf_counter()
        try:
            outcome = f"read {len(read_pgn(text))} game(s)"
        except CescacsError as error:
            outcome = f"refused: {str(error)[:90]}"
    else:
        text = "C" + " " * size + "x"
        position = Position.initial()
        start = time.perf_counter()
        try:
            position.parse_move(text)
            outcome = "read"
        except CescacsError as error:
            outcome = f"refused: {str(error)[-60:]}"
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "megabytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "characters": len(text),
        "outcome": outcome,
    }


def measure(kind: str, name: str, size: int) -> dict[str, float | str]:
    """:func:`measure_one` in a fresh process, so that each peak of memory is its own."""
    command = [sys.executable, __file__, "--one", kind, name, str(size)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600)
    figures: dict[str, float | str] = json.loads(result.stdout)
    return figures


def growth(kind: str, name: str, sizes: list[int]) -> None:
    print(f"\n{name}")
    previous = None
    for size in sizes:
        figures = measure(kind, name, size)
        seconds = float(figures["seconds"])
        ratio = f"×{seconds / previous:4.1f}" if previous else "     "
        shown = f"{size // 1024:>5} KiB" if kind == "record" else f"{size:>7} spaces"
        print(f"  {shown}  {seconds:7.3f} s {ratio}  {figures['megabytes']:6.0f} MB  {figures['outcome']}")
        previous = max(seconds, 1e-6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 256 KiB only")
    parser.add_argument("--one", nargs=3, metavar=("KIND", "NAME", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, name, size = args.one
        print(json.dumps(measure_one(kind, name, int(size))))
        return
    top = MIB // 4 if args.quick else 4 * MIB
    sizes = [16 * 1024 * 2**step for step in range(9) if 16 * 1024 * 2**step <= top]
    print("time (ratio to the size before)  peak memory of the process  outcome")
    for name in SHAPES:
        growth("record", name, sizes)
    growth("move", "parse_move: 'C', spaces, 'x'", [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000])
    figures = measure("record", "largest accepted", 0)
    print(f"\nthe largest accepted record ({int(figures['characters']) / MIB:.1f} MiB, 10,000 half-moves):")
    print(f"  {float(figures['seconds']):.2f} s, {float(figures['megabytes']):.0f} MB  {figures['outcome']}")


if __name__ == "__main__":
    main()

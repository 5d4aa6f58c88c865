"""Keys per move with the board's cursor on real games: free cursor keys only, against play among the targets.

    python benchmarks/keys_per_move.py                       # the player's guide's game (Cescacs-A0001-24)
    python benchmarks/keys_per_move.py tests/data/games/*.txt

Each half-move is played with the cursor only, starting where the previous one
left the cursor (on its target; the game starts with the cursor on White's
King, as the app puts it), counting the fewest key presses each way:

* before: the free cursor keys (arrows, ``q e a d``, Home/End) to the piece,
  Enter, the free keys to the target, Enter;
* after: the same to the piece and Enter, then, among the selected piece's
  targets, the direction keys (which jump to the nearest target that way),
  Tab/Shift+Tab, Home/End and Enter, or the target's number key (one press,
  no Enter) when it is one of the first nine.

Choices asked afterwards (which piece a pawn regains, leap or castling) cost
the same both ways and are not counted.  The counts are exact shortest paths
(breadth-first searches over the board's own cursor functions), not timings.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from statistics import mean

from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.tui.board_layout import CURSOR_MOVES, cursor_step, cycle_target, move_cursor, reading_order

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "data" / "games" / "site-file_2020-07-20.txt"
NUMBER_KEYS = 9


def fewest_keys(start: int, goal: int, steps: Callable[[int], Iterable[int]]) -> int:
    """Key presses from ``start`` to ``goal`` when each press takes the cursor from ``h`` to one of ``steps(h)``."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if h == goal:
            return distance[h]
        for nxt in steps(h):
            if nxt not in distance:
                distance[nxt] = distance[h] + 1
                queue.append(nxt)
    raise ValueError("the goal cannot be reached")


def free_steps(h: int) -> list[int]:
    return [move_cursor(h, move) for move in CURSOR_MOVES]


def target_steps(targets: tuple[int, ...]) -> Callable[[int], list[int]]:
    order = reading_order(targets)

    def steps(h: int) -> list[int]:
        moved = [cursor_step(h, move, targets) for move in CURSOR_MOVES]
        return [*moved, cycle_target(order, h, 1), cycle_target(order, h, -1)]

    return steps


def keys_per_half_move(record_text: str) -> list[tuple[int, int, int]]:
    """Per half-move of the record's first game, the keys (before, after, of which to the piece and Enter)."""
    game = read_pgn(record_text)[0]
    position = game.position_at(0)
    cursor = position.king(position.turn)
    counts = []
    for node in game.nodes:
        move = node.move
        to_piece = fewest_keys(cursor, move.origin, free_steps) + 1  # and Enter selects it
        targets = tuple(dict.fromkeys(m.target for m in position.legal_moves() if m.origin == move.origin))
        before = to_piece + fewest_keys(move.origin, move.target, free_steps) + 1
        by_keys = fewest_keys(move.origin, move.target, target_steps(targets)) + 1
        numbered = reading_order(targets)[:NUMBER_KEYS]
        after = to_piece + (1 if move.target in numbered else by_keys)
        counts.append((before, after, to_piece))
        position.push(move)
        cursor = move.target
    return counts


def main(paths: list[str]) -> None:
    for path in paths or [str(GAME)]:
        text = Path(path).read_text(encoding="utf-8")
        if text.startswith("#"):  # the reference files start with a line saying where they come from
            text = text.partition("\n")[2]
        counts = keys_per_half_move(text)
        before, after, to_piece = (sum(side) for side in zip(*counts, strict=True))
        print(f"{Path(path).name}: {len(counts)} half-moves")
        print(f"  before (free cursor keys):     {before} keys, {mean(c[0] for c in counts):.2f} per half-move")
        print(f"  after (play among the targets): {after} keys, {mean(c[1] for c in counts):.2f} per half-move")
        print(
            f"  of which to the piece and Enter (the same both ways): {mean(c[2] for c in counts):.2f};"
            f" from the piece to the target: {(before - to_piece) / len(counts):.2f} before,"
            f" {(after - to_piece) / len(counts):.2f} after"
        )
        print(f"  worst half-move: {max(c[0] for c in counts)} keys before, {max(c[1] for c in counts)} after")
        dearer = sum(1 for c in counts if c[1] > c[0])
        print(f"  half-moves that cost more keys after: {dearer}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Keys per move with the board's cursor on real games: free cursor keys only, against play among the targets.

    python benchmarks/keys_per_move.py                       # the player's guide's game (Cescacs-A0001-24)
    python benchmarks/keys_per_move.py tests/data/games/*.txt

Each half-move is played with the cursor only, counting the fewest key
presses each way:

* before: from where the previous half-move left the cursor (on its target;
  the game starts with the cursor on White's King, as the app puts it), the
  free cursor keys (arrows, ``q e a d``, Home/End) to the piece, Enter, the
  free keys to the target, Enter;
* among the targets: the same to the piece and Enter, then, among the
  selected piece's targets, the direction keys (which jump to the nearest
  target that way), Tab/Shift+Tab, Home/End and Enter, or the target's
  number key (one press, no Enter) when it is one of the first nine;
* the hot seat's own cursors: the same, but each side starts its turn on the
  piece it moved last (its King at first), on the compact board and on the
  full board (whose ← → go along the row drawn, two columns over);
* with the move box too: each half-move the cheaper of that cursor (full
  board) and typing the piece's hex (``/``, the hex, Enter), then the
  target's number or keys;
* and with the piece letters too: the cheapest of those and the piece's
  letter pressed until it picks the piece (``N`` picks the side's first
  Knight that can move as the board is read, ``N`` again the next one), then
  the target's number or keys.

Choices asked afterwards (which piece a pawn regains, leap or castling) cost
the same every way and are not counted.  The counts are exact shortest paths
(breadth-first searches over the board's own cursor functions), not timings.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from statistics import mean
from typing import NamedTuple

from cescacs_tui.core import BLACK, HEX_NAMES, WHITE, Position
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.tui.board_layout import (
    CURSOR_MOVES,
    LayoutMode,
    cursor_step,
    cycle_target,
    move_cursor,
    reading_order,
)

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "data" / "games" / "site-file_2020-07-20.txt"
NUMBER_KEYS = 9
GOAL = 4.0
"""Issue 25's goal: keys a half-move, the fewest way a player has (the last figure printed)."""


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


def free_steps(mode: LayoutMode = "compact") -> Callable[[int], list[int]]:
    def steps(h: int) -> list[int]:
        return [move_cursor(h, move, mode=mode) for move in CURSOR_MOVES]

    return steps


def target_steps(targets: tuple[int, ...]) -> Callable[[int], list[int]]:
    order = reading_order(targets)

    def steps(h: int) -> list[int]:
        moved = [cursor_step(h, move, targets) for move in CURSOR_MOVES]
        return [*moved, cycle_target(order, h, 1), cycle_target(order, h, -1)]

    return steps


def letter_presses(position: Position, origin: int) -> int:
    """How many presses of its letter pick the piece on ``origin``: its place among the side's pieces of its kind
    that can move, as the (unflipped) board is read."""
    movers = {move.origin for move in position.legal_moves()}
    piece = position.piece_at(origin)
    assert piece is not None
    kind = [h for h, other in position.pieces(position.turn) if other.type == piece.type and h in movers]
    return reading_order(kind).index(origin) + 1


class Counts(NamedTuple):
    """One half-move's keys, each way (see the module's docstring)."""

    before: int
    after: int
    to_piece: int
    own_cursor: int
    own_cursor_full: int
    with_move_box: int
    with_letters: int


def keys_per_half_move(record_text: str) -> list[Counts]:
    """Per half-move of the record's first game, the keys each way."""
    game = read_pgn(record_text)[0]
    position = game.position_at(0)
    cursor = position.king(position.turn)
    own = {side: position.king(side) for side in (WHITE, BLACK)}
    counts = []
    for node in game.nodes:
        move = node.move
        to_piece = fewest_keys(cursor, move.origin, free_steps()) + 1  # and Enter selects it
        targets = tuple(dict.fromkeys(m.target for m in position.legal_moves() if m.origin == move.origin))
        before = to_piece + fewest_keys(move.origin, move.target, free_steps()) + 1
        by_keys = fewest_keys(move.origin, move.target, target_steps(targets)) + 1
        numbered = reading_order(targets)[:NUMBER_KEYS]
        to_target = 1 if move.target in numbered else by_keys
        side = position.turn
        own_piece = fewest_keys(own[side], move.origin, free_steps()) + 1
        own_piece_full = fewest_keys(own[side], move.origin, free_steps("full")) + 1
        typed_piece = 1 + len(HEX_NAMES[move.origin]) + 1  # "/", the hex, Enter
        counts.append(
            Counts(
                before,
                to_piece + to_target,
                to_piece,
                own_piece + to_target,
                own_piece_full + to_target,
                min(own_piece_full, typed_piece) + to_target,
                min(own_piece_full, typed_piece, letter_presses(position, move.origin)) + to_target,
            )
        )
        position.push(move)
        cursor = own[side] = move.target
    return counts


def main(paths: list[str]) -> None:
    for path in paths or [str(GAME)]:
        text = Path(path).read_text(encoding="utf-8")
        if text.startswith("#"):  # the reference files start with a line saying where they come from
            text = text.partition("\n")[2]
        counts = keys_per_half_move(text)
        before, after, to_piece, *_ = (sum(side) for side in zip(*counts, strict=True))
        print(f"{Path(path).name}: {len(counts)} half-moves")
        print(f"  before (free cursor keys):     {before} keys, {mean(c.before for c in counts):.2f} per half-move")
        print(f"  after (play among the targets): {after} keys, {mean(c.after for c in counts):.2f} per half-move")
        print(
            f"  of which to the piece and Enter (the same both ways): {mean(c.to_piece for c in counts):.2f};"
            f" from the piece to the target: {(before - to_piece) / len(counts):.2f} before,"
            f" {(after - to_piece) / len(counts):.2f} after"
        )
        print(f"  worst half-move: {max(c.before for c in counts)} keys before, {max(c.after for c in counts)} after")
        dearer = sum(1 for c in counts if c.after > c.before)
        print(f"  half-moves that cost more keys after: {dearer}")
        own = mean(c.own_cursor for c in counts)
        print(f"  hot seat, each side's own cursor, compact board: {own:.2f} per half-move")
        print(f"  hot seat, each side's own cursor, full board:    {mean(c.own_cursor_full for c in counts):.2f}")
        fewest = mean(c.with_move_box for c in counts)
        print(f"  the same, or the piece's hex typed in the move box: {fewest:.2f}")
        fewest = mean(c.with_letters for c in counts)
        print(f"  the same, or the piece's letter (K D V R G N J E P, again: the next): {fewest:.2f}")
        print(f"  goal: at most {GOAL:.1f} keys a half-move: {'met' if fewest <= GOAL else 'not met'}")


if __name__ == "__main__":
    main(sys.argv[1:])

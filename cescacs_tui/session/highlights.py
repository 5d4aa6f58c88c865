"""What the board marks besides the pieces: the overlays a player switches on, the hexes a move changes.

Pure functions of the game, so the rules decide every mark and the tests check
them without a screen; :func:`cescacs_tui.tui.view.board_view` turns them into
what the board widget draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..core import Move, Position
from ..core.game import Game
from ..core.move import CASTLING_BY_TOKEN


@dataclass(frozen=True)
class Overlays:
    """Optional helpers the player can switch on."""

    attacked: bool = False
    """Hexes the opponent attacks."""
    threatened: bool = False
    """The player's own pieces that are attacked."""

    def cycle(self) -> Overlays:
        """Off → attacked hexes → threatened pieces → both → off."""
        order = [(False, False), (True, False), (False, True), (True, True)]
        index = order.index((self.attacked, self.threatened))
        return Overlays(*order[(index + 1) % len(order)])

    def describe(self) -> str:
        shown = [name for name, on in (("attacked hexes", self.attacked), ("threatened pieces", self.threatened)) if on]
        return "overlays: " + (" and ".join(shown) if shown else "off")


NO_OVERLAYS: Final = Overlays()
"""Every overlay off: the default view."""


def move_hexes(position: Position, move: Move) -> tuple[int, ...]:
    """Every hex a move changes, as seen before it is played (for last-move and preview marks)."""
    hexes = [move.origin, move.target]
    if move.castling is not None:
        plan = CASTLING_BY_TOKEN[position.turn][move.castling]
        for rook_from, rook_to, _ in plan.rooks:
            hexes += [rook_from, rook_to]
    captured = position.captured_piece(move)
    if captured is not None and captured[0] != move.target:
        hexes.append(captured[0])  # the pawn taken en passant
    return tuple(dict.fromkeys(hexes))


def last_move_hexes(game: Game) -> tuple[int, ...]:
    """Every hex changed by the move that led to the reviewed position (none at the start)."""
    if game.cursor == 0:
        return ()
    node = game.nodes[game.cursor - 1]
    if not game.is_live:
        return move_hexes(game.position_at(game.cursor - 1), node.move)
    position = game.position  # the live end: step it back and forward again rather than replay the game
    position.pop()
    try:
        return move_hexes(position, node.move)
    finally:
        position.push(node.move)

"""What the board should show, computed from the game: a pure function, no Textual.

Keeping this out of the widgets means the rules decide every highlight (which
King is in check, which pawns await promotion, which hexes the opponent
attacks) and the tests can check them without running an app.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import HEXES, Move, Position
from ..core.game import Game
from ..core.move import CASTLING_BY_TOKEN
from ..core.pieces import Colour
from .board_layout import BoardView
from .picking import Picker


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


def board_view(
    position: Position,
    *,
    picker: Picker | None = None,
    last_move: Sequence[int] = (),
    preview: Sequence[int] = (),
    overlays: Overlays = Overlays(),
) -> BoardView:
    """The :class:`BoardView` of ``position`` with the selection, last move, preview and overlays."""
    mover = position.turn
    opponent = Colour(1 - mover)
    check = position.king(mover) if position.is_check() else None
    attacked: frozenset[int] = frozenset()
    threatened: frozenset[int] = frozenset()
    if overlays.attacked or overlays.threatened:
        hit = frozenset(h for h in HEXES if position.is_attacked(h, opponent))
        if overlays.attacked:
            attacked = hit
        if overlays.threatened:
            threatened = frozenset(h for h, _ in position.pieces(mover) if h in hit)
    awaiting = frozenset(position.awaiting_pawns(Colour.WHITE) + position.awaiting_pawns(Colour.BLACK))
    return BoardView(
        codes=position.board_codes,
        selected=picker.selected if picker else None,
        targets=picker.targets() if picker else {},
        last_move=tuple(last_move),
        check=check,
        attacked=attacked,
        threatened=threatened,
        awaiting=awaiting,
        preview=tuple(preview),
    )

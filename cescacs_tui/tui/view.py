"""What the board should show, computed from the game: a pure function, no Textual.

Keeping this out of the widgets means the rules decide every highlight (which
King is in check, which pawns await promotion, which hexes the opponent
attacks) and the tests can check them without running an app.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import HEXES, Position
from ..core.pieces import Colour
from ..session.highlights import NO_OVERLAYS, Overlays
from ..session.selection import Picker
from .board_layout import BoardView


def board_view(
    position: Position,
    *,
    picker: Picker | None = None,
    last_move: Sequence[int] = (),
    preview: Sequence[int] = (),
    overlays: Overlays = NO_OVERLAYS,
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

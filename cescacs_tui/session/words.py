"""The game in words for players: move labels, the ways a King can go, promotion choices, times.

Every front end says these things the same way, so they live beside the
session rather than in a widget.
"""

from __future__ import annotations

import datetime

from ..core import HEX_NAMES, Colour, Move, Position
from ..core.game import Node
from ..core.geometry import HEX_COLOUR, HEX_COLOUR_NAMES
from ..core.move import CASTLING_BY_TOKEN
from ..core.pieces import NAMES, PieceType


def move_label(node: Node, *, first: bool) -> str:
    """``12. E7-E13`` for White; for Black ``12… E21-E15`` only where a line starts or resumes, else the move alone."""
    number = "" if node.number is None else str(node.number)
    if node.colour == Colour.WHITE:
        return f"{number}. {node.san}" if number else node.san
    return f"{number}\u2026 {node.san}" if first and number else node.san


def promotion_label(position: Position, move: Move) -> str:
    """The piece a promotion regains, with its CTL-AN; a Bishop says the colour of hexes it is bound to."""
    name = NAMES[move.promotion]
    if move.promotion == PieceType.BISHOP:
        name += f" ({HEX_COLOUR_NAMES[HEX_COLOUR[move.target]]} hexes)"
    return f"{name}  {position.ctl_an(move)}"


def king_move_label(position: Position, move: Move) -> str:
    """A King's leap or one castling, each piece's way spelt out (they can share the King's target)."""
    if move.castling is None:
        return f"King's leap {HEX_NAMES[move.origin]}→{HEX_NAMES[move.target]}  ({position.ctl_an(move)})"
    plan = CASTLING_BY_TOKEN[position.turn][move.castling]
    rooks = ", ".join(f"Rook {HEX_NAMES[a]}→{HEX_NAMES[b]}" for a, b, _ in plan.rooks)
    return f"{position.ctl_an(move)}: King {HEX_NAMES[plan.king_from]}→{HEX_NAMES[plan.king_to]}, {rooks}"


def half_moves(count: int) -> str:
    return f"{count} half-move{'' if count == 1 else 's'}"


def when(timestamp: str) -> str:
    """An ISO time stamp as people read it, in local time ("at 14:05 on 2026-11-29"); ``""`` if unreadable."""
    try:
        moment = datetime.datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return ""
    return f"at {moment:%H:%M} on {moment:%Y-%m-%d}"

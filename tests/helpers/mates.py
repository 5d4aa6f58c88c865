"""Checkmates found the plain way, each legal move played: what the rules core's shortcuts are compared with."""

from __future__ import annotations

from cescacs_tui.core import Position
from cescacs_tui.core.position import MoveTuple


def mates_by_playing_every_move(position: Position) -> list[MoveTuple]:
    """The legal moves after which the other side is in check and has no legal move, in the list's order."""
    mates = []
    for move in position.legal_tuples():
        position.push(move)
        if position.is_check() and not position.legal_moves():
            mates.append(move)
        position.pop()
    return mates

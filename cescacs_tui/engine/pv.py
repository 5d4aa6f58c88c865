"""Engine output for people: a line of moves in CTL-AN, a score in pawns.

Engines speak the canonical coordinate form (``E7-E13``); a player reads
CTL-AN with piece letters, check marks and move numbers
(``12. NG3-H8 E21-E15+^``).  The moves come from another program, so they
are checked: a line is cut at its first move that is not legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.errors import CescacsError
from ..core.move import Move
from ..core.pieces import WHITE
from ..core.position import Position


def pv_moves(position: Position, texts: Iterable[str]) -> tuple[Move, ...]:
    """The moves of ``texts`` played one after the other from ``position``, up to the first that is not legal."""
    current = position.copy()
    out: list[Move] = []
    for text in texts:
        try:
            move = current.parse_move(text)
        except CescacsError:
            break
        current.push(move)
        out.append(move)
    return tuple(out)


def pv_to_ctl_an(position: Position, moves: Sequence[Move], *, fan: bool = False, numbers: bool = True) -> str:
    """``moves`` from ``position`` in CTL-AN (or CTL-FAN), with move numbers: ``12... E21-E15 13. NG3-H8``.

    The moves must be legal in turn (as :func:`pv_moves` returns them).
    Without a known move number (PDTL ``?``) the numbers are left out.
    """
    current = position.copy()
    parts: list[str] = []
    for i, move in enumerate(moves):
        number = current.fullmove_number
        if numbers and number is not None:
            if current.turn == WHITE:
                parts.append(f"{number}.")
            elif i == 0:
                parts.append(f"{number}...")
        parts.append(current.ctl_an(move, fan=fan))
        current.push(move)
    return " ".join(parts)


def format_score(centipawns: int | None, mate: int | None) -> str:
    """A score for display, from the side it is given for: ``+1.25``, ``-0.40``, ``#3`` (mates in 3), ``-#2``."""
    if mate is not None:
        return f"#{mate}" if mate > 0 else f"-#{-mate}"
    if centipawns is None:
        return "?"
    return f"{centipawns / 100:+.2f}"


__all__ = ["format_score", "pv_moves", "pv_to_ctl_an"]

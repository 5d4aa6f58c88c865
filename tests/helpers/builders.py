"""Hand-built positions for the rule tests.

A position is written as ``"KG1 kG27 RC3"``: a PDTL letter (upper case White,
lower case Black), then the hex.  :func:`pdtl` lays the pieces out in PDTL's
line order using only RULES.md 2.4, so the tests' positions do not depend on
the code under test.
"""

from __future__ import annotations

from typing import Any

from cescacs_tui.core import Position

COLUMNS = "PTABCDEFGHIKLXZ"


def exists(c: int, line: int) -> bool:
    """RULES.md 2.4: the hex (column index, line) is on the board."""
    if not (0 <= c <= 14 and 0 <= line <= 28) or (c % 2 == 1) != (line % 2 == 0):
        return False
    return 7 - c <= line <= 21 + c if c <= 7 else c - 7 <= line <= 35 - c


def pdtl(spec: str, turn: str = "w", castling: str = "--", special: str = "-", clock: int = 0, number: int = 1) -> str:
    """A PDTL string from ``"KG1 kG27 RC3"`` (RULES.md 2.4 line order)."""
    pieces = {token[1:]: token[0] for token in spec.split()}
    entries = []
    for line in range(28, -1, -1):
        hexes = [f"{COLUMNS[c]}{line}" for c in range(15) if exists(c, line)]
        if not any(h in pieces for h in hexes):
            continue
        cells, run = "", 0
        for h in hexes:
            if h in pieces:
                cells += (str(run) if run else "") + pieces.pop(h)
                run = 0
            else:
                run += 1
        entries.append(f"{line}:{cells}{run or ''}")
    assert not pieces, f"not hexes of the board: {pieces}"
    return f"/{'/'.join(entries)}/ {turn} {castling} {special} {clock} {number}"


def position(spec: str, castling_option: bool = True, **fields: Any) -> Position:
    """The position of ``spec``; ``castling_option=False`` plays without castling (RULES.md 11.1)."""
    return Position.from_pdtl(pdtl(spec, **fields), castling=castling_option)


def moves_from(pos: Position, hex_name: str) -> set[str]:
    """Canonical targets (``F16``, ``F28=D``) of the legal non-castling moves starting on ``hex_name``."""
    return {str(m)[len(hex_name) + 1 :] for m in pos.legal_moves() if str(m).startswith(hex_name + "-")}


def names(pos: Position) -> set[str]:
    """Every legal move in canonical form."""
    return {str(m) for m in pos.legal_moves()}


def play(pos: Position, *moves: str) -> Position:
    """Play moves given as text, in place; returns the position for chaining."""
    for text in moves:
        pos.push(pos.parse_move(text))
    return pos

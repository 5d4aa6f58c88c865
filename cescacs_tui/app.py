"""Start a game.  The Textual app arrives with issue #4; until then the
command prints the position and its legal moves (as issue #2 allows)."""

from __future__ import annotations

from .core import Position


def run_app(*, pgn_file: str | None = None, pdtl: str | None = None, castling: bool = True) -> int:
    position = Position.initial(castling=castling) if pdtl is None else Position.from_pdtl(pdtl, castling=castling)
    print(position.to_pdtl())
    print(" ".join(position.ctl_an(m) for m in sorted(position.legal_moves(), key=str)))
    return 0

"""The C'escacs engine: a computer player in pure Python, on top of the rules core.

* :class:`SearchBoard` (:mod:`.board`): a position with its Zobrist key and
  incremental evaluation sums;
* :class:`Searcher` (:mod:`.search`): iterative-deepening alpha-beta with a
  transposition table, quiescence and time management; :class:`Limits`,
  :class:`Info`, :class:`Result`;
* :class:`Weights` (:mod:`.evaluation`): every number of the evaluation;
* :data:`LEVELS` and :func:`choose_move` (:mod:`.levels`): strength 1-10;
* :class:`EngineProtocol` (:mod:`.protocol`): the UCI-style text protocol of
  ``cescacs engine`` (docs/engine-protocol.md);
* :mod:`.client`: an asyncio client that runs any engine speaking that
  protocol as a subprocess, for front ends.

Like the core, nothing here imports a user-interface library.  The names
above are imported on first use: importing the package does not load the
search.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import SearchBoard
    from .evaluation import Weights
    from .levels import LEVELS, Level, choose_move, level
    from .search import MATE, STALEMATE, Info, Limits, Result, Searcher

_HOMES = {
    "SearchBoard": "board",
    "Weights": "evaluation",
    **dict.fromkeys(("LEVELS", "Level", "choose_move", "level"), "levels"),
    **dict.fromkeys(("MATE", "STALEMATE", "Info", "Limits", "Result", "Searcher"), "search"),
}


def __getattr__(name: str) -> object:
    """The engine's classes and levels, imported from their module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)


__all__ = [
    "LEVELS",
    "MATE",
    "STALEMATE",
    "Info",
    "Level",
    "Limits",
    "Result",
    "SearchBoard",
    "Searcher",
    "Weights",
    "choose_move",
    "level",
]

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

Like the core, nothing here imports a user-interface library.
"""

from .board import SearchBoard
from .evaluation import Weights
from .levels import LEVELS, Level, choose_move, level
from .search import MATE, STALEMATE, Info, Limits, Result, Searcher

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

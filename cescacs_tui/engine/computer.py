"""Playing the computer in a game: which engine, how long it thinks, what it answers.

The pieces a front end needs around :class:`~.client.EngineClient`, free of
any user interface so they are tested alone (who plays each side is the
session's: :mod:`cescacs_tui.session.players`):

* :func:`engine_command`: the engine to start, from the setting a player may
  change (any program speaking docs/engine-protocol.md);
* :func:`limits_for`: the ``go`` limits for the computer's turn, from the
  game's clock (so the clock runs for it as for a person) or a fixed time;
* :func:`computer_move`: ask the engine for the move at the live end of a
  :class:`~cescacs_tui.core.game.Game`; :func:`hint` and :func:`analyse`:
  the best move, or a running analysis, at any ply, at full strength.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Final

from ..core.clock import ClockKind
from ..core.game import Game
from ..core.move import Move
from ..core.pieces import BLACK, WHITE
from .client import DEFAULT_COMMAND, BestMove, EngineClient, EngineError, EngineInfo, Search
from .levels import LEVELS
from .search import Limits

DEFAULT_MOVETIME: Final = 2.0
"""Seconds the computer thinks per move in a game without a clock."""
PER_MOVE_MARGIN: Final = 0.2
"""Seconds kept back from a per-move clock, so the computer never loses on time by a hair."""


def engine_command(setting: str | None) -> list[str]:
    """The engine to run, from a setting: a shell-style command line, or this package's engine when empty.

    ``ValueError`` for a line that cannot be split (an unclosed quote).
    """
    if setting is None or not setting.strip():
        return list(DEFAULT_COMMAND)
    try:
        return shlex.split(setting)
    except ValueError as problem:
        raise ValueError(f"the engine command cannot be read: {problem}") from None


def limits_for(game: Game, *, movetime: float = DEFAULT_MOVETIME) -> Limits:
    """The ``go`` limits for the side to move at the live end of ``game``.

    With a clock, the engine gets both sides' remaining time (and the
    increment, or a delay counted as one) and budgets its own thinking; a
    per-move clock gives it that time less a safety margin.  Without a
    clock it thinks ``movetime`` seconds.
    """
    clock = game.clock
    if clock is None or clock.control.kind is ClockKind.NONE:
        return Limits(movetime=movetime)
    control = clock.control
    if control.kind is ClockKind.PER_MOVE:
        return Limits(movetime=max(0.05, clock.remaining(game.position.turn) - PER_MOVE_MARGIN))
    extra = control.increment if control.kind is ClockKind.FISCHER else control.delay
    return Limits(
        white_time=clock.remaining(WHITE),
        black_time=clock.remaining(BLACK),
        white_increment=extra,
        black_increment=extra,
    )


async def computer_move(
    client: EngineClient,
    game: Game,
    level: int,
    *,
    movetime: float = DEFAULT_MOVETIME,
    limits: Limits | None = None,
    on_info: Callable[[EngineInfo], None] | None = None,
) -> Move:
    """The engine's move at the live end of ``game``, playing at ``level``.

    It thinks by the game's clock, or ``movetime`` seconds without one;
    ``limits`` overrides both (``Limits(nodes=...)`` with the ``Seed``
    option set makes a game repeatable, for tests).  Raises
    :class:`EngineError` if the engine fails or answers no move (the game is
    over: check :attr:`Game.outcome` before asking).
    """
    if "Level" in client.declared_options:
        await client.set_option("Level", level)
    chosen = limits or limits_for(game, movetime=movetime)
    search = await client.go(game.start, game.moves, chosen, on_info=on_info)
    best = await search.result()
    if best.move is None:
        raise EngineError("the engine has no move to play: the game is over")
    return best.move


HINT_LEVEL: Final = len(LEVELS)
"""Hints and analysis use the full strength, whatever level the computer opponent plays at."""


async def hint(
    client: EngineClient,
    game: Game,
    ply: int | None = None,
    *,
    movetime: float = 1.0,
    limits: Limits | None = None,
    on_info: Callable[[EngineInfo], None] | None = None,
) -> BestMove:
    """The engine's best move (with its last report: score, line) after the first ``ply`` half-moves of ``game``.

    ``ply=None`` is the live end.  The search runs at full strength for
    ``movetime`` seconds (``limits`` overrides it); the next
    :func:`computer_move` sets the opponent's level again.
    """
    moves = game.moves if ply is None else game.moves[:ply]
    if "Level" in client.declared_options:
        await client.set_option("Level", HINT_LEVEL)
    search = await client.go(game.start, moves, limits or Limits(movetime=movetime), on_info=on_info)
    return await search.result()


async def analyse(
    client: EngineClient,
    game: Game,
    ply: int | None,
    on_info: Callable[[EngineInfo], None],
) -> Search:
    """Start an infinite analysis after the first ``ply`` half-moves (``None``: the live end) at full strength.

    Reports stream to ``on_info``; the caller stops it with
    :meth:`Search.stop` (starting another search, a move, a hint, stops it too).
    """
    moves = game.moves if ply is None else game.moves[:ply]
    if "Level" in client.declared_options:
        await client.set_option("Level", HINT_LEVEL)
    return await client.go(game.start, moves, Limits(infinite=True), on_info=on_info)


__all__ = [
    "DEFAULT_MOVETIME",
    "analyse",
    "computer_move",
    "engine_command",
    "hint",
    "limits_for",
]

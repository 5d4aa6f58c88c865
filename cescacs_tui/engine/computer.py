"""Playing the computer in a game: who sits at each side, how long it thinks, what a takeback undoes.

The pieces a front end needs around :class:`~.client.EngineClient`, free of
any user interface so they are tested alone:

* :class:`Seat` and :func:`parse_seat`: ``human`` or ``computer:LEVEL`` for
  each side (the ``--white computer:3`` of the command line, the new-game
  dialog's choice);
* :func:`engine_command`: the engine to start, from the setting a player may
  change (any program speaking docs/engine-protocol.md);
* :func:`limits_for`: the ``go`` limits for the computer's turn, from the
  game's clock (so the clock runs for it as for a person) or a fixed time;
* :func:`computer_move`: ask the engine for the move at the live end of a
  :class:`~cescacs_tui.core.game.Game`; :func:`hint` and :func:`analyse`:
  the best move, or a running analysis, at any ply, at full strength;
* :func:`takeback_plies`: how many half-moves a takeback removes so that it
  is again a person's turn before that person's last move.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.clock import ClockKind
from ..core.game import Game
from ..core.move import Move
from ..core.pieces import BLACK, WHITE, Colour
from .client import DEFAULT_COMMAND, BestMove, EngineClient, EngineError, EngineInfo, Search
from .levels import LEVELS
from .search import Limits

DEFAULT_LEVEL: Final = 3
"""The level ``computer`` alone means: weak enough for a beginner to win."""
DEFAULT_MOVETIME: Final = 2.0
"""Seconds the computer thinks per move in a game without a clock."""
PER_MOVE_MARGIN: Final = 0.2
"""Seconds kept back from a per-move clock, so the computer never loses on time by a hair."""


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person (``level is None``) or the computer at ``level`` (1-10)."""

    level: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def __str__(self) -> str:
        return "human" if self.level is None else f"computer:{self.level}"


HUMAN: Final = Seat()


def parse_seat(text: str) -> Seat:
    """``human``, ``computer`` (level :data:`DEFAULT_LEVEL`) or ``computer:N`` with N from 1 to 10.

    Case and surrounding spaces do not matter; anything else is a
    ``ValueError`` saying what is accepted (argparse shows it as it is).
    """
    word, colon, rest = text.strip().lower().partition(":")
    if word == "human" and not colon:
        return HUMAN
    if word == "computer":
        if not colon:
            return Seat(DEFAULT_LEVEL)
        if rest.isdigit() and 1 <= int(rest) <= len(LEVELS):
            return Seat(int(rest))
    shown = text if len(text) <= 40 and text.isprintable() else repr(text[:40])
    raise ValueError(f"{shown!s} is not a player: use 'human', 'computer' or 'computer:N' with N from 1 to 10")


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


def takeback_plies(moves: Sequence[Move], start_turn: Colour, seats: tuple[Seat, Seat]) -> int:
    """How many half-moves to take back so that a person is to move before their last move.

    Against the computer a takeback undoes the computer's reply too (or,
    while it is thinking, just the person's move); between two people, or
    two computers, it is one half-move.  0 when there is nothing to undo.
    """
    if not moves:
        return 0
    if seats[0].is_computer == seats[1].is_computer:
        return 1
    human = WHITE if not seats[WHITE].is_computer else BLACK
    plies = len(moves)
    for undone in range(1, plies + 1):
        mover = Colour((start_turn + plies - undone) % 2)  # who played the half-move being undone
        if mover == human:
            return undone
    return plies  # only the computer has moved: back to the start


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_MOVETIME",
    "HUMAN",
    "Seat",
    "analyse",
    "computer_move",
    "engine_command",
    "hint",
    "limits_for",
    "parse_seat",
    "takeback_plies",
]

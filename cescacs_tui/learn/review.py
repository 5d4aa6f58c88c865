"""A game reviewed ply by ply by the engine, in the background.

:func:`review_game` sends every position of a game's main line to an engine
process (:class:`~cescacs_tui.engine.client.EngineClient`, by default
``cescacs engine``) for ``movetime`` seconds, and makes of the answers one
:class:`PlyReview` per half-move: the score before it (the engine's best
play), the score after it, the best move and its line, the mover's loss of
expected score, the class and the accuracy (:mod:`.scoring` says how).

It is a coroutine: the searching happens in the other process, so an event
loop (a Textual app, the plain mode) goes on answering keys.  It reports
``on_progress(done, total)`` after each position and stops at once when its
task is cancelled (the engine it started is closed; one lent to it is left
idle).  A game of ``n`` half-moves costs ``n + 1`` searches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.game import Game
from ..core.move import Move
from ..core.pieces import WHITE, Colour
from ..core.position import Position
from ..engine.client import EngineClient, EngineError
from ..engine.search import Limits
from ..i18n import _
from . import DEFAULT_MOVETIME
from .scoring import Class, classify, expected, mate_cp, mean_accuracy, move_accuracy

__all__ = [
    "DEFAULT_MOVETIME",
    "MAX_LINE",
    "Evaluation",
    "PlyReview",
    "Review",
    "ReviewError",
    "judge",
    "review_game",
]

MAX_LINE: Final = 6
"""Half-moves of the engine's line kept as the better line."""
STALEMATE_CP: Final = 5_000
"""A stalemate on the board: a win by the minimum (RULES.md 9.5), scored like the engine's ``STALEMATE``."""


class ReviewError(Exception):
    """The review could not be made: the engine failed or gave no score."""


@dataclass(frozen=True)
class Evaluation:
    """A score from White's side: ``cp`` centipawns (a mate counts as :func:`~.scoring.mate_cp`), ``mate``
    the moves to mate when there is one (positive: White mates; 0: the move just mated)."""

    cp: int
    mate: int | None = None

    @classmethod
    def of_engine(cls, score: int | None, mate: int | None, turn: Colour) -> Evaluation:
        """From an engine's report (the side to move's view) about a position where ``turn`` moves."""
        sign = 1 if turn == WHITE else -1
        if mate is not None:
            return cls(sign * mate_cp(mate), sign * mate)
        if score is None:
            raise ReviewError(_("the engine reported no score"))
        return cls(sign * score)

    def for_side(self, colour: Colour) -> int:
        """The centipawns from ``colour``'s side."""
        return self.cp if colour == WHITE else -self.cp

    @property
    def pawns(self) -> float:
        return self.cp / 100


@dataclass(frozen=True)
class PlyReview:
    """One half-move judged: ``ply`` counts from 1, ``move`` and ``best`` are CTL-AN."""

    ply: int
    number: int | None
    colour: Colour
    move: str
    before: Evaluation
    """The position before the move, with the engine's best play: the best move's score."""
    after: Evaluation
    """The position after the move."""
    best: str | None
    """The engine's best move (``None`` only when it gave none)."""
    best_line: tuple[Move, ...]
    """The engine's line from the position before the move (its best move first)."""
    loss: float
    """The mover's expected score lost, 0 to 1."""
    kind: Class | None
    accuracy: float

    @property
    def is_best(self) -> bool:
        return self.best == self.move

    @property
    def pawns_lost(self) -> float:
        """What the move gave up next to the best, in pawns (the mover's view)."""
        return max(0, self.before.for_side(self.colour) - self.after.for_side(self.colour)) / 100


@dataclass(frozen=True)
class Review:
    """Every half-move of a game's main line, judged, and each side's accuracy (``None``: no move)."""

    plies: tuple[PlyReview, ...]
    movetime: float

    def accuracy(self, colour: Colour) -> float | None:
        return mean_accuracy([p.loss for p in self.plies if p.colour == colour])

    def of_class(self, kind: Class) -> list[PlyReview]:
        return [p for p in self.plies if p.kind is kind]


@dataclass(frozen=True)
class _Analysis:
    evaluation: Evaluation
    line: tuple[Move, ...]


def _terminal(position: Position) -> Evaluation | None:
    """The score of a position with no legal move (the side to move is mated or stalemated), else ``None``."""
    if position.has_legal_moves():
        return None
    winner = position.turn.opponent
    sign = 1 if winner == WHITE else -1
    if position.is_check():
        return Evaluation(sign * mate_cp(0), 0)
    return Evaluation(sign * STALEMATE_CP)


async def _analyse(engine: EngineClient, game: Game, ply: int, limits: Limits) -> _Analysis:
    moves = game.moves[:ply]
    position = game.position_at(ply)
    ended = _terminal(position)
    if ended is not None:
        return _Analysis(ended, ())
    answer = await engine.best_move(game.start, moves, limits)
    info = answer.info
    if answer.move is None or info is None:
        raise ReviewError(_("the engine gave no move and score at half-move {ply}").format(ply=ply))
    evaluation = Evaluation.of_engine(info.score, info.mate, position.turn)
    line = info.moves if info.moves and info.moves[0] == answer.move else (answer.move,)
    return _Analysis(evaluation, line[:MAX_LINE])


def judge(game: Game, ply: int, before: Evaluation, line: Sequence[Move], after: Evaluation) -> PlyReview:
    """Half-move ``ply`` of ``game`` judged from the engine's score ``before`` it (with its best ``line`` there)
    and its score ``after`` it."""
    node = game.nodes[ply - 1]
    mover = node.colour
    position = game.position_at(ply - 1)
    best_move = line[0] if line else None
    is_best = best_move == node.move
    loss = 0.0 if is_best else max(0.0, expected(before.for_side(mover)) - expected(after.for_side(mover)))
    return PlyReview(
        ply=ply,
        number=node.number,
        colour=mover,
        move=node.san,
        before=before,
        after=after,
        best=None if best_move is None else position.ctl_an(best_move),
        best_line=tuple(line),
        loss=loss,
        kind=None if is_best else classify(loss),
        accuracy=move_accuracy(loss),
    )


def _judge(game: Game, ply: int, before: _Analysis, after: _Analysis) -> PlyReview:
    return judge(game, ply, before.evaluation, before.line, after.evaluation)


async def review_game(
    game: Game,
    *,
    movetime: float = DEFAULT_MOVETIME,
    engine: EngineClient | None = None,
    command: Sequence[str] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    on_ply: Callable[[PlyReview], None] | None = None,
) -> Review:
    """Review the main line of ``game`` (every half-move from its start position).

    ``engine`` is an engine already started (left running and idle);
    without it one is started with ``command`` (default ``cescacs engine``)
    and closed at the end, cancellation included.  ``on_progress(done, total)``
    counts positions searched; ``on_ply`` receives each half-move judged as
    soon as the position after it is searched (a screen shows the review
    growing).  :class:`ReviewError` if the engine fails.
    """
    plies = len(game.nodes)
    total = plies + 1
    own = engine is None
    try:
        client = engine if engine is not None else await EngineClient.start(command)
    except EngineError as error:
        raise ReviewError(str(error)) from None
    limits = Limits(movetime=movetime)
    try:
        await client.new_game()
        analyses: list[_Analysis] = []
        for ply in range(total):
            analyses.append(await _analyse(client, game, ply, limits))
            if on_ply is not None and ply > 0:
                on_ply(_judge(game, ply, analyses[ply - 1], analyses[ply]))
            if on_progress is not None:
                on_progress(ply + 1, total)
    except EngineError as error:
        raise ReviewError(str(error)) from None
    finally:
        if own:
            await client.close()
        else:
            await client.stop()
    judged = tuple(_judge(game, ply, analyses[ply - 1], analyses[ply]) for ply in range(1, total))
    return Review(judged, movetime)

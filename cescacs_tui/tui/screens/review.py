"""The review screen: the engine judges every half-move of a game while the player looks on.

The game (the one on the table, or an archived one) is analysed in a worker
(:func:`~cescacs_tui.learn.review.review_game`, an engine in its own process),
so the screen answers every key while it runs: each half-move appears as soon
as it is judged, in the **eval graph** (:class:`~..widgets.eval_graph.EvalGraph`,
clicked or stepped with ←/→ to choose a half-move), in the move list (the
inaccuracies, mistakes and blunders marked ``?!``, ``?``, ``??``) and, for the
chosen half-move, in words: the score before (with the engine's best move)
and after, the best move and its line, the class and the move's accuracy.
Each side's accuracy heads the column; a bar shows how far the analysis is.

Esc cancels a running analysis (what was judged stays), and closes the
screen after it; the screen's result is the chosen half-move, which the game
screen then shows on its board.  ``s`` writes the review into the record as
``cescacs review --save`` does (:func:`~cescacs_tui.learn.annotate.annotate`):
the game screen decides where the record goes (its ``save_review``).

The analysis is a :data:`ReviewJob`: the engine's (:func:`engine_review`),
or any coroutine with the same signature (a fixed one in the tests and the
screenshots, so a picture never depends on the engine's timing).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from ...core.game import Game
from ...core.pgn import read_pgn, write_pgn
from ...core.pieces import WHITE
from ...core.safe_text import safe_text
from ...data.engine_slots import EngineSlots
from ...engine.pv import pv_to_ctl_an
from ...i18n import N_, _
from ...learn.review import Evaluation, PlyReview, Review, ReviewError
from ...learn.review_words import CLASS_NAMES
from ...learn.scoring import expected, mean_accuracy
from ...session.highlights import move_hexes
from ...session.terms import capitalised, side, side_label
from ..translated import TranslatedBindings
from ..view import board_view
from ..widgets.board import HexBoard
from ..widgets.eval_graph import EvalGraph
from ..widgets.message_line import MessageLine
from ..widgets.move_list import MoveList
from .narrow_layout import BREAKPOINTS, start_at_the_apps_width

__all__ = ["ReviewJob", "ReviewScreen", "Reviewed", "SaveReview", "engine_review", "evaluation_words", "review_copy"]

ReviewJob = Callable[[Game, Callable[[int, int], None], Callable[[PlyReview], None]], Awaitable[Review]]
"""Analyse a game: ``job(game, on_progress, on_ply)`` returns the whole review (see ``review_game``)."""
SaveReview = Callable[[Game, Review], str]
"""Write a finished review (of the game given, the screen's copy) into the record; what to say about it."""
Reviewed = Callable[[Game, Review], str | None]
"""Told of a finished review (the game screen keeps the player's blunders as puzzles); what to say, if anything."""


class EngineBusyError(ReviewError):
    """Every engine place the server shares among its visitors is taken."""


def engine_review(command: list[str] | None, movetime: float, places: EngineSlots | None = None) -> ReviewJob:
    """The engine's review, ``movetime`` seconds a position, by the engine ``command`` (``None``: this package's);
    on a server, only while it holds one of the ``places`` it shares among its visitors."""
    from ...learn.review import review_game

    async def job(game: Game, on_progress: Callable[[int, int], None], on_ply: Callable[[PlyReview], None]) -> Review:
        place = None
        if places is not None:
            place = places.take()
            if place is None:
                raise EngineBusyError(_("the server's engines are all busy with other visitors: try again in a moment"))
        try:
            return await review_game(game, movetime=movetime, command=command, on_progress=on_progress, on_ply=on_ply)
        finally:
            if place is not None:
                place.release()

    return job


def review_copy(game: Game) -> Game:
    """The main line of ``game`` as a game of its own (its record read back): the review and the marks it gets
    never touch the game on the table, which may go on meanwhile."""
    copy = read_pgn(write_pgn(game))[0]
    copy.go_to(0)
    return copy


def evaluation_words(evaluation: Evaluation) -> str:
    """A score from White's side as the panel writes it: ``+1.42``, ``-0.30``, ``White mates in 3``, ``mate``."""
    mate = evaluation.mate
    if mate == 0:
        return _("checkmate")
    if mate is not None:
        return capitalised(_("{side} mates in {moves}").format(side=side(WHITE if mate > 0 else WHITE.opponent),
                                                               moves=abs(mate)))  # fmt: skip
    return f"{evaluation.cp / 100:+.2f}"


class ReviewScreen(TranslatedBindings, Screen[int | None]):
    """A game's review (see the module's docstring); dismissed with the chosen half-move (``None``: none)."""

    DEFAULT_CSS = """
    ReviewScreen #review-main { height: 1fr; }
    ReviewScreen #review-board { height: 100%; }
    ReviewScreen #review-side { width: 1fr; min-width: 28; border-left: solid $border-blurred; }
    ReviewScreen #review-title { text-style: bold; padding: 0 1; height: auto; }
    ReviewScreen #review-accuracy { padding: 0 1; height: auto; }
    ReviewScreen EvalGraph { height: 5; border-top: solid $border-blurred; border-bottom: solid $border-blurred; }
    ReviewScreen #review-ply { padding: 0 1; height: auto; }
    ReviewScreen MoveList { border-top: solid $border-blurred; }
    ReviewScreen ProgressBar { height: 1; padding: 0 1; }
    ReviewScreen.-tall EvalGraph { height: 9; }
    ReviewScreen.-narrow #review-main { layout: vertical; }
    ReviewScreen.-narrow #review-board { height: auto; width: 100%; }
    ReviewScreen.-narrow #review-side {
        width: 100%; height: 1fr; min-width: 0; border-left: none; border-top: solid $border-blurred;
    }
    """
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_or_close", N_("Stop / close")),
        Binding("s", "save_review", N_("Save review")),
        Binding("tab", "app.focus_next", N_("Graph / moves"), show=False),
    ]

    def __init__(
        self, game: Game, job: ReviewJob, *, title: str = "", save: SaveReview | str, reviewed: Reviewed | None = None
    ) -> None:
        super().__init__()
        start_at_the_apps_width(self)
        self.game = review_copy(game)
        """The game reviewed: the main line only, its move list marked as the review goes."""
        self.job = job
        self.title_text = safe_text(title or f"{game.tags.get('White', '?')} – {game.tags.get('Black', '?')}")
        """The players (tags of a record: anything, made safe to show)."""
        self.save = save
        """Writes the review into the record and says where (the game screen's), or why it cannot be kept."""
        self.reviewed = reviewed
        self.plies: dict[int, PlyReview] = {}
        """The half-moves judged so far, by ply."""
        self.review: Review | None = None
        """The whole review, once it is done."""
        self.running = False
        self.problem: str | None = None
        self._worker: Worker[None] | None = None
        self.board = HexBoard(id="review-board")
        self.graph = EvalGraph(len(self.game.nodes), id="review-graph")

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="review-main"):
            yield self.board
            with Vertical(id="review-side"):
                yield Static(Text(self.title_text), id="review-title")
                yield Static(id="review-accuracy")
                yield self.graph
                yield Static(id="review-ply")
                yield MoveList(id="review-moves")
        yield ProgressBar(total=len(self.game.nodes) + 1, show_eta=False, id="review-progress")
        yield MessageLine(id="review-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.board.can_focus = False
        self.set_class(self.size.height >= 36, "-tall")
        self.graph.focus()
        self._show_ply(len(self.game.nodes))
        self._show_accuracy()
        self.running = True
        self._worker = self._analyse()

    @on(events.Unmount)
    async def _close_engine(self) -> None:
        """Leaving (or quitting) in mid-analysis: the worker is cancelled, and its engine closed, before the app goes
        on (an engine process is never left behind)."""
        worker = self._worker
        if worker is None:
            return
        if not worker.is_cancelled:  # cancelled twice, the engine's closing would be cut short
            worker.cancel()
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await worker.wait()

    def on_resize(self) -> None:
        self.set_class(self.size.height >= 36, "-tall")

    @work(group="review", exclusive=True)
    async def _analyse(self) -> None:
        progress = self.query_one(ProgressBar)
        try:
            review = await self.job(self.game, lambda done, total: progress.update(progress=done), self._judged)
        except ReviewError as error:
            self.problem = str(error)
            self._say(_("the review failed: {reason}").format(reason=error))
            return
        finally:
            self.running = False
            progress.display = False
        self.review = review
        for ply in review.plies:
            self._judged(ply)
        said = _("review done: {key} saves it in the record, Esc closes").format(key="s")
        if self.reviewed is not None and (more := self.reviewed(self.game, review)):
            said = f"{said} · {more}"
        self._say(said)

    def _judged(self, ply: PlyReview) -> None:
        """One half-move judged: on the graph, marked in the move list, in words if it is the chosen one."""
        self.plies[ply.ply] = ply
        white_expected = expected(ply.after.cp)
        self.graph.set_point(ply.ply, white_expected, ply.kind)
        node = self.game.nodes[ply.ply - 1]
        node.assessment = ply.kind.assessment if ply.kind is not None else ""
        self.query_one(MoveList).show_game(self.game)
        self._show_accuracy()
        if ply.ply == self.graph.chosen:
            self._show_ply(ply.ply)

    # --- what is shown ---------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one(MessageLine).say(text)

    def _show_accuracy(self) -> None:
        said = []
        for colour in (WHITE, WHITE.opponent):
            losses = [p.loss for p in self.plies.values() if p.colour == colour]
            accuracy = mean_accuracy(losses)
            figure = "–" if accuracy is None else f"{round(accuracy)}%"
            said.append(f"{side_label(colour)} {figure}")
        self.query_one("#review-accuracy", Static).update(Text(_("Accuracy: {sides}").format(sides=" · ".join(said))))

    def _show_ply(self, ply: int) -> None:
        """Choose half-move ``ply``: its position on the board, highlighted in the graph and the list, in words."""
        if not self.game.nodes:
            self.query_one("#review-ply", Static).update(Text(_("the game has no move to review")))
            return
        ply = max(1, min(len(self.game.nodes), ply))
        self.graph.chosen = ply
        self.game.go_to(ply)
        before = self.game.position_at(ply - 1)
        node = self.game.nodes[ply - 1]
        self.board.show(board_view(self.game.position_at(ply), last_move=move_hexes(before, node.move)))
        self.query_one(MoveList).show_game(self.game)
        self.query_one("#review-ply", Static).update(self._ply_text(ply))

    def _ply_text(self, ply: int) -> Text:
        node = self.game.nodes[ply - 1]
        number = f"{node.number}. " if node.number is not None else ""
        text = Text(f"{number}{node.san} {node.assessment}".rstrip() + f" ({side_label(node.colour)})", style="bold")
        judged = self.plies.get(ply)
        if judged is None:
            text.append("\n" + _("not analysed yet"))
            return text
        if judged.kind is not None:
            text.append(" — " + _(CLASS_NAMES[judged.kind]), style="bold")
        before = self.game.position_at(ply - 1)
        text.append("\n" + _("before: {score}").format(score=evaluation_words(judged.before)))
        text.append("\n" + _("after: {score}").format(score=evaluation_words(judged.after)))
        if judged.best is not None and not judged.is_best:
            line = pv_to_ctl_an(before, judged.best_line)
            text.append("\n" + _("best: {move} ({score})").format(move=judged.best,
                                                                 score=evaluation_words(judged.before)))  # fmt: skip
            text.append("\n" + line, style="italic")
        elif judged.is_best:
            text.append("\n" + _("the engine's move"))
        text.append("\n" + _("accuracy of the move: {accuracy}%").format(accuracy=round(judged.accuracy)))
        return text

    # --- the player's ----------------------------------------------------------------------

    @on(EvalGraph.PlyChosen)
    def _graph_chose(self, event: EvalGraph.PlyChosen) -> None:
        self._show_ply(event.ply)

    @on(MoveList.PlyChosen)
    def _list_chose(self, event: MoveList.PlyChosen) -> None:
        self._show_ply(event.ply)

    def action_stop_or_close(self) -> None:
        """Esc: stop the running analysis (what was judged stays); else close, with the chosen half-move."""
        if self.running:
            self.workers.cancel_group(self, "review")
            self.running = False
            self.query_one(ProgressBar).display = False
            self._say(_("review stopped: Esc closes"))
            return
        self.dismiss(self.graph.chosen or None)

    def action_save_review(self) -> None:
        """``s``: the review into the record, once it is whole (the game screen decides where it goes)."""
        if self.review is None:
            if self.problem is not None:
                self._say(_("the review failed: {reason}").format(reason=self.problem))
            elif self.running:
                self._say(_("the review is not finished: wait for it (Esc stops it)"))
            else:
                self._say(_("the review was stopped before its end: nothing to keep"))
            return
        if isinstance(self.save, str):
            self._say(self.save)
            return
        self._say(self.save(self.game, self.review))

"""The puzzle screen: one puzzle at a time, solved on the board or by typing CTL-AN, with hints and a rating.

The player moves as in a game (the board's cursor and Enter, a click, or
``/`` and a move typed); the :class:`~cescacs_tui.learn.trainer.Trainer`
judges each move (:class:`~cescacs_tui.learn.puzzles.Attempt`) and the forced
reply is played at once.  ``h`` gives a hint (the piece to move, then the
move), ``r`` starts the puzzle again, ``n`` takes the next one (near the
player's rating), and the side column chooses the theme (a list filtered by
typing) and the deck: the bundled puzzles or the player's own (their
blunders, :mod:`cescacs_tui.learn.deck`).  The player's puzzle rating is
shown and, as the visitor policy decides, kept (the trainer's file).
Esc, with no piece selected, leaves.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Select, Static

from ...core import HEX_NAMES
from ...core.move import Move
from ...core.notation import normalise_typed
from ...core.pieces import BLACK
from ...core.position import Position
from ...i18n import N_, _
from ...learn.puzzle_words import hint_words, rating_words, step_words, task_words, theme_words
from ...learn.puzzles import Step, Verdict
from ...learn.trainer import THEME_NAMES, Trainer
from ...session.highlights import move_hexes
from ...session.selection import Picker, PickKind
from ...session.terms import piece_words, say, the_piece
from ..board_layout import PieceSet
from ..dialogs.questions import ChoiceDialog
from ..translated import TranslatedBindings
from ..view import board_view
from ..widgets.board import HexBoard
from ..widgets.filter_select import FilterSelect
from ..widgets.message_line import MessageLine
from ..widgets.move_entry import MoveEntry, focus_move_box
from .narrow_layout import BREAKPOINTS, start_at_the_apps_width

__all__ = ["DECK_NAMES", "PuzzleScreen"]

DECK_NAMES = {"bundled": N_("Bundled puzzles"), "mine": N_("My blunders")}
"""The decks a trainer may hold, as the deck list names them."""
ALL_THEMES = "*"


class PuzzleScreen(TranslatedBindings, Screen[None]):
    """Puzzles one at a time (see the module's docstring)."""

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-main { height: 1fr; }
    PuzzleScreen #puzzle-board { height: 100%; }
    PuzzleScreen #puzzle-side { width: 1fr; min-width: 28; border-left: solid $border-blurred; padding: 0 1; }
    PuzzleScreen #puzzle-title { text-style: bold; }
    PuzzleScreen #puzzle-task { margin-bottom: 1; }
    PuzzleScreen #puzzle-rating { margin-bottom: 1; }
    PuzzleScreen Select { margin-bottom: 1; }
    PuzzleScreen.-narrow #puzzle-main { layout: vertical; }
    PuzzleScreen.-narrow #puzzle-board { height: auto; width: 100%; }
    PuzzleScreen.-narrow #puzzle-side {
        width: 100%; height: 1fr; min-width: 0; border-left: none; border-top: solid $border-blurred;
    }
    """
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    BINDINGS: ClassVar[list[BindingType]] = [  # the capitals too: with the vim keys on, h and n move the cursor
        Binding("h,H", "hint", N_("Hint")),
        Binding("r", "retry", N_("Retry")),
        Binding("n,N", "next", N_("Next")),
        Binding("slash,colon", "type_move", N_("Type move"), priority=True),
        Binding("escape", "leave", N_("Leave"), show=False),
    ]

    def __init__(self, trainer: Trainer, *, quits: bool = False, piece_set: PieceSet = "letters") -> None:
        super().__init__()
        start_at_the_apps_width(self)
        self.trainer = trainer
        self.quits = quits
        """Whether leaving ends the app (``cescacs puzzles``), rather than going back to the game."""
        self.board = HexBoard(id="puzzle-board", piece_set=piece_set)
        self.picker: Picker | None = None
        self._last: tuple[int, ...] = ()
        self._preview: tuple[int, ...] = ()

    def compose(self) -> ComposeResult:
        with Horizontal(id="puzzle-main"):
            yield self.board
            with Vertical(id="puzzle-side"):
                yield Static(id="puzzle-title")
                yield Static(id="puzzle-task")
                yield Static(id="puzzle-rating")
                themes = [(_(THEME_NAMES[theme]), theme) for theme in THEME_NAMES]
                yield FilterSelect(
                    [(_("All themes"), ALL_THEMES), *themes],
                    value=self.trainer.theme or ALL_THEMES,
                    allow_blank=False,
                    compact=True,
                    id="puzzle-theme",
                )
                decks = [(_(DECK_NAMES[name]), name) for name in self.trainer.decks]
                yield Select(decks, value=self.trainer.deck, allow_blank=False, compact=True, id="puzzle-deck")
        yield MoveEntry(id="puzzle-entry", leave_to="#puzzle-board")
        yield MessageLine(id="puzzle-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_focus(self.board)
        for problem in self.trainer.problems:
            self.notify(problem, title=_("Puzzles"), severity="warning", markup=False)
        self._next()

    # --- showing -----------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one(MessageLine).say(text)

    def _show(self) -> None:
        attempt = self.trainer.attempt
        title = self.query_one("#puzzle-title", Static)
        if attempt is None:
            title.update(Text(_("Puzzles")))
            self.picker = None
        else:
            puzzle = attempt.puzzle
            heading = _("Puzzle {id} · {rating}").format(id=puzzle.id, rating=puzzle.rating)
            if attempt.solved:  # the themes would give the answer away before
                heading += "\n" + theme_words(puzzle.themes)
            title.update(Text(heading))
            position = attempt.position
            self.picker = None if attempt.solved else Picker(position)
            self.board.flipped = attempt.solver == int(BLACK)
            self.board.show(board_view(position, picker=self.picker, last_move=self._last, preview=self._preview))
        self.query_one("#puzzle-task", Static).update(Text(task_words(self.trainer)))
        said = rating_words(self.trainer)
        if self.trainer.problem is not None:
            said += "\n" + _("not kept: {reason}").format(reason=self.trainer.problem)
        self.query_one("#puzzle-rating", Static).update(Text(said))

    def _next(self) -> None:
        attempt = self.trainer.next_puzzle()
        self._last = self._preview = ()
        if attempt is not None:
            self.board.cursor = attempt.position.king(attempt.position.turn)
        self._show()

    # --- moves ---------------------------------------------------------------------------------

    def _play(self, text: str) -> None:
        attempt = self.trainer.attempt
        if attempt is None:
            self._say(task_words(self.trainer))
            return
        if attempt.solved:
            self._say(_("solved: n takes the next puzzle, r tries it again"))
            return
        before = attempt.position.copy()
        step = attempt.play(text)
        if step.verdict in (Verdict.CORRECT, Verdict.SOLVED):
            self._last = self._reply_hexes(before, step)
            self._preview = ()
        self.trainer.settle()
        said = step_words(step, say)
        if step.verdict is Verdict.SOLVED:
            said += " " + _("n: the next puzzle")
        elif step.verdict is Verdict.WRONG:
            said += " (" + _("h: a hint") + ")"
        self._say(said)
        self._show()

    @staticmethod
    def _reply_hexes(position: Position, step: Step) -> tuple[int, ...]:
        """The last move's hexes: the reply's, or the player's own when it ended the puzzle."""
        played = position.parse_move(step.said)
        if not step.reply:
            return tuple(move_hexes(position, played))
        after = position.copy()
        after.push(played)
        return tuple(move_hexes(after, after.parse_move(step.reply)))

    @on(HexBoard.HexSelected)
    def _picked(self, event: HexBoard.HexSelected) -> None:
        attempt, picker = self.trainer.attempt, self.picker
        if attempt is None or picker is None:
            self._play("")
            return
        result = picker.pick(event.hex)
        if result.kind is PickKind.PLAY:
            self._play(attempt.position.ctl_an(result.moves[0]))
        elif result.kind is PickKind.CHOOSE:
            self._choose(list(result.moves))
        else:
            if result.message:
                self._say(result.message)
            self.board.show(board_view(attempt.position, picker=picker, last_move=self._last, preview=self._preview))

    def _choose(self, moves: list[Move]) -> None:
        attempt = self.trainer.attempt
        assert attempt is not None
        position = attempt.position
        options = [(str(n), position.ctl_an(move), move) for n, move in enumerate(moves, 1)]

        def chosen(move: Move | None) -> None:
            if move is not None and self.trainer.attempt is attempt:
                self._play(position.ctl_an(move))

        self.app.push_screen(ChoiceDialog(_("Which move?"), options), chosen)

    @on(HexBoard.CursorMoved)
    def _cursor(self, event: HexBoard.CursorMoved) -> None:
        attempt = self.trainer.attempt
        piece = attempt.position.piece_at(event.hex) if attempt is not None else None
        for entry in self.query(MoveEntry).results(MoveEntry):
            entry.show_hex(HEX_NAMES[event.hex] + (f" {piece_words(piece)}" if piece is not None else ""))

    @on(HexBoard.Cancelled)
    def _cancelled(self) -> None:
        if self.picker is not None and self.picker.selected is not None:
            self.picker.cancel()
            self._show()
        else:
            self.action_leave()

    @on(MoveEntry.Submitted)
    def _typed(self, event: MoveEntry.Submitted) -> None:
        """A typed move is judged; the box keeps the focus for the next one (the keys typed after Enter go on
        into it, as in the game), Esc gives it back to the board and its keys (h, r, n)."""
        if not event.text.strip():
            self.set_focus(self.board)
            return
        self._play(normalise_typed(event.text.strip().lstrip("/:")))  # a box's forms: lower case, x for ×...

    # --- the player's keys and lists ----------------------------------------------------------------

    async def action_type_move(self) -> None:
        await focus_move_box(self)

    def action_hint(self) -> None:
        """``h``: the piece to move (its hex lit and the cursor on it), then the move."""
        attempt = self.trainer.attempt
        if attempt is None or attempt.solved:
            self._say(_("no hint: the puzzle is solved") if attempt is not None else task_words(self.trainer))
            return
        hint = attempt.hint()
        self.trainer.settle()
        self.board.cursor = hint.hex
        if hint.move is None:
            self._preview = (hint.hex,)
        else:
            self._preview = tuple(move_hexes(attempt.position, attempt.position.parse_move(hint.move)))
        self._say(hint_words(hint, the_piece(hint.piece.type)))
        self._show()

    def action_retry(self) -> None:
        attempt = self.trainer.attempt
        if attempt is None:
            return
        attempt.retry()
        self._last = self._preview = ()
        self._say(_("the puzzle again from the start"))
        self._show()

    def action_next(self) -> None:
        self._next()
        if self.trainer.attempt is not None:
            self._say(_("a new puzzle"))

    def action_leave(self) -> None:
        if self.quits:
            self.app.exit()
        else:
            self.dismiss(None)

    @on(Select.Changed, "#puzzle-theme")
    def _theme(self, event: Select.Changed) -> None:
        theme = None if event.value == ALL_THEMES else str(event.value)
        if theme != self.trainer.theme:
            self.trainer.theme = theme
            self._next()
            self.set_focus(self.board)

    @on(Select.Changed, "#puzzle-deck")
    def _deck(self, event: Select.Changed) -> None:
        deck = str(event.value)
        if deck != self.trainer.deck:
            self.trainer.choose_deck(deck)
            self._next()
            self.set_focus(self.board)

"""The lesson screen: a lesson's text and task beside the board, which shows the moves of the piece taught.

The board highlights what the rules core generates for the piece shown (its targets, its captures), and the last
move when the lesson starts after one; the player then picks a piece and a target, as in a game, and the lesson
(:class:`~cescacs_tui.learn.lessons.LessonRun`) says what the core made of the move.  The texts are plain words in
the interface's language, readable by a screen reader.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...core import HEX_NAMES, Move, Position, parse_hex
from ...data.progress import ProgressStore, lesson_done
from ...i18n import N_, _
from ...learn.drill import Drill, DrillKind
from ...learn.lessons import LESSONS, Lesson, LessonRun, Verdict, solve
from ...session.highlights import move_hexes
from ...session.words import describe_move
from ..board_layout import BoardView
from ..dialogs.questions import ChoiceDialog
from ..translated import TranslatedBindings
from ..widgets.board import HexBoard
from .drill import DrillScreen
from .narrow_layout import BREAKPOINTS, start_at_the_apps_width

LESSON_KEYS = "abcdefghijklmnopqrstuvwxyz"
"""The keys of the lessons in the list (one letter each)."""


def lesson_view(position: Position, selected: int | None, moves: list[Move], last: tuple[int, ...]) -> BoardView:
    """The board of a lesson: the piece ``selected`` with its ``moves`` as targets, the ``last`` move's hexes."""
    targets = {move.target: "capture" if position.is_capture(move) else "move" for move in moves}
    check = position.king(position.turn) if position.is_check() else None
    return BoardView(codes=position.board_codes, selected=selected, targets=targets, last_move=last, check=check)


class LessonScreen(TranslatedBindings, Screen[None]):
    """One lesson at a time; ``n`` and ``p`` go through them, ``l`` lists them, ``c`` opens the coordinate drill,
    Esc leaves."""

    DEFAULT_CSS = """
    LessonScreen #main { height: 1fr; }
    LessonScreen #board { height: 100%; }
    LessonScreen #side { width: 1fr; min-width: 28; border-left: solid $border-blurred; padding: 0 1; }
    LessonScreen #lesson-title { text-style: bold; }
    LessonScreen #lesson-text, LessonScreen #lesson-task { margin-bottom: 1; }
    LessonScreen #lesson-task { text-style: bold; }
    LessonScreen.-narrow #main { layout: vertical; }
    LessonScreen.-narrow #board { height: auto; width: 100%; }
    LessonScreen.-narrow #side { width: 100%; height: 1fr; min-width: 0; border-left: none; }
    """
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [  # the capitals too: with the vim keys on, n h l move the board's cursor
        Binding("n,N", "next_lesson", N_("Next"), id="lesson.next"),
        Binding("p", "previous_lesson", N_("Previous"), show=False, id="lesson.previous"),
        Binding("r", "restart", N_("Again"), id="lesson.again"),
        Binding("h,H", "hint", N_("Hint"), id="lesson.hint"),
        Binding("l,L", "list", N_("Lessons"), id="lesson.list"),
        Binding("c", "drill", N_("Drill"), id="lesson.drill"),
    ]

    def __init__(self, store: ProgressStore, lesson: Lesson = LESSONS[0]) -> None:
        super().__init__()
        start_at_the_apps_width(self)
        self.store = store
        self.run = LessonRun(lesson)
        self.selected: int | None = None
        self.board = HexBoard(id="board")
        self.said = ""

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with VerticalScroll(id="side"):
                yield Static(id="lesson-title", markup=False)
                yield Static(id="lesson-text", markup=False)
                yield Static(id="lesson-task", markup=False)
                yield Static(id="lesson-said", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.begin(self.run.lesson)
        self.set_focus(self.board)

    # --- showing the lesson -------------------------------------------------------------------

    def begin(self, lesson: Lesson) -> None:
        """Start ``lesson``: its words, and on the board the moves of the piece it teaches."""
        self.run = LessonRun(lesson)
        number = LESSONS.index(lesson) + 1
        done = _(" (done)") if lesson.key in self.store.progress.lessons else ""
        title = _("Lesson {number} of {count}: {title}").format(
            number=number, count=len(LESSONS), title=_(lesson.title)
        )
        self._static("#lesson-title", title + done)
        self._static("#lesson-text", _(lesson.text))
        self._static("#lesson-task", _("Task: {task}").format(task=_(lesson.task.text)))
        self.said = ""
        if self.run.last is not None and self.run.last_from is not None:
            self.said = _("Last move: {move}.").format(move=describe_move(self.run.last_from, self.run.last))
        self.board.cursor = parse_hex(lesson.shown)
        self.select(parse_hex(lesson.shown))

    def _static(self, selector: str, text: str) -> None:
        self.query_one(selector, Static).update(Text(text))

    def select(self, h: int | None) -> None:
        """Show the moves of the piece on ``h`` the task lets it play (none: nothing selected)."""
        run = self.run
        self.selected = h if h is not None and run.moves_from(h) else None
        moves = run.moves_from(self.selected) if self.selected is not None else []
        last = () if run.last is None or run.last_from is None else move_hexes(run.last_from, run.last)
        self.board.show(lesson_view(run.position, self.selected, moves, last))
        self._static("#lesson-said", self.said)

    # --- the player's moves ------------------------------------------------------------------------

    @on(HexBoard.HexSelected)
    def pick(self, event: HexBoard.HexSelected) -> None:
        h = event.hex
        if self.selected is None or h == self.selected:
            self._pick_piece(h)
            return
        moves = [move for move in self.run.moves_from(self.selected) if move.target == h]
        if not moves:
            self._pick_piece(h)
        elif len(moves) == 1:
            self.play(moves[0])
        else:
            position = self.run.position
            options = [(str(i), position.ctl_an(move), move) for i, move in enumerate(moves, 1)]
            prompt = _("Several moves go to {hex}:").format(hex=HEX_NAMES[h])
            self.app.push_screen(ChoiceDialog(prompt, options), self._chosen)

    @on(HexBoard.Cancelled)
    def cancel(self) -> None:
        """Esc: the piece picked is put down; with none picked, the lessons are left."""
        if self.selected is not None:
            self.said = ""
            self.select(None)
        else:
            self.dismiss()

    def _chosen(self, move: Move | None) -> None:
        if move is not None:
            self.play(move)

    def _pick_piece(self, h: int) -> None:
        run = self.run
        piece = run.position.piece_at(h)
        if piece is not None and piece.colour == run.position.turn and not run.moves_from(h):
            if run.piece is not None and h != run.piece:
                self.said = _("In this task only the piece on {hex} moves.").format(hex=HEX_NAMES[run.piece])
            else:
                self.said = _("The piece on {hex} has no move here.").format(hex=HEX_NAMES[h])
        self.select(h if run.moves_from(h) else None)

    def play(self, move: Move) -> None:
        """Try ``move``: the lesson judges it, and the board and the words follow."""
        run = self.run
        said = describe_move(run.position, move)
        answer = run.play(move)
        if answer.verdict in (Verdict.SOLVED, Verdict.GOING):
            self.said = f"{said}. {answer.text}"
        else:
            self.said = f"{said}: {answer.text}"
        if answer.verdict is Verdict.SOLVED:
            lesson_done(self.store, run.lesson.key)
            self.said += " " + _("n: the next lesson.")
        self.select(run.piece if answer.verdict is not Verdict.SOLVED else None)

    # --- the screen's keys ---------------------------------------------------------------------------

    def action_next_lesson(self) -> None:
        index = LESSONS.index(self.run.lesson) + 1
        if index < len(LESSONS):
            self.begin(LESSONS[index])
        else:
            self.notify(_("That was the last lesson."))

    def action_previous_lesson(self) -> None:
        index = LESSONS.index(self.run.lesson)
        if index > 0:
            self.begin(LESSONS[index - 1])

    def action_restart(self) -> None:
        self.run.restart()
        self.said = _("The position is set up again.")
        self.select(parse_hex(self.run.lesson.shown))

    def action_hint(self) -> None:
        """The first move of a solution from the task's start, said, not played."""
        solution = solve(self.run.lesson)
        if solution is None or self.run.solved:
            return
        self.run.restart()
        self.said = _("From the start of the task: {move}.").format(move=describe_move(self.run.position, solution[0]))
        self.select(solution[0].origin)

    def action_drill(self) -> None:
        """The coordinate drill: which kind, then a round of it over the lessons."""
        options = [
            ("1", _("Name the highlighted hex"), DrillKind.NAME),
            ("2", _("Pick the hex named"), DrillKind.PICK),
        ]

        def chosen(kind: DrillKind | None) -> None:
            if kind is not None:
                self.app.push_screen(DrillScreen(self.store, Drill(kind)))

        self.app.push_screen(ChoiceDialog(_("Coordinate drill: one minute"), options), chosen)

    def action_list(self) -> None:
        done = self.store.progress.lessons
        options = [
            (key, _(lesson.title) + (_(" (done)") if lesson.key in done else ""), lesson)
            for key, lesson in zip(LESSON_KEYS, LESSONS, strict=False)
        ]

        def chosen(lesson: Lesson | None) -> None:
            if lesson is not None:
                self.begin(lesson)

        self.app.push_screen(ChoiceDialog(_("Lessons"), options), chosen)

"""The coordinate drill's screen: a hex highlighted to name, or a hex named to pick, against the clock.

The drill (:class:`~cescacs_tui.learn.drill.Drill`) keeps the score and the time, read from the clock it is given,
so a test plays a round without waiting; the screen only shows it, every quarter of a second, and keeps the best
score of each kind in the player's progress.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ...core import HEX_NAMES, find_hex
from ...data.progress import ProgressStore, drill_score
from ...i18n import N_, _
from ...learn.drill import Drill, DrillKind
from ..board_layout import BoardView
from ..translated import TranslatedBindings
from ..widgets.board import HexBoard
from .narrow_layout import BREAKPOINTS, start_at_the_apps_width

TICK_SECONDS = 0.25
"""How often the time left is redrawn and the end of a round noticed."""


class DrillScreen(TranslatedBindings, Screen[None]):
    """A round of the drill of ``drill.kind`` (name or pick); Enter after the end starts another, Esc leaves."""

    DEFAULT_CSS = """
    DrillScreen #main { height: 1fr; }
    DrillScreen #board { height: 100%; }
    DrillScreen #side { width: 1fr; min-width: 28; border-left: solid $border-blurred; padding: 0 1; }
    DrillScreen #drill-title, DrillScreen #drill-question { text-style: bold; }
    DrillScreen #drill-question, DrillScreen #drill-status { margin-top: 1; }
    DrillScreen.-narrow #main { layout: vertical; }
    DrillScreen.-narrow #board { height: auto; width: 100%; }
    DrillScreen.-narrow #side { width: 100%; height: 1fr; min-width: 0; border-left: none; }
    """
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", N_("Leave"), id="drill.leave")]

    def __init__(self, store: ProgressStore, drill: Drill) -> None:
        super().__init__()
        start_at_the_apps_width(self)
        self.store = store
        self.drill = drill
        self.board = HexBoard(id="board")
        self.said = ""
        self._reported = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="side"):
                yield Static(id="drill-title", markup=False)
                yield Static(id="drill-question", markup=False)
                yield Static(id="drill-status", markup=False)
                yield Static(id="drill-said", markup=False)
                if self.drill.kind is DrillKind.NAME:
                    yield Input(placeholder=_("the hex's name, then Enter"), id="drill-name", max_length=4)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.drill.kind is DrillKind.NAME:
            self._static("#drill-title", _("Drill: name the highlighted hex"))
            self.query_one(Input).focus()
        else:
            self._static("#drill-title", _("Drill: pick the hex named"))
            self.set_focus(self.board)
        self.start()
        self.set_interval(TICK_SECONDS, self.tick)

    def _static(self, selector: str, text: str) -> None:
        self.query_one(selector, Static).update(Text(text))

    def start(self) -> None:
        self.drill.start()
        self._reported = False
        self.said = ""
        self.show()

    def show(self) -> None:
        """The question (on the board for a name, in words for a pick), the time left and the score."""
        drill = self.drill
        question = drill.question.answer
        if drill.kind is DrillKind.NAME:
            self.board.show(BoardView(preview=(question,)))
            self._static("#drill-question", _("Which hex is marked { }?"))
        else:
            self.board.show(BoardView())
            self._static("#drill-question", _("Pick {hex}.").format(hex=HEX_NAMES[question]))
        self.tick()

    def tick(self) -> None:
        """Redraw the time left; at the end of a round, say the score once and keep the best."""
        drill = self.drill
        best = self.store.progress.best.get(drill.kind.value, 0)
        status = _("Time left: {seconds} s. Right: {score}. Best: {best}.")
        self._static("#drill-status", status.format(seconds=int(drill.left + 0.999), score=drill.score, best=best))
        if not drill.running and not self._reported:
            self._reported = True
            record = drill_score(self.store, drill.kind.value, drill.score)
            said = _("Time! {score} right, {misses} missed.").format(score=drill.score, misses=drill.misses)
            if record:
                said += " " + _("A new best.")
            self.said = said + " " + _("Enter starts another round, Esc leaves.")
            self.board.show(BoardView())
            self._static("#drill-status", _("Right: {score}. Best: {best}.").format(
                score=drill.score, best=self.store.progress.best.get(drill.kind.value, 0)))  # fmt: skip
        self._static("#drill-said", self.said)

    def _answered(self, h: int | None, typed: str) -> None:
        if not self.drill.running:
            self.start()
            return
        asked = self.drill.question.answer
        if self.drill.answer(h):
            self.said = _("{hex}: right.").format(hex=HEX_NAMES[asked])
        else:
            self.said = _("{typed}: no, try again.").format(typed=typed)
        self.show()

    @on(Input.Submitted)
    def name_typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().upper()
        event.input.clear()
        if not text and self.drill.running:
            return
        self._answered(find_hex(text), text)

    @on(HexBoard.HexSelected)
    def hex_picked(self, event: HexBoard.HexSelected) -> None:
        if self.drill.kind is DrillKind.PICK:
            self._answered(event.hex, HEX_NAMES[event.hex])

    @on(HexBoard.Cancelled)
    def action_leave(self) -> None:
        self.dismiss()

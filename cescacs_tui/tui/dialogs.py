"""Modal dialogs: choosing among moves (promotion, castling), confirmations, help.

Dialogs return their answer through ``dismiss`` (Textual's screen results),
so the app decides what to do with it; they hold no game logic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..core import Move


class ChoiceDialog(ModalScreen[Move | None]):
    """Pick one of several moves that share a target: a promotion piece, or a castling.

    ``options`` are ``(key, label, move)``: pressing the key chooses directly.
    ``on_preview`` is called with the highlighted move, so the board can show
    what it would do before it is chosen.
    """

    DEFAULT_CSS = """
    ChoiceDialog {
        align: center middle;
        background: $background 40%;
    }
    ChoiceDialog > Vertical {
        width: 72;
        max-width: 95%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    ChoiceDialog #choice-title { text-style: bold; }
    ChoiceDialog OptionList { width: 100%; height: auto; max-height: 14; border: none; padding: 0; }
    ChoiceDialog #choice-hint { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        options: Sequence[tuple[str, str, Move]],
        *,
        on_preview: Callable[[Move | None], None] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self._options = list(options)
        self._on_preview = on_preview

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self._title), id="choice-title")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{key} ", "bold"), label), id=str(i))
                    for i, (key, label, _) in enumerate(self._options)
                ),
                id="choices",
            )
            yield Label(Text("Enter or the letter chooses, Esc cancels"), id="choice-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._on_preview is not None and event.option.id is not None:
            self._on_preview(self._options[int(event.option.id)][2])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self._choose(self._options[int(event.option.id)][2])

    def on_key(self, event: events.Key) -> None:
        for key, _, move in self._options:
            if event.character is not None and event.character.upper() == key.upper() and len(key) == 1:
                event.stop()
                self._choose(move)
                return

    def _choose(self, move: Move | None) -> None:
        if self._on_preview is not None:
            self._on_preview(None)
        self.dismiss(move)

    def action_cancel(self) -> None:
        self._choose(None)


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question (resign? accept the draw? abandon this game?).

    ``default`` is the answer that is safe to give by accident: its button has
    the focus, and Esc gives it.
    """

    DEFAULT_CSS = """
    ConfirmDialog {
        align: center middle;
        background: $background 40%;
    }
    ConfirmDialog > Vertical {
        width: 50;
        max-width: 90%;
        height: auto;
        border: thick $warning;
        background: $surface;
        padding: 0 1;
    }
    ConfirmDialog Horizontal { height: auto; align: center middle; margin-top: 1; }
    ConfirmDialog Button { margin: 0 1; min-width: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer_default", "Cancel"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No", default: bool = False) -> None:
        super().__init__()
        self._question = question
        self._yes = yes
        self._no = no
        self._default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self._question))
            with Horizontal():
                yield Button(f"{self._yes} (y)", variant="primary", id="yes")
                yield Button(f"{self._no} (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes" if self._default else "#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def action_answer_default(self) -> None:
        self.dismiss(self._default)


class TextDialog(ModalScreen[None]):
    """A scrollable page of text: the help, or a game record to copy by hand."""

    DEFAULT_CSS = """
    TextDialog {
        align: center middle;
        background: $background 40%;
    }
    TextDialog > Vertical {
        width: 90%;
        max-width: 100;
        height: 90%;
        border: thick $accent;
        background: $surface;
    }
    TextDialog #text-title { text-style: bold; padding: 0 1; }
    TextDialog VerticalScroll { height: 1fr; padding: 0 1; }
    TextDialog #text-hint { color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, title: str, body: Text, *, hint: str = "Esc closes") -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self._title), id="text-title")
            with VerticalScroll():
                yield Static(self._body, id="text-body")
            yield Label(Text(self._hint), id="text-hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

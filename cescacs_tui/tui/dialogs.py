"""Modal dialogs: choosing among moves (promotion, castling), confirmations, help.

Dialogs return their answer through ``dismiss`` (Textual's screen results),
so the app decides what to do with it; they hold no game logic.  Their text
may come from a record (names, comments): it is shown as plain, safe text
(:mod:`cescacs_tui.safe_text`), never as markup.

A question must be answered by a person who has seen it: the dialogs that
take an answer are :class:`DeliberateDialog` screens, deaf to whatever
arrives before they have been on the screen for :data:`SETTLE_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual._time import get_time  # the clock of Message.time (monotonic; perf_counter on Windows)
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..core import Move
from ..core.safe_text import safe_text
from .safe_display import safe_rich

Answer = TypeVar("Answer")

SETTLE_SECONDS = 0.25
"""How long a dialog stays deaf after its first paint.

A key read before the dialog was painted cannot answer it: it belongs to a
burst typed before (``R⏎`` arrives in one read over SSH, and Enter would
press the focused button).  After the paint, the player needs the link's
round trip and at least a reaction time (about 0.2 s, far more to read a
question) to answer; keys of a burst that the network split arrive within
milliseconds.  A quarter of a second lies between the two.
"""


class DeliberateDialog(ModalScreen[Answer]):
    """A modal dialog that takes only the keys and clicks that come after the player has seen it.

    Every key that arrives (was read from the terminal) before the dialog had
    been painted plus :data:`SETTLE_SECONDS` is dropped here, before the
    dialog's bindings or its focused button see it.  Before then, the
    dialog's actions are disabled too: a key of the burst that Textual had
    already routed to the screen below is matched against the bindings of the
    screen on top when it gets there (``Ry``: the ``y`` was sent to the board,
    and answered the question).  Button presses and choices made too soon
    are ignored.  Subclasses handle their own keys in :meth:`answer_key`, not
    ``on_key``.
    """

    _shown_at: float | None = None

    def on_mount(self) -> None:
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        self._shown_at = get_time()

    def hears(self, message: Message) -> bool:
        """Whether ``message`` (a key, a press) came after the dialog was seen, so it may answer it."""
        return self._shown_at is not None and message.time >= self._shown_at + SETTLE_SECONDS

    @property
    def listening(self) -> bool:
        """Whether an answer given now counts."""
        return self._shown_at is not None and get_time() >= self._shown_at + SETTLE_SECONDS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.listening else None  # None: shown, but not run

    def on_key(self, event: events.Key) -> None:
        if not self.hears(event):
            event.stop()
            event.prevent_default()
        else:
            self.answer_key(event)

    def answer_key(self, event: events.Key) -> None:
        """A key the dialog hears (it goes on to the bindings unless stopped)."""


class ChoiceDialog(DeliberateDialog[Move | None]):
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
            yield Label(Text(safe_text(self._title)), id="choice-title")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{key} ", "bold"), safe_text(label)), id=str(i))
                    for i, (key, label, _) in enumerate(self._options)
                ),
                id="choices",
            )
            yield Label(Text("Enter or the letter chooses, Esc cancels"), id="choice-hint")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._on_preview is not None and event.option.id is not None:
            self._on_preview(self._options[int(event.option.id)][2])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        if self.listening:  # a click on an option too soon (Enter too soon never gets this far)
            self._choose(self._options[int(event.option.id)][2])

    def answer_key(self, event: events.Key) -> None:
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


class ConfirmDialog(DeliberateDialog[bool]):
    """A yes/no question (resign? accept the draw? abandon this game? resume it?).

    ``default`` is the answer that is safe to give by accident: its button has
    the focus from the first frame, so Enter gives it, and so does Esc.  The
    other answer (resign, abandon, drop the saved game) is drawn as a warning
    and is only given by its key or its button.
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

    AUTO_FOCUS = ".default-answer"
    """The default answer has the focus from the first frame (Textual's default would focus the first button)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer_default", "Cancel"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No", default: bool = False) -> None:
        super().__init__()
        self._question = question
        self._labels = {True: yes, False: no}
        self._default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(safe_text(self._question)))
            with Horizontal():
                for answer, key in ((True, "y"), (False, "n")):
                    yield Button(
                        f"{safe_text(self._labels[answer])} ({key})",
                        variant="primary" if answer is self._default else "error",
                        id="yes" if answer else "no",
                        classes="default-answer" if answer is self._default else "",
                    )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.hears(event):  # a click too soon (Enter too soon never gets this far)
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
        self._body = safe_rich(body)  # a game record shown as text holds its tags and comments
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(safe_text(self._title)), id="text-title")
            with VerticalScroll():
                yield Static(self._body, id="text-body")
            yield Label(Text(self._hint), id="text-hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

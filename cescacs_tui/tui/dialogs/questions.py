"""Modal dialogs: choosing among moves (promotion, castling), confirmations, help.

Dialogs return their answer through ``dismiss`` (Textual's screen results),
so the app decides what to do with it; they hold no game logic.  Their text
may come from a record (names, comments): it is shown as plain, safe text
(:mod:`cescacs_tui.safe_text`), never as markup.

A question must be answered by a person who has seen it: the dialogs that
take an answer are :class:`DeliberateDialog` screens, which take no key that
arrived before they had been drawn on the screen for :data:`SETTLE_SECONDS`, and
say so: such a key asks for the key again, it is never dropped without a word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual._time import get_time  # the clock of Message.time (monotonic; perf_counter on Windows)
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ...session.answers import answer_key, answers_of
from ..safe_display import safe_rich
from ..translated import TranslatedBindings

Answer = TypeVar("Answer")
Value = TypeVar("Value")

SETTLE_SECONDS = 0.25
"""How long after a question is shown a key may answer it.

A key that arrived sooner was not typed in answer to it: it belongs to a
burst typed before (``R⏎`` arrives in one read over SSH, and Enter would
press the focused button).  To answer, the player needs the link's round
trip and at least a reaction time (about 0.2 s, far more to read a
question); keys of a burst that the network split arrive within
milliseconds.  A quarter of a second lies between the two.
"""


class DeliberateDialog(TranslatedBindings, ModalScreen[Answer]):
    """A modal dialog that takes only the keys and clicks that come after the player has seen it.

    The guard compares times of arrival: a key (or a click) counts if it
    arrived (was read from the terminal: ``Message.time``) at least
    :data:`SETTLE_SECONDS` after the dialog was shown (its first frame drawn,
    on ``clock``, the same monotonic clock as ``Message.time``), however late
    the machine handles it.  The window starts at the first paint, not at the
    mount: a person cannot react to a question before it is drawn, and a
    loaded machine may draw it long after mounting it.  A click's press or choice is a message Textual makes
    when it handles the click, so it is dated by the release of the mouse
    button that made it (:meth:`on_mouse_up`).  A key that arrived sooner answers nothing, and the
    dialog says to press it again (:meth:`too_soon`); so does a key of the
    burst that Textual had routed to the screen below before the dialog came
    (``Ry``: the ``y`` went to the board), which :func:`question_above` hands
    to the dialog instead of letting it reach the dialog's bindings.
    Subclasses handle their own keys in :meth:`answer_key`, not ``on_key``.
    """

    def __init__(self, *, clock: Callable[[], float] = get_time) -> None:
        super().__init__()
        self._clock = clock
        self._shown_at: float | None = None
        self._heard: list[events.Key] = []
        """Keys this dialog heard, on their way up to the app's bindings (see :meth:`admits`)."""
        self._released_at: float | None = None
        """When the last mouse button release inside the dialog arrived, until a press or a key uses it."""

    def _compositor_refresh(self) -> None:
        """Textual's paint of this screen: the first that draws the dialog on top starts the guard's window.

        Textual has no event for a screen's first frame.  The time is read as
        the frame is handed to the terminal: a callback run after the refresh
        (``call_after_refresh``) came a tenth of a second later on a loaded
        machine, when a person may already have read the question and answered.
        """
        super()._compositor_refresh()
        if self._shown_at is None and self.is_current:
            self._shown_at = self._clock()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """Dates the click this release makes: Textual's ``Click``, and the press or choice it leads to, are made
        when the release is handled, which on a busy machine may be long after it arrived."""
        self._released_at = event.time

    def hears(self, message: Message) -> bool:
        """Whether ``message`` (a key, or a press or choice) arrived late enough after the dialog was shown to
        answer it.  A press or choice made by a click arrived with the mouse button's release."""
        arrived, self._released_at = self._released_at if self._released_at is not None else message.time, None
        return self._shown_at is not None and arrived >= self._shown_at + SETTLE_SECONDS

    @property
    def listening(self) -> bool:
        """Whether a key arriving now would count."""
        return self._shown_at is not None and self._clock() >= self._shown_at + SETTLE_SECONDS

    def on_key(self, event: events.Key) -> None:
        self._released_at = None  # a press by this key (Enter on a button) is the key's, not an earlier click's
        if not self.hears(event):
            event.stop()
            event.prevent_default()
            self.too_soon()
        else:
            self._heard.append(event)
            self.answer_key(event)

    def admits(self, event: events.Key) -> bool:
        """Whether a key reaching the app's bindings while this dialog is on top may run them: only one that came
        through the dialog and was heard.  A key Textual had routed to the screen below before the dialog came
        would otherwise be matched against the dialog's bindings (``Ry``: the ``y`` answered Yes)."""
        for index, heard in enumerate(self._heard):
            if heard is event:
                del self._heard[index]
                return True
        return False

    def answer_key(self, event: events.Key) -> None:
        """A key the dialog hears (it goes on to the bindings unless stopped)."""

    def too_soon(self) -> None:
        """A key or a click came before the question could be read: say so, under the question."""
        for note in self.query("#too-soon").results(Label):
            note.update(Text(_("Too soon to be an answer: press it again.")))
            note.display = True


def question_above(widget: Widget) -> DeliberateDialog[object] | None:
    """The question on top of ``widget``'s screen, if a :class:`DeliberateDialog` covers it.

    A key that Textual routed to a widget of the screen below (it arrived
    before the question) must answer nothing there and nothing on top: the
    widget gives it to the question, which says to press it again.
    """
    top = widget.app.screen
    return top if isinstance(top, DeliberateDialog) and top is not widget.screen else None


def too_soon_note() -> Label:
    """The line under a question where :meth:`DeliberateDialog.too_soon` speaks (hidden until then)."""
    note = Label("", id="too-soon")
    note.display = False
    return note


class ChoiceDialog(DeliberateDialog[Value | None], Generic[Value]):
    """Pick one of several moves that share a target (a promotion piece, or a castling), or any one of a list.

    ``options`` are ``(key, label, value)``: pressing the key chooses directly.
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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(
        self,
        title: str,
        options: Sequence[tuple[str, str, Value]],
        *,
        on_preview: Callable[[Value | None], None] | None = None,
        clock: Callable[[], float] = get_time,
    ) -> None:
        super().__init__(clock=clock)
        self._title = title
        self._options = list(options)
        self._on_preview = on_preview

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(safe_text(self._title)), id="choice-title")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{key} ", "bold"), safe_text(label)), id=str(i))
                    for i, (key, label, _value) in enumerate(self._options)
                ),
                id="choices",
            )
            yield Label(Text(self._hint()), id="choice-hint")
            yield too_soon_note()

    def _hint(self) -> str:
        """How to choose, in the words of the keys shown: numbers (the castlings), else letters (the pieces)."""
        if all(key.isdigit() for key, _label, _value in self._options):
            return _("Enter or the number chooses, Esc cancels")
        return _("Enter or the letter chooses, Esc cancels")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._on_preview is not None and event.option.id is not None:
            self._on_preview(self._options[int(event.option.id)][2])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        if self.hears(event):  # a click on an option too soon (Enter too soon never gets this far)
            self._choose(self._options[int(event.option.id)][2])
        else:
            self.too_soon()

    def answer_key(self, event: events.Key) -> None:
        for key, _label, move in self._options:
            if event.character is not None and event.character.upper() == key.upper() and len(key) == 1:
                event.stop()
                self._choose(move)
                return

    def _choose(self, move: Value | None) -> None:
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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "answer_default", N_("Cancel"))]
    """Esc gives the safe answer; the yes and no keys are the language's (:meth:`answer_key`)."""

    def __init__(
        self,
        question: str,
        *,
        yes: str | None = None,
        no: str | None = None,
        default: bool = False,
        clock: Callable[[], float] = get_time,
    ) -> None:
        super().__init__(clock=clock)
        self._question = question
        self._labels = {True: yes or _("Yes"), False: no or _("No")}
        self._default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(safe_text(self._question)))
            with Horizontal():
                for answer in (True, False):
                    yield Button(
                        f"{safe_text(self._labels[answer])} ({answer_key(answer)})",
                        variant="primary" if answer is self._default else "error",
                        id="yes" if answer else "no",
                        classes="default-answer" if answer is self._default else "",
                    )
            yield too_soon_note()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.hears(event):  # a click too soon (Enter too soon never gets this far)
            self.dismiss(event.button.id == "yes")
        else:
            self.too_soon()

    def answer_key(self, event: events.Key) -> None:
        """The language's keys (``s``/``n`` in Catalan and Spanish, ``y``/``n`` in English; the English ones
        everywhere): the catalog's words that answer a question, as the plain mode reads them."""
        answer = None if event.character is None or len(event.character) != 1 else answers_of(event.character)
        if answer is not None:
            event.stop()
            event.prevent_default()
            self.dismiss(answer)

    def action_answer_default(self) -> None:
        self.dismiss(self._default)


class TextDialog(TranslatedBindings, ModalScreen[None]):
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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", N_("Close"))]

    def __init__(self, title: str, body: Text | Group, *, hint: str | None = None) -> None:
        """``body`` is a text, made safe to show (a game record shown as text holds its tags and comments), or a
        group of the app's own renderables (the help page, laid out to wrap at any width)."""
        super().__init__()
        self._title = title
        self._body = safe_rich(body) if isinstance(body, Text) else body
        self._hint = hint or _("Esc closes")

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

"""A box to paste text into: a game record or a position, where no file may be opened.

The dialog reads the text with the ``read`` function it is given; if that
raises ``ValueError`` (every :class:`~cescacs_tui.core.CescacsError` is one),
its message is shown under the box and the text stays, to be corrected.
The result is what ``read`` returned, or ``None`` when cancelled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, TextArea

from ...core.errors import CescacsError
from ...i18n import N_, _
from ...session.terms import say
from ..translated import TranslatedBindings
from .tabs import TabsAsRead

T = TypeVar("T")

MAX_ERROR_CHARACTERS = 200
"""An error is one line under the box; a longer one is cut."""


class PasteDialog(TranslatedBindings, TabsAsRead, ModalScreen[T | None], Generic[T]):
    """Paste (or type) text; Open reads it with ``read``; ``choose_file`` adds a button that fetches a file's text."""

    DEFAULT_CSS = """
    PasteDialog {
        align: center middle;
        background: $background 40%;
    }
    PasteDialog > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 95%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    PasteDialog #paste-title { text-style: bold; }
    PasteDialog #paste-hint { color: $text-muted; width: 100%; }
    PasteDialog TextArea { height: 12; }
    PasteDialog #paste-error { color: $error; }
    PasteDialog Horizontal { height: auto; align: center middle; }
    PasteDialog Button { margin: 0 1; min-width: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+o", "open", N_("Open")),
    ]

    def __init__(
        self,
        title: str,
        hint: str,
        read: Callable[[str], T],
        *,
        choose_file: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self._hint = hint
        self._read = read
        self._choose_file = choose_file

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self._title), id="paste-title")
            yield Label(Text(self._hint), id="paste-hint")
            yield TextArea(id="paste-text", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
            yield Label("", id="paste-error", markup=False)
            with Horizontal():
                yield Button(_("Open (Ctrl+O)"), variant="primary", id="open")
                if self._choose_file is not None:
                    yield Button(_("Choose a file…"), id="choose-file")
                yield Button(_("Cancel (Esc)"), id="cancel")

    def on_mount(self) -> None:
        self.text_area.focus()

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#paste-text", TextArea)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.action_open()
        elif event.button.id == "choose-file" and self._choose_file is not None:
            self.text_area.focus()  # the file's text arrives as a paste, into the box
            self._choose_file()
        else:
            self.action_cancel()

    def action_open(self) -> None:
        try:
            result = self._read(self.text_area.text)
        except ValueError as error:
            said = say(error.explanation) if isinstance(error, CescacsError) else str(error)
            message = said.splitlines()[0] if said else _("this text cannot be read")
            if len(message) > MAX_ERROR_CHARACTERS:
                message = message[: MAX_ERROR_CHARACTERS - 1] + "…"
            self.query_one("#paste-error", Label).update(Text(message))
            self.text_area.focus()
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""A one-line question: a name to register, a player to challenge.

:class:`WordDialog` asks for one short word and gives it back (``None`` when
the player cancels with Esc); it checks nothing itself: the server does, and
says why not in the lobby's message line.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ..translated import TranslatedBindings
from .tabs import TabsAsRead

__all__ = ["WordDialog"]

MAX_WORD = 64
"""The longest answer typed (names are far shorter; the server refuses what it does not take)."""


class WordDialog(TranslatedBindings, TabsAsRead, ModalScreen[str | None]):
    """Ask ``question``; Enter gives the word typed, Esc gives ``None``."""

    DEFAULT_CSS = """
    WordDialog { align: center middle; background: $background 40%; }
    WordDialog > Vertical {
        width: 60; max-width: 95%; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    WordDialog #word-title { text-style: bold; }
    WordDialog #word-hint { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]
    AUTO_FOCUS = "#word"

    def __init__(self, question: str, *, hint: str | None = None) -> None:
        super().__init__()
        self._question = question
        self._hint = hint or _("Enter sends, Esc cancels")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(safe_text(self._question)), id="word-title")
            yield Input(max_length=MAX_WORD, id="word")
            yield Label(Text(self._hint), id="word-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

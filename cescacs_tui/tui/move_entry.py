"""The line under the board: the move box, where a player types CTL-AN, and the hex under the cursor."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label

PLACEHOLDER = "CTL-AN, e.g. E7-E13 (Enter plays, Esc: board)"


class MoveEntry(Horizontal):
    """A prompt, the move box (``#move-input``) and the name of the hex under the board's cursor.

    The compact board has no room to print hex names, so the hex under the
    cursor is named here.  The app mounts this row lazily, after the board's
    first paint; :class:`Ready` tells it to fill the row in.  What is typed
    goes up as :class:`Changed` and :class:`Submitted`; Esc as :class:`Left`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Back to the board", show=False)]

    DEFAULT_CSS = """
    MoveEntry { height: 1; }
    MoveEntry > #move-label { width: auto; padding: 0 1; color: $text-muted; }
    MoveEntry > #move-input { border: none; height: 1; width: 1fr; padding: 0; }
    MoveEntry > #move-input:focus { background: $boost; }
    MoveEntry > #cursor-info { width: auto; padding: 0 1; color: $text-muted; }
    """

    class Ready(Message):
        """The row and its children are mounted."""

        def __init__(self, entry: MoveEntry) -> None:
            super().__init__()
            self.entry = entry

    class Changed(Message):
        """The text in the box changed (the board previews the move being typed)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Submitted(Message):
        """Enter: play what was typed."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Left(Message):
        """Esc: the player goes back to the board."""

    def compose(self) -> ComposeResult:
        yield Label("Move:", id="move-label")
        yield Input(placeholder=PLACEHOLDER, id="move-input")
        yield Label("", id="cursor-info")

    def on_mount(self) -> None:
        self.post_message(self.Ready(self))

    def show_hex(self, text: str) -> None:
        """Name the hex under the cursor (and its piece); plain text, never markup."""
        self.query_one("#cursor-info", Label).update(Text(text))

    def focus_box(self) -> None:
        self.query_one("#move-input", Input).focus()

    def clear(self) -> None:
        """Empty the box (the move typed was played)."""
        self.query_one("#move-input", Input).value = ""

    @on(Input.Changed, "#move-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(event.value))

    @on(Input.Submitted, "#move-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(event.value))

    def action_leave(self) -> None:
        self.post_message(self.Left())

"""The line under the board: what just happened, or why nothing did."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..core.safe_text import safe_text
from ..session import Tone


class MessageLine(Static):
    """One line of plain text (never markup), styled by its :class:`~cescacs_tui.session.Tone`.

    A message longer than the line is cut with an ellipsis: messages put the
    useful part (what was refused, and why) first.
    """

    DEFAULT_CSS = """
    MessageLine { height: 1; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    MessageLine.error { color: $error; text-style: bold; }
    MessageLine.info { color: $success; }
    """

    def say(self, text: str, tone: Tone = Tone.PLAIN) -> None:
        self.update(Text(safe_text(text)))  # it quotes file names, tokens and names from outside
        self.set_classes(tone.value)

    @property
    def text(self) -> str:
        """What the line says now (for tests and the plain front ends' parity checks)."""
        return str(self.render())

"""The line under the board: what just happened, or why nothing did."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from ...core.safe_text import safe_text
from ...session import Tone


class MessageLine(Static):
    """One line of plain text (never markup), styled by its :class:`~cescacs_tui.session.Tone`.

    A message longer than the line is cut with an ellipsis (messages put the
    useful part, what was refused, first) and shown whole in a notification,
    so that the reason, a claim's counts for instance, can always be read at
    80 columns.  The line itself never grows: the board's layouts count its
    one row.
    """

    DEFAULT_CSS = """
    MessageLine { height: 1; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    MessageLine.error { color: $error; text-style: bold; }
    MessageLine.info { color: $success; }
    """

    def say(self, text: str, tone: Tone = Tone.PLAIN) -> None:
        shown = safe_text(text)  # it quotes file names, tokens and names from outside
        self.update(Text(shown), layout=False)  # one row, whatever it says: nothing else moves
        if self.classes != ({tone.value} if tone.value else set()):
            self.set_classes(tone.value)  # styles are matched again only when the tone changes
        width = self.content_region.width
        if width and cell_len(shown) > width:
            self.notify(shown, severity="warning" if tone is Tone.ERROR else "information", timeout=10, markup=False)

    @property
    def text(self) -> str:
        """What the line says now (for tests and the plain front ends' parity checks)."""
        return str(self.render())

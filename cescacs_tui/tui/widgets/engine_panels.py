"""The engine in the side panel: a line while the computer thinks, and the live analysis.

Both only show what the screen gives them (:class:`~cescacs_tui.session.opponent.Analysis`
reports, the level thinking); the engine itself is the session's
:class:`~cescacs_tui.session.opponent.Opponent`.  Engine lines are another
program's output, so they are shown as plain text, never as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...i18n import _
from ...session.opponent import Analysis
from ..safe_display import safe_rich

__all__ = ["AnalysisPanel", "ThinkingLine"]


class ThinkingLine(Static):
    """ "The computer is thinking…", shown only while it is (the clock beside it runs for it)."""

    DEFAULT_CSS = """
    ThinkingLine {
        height: auto;
        padding: 0 1;
        color: $text-accent;
        text-style: bold;
        display: none;
    }
    """

    def show_thinking(self, thinking: bool) -> None:
        """Show the line while the computer thinks (its level is in its name, beside its clock)."""
        self.display = thinking
        if thinking:
            self.update(Text(_("\u231b The computer is thinking\u2026")))


class AnalysisPanel(Static):
    """The engine's latest view of the position shown: score (White's side), depth and best line in CTL-AN."""

    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto;
        max-height: 6;
        padding: 0 1;
        border-bottom: solid $border-blurred;
        display: none;
    }
    """

    def show_waiting(self, why: str | None = None) -> None:
        """The analysis has (re)started and has not reported yet, or cannot run (``why``)."""
        text = Text(_("Analysis") + "\n", style="bold")
        text.append(why if why is not None else _("the engine is looking at this position\u2026"))
        self.update(text)

    def show_analysis(self, analysis: Analysis) -> None:
        text = Text(_("Analysis") + "  ", style="bold")
        text.append(analysis.score, style="bold")
        if analysis.depth is not None:
            text.append("  " + _("depth {depth}").format(depth=analysis.depth))
        text.append("  " + _("(score from White's side)"), style="dim")
        text.append("\n")
        text.append_text(safe_rich(Text(analysis.line)))
        self.update(text)

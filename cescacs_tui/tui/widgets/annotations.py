"""What a record says about the position on the board: its comments and the variations it gives.

Recorded games (the examples of the C'escacs site, annotated games) comment
on the moves and give alternative lines.  While a player steps through such a
game, :class:`AnnotationPanel` shows, for the move that led to the position
on the board, the move itself, its comments and the variations given instead
of it (a click on one, or the ``i`` key, follows it on the board); at the
start, the record's introduction; at the end of the game, its closing
comments.  Everything read from the record is shown as plain text,
never as markup.  The panel hides itself when there is nothing to show, as
in a game being played.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.game import Game, Node
from ...i18n import _
from ...session.words import move_label
from ..safe_display import safe_rich

COMMENT_STYLE = "italic"
HINT_STYLE = "dim"


def append_line(text: Text, nodes: list[Node]) -> None:
    """A line of play as a record writes it: numbered moves, ``{comments}`` and ``(variations)``, recursively."""
    resume = True
    for index, node in enumerate(nodes):
        if index:
            text.append(" ")
        text.append(move_label(node, first=resume))
        if node.assessment:
            text.append(f" {node.assessment}")
        resume = bool(node.comments or node.variations)
        for comment in node.comments:
            text.append(f" {{{comment.strip()}}}", style=COMMENT_STYLE)
        for variation in node.variations:
            text.append(" (")
            append_line(text, variation)
            text.append(")")


def annotation_text(game: Game) -> Text | None:
    """The annotations of the reviewed position (pure, for tests); ``None`` when the record says nothing there."""
    text = Text()

    def paragraph(content: str | Text, style: str = "") -> None:
        if text:
            text.append("\n")
        text.append(Text(content, style=style) if isinstance(content, str) else content)

    if game.cursor == 0:
        for comment in game.intro_comments:
            paragraph(comment.strip(), COMMENT_STYLE)
    else:
        node = game.nodes[game.cursor - 1]
        if node.comments or node.variations:
            paragraph(move_label(node, first=True) + (f" {node.assessment}" if node.assessment else ""), "bold")
            for comment in node.comments:
                paragraph(comment.strip(), COMMENT_STYLE)
            for index, variation in enumerate(node.variations):
                line = Text()
                follow = Style(bold=True, underline=True, meta={"@click": f"screen.follow_variation({index})"})
                line.append(_("Instead:"), style=follow)
                line.append(" ")
                append_line(line, variation)
                paragraph(line)
            if node.variations:
                paragraph(_("i or a click on Instead follows a line; Esc comes back"), HINT_STYLE)
    if game.cursor == game.ply:
        for comment in game.final_comments:
            paragraph(comment.strip(), COMMENT_STYLE)
    return text or None


class AnnotationPanel(VerticalScroll):
    """The record's comments and variations for the position on the board (hidden when there are none)."""

    DEFAULT_CSS = """
    AnnotationPanel {
        display: none;
        height: auto;
        max-height: 40%;
        padding: 0 1;
        border-top: solid $border-blurred;
        scrollbar-size-vertical: 1;
    }
    AnnotationPanel > Static { width: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text: Text | None = None

    def compose(self) -> ComposeResult:
        yield Static(markup=False)

    def show_game(self, game: Game) -> None:
        """Show the annotations of the reviewed position; the same ones again (a flip, a redraw) keep their scroll."""
        text = annotation_text(game)
        if text == self._text:
            return
        self._text = text
        self.display = text is not None
        if text is not None:
            for static in self.query(Static).results(Static):  # none while the app quits
                static.update(safe_rich(text))
            self.scroll_home(animate=False)

"""The archive browser: the finished games kept on this machine, newest first, filtered by typing, one opened.

Each line says when the game was played, who played it, its result, its
length and its clock, read from the file's tags (made printable: a file of
the archive may hold anything).  What is typed in the box keeps the lines that
contain it (in any case, without accents); Enter or a click opens the
highlighted game for review, Ctrl+R has the engine review it (the review
screen), Esc closes.  Whether the person may see the archive at all is the
visitor policy's decision, taken before this opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from ...core.safe_text import safe_text
from ...data.archive import ArchivedGame
from ...i18n import N_, _, folded, ngettext
from ..translated import TranslatedBindings
from .tabs import TabsAsRead

__all__ = ["ArchiveDialog", "Picked", "game_line"]


@dataclass(frozen=True)
class Picked:
    """The archived game chosen: opened on the table, or (``review``) reviewed by the engine."""

    path: Path
    review: bool = False


def game_line(game: ArchivedGame) -> str:
    """One game of the archive in one line: date, players, result, length, clock (its words, safe to show)."""
    if game.problem is not None:
        length = _("unreadable")
    elif game.plies is None:
        length = "?"
    else:
        length = ngettext("{count} half-move", "{count} half-moves", game.plies).format(count=game.plies)
    clock = _("no clock") if game.time_control in ("-", "?") else game.time_control
    parts = (game.date, f"{game.white} – {game.black}", game.result, length, clock)
    return safe_text("  ".join(parts))


class ArchiveDialog(TranslatedBindings, TabsAsRead, ModalScreen[Picked | None]):
    """Choose an archived game to review (see the module's docstring); returns it, or ``None``."""

    DEFAULT_CSS = """
    ArchiveDialog {
        align: center middle;
        background: $background 40%;
    }
    ArchiveDialog > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    ArchiveDialog #archive-title { text-style: bold; }
    ArchiveDialog OptionList { height: auto; max-height: 18; border: none; padding: 0; }
    ArchiveDialog #archive-hint { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Close")),
        Binding("ctrl+r", "review", N_("Engine review")),
        Binding("down", "list_down", show=False),
        Binding("up", "list_up", show=False),
    ]

    def __init__(self, games: Sequence[ArchivedGame]) -> None:
        super().__init__()
        self._games = list(games)
        self._shown: list[ArchivedGame] = list(games)

    def compose(self) -> ComposeResult:
        with Vertical():
            title = ngettext(
                "{count} archived game, newest first", "{count} archived games, newest first", len(self._games)
            )
            yield Label(Text(title.format(count=len(self._games))), id="archive-title")
            yield Input(placeholder=_("type to filter: a name, a date, a result"), id="archive-filter", compact=True)
            yield OptionList(id="archive-games")
            yield Label(
                Text(_("Enter opens the game for review, Ctrl+R has the engine review it, Esc closes")),
                id="archive-hint",
            )

    def on_mount(self) -> None:
        self._show("")
        self.query_one("#archive-filter", Input).focus()

    @on(Input.Changed, "#archive-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._show(event.value)

    def _show(self, typed: str) -> None:
        wanted = folded(typed.strip())
        self._shown = [game for game in self._games if wanted in folded(game_line(game))]
        games = self.query_one("#archive-games", OptionList)
        games.set_options(Option(Text(game_line(game))) for game in self._shown)
        if self._shown:
            games.highlighted = 0
        elif not self._games:
            games.set_options([Option(Text(_("no archived games yet: every finished game is kept")), disabled=True)])

    @property
    def shown(self) -> list[ArchivedGame]:
        """The games the list shows now (those that match what is typed)."""
        return list(self._shown)

    @on(Input.Submitted, "#archive-filter")
    def _open_highlighted(self) -> None:
        self._pick(review=False)

    def action_review(self) -> None:
        self._pick(review=True)

    def _pick(self, *, review: bool) -> None:
        highlighted = self.query_one("#archive-games", OptionList).highlighted
        if highlighted is not None and highlighted < len(self._shown):
            self.dismiss(Picked(self._shown[highlighted].path, review))

    @on(OptionList.OptionSelected, "#archive-games")
    def _open_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self._shown):
            self.dismiss(Picked(self._shown[event.option_index].path))

    def action_list_down(self) -> None:
        self.query_one("#archive-games", OptionList).action_cursor_down()

    def action_list_up(self) -> None:
        self.query_one("#archive-games", OptionList).action_cursor_up()

    def action_close(self) -> None:
        self.dismiss(None)

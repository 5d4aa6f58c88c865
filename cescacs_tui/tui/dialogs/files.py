"""The file dialog: where to save a record, or which record to open.

In its own module because Textual's directory tree is only needed when a
player saves or opens a file: the app imports this on first use, which keeps
start-up fast.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DirectoryTree, Input, Label
from textual.widgets.directory_tree import DirEntry
from textual.widgets.tree import TreeNode

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ..safe_display import safe_rich
from ..translated import TranslatedBindings
from .tabs import TabsAsRead


class PathDialog(TranslatedBindings, TabsAsRead, ModalScreen[Path | None]):
    """Ask for a file name: where to save a record, or which record to open.

    Opening also shows a directory tree that lists folders and game records.
    """

    DEFAULT_CSS = """
    PathDialog {
        align: center middle;
        background: $background 40%;
    }
    PathDialog > Vertical {
        width: 80%;
        max-width: 90;
        height: auto;
        max-height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    PathDialog #path-title { text-style: bold; }
    PathDialog DirectoryTree { height: 14; }
    PathDialog #path-error { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, initial: Path, *, browse: bool = False) -> None:
        super().__init__()
        self._title = title
        self._initial = initial
        self._browse = browse

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self._title), id="path-title")
            if self._browse:
                yield RecordTree(self._initial if self._initial.is_dir() else self._initial.parent)
            yield Input(safe_text(str(self._initial)), id="path-input")
            yield Label("", id="path-error")
            yield Label(Text(_("Enter confirms, Esc cancels")), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#path-input", Input).focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.query_one("#path-input", Input).value = str(event.path)
        self.dismiss(event.path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.query_one("#path-error", Label).update(_("type a file name"))
            return
        path = Path(text).expanduser()
        if self._browse and not path.is_file():
            self.query_one("#path-error", Label).update(Text(safe_text(_("{path} is not a file").format(path=path))))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RecordTree(DirectoryTree):
    """A directory tree that shows only folders and game records."""

    SUFFIXES = (".ctl-pgn", ".pgn", ".txt")

    def render_label(self, node: TreeNode[DirEntry], base_style: Style, style: Style) -> Text:
        return safe_rich(super().render_label(node, base_style, style))  # file names are anyone's

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix in self.SUFFIXES)]

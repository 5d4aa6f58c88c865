"""``cescacs puzzles``: the puzzle screen alone, as an app of its own (no game, no autosave).

The same :class:`~.screens.puzzles.PuzzleScreen` the game screen opens with
``P``; here leaving it ends the app.  The player's settings give the theme
and the piece set; the visitor policy says where the rating and the personal
deck are kept (:meth:`~cescacs_tui.session.policy.Policy.progress_path`).
"""

from __future__ import annotations

from ..data.settings import Settings
from ..learn.trainer import Trainer
from .keymap import keymap
from .screens.puzzles import PuzzleScreen
from .themes import BoardHostApp, known_themes

__all__ = ["PuzzleApp", "run_puzzles"]


class PuzzleApp(BoardHostApp[None]):
    """Puzzles one after another (``trainer``'s), in the player's theme."""

    TITLE = "C'escacs"

    def __init__(self, trainer: Trainer, *, settings: Settings | None = None) -> None:
        settings = settings or Settings()
        super().__init__(theme=settings.theme)
        self.settings = settings
        self.trainer = trainer

    def on_mount(self) -> None:
        self.set_keymap(keymap(vim_keys=self.settings.vim_keys, keys=self.settings.keys))  # as the game's app does

    def get_default_screen(self) -> PuzzleScreen:
        return PuzzleScreen(self.trainer, quits=True, piece_set=self.settings.piece_set)


def run_puzzles(trainer: Trainer) -> int:
    """Run the puzzle app until the player leaves it; its exit status."""
    app = PuzzleApp(trainer, settings=Settings.load(themes=known_themes()))
    app.run()
    return app.return_code or 0

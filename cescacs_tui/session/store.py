"""Where a session keeps its game between runs: the autosave, and the archive of games that ended.

:class:`GameSession` only knows the :class:`GameStore` protocol, so tests and
front ends that keep nothing (a pipe, a benchmark) pass no store, and every
front end that does keep games keeps them the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from ..core.game import Game
from ..data.archive import archive_dir, archive_game
from ..data.autosave import autosave_path, finish_game, save_autosave

__all__ = ["AutosaveStore", "GameStore"]


class GameStore(Protocol):
    """What a session asks of its storage; every method raises ``OSError`` when the disk refuses."""

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        """Keep ``game`` (unfinished) so that it can be resumed, with the front end's ``options``."""

    def finish(self, game: Game) -> Path | None:
        """``game`` has ended: archive it, then forget the autosave; returns where it was archived."""

    def keep(self, game: Game) -> Path | None:
        """``game`` is unfinished but being replaced (a new game, a record opened): archive it as it is."""


class AutosaveStore:
    """The autosave file of the data directory (:func:`~cescacs_tui.data.autosave.autosave_path`), unlocked.

    A running app should keep its games in an owned, locked slot instead:
    :class:`cescacs_tui.data.slots.AutosaveSlot` is a :class:`GameStore` too.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or autosave_path()

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        save_autosave(game, dict(options), self.path)

    def finish(self, game: Game) -> Path | None:
        return finish_game(game, self.path)  # archived first, the autosave cleared once it is

    def keep(self, game: Game) -> Path | None:
        return archive_game(game, archive_dir(self.path.parent))

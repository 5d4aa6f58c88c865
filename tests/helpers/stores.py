"""A game store in memory, for session and front-end tests that need no files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn

__all__ = ["ARCHIVED", "KEPT", "MemoryStore"]

ARCHIVED: Final = Path("games") / "finished.ctl-pgn"
"""Where :class:`MemoryStore` says a finished game was archived."""
KEPT: Final = Path("games") / "kept.ctl-pgn"
"""Where :class:`MemoryStore` says an unfinished game was kept."""


class MemoryStore:
    """A store that remembers what the session asked of it (and can be told to fail like a full disk)."""

    def __init__(self) -> None:
        self.notices: list[str] = []
        self.released = False
        self.saved: list[str] = []
        self.finished: list[str] = []
        self.kept: list[str] = []
        self.failing = False

    def _check(self) -> None:
        if self.failing:
            raise OSError(28, "No space left on device")

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        self._check()
        self.saved.append(write_pgn(game))

    def finish(self, game: Game) -> Path | None:
        self._check()
        self.finished.append(write_pgn(game))
        return ARCHIVED

    def keep(self, game: Game) -> Path | None:
        self._check()
        self.kept.append(write_pgn(game))
        return KEPT

    def release(self) -> None:
        self.released = True

"""A slot in memory for a session's :class:`~cescacs_tui.data.autosave_store.AutosaveStore`, for session and
front-end tests that need no files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from cescacs_tui.core.game import Game
from cescacs_tui.core.message import Message
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.autosave import LoadedAutosave
from cescacs_tui.data.autosave_store import AutosaveStore

__all__ = ["ARCHIVED", "KEPT", "MemorySlot", "kept_in_memory"]

ARCHIVED: Final = Path("games") / "finished.ctl-pgn"
"""Where :class:`MemorySlot` says a finished game was archived."""
KEPT: Final = Path("games") / "kept.ctl-pgn"
"""Where :class:`MemorySlot` says an unfinished game was kept."""


class MemorySlot:
    """A slot that remembers what its store asked of it (and can be told to fail like a full disk)."""

    def __init__(self) -> None:
        self.notices: list[Message] = []
        self.released = False
        self.saved: list[str] = []
        self.finished: list[str] = []
        self.kept: list[str] = []
        self.failing = False

    def _check(self) -> None:
        if self.failing:
            raise OSError(28, "No space left on device")

    def load(self) -> LoadedAutosave:
        return LoadedAutosave()

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        self._check()
        self.saved.append(write_pgn(game))

    def finish(self, game: Game) -> Path:
        self._check()
        self.finished.append(write_pgn(game))
        return ARCHIVED

    def keep(self, game: Game) -> Path:
        self._check()
        self.kept.append(write_pgn(game))
        return KEPT

    def release(self) -> None:
        self.released = True


def kept_in_memory() -> tuple[AutosaveStore, MemorySlot]:
    """A session's store keeping its games in a :class:`MemorySlot`, and that slot."""
    slot = MemorySlot()
    return AutosaveStore(slot), slot

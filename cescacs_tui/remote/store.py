"""Where a coordinator keeps its game: an autosave and an archive of its own, in its own directory.

A hosted game (``cescacs host``) and every SSH room keep their game apart
from the player's local autosave, so a coordinator never overwrites the game
someone plays at this terminal, and two rooms never share a file.  The
autosave is the same file format as the local one (a restarted coordinator
resumes from it, seats included); a game that ends is archived as a
``.ctl-pgn`` file in ``games/`` before the autosave is cleared.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..core.pgn import write_pgn
from ..data.autosave import AUTOSAVE_NAME, SavedGame, load_autosave, save_autosave
from ..data.storage import write_atomic

__all__ = ["RoomStore"]

ARCHIVE_NAME = "games"


class RoomStore:
    """A :class:`~cescacs_tui.session.GameStore` in ``directory``: ``autosave.json`` and ``games/``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.autosave = directory / AUTOSAVE_NAME
        self.archive = directory / ARCHIVE_NAME
        self.archived: list[Path] = []
        """Every file this store archived a game to, oldest first."""

    def load(self) -> SavedGame | None:
        """The unfinished game saved here, if any (a damaged file raises ``CescacsError`` with the reason)."""
        return load_autosave(self.autosave)

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        save_autosave(game, dict(options), self.autosave)

    def finish(self, game: Game) -> Path | None:
        path = self.keep(game)
        save_autosave(game, {}, self.autosave)  # a finished game clears the autosave
        return path

    def keep(self, game: Game) -> Path | None:
        path = archive_game(game, self.archive)
        if path not in self.archived:
            self.archived.append(path)
        return path


def archive_game(game: Game, directory: Path) -> Path:
    """Write ``game`` to a new file ``<date>-<White>-<Black>[-n].ctl-pgn`` of ``directory`` and return it.

    A game already archived there (the same record, saved again) is not
    written twice: that file is returned.
    """
    directory.mkdir(parents=True, exist_ok=True)
    text = write_pgn(game)
    date = game.tags.get("Date", "")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        date = datetime.date.today().isoformat()
    stem = "-".join(
        [date, _file_part(game.tags.get("White", ""), "White"), _file_part(game.tags.get("Black", ""), "Black")]
    )
    for number in range(1, 10_000):
        path = directory / (f"{stem}.ctl-pgn" if number == 1 else f"{stem}-{number}.ctl-pgn")
        if _holds(path, text):
            return path
        try:  # reserve the name: two games ending at once never share a file
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        write_atomic(path, text)
        return path
    raise FileExistsError(f"too many games named {stem} in {directory}")


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def _file_part(name: str, unknown: str) -> str:
    kept = re.sub(r"_+", "_", "".join(c if c.isalnum() else "_" for c in name)).strip("_")[:24]
    return kept or unknown

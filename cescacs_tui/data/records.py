"""Game record files: ``.ctl-pgn`` files read and written safely.

The core reads and writes CTL-PGN *text* (:mod:`cescacs_tui.core.pgn`); this
module owns the files: it refuses what is not a reasonably sized UTF-8 text
file, and writes atomically so a crash never leaves half a record.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from ..core.errors import PGNError
from ..core.game import Game
from ..core.pgn import read_pgn, write_pgn
from .storage import write_atomic

__all__ = ["MAX_FILE_BYTES", "load_pgn_file", "save_pgn_file"]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""Larger files are refused: no C'escacs record comes near this size."""


def load_pgn_file(path: str | os.PathLike[str], *, strict: bool = False) -> list[Game]:
    """Read a ``.ctl-pgn`` file, refusing anything that is not a reasonably sized text file."""
    file = Path(path)
    size = file.stat().st_size
    if size > MAX_FILE_BYTES:
        raise PGNError(f"{file.name} is {size:,} bytes; game records are refused above {MAX_FILE_BYTES:,} bytes")
    data = file.read_bytes()
    if b"\0" in data:
        raise PGNError(f"{file.name} is not a text file (it contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PGNError(f"{file.name} is not UTF-8 text (byte {error.start} cannot be decoded)") from None
    return read_pgn(text, strict=strict)


def save_pgn_file(game: Game, path: str | os.PathLike[str], *, fan: bool = False) -> None:
    """Write the game to ``path`` atomically (a crash never leaves half a file)."""
    write_atomic(Path(path), write_pgn(game, fan=fan))

"""Game record files: ``.ctl-pgn`` files read and written safely.

The core reads and writes CTL-PGN *text* (:mod:`cescacs_tui.core.pgn`); this
module owns the files.  It reads only through
:func:`~cescacs_tui.data.storage.read_limited`: a regular file of at most
:data:`MAX_FILE_BYTES`, so a FIFO, a device such as ``/dev/zero`` (or a link
to one) or a huge file is refused at once instead of blocking or filling the
memory; it refuses what is not UTF-8 text; and it writes atomically so a crash
never leaves half a record.  :func:`open_pgn_file` is how a front end opens a
record: it replays only the first game and counts the others, so a file of
thousands of games opens at once.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Final, NamedTuple

from ..core.errors import PGNError
from ..core.game import Game
from ..core.message import N_, Message
from ..core.pgn import count_games, read_pgn, write_pgn
from .storage import RefusedFile, read_limited, write_atomic

__all__ = [
    "MAX_FILE_BYTES",
    "OpenedRecord",
    "load_pgn_file",
    "open_pgn_file",
    "read_record_text",
    "record_file_name",
    "save_pgn_file",
]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
"""Larger files are refused: no C'escacs record comes near this size."""


class OpenedRecord(NamedTuple):
    """The first game of a record file, and how many games the file holds."""

    game: Game
    games_in_file: int


def read_record_text(path: str | os.PathLike[str]) -> str:
    """The text of a record file.

    Raises :class:`PGNError` for a file that is not a regular file of at most
    :data:`MAX_FILE_BYTES` UTF-8 text, without blocking; other ``OSError`` s
    (no such file, no permission) pass through.
    """
    file = Path(path)
    try:
        data = read_limited(file, MAX_FILE_BYTES)
    except RefusedFile as error:
        said = N_("{reason}: refused (game records are regular files of at most {size} bytes)")
        raise PGNError(Message(said, reason=error, size=f"{MAX_FILE_BYTES:,}")) from None
    if b"\0" in data:
        raise PGNError(Message(N_("{file} is not a text file (it contains NUL bytes)"), file=file.name))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        said = N_("{file} is not UTF-8 text (byte {byte} cannot be decoded)")
        raise PGNError(Message(said, file=file.name, byte=error.start)) from None


def load_pgn_file(path: str | os.PathLike[str], *, strict: bool = False, max_games: int | None = None) -> list[Game]:
    """The games of a ``.ctl-pgn`` file (at most ``max_games``), as :func:`read_record_text` allows."""
    return read_pgn(read_record_text(path), strict=strict, max_games=max_games)


def open_pgn_file(path: str | os.PathLike[str], *, strict: bool = False) -> OpenedRecord:
    """The first game of a ``.ctl-pgn`` file and the number of games in it, without replaying the others.

    Raises :class:`PGNError` as :func:`read_record_text` does, when the first
    game cannot be read, or when the file holds no game.
    """
    text = read_record_text(path)
    games = read_pgn(text, strict=strict, max_games=1)
    if not games:
        raise PGNError(Message(N_("{file} holds no game"), file=Path(path).name))
    return OpenedRecord(games[0], max(1, count_games(text)))


def save_pgn_file(game: Game, path: str | os.PathLike[str], *, fan: bool = False) -> None:
    """Write the game to ``path`` atomically (a crash never leaves half a file)."""
    write_atomic(Path(path), write_pgn(game, fan=fan))


def record_file_name(game: Game) -> str:
    """``cescacs-DATE-WHITE-BLACK.ctl-pgn`` from the game's tags, in ASCII letters, digits and ``._-`` only.

    The name is offered in a save dialog and sent in a browser download's
    header: no separator, quote or control character from a tag survives.
    """
    parts = []
    for name in ("Date", "White", "Black"):
        value = game.tags.get(name, "")
        if not value or value == "?":
            continue
        ascii_value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
        part = re.sub(r"[^A-Za-z0-9._-]+", "", ascii_value.replace(",", "").replace(" ", "_")).strip("._-")
        if part:
            parts.append(part[:40])
    return f"cescacs-{'-'.join(parts) or 'game'}.ctl-pgn"

"""The archive: every finished game kept as a ``.ctl-pgn`` file of its own, under ``games/`` in the data directory.

A game is archived the moment it ends (:func:`cescacs_tui.data.autosave.finish_game`),
before the autosave that held it is cleared, so no ending is ever lost.  The
file is named after the game: ``2026-12-01-Ann_Example-Bob.ctl-pgn`` (the
``Date`` tag, then the players; a name that is unknown becomes ``White`` or
``Black``).  Only letters, digits, ``.``, ``-`` and ``_`` reach a name, each
player's part is capped, so a tag can never name a path, a hidden file or a
terminal escape.  Names are made unique (``-2``, ``-3``...) by exclusive
creation (``O_EXCL``), so two processes archiving at once never share a
file; the content then replaces the empty reservation atomically.

Archiving the same game again (the app saving it once more after the end,
or a takeback and redo that ends it the same way) finds the identical file
and returns it instead of writing a copy.

:func:`list_archive` reads only what a list needs (the tags, and the number
of half-moves from the syntax, without replaying the moves), newest first;
:func:`find_archived` turns ``cescacs --games``' numbers and names back into
files.
"""

from __future__ import annotations

import datetime
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.game import Game
from .storage import data_dir, encodable, read_limited, write_atomic

__all__ = [
    "ARCHIVE_NAME",
    "SUFFIX",
    "ArchiveError",
    "ArchivedGame",
    "archive_dir",
    "archive_game",
    "archive_stem",
    "find_archived",
    "list_archive",
]

ARCHIVE_NAME: Final = "games"
SUFFIX: Final = ".ctl-pgn"
MAX_PLAYER_CHARS: Final = 40
"""Each player's part of a file name is cut to this many characters."""
MAX_STEM_BYTES: Final = 150
"""A file name (before ``-N.ctl-pgn``) is cut to this many UTF-8 bytes: file systems allow 255."""
MAX_COPIES: Final = 10_000
"""Games of one day between the same players: beyond this, archiving refuses rather than searching on."""

_ISO_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_RECORD_START: Final = re.compile(r"^\ufeff?\[Variant\s", re.MULTILINE)


class ArchiveError(OSError):
    """A game could not be archived (the message says why); the game is still wherever it was."""


@dataclass(frozen=True)
class ArchivedGame:
    """One file of the archive, as :func:`list_archive` reads it.

    ``date``, ``white``, ``black`` and ``result`` are the tags as written
    (``"?"`` when absent: they come from a file and must be made printable
    before being shown); ``plies`` counts the main line's half-moves.  A
    file that cannot be read has ``problem`` set and whatever could be read.
    """

    path: Path
    date: str
    white: str
    black: str
    result: str
    plies: int | None
    archived: datetime.datetime
    """When the file was last written (its modification time), in local time."""
    problem: str | None = None
    time_control: str = "?"
    """The ``TimeControl`` tag as written (``"?"`` when absent)."""


def archive_dir(data: Path | None = None) -> Path:
    """The archive: ``games/`` in ``data`` (default :func:`~cescacs_tui.data.storage.data_dir`)."""
    return (data_dir() if data is None else data) / ARCHIVE_NAME


def archive_stem(tags: Mapping[str, str], *, today: datetime.date | None = None) -> str:
    """The file name (without suffix) for a game with these tags: ``<date>-<White>-<Black>``.

    The date is the ``Date`` tag when it is a full ``YYYY-MM-DD``, else
    ``today``.  The result is safe as a file name on every system: see the
    module's description.
    """
    date = tags.get("Date", "")
    if not _ISO_DATE.fullmatch(date):
        date = (today or datetime.date.today()).isoformat()
    stem = f"{date}-{_name_part(tags.get('White', ''), 'White')}-{_name_part(tags.get('Black', ''), 'Black')}"
    encoded = stem.encode("utf-8")[:MAX_STEM_BYTES]
    return encoded.decode("utf-8", "ignore").rstrip("-_.")


def _name_part(name: str, unknown: str) -> str:
    text = unicodedata.normalize("NFC", name)
    kept = "".join(c if c.isalnum() or c in "-." else "_" if c.isspace() or c in ",_" else "" for c in text)
    kept = re.sub(r"_+", "_", kept).strip("-_.")[:MAX_PLAYER_CHARS].strip("-_.")
    return kept or unknown


def archive_game(game: Game, directory: Path | None = None) -> Path:
    """Write ``game`` to a new file of the archive (``directory``, default :func:`archive_dir`) and return it.

    Any game can be archived: a finished one when it ends, an unfinished one
    that would otherwise be replaced (its result is then ``*``).  If a file
    of the same name family already holds exactly this record, that file is
    returned and nothing is written.  Raises :class:`ArchiveError` (an
    ``OSError``) if the game could not be written.
    """
    from ..core.pgn import write_pgn

    folder = archive_dir() if directory is None else directory
    try:
        text = encodable(write_pgn(game))
    except Exception as error:  # a game the writer cannot handle (variations nested beyond its depth...)
        raise ArchiveError(f"the game cannot be written as CTL-PGN: {error!r}") from error
    stem = archive_stem(game.tags)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return _store(folder, stem, text)
    except ArchiveError:
        raise
    except OSError as error:
        raise ArchiveError(f"the game could not be archived in {folder}: {error.strerror or error}") from error


def _store(folder: Path, stem: str, text: str) -> Path:
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for number in range(1, MAX_COPIES + 1):
        target = folder / f"{stem}{'' if number == 1 else f'-{number}'}{SUFFIX}"
        try:
            os.close(os.open(target, flags, 0o644))  # the name is ours now: no other process can take it
        except FileExistsError:
            if _holds(target, data):
                return target
            continue
        try:
            write_atomic(target, text)
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        return target
    raise ArchiveError(f"{MAX_COPIES:,} games named {stem} are archived already in {folder}")


def _holds(path: Path, data: bytes) -> bool:
    try:
        return read_limited(path, len(data)) == data
    except OSError:  # larger, unreadable, not a file: not this record
        return False


def list_archive(directory: Path | None = None) -> list[ArchivedGame]:
    """The archived games, newest first (by when each was archived, then by name).

    Hidden files and files without the ``.ctl-pgn`` suffix are not games of
    the archive.  A missing archive is an empty one.
    """
    folder = archive_dir() if directory is None else directory
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(SUFFIX) and not e.name.startswith(".")]
    except FileNotFoundError:
        return []
    found = []
    for entry in entries:
        try:
            moment = entry.stat().st_mtime
        except OSError:
            continue  # gone since the directory was read
        found.append((moment, entry.name))
    found.sort(reverse=True)
    return [_read_entry(folder / name, moment) for moment, name in found]


def find_archived(key: str, directory: Path | None = None) -> Path | None:
    """The archived file that ``key`` names: a number of :func:`list_archive`'s list (from 1) or a file name.

    The name may leave out ``.ctl-pgn``.  Only files directly in the archive
    are found: a key with a path separator finds nothing.
    """
    folder = archive_dir() if directory is None else directory
    if re.fullmatch(r"[0-9]{1,9}", key):
        games = list_archive(folder)
        number = int(key)
        return games[number - 1].path if 1 <= number <= len(games) else None
    if not key or "/" in key or "\\" in key or os.sep in key or key.startswith("."):
        return None
    for name in (key, key + SUFFIX):
        candidate = folder / name
        if name.endswith(SUFFIX) and candidate.is_file():
            return candidate
    return None


def _read_entry(path: Path, moment: float) -> ArchivedGame:
    """What the list shows of one file: tags from the head, half-moves from the syntax only."""
    from ..core.pgn_syntax import parse_records, read_tag_line
    from .records import MAX_FILE_BYTES

    archived = datetime.datetime.fromtimestamp(moment)
    tags: dict[str, str] = {}
    try:
        text = read_limited(path, MAX_FILE_BYTES).decode("utf-8")
        if not text.strip():
            raise ValueError("the file is empty (archiving it was interrupted)")
        for line in text.lstrip("\ufeff").split("\n"):
            tag = read_tag_line(line)
            if tag is None:
                break
            tags.setdefault(*tag)
        starts = [m.start() for m in _RECORD_START.finditer(text)]
        first = text[: starts[1]] if len(starts) > 1 else text
        records = parse_records(first)
        if not records:
            raise ValueError("it holds no game")
        record = records[0]
        plies: int | None = len(record.moves)
        result = record.result or tags.get("Result", "?")
        problem = None
    except UnicodeDecodeError:
        plies, result, problem = None, tags.get("Result", "?"), "it is not UTF-8 text"
    except Exception as error:  # a file someone put here: whatever it holds, the list goes on
        plies, result, problem = None, tags.get("Result", "?"), str(error) or repr(error)
    return ArchivedGame(
        path=path,
        date=tags.get("Date", "?"),
        white=tags.get("White", "?"),
        black=tags.get("Black", "?"),
        result=result,
        plies=plies,
        archived=archived,
        problem=problem,
        time_control=tags.get("TimeControl", "?"),
    )

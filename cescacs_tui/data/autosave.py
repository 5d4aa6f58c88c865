"""The autosave: the game in progress, written after every move, offered again on start.

The file is JSON holding the game as CTL-PGN (so it stays readable and uses
the same, tested reader), the exact clock times when it was written, and the
app's options.  It is written atomically, so a process killed at any moment
leaves the previous save or the new one, never a broken file.

Nothing in the file can stop the app: :func:`load_autosave` never raises;
a damaged file is renamed aside (so the next save cannot destroy it) and
the problem returned for the player to read.  A finished game is not kept here: it goes to
the archive (:mod:`cescacs_tui.data.archive`) first, and the autosave is
cleared only once the archive holds it (:func:`finish_game`).  A failed write
raises :class:`AutosaveWriteError`, which the app keeps visible: the player
must know when his moves are not on disk.

Which autosave file a process writes, and that no other process writes the
same one, is :mod:`cescacs_tui.data.slots`' business.

The JSON and CTL-PGN modules are imported when a file is written or found,
not with this module: a first start of the app has neither to do.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..core.errors import CescacsError
from ..core.game import Game
from ..core.message import N_, Message
from ..core.pieces import Colour
from .storage import RefusedFile, data_dir, keep_aside, read_limited, write_atomic

__all__ = [
    "AUTOSAVE_NAME",
    "FORMAT_VERSION",
    "MAX_AUTOSAVE_BYTES",
    "AutosaveWriteError",
    "DamagedAutosave",
    "LoadedAutosave",
    "SavedGame",
    "autosave_path",
    "clear_autosave",
    "finish_game",
    "load_autosave",
    "read_autosave",
    "save_autosave",
]

AUTOSAVE_NAME: Final = "autosave.json"
FORMAT: Final = "cescacs-tui autosave"
FORMAT_VERSION: Final = 1
"""Version 1 is the only format so far; a reader accepts every version up to its own (and files without one)."""
MAX_AUTOSAVE_BYTES: Final = 16 * 1024 * 1024
"""Larger files are refused: four times the largest record the app opens, with JSON's escapes."""


def autosave_path() -> Path:
    """The main autosave, ``autosave.json`` in :func:`~cescacs_tui.data.storage.data_dir`."""
    return data_dir() / AUTOSAVE_NAME


class DamagedAutosave(CescacsError):
    """The autosave exists but cannot be used.  The message says why and where the file was kept.

    ``path`` is the autosave, ``reason`` what is wrong with it (a
    :class:`~cescacs_tui.core.message.Message`, as :attr:`explanation` is),
    ``kept`` where :func:`load_autosave` moved it (``None`` before that, or if
    the rename failed).
    """

    def __init__(self, path: Path, reason: Message, kept: Path | None = None, *, unmoved: str | None = None) -> None:
        if kept is not None:
            said = Message(N_("the autosave {file} is damaged ({reason}); it was kept as {kept}"), kept=kept)
        elif unmoved is not None:
            said = Message(
                N_("the autosave {file} is damaged ({reason}); it could not be kept aside ({why})"), why=unmoved
            )
        else:
            said = Message(N_("the autosave {file} is damaged ({reason})"))
        said.values.update(file=path, reason=reason)
        super().__init__(said)
        self.path = path
        self.reason = reason
        self.kept = kept


class AutosaveWriteError(OSError):
    """The game could not be written to disk (a read-only directory, a full disk...).

    ``str()`` is one sentence for the player; ``path`` is the file that
    could not be written.  It is an ``OSError``, so code that already
    handles those handles this too.
    """

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class SavedGame:
    """A game in progress and what is needed to continue it exactly."""

    game: Game
    options: dict[str, Any] = field(default_factory=dict)
    saved_at: str = ""


def save_autosave(game: Game, options: dict[str, Any] | None = None, path: Path | None = None) -> Path | None:
    """Write the game in progress to the autosave (atomically).

    A finished game is archived instead and the autosave cleared
    (:func:`finish_game`); the archived file is returned then, ``None``
    otherwise.  Raises :class:`AutosaveWriteError` if the game is not on
    disk afterwards.
    """
    target = path or autosave_path()
    if game.is_over:
        return finish_game(game, target)
    _write(game, options, target)
    return None


def finish_game(game: Game, path: Path | None = None) -> Path:
    """Archive the finished ``game``, then clear the autosave ``path``; return the archived file.

    The archive is ``games/`` next to the autosave.  The autosave is only
    cleared once the archive holds the game: if archiving fails, the
    finished game is written to the autosave instead (archived at the next
    start, see :mod:`cescacs_tui.data.slots`) and :class:`AutosaveWriteError`
    says so.
    """
    from .archive import archive_dir, archive_game

    target = path or autosave_path()
    try:
        archived = archive_game(game, archive_dir(target.parent))
    except OSError as error:
        reason = error.strerror or str(error)
        try:
            _write(game, None, target)
        except AutosaveWriteError as also:
            message = f"the finished game could not be archived ({reason}) nor saved: {also}"
            raise AutosaveWriteError(message, target) from error
        raise AutosaveWriteError(
            f"the finished game could not be archived ({reason}); it stays in the autosave {target}", target
        ) from error
    clear_autosave(target)
    return archived


def _write(game: Game, options: dict[str, Any] | None, target: Path) -> None:
    import json

    from ..core.pgn import write_pgn

    try:
        pgn = write_pgn(game)
    except Exception as error:  # a game the writer cannot handle (variations nested beyond its depth...)
        raise AutosaveWriteError(f"the game could not be written for the autosave: {error!r}", target) from error
    clock = None
    if game.clock is not None:
        clock = {
            "white": game.clock.remaining(Colour.WHITE),
            "black": game.clock.remaining(Colour.BLACK),
            "started": game.clock.to_move is not None,
            "paused": game.clock.paused,
        }
    document = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "saved_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "pgn": pgn,
        "clock": clock,
        "options": options or {},
    }
    try:
        write_atomic(target, json.dumps(document, ensure_ascii=False, indent=1))
    except OSError as error:
        reason = error.strerror or str(error)
        raise AutosaveWriteError(f"the game could not be saved to {target}: {reason}", target) from error


def read_autosave(path: Path) -> SavedGame | None:
    """The game in the autosave ``path``, or ``None`` if there is no such file.  Changes nothing on disk.

    Whatever the file holds, the only error is :class:`DamagedAutosave`
    (with ``kept`` ``None``): not JSON, not an object, no CTL-PGN text, a
    game the reader refuses, nesting too deep for any reader, a FIFO, a
    device, a huge file...
    """
    try:
        return _parse(path)
    except FileNotFoundError:
        return None
    except DamagedAutosave:
        raise
    except Exception as error:
        raise DamagedAutosave(path, _describe(error)) from None


@dataclass(frozen=True)
class LoadedAutosave:
    """What :func:`load_autosave` found: the game to offer, and what the player must be told.

    ``saved`` is the unfinished game (``None``: nothing to resume).
    ``problems`` are sentences for the player (said in their language by a front end); ``kept`` is where a damaged
    autosave was moved, ``archived`` where a finished game found in the
    autosave went.
    """

    saved: SavedGame | None = None
    problems: tuple[Message, ...] = ()
    kept: Path | None = None
    archived: Path | None = None


def load_autosave(path: Path | None = None) -> LoadedAutosave:
    """The autosaved game in progress, if any; never raises, whatever the file holds.

    A damaged autosave is renamed aside at once (see
    :func:`~cescacs_tui.data.storage.keep_aside`), so that no later save can
    overwrite it, and reported in ``problems`` with where it was kept; the
    app tells the player and starts afresh.  A finished game found there
    (its archiving failed when it ended) is archived now.
    """
    source = path or autosave_path()
    try:
        saved = read_autosave(source)
    except DamagedAutosave as damaged:
        try:
            kept = keep_aside(source)
        except FileNotFoundError:
            return LoadedAutosave()  # moved by someone else meanwhile
        except OSError as error:
            unmoved = DamagedAutosave(source, damaged.reason, unmoved=error.strerror or str(error))
            return LoadedAutosave(problems=(unmoved.explanation,))
        return LoadedAutosave(problems=(DamagedAutosave(source, damaged.reason, kept).explanation,), kept=kept)
    if saved is not None and saved.game.is_over:
        game = saved.game
        try:
            archived = finish_game(game, source)
        except AutosaveWriteError as error:
            return LoadedAutosave(problems=(Message.verbatim(str(error)),))
        players = f"{game.tags.get('White', '?')}–{game.tags.get('Black', '?')}, {game.result}"
        said = N_("the finished game found in {file} ({players}) was archived as {archived}")
        return LoadedAutosave(
            problems=(Message(said, file=source, players=players, archived=archived),), archived=archived
        )
    return LoadedAutosave(saved)


def clear_autosave(path: Path | None = None) -> None:
    (path or autosave_path()).unlink(missing_ok=True)


def _parse(source: Path) -> SavedGame:
    import json

    from ..core.pgn import read_pgn

    document = json.loads(read_limited(source, MAX_AUTOSAVE_BYTES).decode("utf-8"))
    if not isinstance(document, dict):
        said = N_("it holds a JSON {kind}, not an object")
        raise DamagedAutosave(source, Message(said, kind=type(document).__name__))
    if document.get("format") != FORMAT:
        raise DamagedAutosave(source, Message(N_("not a cescacs-tui autosave")))
    version = document.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        said = N_("its format version {version} is not a positive whole number")
        raise DamagedAutosave(source, Message(said, version=repr(version)))
    if version > FORMAT_VERSION:
        said = N_("written by a newer cescacs-tui (format version {version})")
        raise DamagedAutosave(source, Message(said, version=version))
    pgn = document.get("pgn")
    if not isinstance(pgn, str):
        raise DamagedAutosave(source, Message(N_("its game is not CTL-PGN text")))
    games = read_pgn(pgn)
    if len(games) != 1:
        raise DamagedAutosave(source, Message(N_("it holds {count} games instead of one"), count=len(games)))
    game = games[0]
    clock = document.get("clock")
    if clock is not None and game.clock is not None:
        if not isinstance(clock, dict):
            raise DamagedAutosave(source, Message(N_("its clock is not an object")))
        white, black = _seconds(source, clock.get("white")), _seconds(source, clock.get("black"))
        game.clock.set_remaining(white, black)
        if clock.get("started") is True and not game.is_over:
            game.clock.start(game.position.turn)
            game.clock.pause()  # the players resume it when they are back at the board
    options = document.get("options")
    return SavedGame(game, dict(options) if isinstance(options, dict) else {}, str(document.get("saved_at", "")))


def _seconds(source: Path, value: object) -> float:
    """A clock time of the file: a number of seconds from 0 to :data:`~cescacs_tui.core.clock.MAX_CLOCK_SECONDS`.

    Checked here, where it is read: ``1e308`` is finite and positive, yet no clock can count with it.
    """
    from ..core.clock import MAX_CLOCK_SECONDS

    number = value if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    if math.isfinite(number) and 0 <= number <= MAX_CLOCK_SECONDS:
        return float(number)
    said = N_("its clock time {value} is not a number of seconds from 0 to {most}")
    raise DamagedAutosave(source, Message(said, value=repr(value), most=MAX_CLOCK_SECONDS))


def _describe(error: Exception) -> Message:
    """What is wrong with the file, in words for the player (a reader's own details stay as it says them)."""
    if isinstance(error, RecursionError):
        return Message(N_("it is nested too deeply to read"))
    if isinstance(error, UnicodeDecodeError):
        return Message(N_("it is not UTF-8 text"))
    if isinstance(error, RefusedFile):
        return Message.verbatim(str(error))
    if isinstance(error, OSError):
        return Message(N_("it cannot be read: {reason}"), reason=error.strerror or error)
    if isinstance(error, CescacsError):
        return Message(N_("its game cannot be read: {reason}"), reason=error.explanation)
    import json

    if isinstance(error, json.JSONDecodeError):
        return Message(N_("it is not JSON: {reason}"), reason=error)
    return Message(N_("it cannot be read: {reason}"), reason=repr(error))

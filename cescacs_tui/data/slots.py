"""Which autosave this process writes: its own, locked for as long as it runs, never another's.

The main autosave is ``autosave.json``.  While one ``cescacs`` owns it, a
second one on the same data directory cannot (:class:`~cescacs_tui.data.lock.AutosaveBusy`);
it may start a separate game in a slot of its own, ``autosave-2.json``,
``autosave-3.json``... (:func:`fresh_slot`), or wait until the first has
exited and take the main one over.  At start, :func:`open_autosave` offers
the newest unfinished game of any slot nobody owns, so a game saved by
either instance is offered again; finished games found in a slot (their
archiving failed when they ended) are archived then.

An :class:`AutosaveSlot` never replaces a game by another without keeping
it: when the game it is asked to save is not the one it holds (the one it
loaded, or saved last), an unfinished game with moves, or a finished one
whose archiving failed when it ended (a full disk), is archived first
(:mod:`.archive`) and a damaged file kept aside (renamed with a time stamp);
if that is not possible the write is refused with
:class:`~cescacs_tui.data.autosave.AutosaveWriteError`.  So a record opened
over a game in progress, ``cescacs FILE`` over an unfinished autosave, or a
declined resume never loses the game that was there.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Self

from ..core.game import Game
from ..core.message import N_, Message
from .autosave import (
    AUTOSAVE_NAME,
    AutosaveWriteError,
    DamagedAutosave,
    LoadedAutosave,
    SavedGame,
    finish_game,
    load_autosave,
    read_autosave,
    save_autosave,
)
from .lock import AutosaveBusy, AutosaveLock, LockUnavailable
from .storage import data_dir, keep_aside

__all__ = ["AutosaveSlot", "AutosaveStart", "fresh_slot", "open_autosave", "slot_path", "slot_paths"]

_SLOT_NAME: Final = re.compile(r"autosave(?:-([1-9][0-9]{0,5}))?\.json")
MAX_SLOTS: Final = 1000
"""Separate games open at once on one data directory: beyond this, :func:`fresh_slot` gives up."""


def slot_path(number: int, directory: Path | None = None) -> Path:
    """Slot ``number``'s autosave: 1 is ``autosave.json``, the others ``autosave-<number>.json``."""
    folder = data_dir() if directory is None else directory
    return folder / (AUTOSAVE_NAME if number == 1 else f"autosave-{number}.json")


def slot_paths(directory: Path | None = None) -> list[Path]:
    """The autosave files present in ``directory`` (default the data directory), the newest first."""
    folder = data_dir() if directory is None else directory
    found = []
    try:
        for path in folder.iterdir():
            if _SLOT_NAME.fullmatch(path.name):
                with contextlib.suppress(FileNotFoundError):  # gone since the directory was read
                    found.append((path.lstat().st_mtime, path))
    except OSError:  # no directory yet, or one that cannot be read: no slot to offer
        return []
    return [path for _, path in sorted(found, reverse=True)]


class AutosaveSlot:
    """One autosave file owned by this process: load it, save to it, release it.

    It is a :class:`~cescacs_tui.data.store.Slot` (``save``, ``finish``,
    ``keep``): an :class:`~cescacs_tui.data.autosave_store.AutosaveStore`
    keeps a session's games in it.

    ``lock`` is ``None`` only where the file system cannot lock (then
    :attr:`notices` says so).  :attr:`notices` collects, in words for the
    player, what the slot did with files it found (a damaged one kept aside,
    a game moved to the archive); the app shows them and may clear the list.
    """

    def __init__(self, path: Path, lock: AutosaveLock | None, notices: list[Message] | None = None) -> None:
        self.path = path
        self.lock = lock
        self.notices: list[Message] = notices or []
        self._game: Game | None = None
        """The game the file holds as far as this slot knows: the one it loaded or last saved."""
        self._kept = False
        """Whether ``_game`` is in the archive already (kept or finished): replacing it loses nothing."""

    @classmethod
    def acquire(cls, path: Path) -> AutosaveSlot:
        """Own the autosave ``path``.  Raises :class:`~cescacs_tui.data.lock.AutosaveBusy` if another process does.

        Where the lock cannot be taken for any other reason (a file system
        without locks, a read-only directory), the slot is returned without
        a lock and :attr:`notices` says what that means.
        """
        try:
            return cls(path, AutosaveLock.acquire(path))
        except AutosaveBusy:
            raise
        except LockUnavailable as error:
            said = N_("{reason}: another cescacs on this data directory could overwrite this game")
            return cls(path, None, [Message(said, reason=error)])
        except OSError as error:
            said = N_("the autosave {file} cannot be locked ({reason}): games may not be saved")
            return cls(path, None, [Message(said, file=path, reason=error.strerror or error)])

    @property
    def number(self) -> int:
        match = _SLOT_NAME.fullmatch(self.path.name)
        return int(match[1]) if match and match[1] else 1

    def load(self) -> LoadedAutosave:
        """What the slot holds (see :func:`~cescacs_tui.data.autosave.load_autosave`): never raises.

        The game returned is the one :meth:`save` may then write over
        without archiving it first: pass the same :class:`Game` object.
        """
        loaded = load_autosave(self.path)
        self.notices.extend(loaded.problems)
        self._game = loaded.saved.game if loaded.saved is not None else None
        self._kept = False
        return loaded

    def save(self, game: Game, options: Mapping[str, Any] | None = None) -> None:
        """Write the game in progress (a finished one is archived: see :meth:`finish`).

        When ``game`` is not the game the slot holds (the one it loaded or
        last saved), the one it replaces is kept first: an unfinished game
        with moves is archived (unless :meth:`keep` did so already), a
        damaged file found there is kept aside; :attr:`notices` says where.
        Raises :class:`~cescacs_tui.data.autosave.AutosaveWriteError` when
        the game is not on disk afterwards, or when what it would replace
        cannot be kept (then nothing is written).
        """
        self._take(game)
        save_autosave(game, dict(options or {}), self.path)

    def finish(self, game: Game) -> Path:
        """``game`` has ended: archive it, then clear the slot (:func:`~cescacs_tui.data.autosave.finish_game`).

        Returns the archived file.  Raises
        :class:`~cescacs_tui.data.autosave.AutosaveWriteError` if the archive
        cannot be written: the game then stays in the slot (in the autosave if
        that can be written, else only in memory), and is archived before the
        slot writes anything else, or at the next start.
        """
        self._take(game)
        archived = finish_game(game, self.path)
        self._kept = True
        return archived

    def keep(self, game: Game) -> Path:
        """Archive the unfinished ``game`` as it is (it is being replaced, or its resume declined); return the file.

        Raises ``OSError`` (:class:`~cescacs_tui.data.archive.ArchiveError`) if it cannot be archived.
        """
        from .archive import archive_dir, archive_game

        archived = archive_game(game, archive_dir(self.path.parent))
        if game is self._game:
            self._kept = True
        return archived

    def _take(self, game: Game) -> None:
        if game is not self._game:
            self._keep_replaced()
            self._game = game
            self._kept = False

    def _keep_replaced(self) -> Path | None:
        """Keep what the slot holds before something else is written there; the archived file, if any."""
        from .archive import archive_dir, archive_game

        previous = self._game
        if self._kept:
            return None  # archived already (kept, or finished)
        if previous is None:  # the slot has not read nor written the file: see what it holds
            try:
                found = read_autosave(self.path)
            except DamagedAutosave as damaged:
                self._keep_damaged(damaged)
                return None
            if found is None:
                return None
            previous = found.game
        elif not previous.nodes:
            return None  # nothing to lose: no move played
        # An unfinished game, or one that ended while the archive could not be written (a full disk): it is
        # only in memory, and perhaps in the autosave, until it is archived, so it is archived first.
        try:
            archived = archive_game(previous, archive_dir(self.path.parent))
        except OSError as error:
            held = "the game that ended" if previous.is_over else f"the game saved in {self.path}"
            message = f"{held} could not be archived ({error}), so nothing is written over it"
            raise AutosaveWriteError(message, self.path) from error
        if previous.is_over:
            said = N_("the game that ended is archived now, as {archived}")
            self.notices.append(Message(said, archived=archived))
        else:
            said = N_("the game that was saved in {file} is kept in the archive as {archived}")
            self.notices.append(Message(said, file=self.path, archived=archived))
        return archived

    def _keep_damaged(self, damaged: DamagedAutosave) -> None:
        try:
            kept = keep_aside(self.path)
        except OSError as error:
            raise AutosaveWriteError(
                f"the damaged autosave {self.path} could not be kept aside ({error.strerror or error}), "
                "so nothing is written over it",
                self.path,
            ) from error
        self.notices.append(DamagedAutosave(self.path, damaged.reason, kept).explanation)

    def release(self) -> None:
        """Stop owning the slot (its file stays, to be offered at the next start)."""
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass
class AutosaveStart:
    """What :func:`open_autosave` found.

    ``slot`` is the autosave this process now owns, or ``None`` when the
    main one is owned by another process (``busy``) and no other slot could
    be taken: the app then asks whether to start a separate game
    (:func:`fresh_slot`) or to wait for the other to exit
    (``AutosaveSlot.acquire(busy.path)``, then ``load()``).  ``saved`` is
    the unfinished game to offer, from ``slot``.  ``busy`` may be set with a
    slot too (the main game is open elsewhere; this is another one).
    ``notices`` are words for the player (damaged files kept aside, games
    moved to the archive).
    """

    slot: AutosaveSlot | None
    saved: SavedGame | None = None
    busy: AutosaveBusy | None = None
    notices: list[Message] = field(default_factory=list)


def open_autosave(directory: Path | None = None) -> AutosaveStart:
    """At start: own the slot of the newest unfinished game nobody owns, or else the main autosave.

    Never raises: what the files hold, and a directory where nothing can be
    locked or written, become :attr:`AutosaveStart.notices`.
    """
    folder = data_dir() if directory is None else directory
    main = slot_path(1, folder)
    busy: AutosaveBusy | None = None
    spare: AutosaveSlot | None = None  # the main slot, owned but empty, if no game turns up
    notices: list[Message] = []
    for path in slot_paths(folder):
        try:
            slot = AutosaveSlot.acquire(path)
        except AutosaveBusy as error:
            if path == main:
                busy = error
            continue
        loaded = slot.load()
        notices.extend(slot.notices)
        slot.notices = []
        if loaded.saved is not None:
            if spare is not None:
                spare.release()
            return AutosaveStart(slot, loaded.saved, busy, notices)
        if path == main:
            spare = slot
        else:
            slot.release()
    if spare is None and busy is None:
        try:
            spare = AutosaveSlot.acquire(main)
        except AutosaveBusy as error:
            busy = error
    if spare is not None:
        notices.extend(spare.notices)
        spare.notices = []
    return AutosaveStart(spare, None, busy, notices)


def fresh_slot(directory: Path | None = None) -> AutosaveSlot:
    """An empty slot of its own for a separate game: the first ``autosave-N.json`` (N ≥ 2) nobody uses.

    Slots that hold a game (someone's, or one to offer at the next start)
    are skipped.  Raises ``OSError`` only when :data:`MAX_SLOTS` are taken.
    """
    folder = data_dir() if directory is None else directory
    for number in range(2, MAX_SLOTS + 1):
        path = slot_path(number, folder)
        if path.exists() or path.is_symlink():
            continue
        try:
            slot = AutosaveSlot.acquire(path)
        except AutosaveBusy:
            continue  # owned by a process that has not saved yet
        if path.exists() or path.is_symlink():  # written by a process that owned it a moment ago
            slot.release()
            continue
        return slot
    raise OSError(f"{MAX_SLOTS} separate games are open or saved in {folder} already")

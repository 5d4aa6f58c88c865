"""One owner per autosave: a lock file next to it, held by the process that writes it.

The lock of ``autosave.json`` is ``autosave.json.lock``.  Ownership is the
advisory lock the kernel keeps on that file for the owning process
(``flock`` on POSIX systems, ``msvcrt.locking`` on Windows), so it ends with
the process however the process ends: a crash, ``kill -9`` or a lost SSH
link never leaves the autosave locked.  The next process finds the file
unlocked (stale), locks it and writes itself into it: stale locks are taken
over without guessing whether a pid still lives, and a reused pid cannot
fool it.  The file's text (pid, host, since when) only says who the owner
is, for the message a second instance shows.

The lock file is created if missing and removed on release; after locking,
the descriptor is checked to still be the file at the path, so a release
(which removes the file while still holding it) cannot leave two owners.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import os
import socket
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Self

from ..core.message import N_, Message
from .storage import keep_aside

__all__ = [
    "LOCK_SUFFIX",
    "AutosaveBusy",
    "AutosaveLock",
    "LockOwner",
    "LockUnavailable",
    "exclusive",
    "lock_path",
    "try_lock",
]

LOCK_SUFFIX: Final = ".lock"
_OWNER_BYTES: Final = 4096
"""What is read of another owner's lock file: its text is three short lines."""
_WINDOWS_LOCK_OFFSET: Final = 1 << 30
"""Windows locks bytes, and locked bytes cannot be read: the lock is on one byte far past the owner's text."""


def lock_path(autosave: Path) -> Path:
    """The lock file of the autosave ``autosave``: the same name with ``.lock`` appended."""
    return autosave.with_name(autosave.name + LOCK_SUFFIX)


@dataclass(frozen=True)
class LockOwner:
    """Who holds a lock, as its file says (any field may be unknown: the file is only a note)."""

    pid: int | None = None
    host: str | None = None
    since: str | None = None

    @classmethod
    def me(cls) -> LockOwner:
        return cls(os.getpid(), socket.gethostname(), datetime.datetime.now().astimezone().isoformat("T", "seconds"))

    def to_text(self) -> str:
        return f"pid={self.pid}\nhost={self.host}\nsince={self.since}\n"

    @classmethod
    def from_text(cls, text: str) -> LockOwner:
        fields = dict(line.partition("=")[::2] for line in text.splitlines() if "=" in line)
        pid = fields.get("pid", "")
        return cls(
            pid=int(pid) if pid.isascii() and pid.isdigit() and len(pid) <= 10 else None,  # a pid, not a huge number
            host=fields.get("host") or None,
            since=fields.get("since") or None,
        )

    def description(self) -> Message:
        """``process 1234 on host 'box'`` (as much as is known), for a front end to say in its language."""
        elsewhere = self.host is not None and self.host != socket.gethostname()
        host = repr(self.host)
        if self.pid is None:
            if elsewhere:
                return Message(N_("another process on host {host}"), host=host)
            return Message(N_("another process"))
        if elsewhere:
            return Message(N_("process {pid} on host {host}"), pid=self.pid, host=host)
        return Message(N_("process {pid}"), pid=self.pid)

    def describe(self) -> str:
        """:meth:`description` in English, for logs and exceptions."""
        return str(self.description())


class AutosaveBusy(OSError):
    """The autosave ``path`` is owned by another running process, ``owner`` (``pid`` for short)."""

    def __init__(self, path: Path, owner: LockOwner) -> None:
        super().__init__(f"the game in {path} is open in another cescacs ({owner.describe()})")
        self.path = path
        self.owner = owner

    @property
    def pid(self) -> int | None:
        return self.owner.pid

    def __str__(self) -> str:
        return str(self.args[0])


class LockUnavailable(OSError):
    """The file system cannot lock files (some network file systems): ownership cannot be guaranteed here."""


class AutosaveLock:
    """This process's ownership of one autosave; :meth:`release` (or process exit) ends it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        """The lock file."""
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, autosave: Path) -> AutosaveLock:
        """Own ``autosave``: lock its lock file, creating it or taking over a stale one.

        Raises :class:`AutosaveBusy` if another live process owns it (also
        another lock held by this very process), :class:`LockUnavailable`
        if the file system cannot lock, ``OSError`` if the lock file cannot
        be created (a read-only directory).  Something that is not a regular
        file where the lock file belongs is kept aside and replaced.
        """
        path = lock_path(autosave)
        path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(100):  # each retry follows another process's release or a removed oddity
            fd = _open(path)
            if fd is None:
                continue
            try:
                locked = try_lock(fd)
            except OSError as error:
                os.close(fd)
                raise LockUnavailable(f"{path} cannot be locked: {error.strerror or error}") from error
            if not locked:
                owner = _read_owner(fd)
                os.close(fd)
                raise AutosaveBusy(autosave, owner)
            if not _same_file(fd, path):  # released (removed) by its owner between our open and our lock
                os.close(fd)
                continue
            _write_owner(fd, LockOwner.me())
            lock = cls(path, fd)
            atexit.register(lock.release)
            return lock
        raise LockUnavailable(f"{path} keeps changing: it cannot be locked")

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give up the ownership and remove the lock file (doing nothing if already released)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        atexit.unregister(self.release)
        try:
            if _REMOVE_WHILE_LOCKED and _same_file(fd, self.path):
                self.path.unlink()
        except OSError:
            pass  # a lock file left behind is harmless: only the kernel's lock counts
        finally:
            os.close(fd)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def exclusive(
    path: Path,
    *,
    patience: float = 5.0,
    clock: Callable[[], float] = time.monotonic,
    pause: Callable[[float], object] = time.sleep,
) -> Iterator[None]:
    """Hold ``path``'s lock (its ``.lock`` file) while the caller reads the file, changes it and writes it back.

    Unlike :class:`AutosaveLock` (one owner for as long as it plays), this is held for a moment by every process
    that changes a file they share (the player's progress), so each one's read-modify-write sees the other's
    result: it waits for the other holder, at most ``patience`` seconds (then :class:`LockUnavailable`: a holder
    that long is stopped, not writing).  The lock file stays (another process may be waiting on it); only the
    kernel's lock counts, so a holder killed mid-way leaves nothing locked.
    """
    lock = lock_path(path)
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = None
    for _ in range(100):  # each retry follows a removed oddity (a link, a FIFO) kept aside
        fd = _open(lock)
        if fd is not None:
            break
    if fd is None:
        raise LockUnavailable(f"{lock} keeps changing: it cannot be locked")
    try:
        deadline = clock() + patience
        while True:
            try:
                locked = try_lock(fd)
            except OSError as error:
                raise LockUnavailable(f"{lock} cannot be locked: {error.strerror or error}") from error
            if locked:
                break
            if clock() >= deadline:
                raise LockUnavailable(f"{lock} is held by another process for more than {patience:g} s")
            pause(0.01)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the kernel's lock


def _open(path: Path) -> int | None:
    """The lock file opened for reading and writing; ``None`` after keeping aside something else found there."""
    # O_NONBLOCK keeps a FIFO planted at the path from blocking the open; Windows has neither FIFOs nor the flag.
    optional = ("O_NONBLOCK", "O_CLOEXEC", "O_NOFOLLOW")
    flags = os.O_RDWR | os.O_CREAT
    for name in optional:
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError:
        if not path.is_symlink():
            raise
        keep_aside(path)  # a symbolic link: never followed, never written through
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or the like
        os.close(fd)
        keep_aside(path)
        return None
    return fd


def _same_file(fd: int, path: Path) -> bool:
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _write_owner(fd: int, owner: LockOwner) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, owner.to_text().encode("utf-8", "replace"))


def _read_owner(fd: int) -> LockOwner:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return LockOwner.from_text(os.read(fd, _OWNER_BYTES).decode("utf-8", "replace"))
    except OSError:
        return LockOwner()


if sys.platform == "win32":
    import msvcrt

    _REMOVE_WHILE_LOCKED: Final = False  # Windows cannot remove an open file; the file stays, unlocked

    def try_lock(fd: int) -> bool:
        """Take the exclusive lock on ``fd`` without waiting; ``False`` when another process holds it."""
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except PermissionError:
            return False
        return True

else:
    import fcntl

    _REMOVE_WHILE_LOCKED: Final = True

    def try_lock(fd: int) -> bool:
        """Take the exclusive lock on ``fd`` without waiting; ``False`` when another process holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

"""How many engines a server's visitors may run at once, shared by all their processes: one lock file per place.

``cescacs-web`` and ``cescacs serve-ssh`` run each visitor's app in a process
of its own, and each app may start an engine (the computer's moves, a hint,
the analysis): one busy process per visitor on the server's cores, unless
something counts them.  The server makes a folder of ``count`` places; an app
takes a place (an exclusive, non-blocking lock on one of the files) before it
starts its engine, and gives it back when the engine ends.  The kernel frees
the lock of a process that dies, however it dies, so a place is never lost.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .lock import try_lock

__all__ = ["EngineSlot", "EngineSlots"]


class EngineSlot:
    """One place taken: the engine may run until :meth:`release` (or the process's end)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        """Give the place back (closing the file frees its lock); doing it twice does nothing."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


@dataclass(frozen=True)
class EngineSlots:
    """``count`` places for engines in ``folder``, shared by every process given the same two."""

    folder: Path
    count: int

    def prepare(self) -> None:
        """Make the folder (readable by the server's user only); the server does it once, before any visitor."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)

    def take(self) -> EngineSlot | None:
        """A free place, or ``None`` when all are taken (it never waits)."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        for number in range(self.count):
            try:
                fd = os.open(self.folder / f"engine-{number}.lock", flags, 0o600)
            except OSError:
                continue  # not a file we can lock (or the folder is gone): not a place
            if try_lock(fd):
                return EngineSlot(fd)
            os.close(fd)
        return None

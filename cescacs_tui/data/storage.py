"""Files that must survive a crash, and files from outside that must not hang or flood the app.

Every write goes to a temporary file in the same directory, is flushed to
disk, and then atomically renamed over the target: a process killed at any
moment leaves either the old file or the new one, never half of one.

Every read of a file the app did not just write (a record, the autosave, the
settings) goes through :func:`read_limited`: only a regular file is read, and
never more than a limit, so a FIFO, a device such as ``/dev/zero`` or a huge
file is refused at once instead of blocking or exhausting memory.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP_NAME = "cescacs-tui"


class RefusedFile(OSError):
    """A file the app will not read: not a regular file (a FIFO, a device, a directory), or too large."""


def data_dir() -> Path:
    """Where the autosave lives (``$CESCACS_DATA_DIR`` overrides it, for tests and portable installs)."""
    override = os.environ.get("CESCACS_DATA_DIR")
    return Path(override) if override else Path(user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Where settings live (``$CESCACS_CONFIG_DIR`` overrides it)."""
    override = os.environ.get("CESCACS_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir(APP_NAME, appauthor=False))


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) so that readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, if it holds at most ``limit`` bytes.

    Raises :class:`RefusedFile` for anything else, without blocking: the
    file is opened non-blocking (a FIFO with no writer opens at once), its
    type is checked on the open descriptor (no race with a rename), and at
    most ``limit + 1`` bytes are read (a file that grows, or reports a size
    of 0 like a device, cannot flood memory).  Other ``OSError`` s (missing
    file, no permission) pass through.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise RefusedFile(f"{path.name} is {kind}")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise RefusedFile(f"{path.name} is larger than {limit:,} bytes")
        return data
    finally:
        os.close(fd)

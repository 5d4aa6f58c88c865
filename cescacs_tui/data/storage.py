"""Files that must survive a crash, and files from outside that must not hang or flood the app.

Every write goes to a temporary file in the same directory, is flushed to
disk, and then atomically renamed over the target, and the directory is
flushed too: a process killed (or a machine losing power) at any moment
leaves either the old file or the new one, never half of one.

Every read of a file the app did not just write (a record, the autosave, the
settings) goes through :func:`read_limited`: only a regular file is read, and
never more than a limit, so a FIFO, a device such as ``/dev/zero`` or a huge
file is refused at once instead of blocking or exhausting memory.

A state file the app cannot use is never overwritten: :func:`keep_aside`
renames it to a time-stamped name next to it first, so the player (or a
developer) can still look at it.
"""

from __future__ import annotations

import datetime
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


def encodable(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so that it always encodes as UTF-8.

    Lone surrogates reach strings from outside (a file name decoded with
    ``surrogateescape``, a JSON ``"\\ud800"`` escape, a broken terminal) and
    make ``str.encode("utf-8")`` fail; a surrogate pair written as two code
    points is joined into the character it stands for.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) so that readers never see a partial file.

    Characters that UTF-8 cannot hold are replaced (see :func:`encodable`):
    a save never fails because of what a player typed.  The directory is
    flushed after the rename, so the new name itself survives a power cut.
    """
    data = encodable(text).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def fsync_directory(directory: Path) -> None:
    """Flush ``directory``'s entries to disk (a rename is only durable once its directory is).

    Systems that cannot open a directory (Windows) make renames durable
    themselves; there this does nothing.
    """
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


def keep_aside(path: Path, *, now: datetime.datetime | None = None) -> Path:
    """Rename the unusable ``path`` to ``<name>.damaged-<YYYYmmdd-HHMMSS>`` next to it, and return the new path.

    Whatever ``path`` is (a file, a FIFO, a symbolic link, a directory), it
    is renamed, not read or followed.  An existing kept file is never
    replaced: a second one in the same second gets ``-2``, ``-3``...
    Raises ``OSError`` if the rename fails (``FileNotFoundError`` if
    ``path`` is already gone).
    """
    moment = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    stem = f"{path.name}.damaged-{moment}"
    for number in range(1, 1000):
        target = path.with_name(stem if number == 1 else f"{stem}-{number}")
        if not target.exists() and not target.is_symlink():
            os.rename(path, target)
            fsync_directory(path.parent)
            return target
    raise FileExistsError(f"too many damaged copies of {path.name} kept aside in {path.parent}")

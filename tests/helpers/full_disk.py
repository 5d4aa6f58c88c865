"""A full disk, for the code that writes the autosave and the archive: an injected write failure, or a real tmpfs.

:class:`FullDisk` makes every atomic write of the autosave and the archive
fail as a full disk does (``ENOSPC``) until :meth:`FullDisk.free`: the files
already there stay, the lock and the settings are not touched.
:func:`small_tmpfs` mounts a real file system of a few hundred kilobytes
where that is allowed (root on Linux), for a test of the real command.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cescacs_tui.data import archive, autosave
from cescacs_tui.data.storage import write_atomic

__all__ = ["FullDisk", "fill", "small_tmpfs"]


class FullDisk:
    """While :attr:`full`, writing the autosave or an archived game raises ``OSError(ENOSPC)``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        for module in (archive, autosave):
            monkeypatch.setattr(module, "write_atomic", self._write)

    def _write(self, path: Path, text: str) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        write_atomic(path, text)

    def fill(self) -> None:
        self.full = True

    def free(self) -> None:
        self.full = False


@contextmanager
def small_tmpfs(directory: Path, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``directory`` for the test (skipped where mounting is not allowed)."""
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    directory.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], check=False)
    if mounted.returncode != 0:
        pytest.skip("this machine does not let a test mount a tmpfs")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)


def fill(directory: Path) -> Path:
    """Fill the file system of ``directory`` to the last byte with one file, and return it (delete it to free)."""
    filler = directory / "filler"
    with filler.open("wb", buffering=0) as handle:  # unbuffered: nothing left to write when it is closed
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    return filler

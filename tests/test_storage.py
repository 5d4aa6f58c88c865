"""Reading files from outside: only regular files, never more than a limit, never blocking."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from cescacs_tui.data.storage import RefusedFile, read_limited


def test_a_regular_file_within_the_limit_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.ctl-pgn"
    path.write_bytes(b"x" * 100)
    assert read_limited(path, 100) == b"x" * 100


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.ctl-pgn"
    path.write_bytes(b"x" * 101)
    with pytest.raises(RefusedFile, match="larger than 100 bytes"):
        read_limited(path, 100)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RefusedFile, match="a directory"):
        read_limited(tmp_path, 100)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "autosave.json"
    os.mkfifo(fifo)
    with pytest.raises(RefusedFile, match="not a regular file"):
        read_limited(fifo, 100)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_behind_a_link_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "game.ctl-pgn"
    link.symlink_to("/dev/zero")
    with pytest.raises(RefusedFile, match="not a regular file"):
        read_limited(link, 100)


def test_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_limited(tmp_path / "none", 100)

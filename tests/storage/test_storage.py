"""Reading files from outside: only regular files, never more than a limit, never blocking."""

from __future__ import annotations

import datetime
import os
import stat
import sys
from pathlib import Path

import pytest

from cescacs_tui.data.storage import RefusedFile, encodable, keep_aside, read_limited, write_atomic


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


def test_the_directory_is_flushed_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync directory" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source: str, target: object) -> None:
        events.append("rename")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_atomic(tmp_path / "autosave.json", "{}")
    assert events == ["fsync file", "rename", "fsync directory"]


def test_odd_characters_never_stop_a_write(tmp_path: Path) -> None:
    path = tmp_path / "record.ctl-pgn"
    write_atomic(path, '[White "Jos\udce9"]\n[Black "\ud83d\ude00 pair"]\n')
    assert path.read_text(encoding="utf-8") == '[White "Jos\ufffd"]\n[Black "😀 pair"]\n'


def test_encodable_leaves_ordinary_text_alone() -> None:
    text = "José — 😀\n\t"
    assert encodable(text) is text


def test_keep_aside_renames_with_a_time_stamp_and_never_replaces(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    moment = datetime.datetime(2026, 12, 1, 14, 30, 5)
    kept = []
    for content in ("first", "second", "third"):
        path.write_text(content, encoding="utf-8")
        kept.append(keep_aside(path, now=moment))
    assert [p.name for p in kept] == [
        "autosave.json.damaged-20261201-143005",
        "autosave.json.damaged-20261201-143005-2",
        "autosave.json.damaged-20261201-143005-3",
    ]
    assert [p.read_text(encoding="utf-8") for p in kept] == ["first", "second", "third"]
    assert not path.exists()
    with pytest.raises(FileNotFoundError):
        keep_aside(path)

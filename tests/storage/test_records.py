"""Record files from outside: only regular files within the limit are read, and a file of many games opens at once."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui.core.pgn import PGNError
from cescacs_tui.data.records import MAX_FILE_BYTES, load_pgn_file, open_pgn_file, read_record_text


@pytest.fixture
def never_blocks() -> Iterator[None]:
    """Fail (instead of hanging the suite) if the code under test blocks for seconds."""

    def blocked(signum: int, frame: object) -> None:
        raise AssertionError("the read blocked")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(10)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_a_fifo_is_refused_at_once(tmp_path: Path, never_blocks: None) -> None:
    fifo = tmp_path / "game.ctl-pgn"
    os.mkfifo(fifo)
    for read in (load_pgn_file, open_pgn_file):
        with pytest.raises(PGNError, match="not a regular file"):
            read(fifo)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_link_to_dev_zero_is_refused_at_once(tmp_path: Path, never_blocks: None) -> None:
    # st_size is 0 for a device: the old size check let it through, to a MemoryError
    link = tmp_path / "game.ctl-pgn"
    link.symlink_to("/dev/zero")
    with pytest.raises(PGNError, match="not a regular file"):
        open_pgn_file(link)


def test_a_directory_and_a_file_over_the_limit_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PGNError, match="directory"):
        read_record_text(tmp_path)
    huge = tmp_path / "huge.ctl-pgn"
    huge.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(PGNError, match="refused"):
        read_record_text(huge)


def test_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_pgn_file(tmp_path / "none.ctl-pgn")


def test_open_replays_the_first_game_and_counts_the_others(tmp_path: Path) -> None:
    path = tmp_path / "many.ctl-pgn"
    records = [f'[Variant "C\'escacs"]\n[Round "{n}"]\n\n1. H6-H12 *\n' for n in range(1, 501)]
    records[-1] = '[Variant "C\'escacs"]\n[Round "500"]\n\n1. E7-E15 *\n'  # broken, and never replayed
    path.write_text("\n".join(records), encoding="utf-8")
    game, count = open_pgn_file(path)
    assert game.tags["Round"] == "1" and count == 500
    assert [g.tags["Round"] for g in load_pgn_file(path, max_games=3)] == ["1", "2", "3"]
    with pytest.raises(PGNError, match="E7-E15"):
        load_pgn_file(path)


def test_a_file_without_a_game_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.ctl-pgn"
    empty.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(PGNError, match="holds no game"):
        open_pgn_file(empty)

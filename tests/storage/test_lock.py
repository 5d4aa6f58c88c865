"""One owner per autosave: a lock next to it, taken over when its owner is gone however it went."""

from __future__ import annotations

import errno
import os
import socket
import sys
from pathlib import Path

import pytest

from cescacs_tui.data import lock as lock_module
from cescacs_tui.data.lock import AutosaveBusy, AutosaveLock, LockOwner, LockUnavailable, lock_path
from tests.helpers.autosave_player import Player

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the tests use POSIX processes and FIFOs")


def owner_of(path: Path) -> LockOwner:
    return LockOwner.from_text(lock_path(path).read_text(encoding="utf-8"))


def test_the_lock_file_names_its_owner_and_goes_on_release(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    with AutosaveLock.acquire(autosave) as held:
        assert held.held and held.path == tmp_path / "autosave.json.lock"
        owner = owner_of(autosave)
        assert (owner.pid, owner.host) == (os.getpid(), socket.gethostname()) and owner.since
    assert not held.held and not lock_path(autosave).exists()
    held.release()  # twice is harmless


def test_a_second_lock_is_refused_even_in_the_same_process(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    with AutosaveLock.acquire(autosave):
        with pytest.raises(AutosaveBusy) as busy:
            AutosaveLock.acquire(autosave)
        assert busy.value.pid == os.getpid() and busy.value.path == autosave
        assert isinstance(busy.value, OSError)
        assert str(busy.value) == f"the game in {autosave} is open in another cescacs (process {os.getpid()})"
    with AutosaveLock.acquire(autosave):  # free again
        pass


@pytest.mark.slow
def test_a_live_owner_in_another_process_is_reported_with_its_pid(tmp_path: Path) -> None:
    other = Player(tmp_path)
    try:
        assert other.ask("open")["slot"] == "autosave.json"
        with pytest.raises(AutosaveBusy) as busy:
            AutosaveLock.acquire(tmp_path / "autosave.json")
        assert busy.value.pid == other.pid
    finally:
        assert other.quit() == 0
    assert not lock_path(tmp_path / "autosave.json").exists()  # released on a normal exit
    with AutosaveLock.acquire(tmp_path / "autosave.json"):
        pass


@pytest.mark.slow
def test_a_normal_exit_releases_the_lock_by_itself(tmp_path: Path) -> None:
    other = Player(tmp_path)
    assert other.ask("open")["slot"] == "autosave.json"
    assert lock_path(tmp_path / "autosave.json").exists()
    other.ask("exit")
    assert other.process.wait(timeout=60) == 0
    assert not lock_path(tmp_path / "autosave.json").exists()


@pytest.mark.slow
def test_the_lock_of_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    other = Player(tmp_path)
    assert other.ask("open")["slot"] == "autosave.json"
    assert other.kill() == -9
    assert owner_of(autosave).pid == other.pid  # the file outlives its process...
    with AutosaveLock.acquire(autosave):  # ...but not its lock
        assert owner_of(autosave).pid == os.getpid()


def test_a_stale_lock_file_naming_any_pid_is_taken_over(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    lock_path(autosave).write_text(f"pid={os.getppid()}\nhost={socket.gethostname()}\nsince=x\n", encoding="utf-8")
    with AutosaveLock.acquire(autosave):  # a live pid (ours, reused) that holds no lock does not count
        assert owner_of(autosave).pid == os.getpid()


def test_a_lock_file_being_written_or_garbled_still_reports_busy(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    with AutosaveLock.acquire(autosave):
        lock_path(autosave).write_bytes(b"\xff garbage")
        with pytest.raises(AutosaveBusy) as busy:
            AutosaveLock.acquire(autosave)
        assert busy.value.pid is None and "another process" in str(busy.value)


def test_a_fifo_or_a_link_where_the_lock_belongs_is_kept_aside(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    os.mkfifo(lock_path(autosave))
    with AutosaveLock.acquire(autosave):  # no hang on the FIFO
        pass
    target = tmp_path / "elsewhere"
    target.write_text("not to be written through", encoding="utf-8")
    lock_path(autosave).symlink_to(target)
    with AutosaveLock.acquire(autosave):
        assert target.read_text(encoding="utf-8") == "not to be written through"
    assert len(list(tmp_path.glob("autosave.json.lock.damaged-*"))) == 2


def test_the_lock_opens_where_the_system_lacks_the_posix_open_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has no O_NONBLOCK, O_CLOEXEC or O_NOFOLLOW: the lock is still taken, with the flags it has."""
    for name in ("O_NONBLOCK", "O_CLOEXEC", "O_NOFOLLOW"):
        monkeypatch.delattr(os, name)
    with AutosaveLock.acquire(tmp_path / "autosave.json") as held:
        assert held.held


def test_a_file_system_that_cannot_lock_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_locks(fd: int) -> bool:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(lock_module, "try_lock", no_locks)
    with pytest.raises(LockUnavailable, match="No locks available"):
        AutosaveLock.acquire(tmp_path / "autosave.json")


def test_owner_text_round_trip_and_unknown_fields() -> None:
    owner = LockOwner(123, "box", "2026-12-01T14:30:05+01:00")
    assert LockOwner.from_text(owner.to_text()) == owner
    assert LockOwner.from_text("") == LockOwner()
    assert LockOwner.from_text("pid=١٢\n") == LockOwner()  # only ASCII digits
    assert LockOwner(7, "elsewhere").describe() == "process 7 on host 'elsewhere'"


def test_a_lock_file_with_a_huge_or_foreign_pid_gives_an_unknown_owner_not_an_error() -> None:
    """A number read from a file is bounded where it is read (issue 22): a pid has at most ten digits."""
    assert LockOwner.from_text("pid=" + "9" * 4000 + "\nhost=box\n") == LockOwner(host="box")
    assert LockOwner.from_text("pid=\u0663\u0663\n").pid is None
    assert LockOwner.from_text("pid=4321\n").pid == 4321

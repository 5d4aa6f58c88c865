"""The operator's notification hook (server/notify.py): run with the player's name and the game, no shell, never
waited for, killed with its children when too slow."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from pathlib import Path

import pytest

from cescacs_tui.server.notify import Notifier
from tests.helpers.waiting import until

RECORD = "import sys, pathlib; pathlib.Path(sys.argv[1]).joinpath(sys.argv[3]).write_text(repr(sys.argv[2:]))"
"""A hook that writes the arguments it was given to a file named after the game, in the folder of its first."""


def hook(*code: str) -> list[str]:
    return [sys.executable, "-c", "; ".join(code)]


async def test_the_hook_runs_with_the_players_name_and_the_game_and_no_shell(tmp_path: Path) -> None:
    notifier = Notifier([*hook(RECORD), str(tmp_path)])
    try:
        notifier("alice", 12)
        notifier("$(touch pwned); rm -rf ~ `id`", 13)
        await notifier.drain()
    finally:
        await notifier.close()
    assert (tmp_path / "12").read_text() == repr(["alice", "12"])
    assert (tmp_path / "13").read_text() == repr(["$(touch pwned); rm -rf ~ `id`", "13"])
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


async def test_asking_never_waits_and_a_full_queue_drops_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier(hook("import time; time.sleep(30)"), parallel=1, backlog=4)
    try:
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, "cescacs_tui.server.notify"):
            for game in range(50):
                notifier("alice", game)
        assert time.monotonic() - started < 10.0  # fifty calls, none waiting for a run of 30 s (at any load)
        assert sum("dropped" in record.message for record in caplog.records) >= 40
    finally:
        await notifier.close()


async def test_a_hook_slower_than_its_timeout_is_killed_with_its_children(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    child_pid = tmp_path / "child"
    code = hook(
        "import subprocess, sys, time",
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])",
        f"open({str(child_pid)!r}, 'w').write(str(child.pid))",
        "time.sleep(60)",
    )
    notifier = Notifier(code, timeout=2.0)
    try:
        with caplog.at_level(logging.WARNING, "cescacs_tui.server.notify"):
            notifier("alice", 7)
            await notifier.drain()
        assert any("took over 2 s for alice (game 7): killed" in record.message for record in caplog.records)
    finally:
        await notifier.close()
    pid = int(child_pid.read_text())
    await until(lambda: not _alive(pid), "the hook's child to be gone")


async def test_a_failing_or_missing_hook_is_logged_and_the_next_runs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    failing = Notifier(hook("import sys; sys.stderr.write('no mail server\\x1b[2J'); sys.exit(3)"))
    missing = Notifier([str(tmp_path / "no-such-program")])
    try:
        with caplog.at_level(logging.WARNING, "cescacs_tui.server.notify"):
            failing("bob", 1)
            missing("bob", 2)
            await asyncio.gather(failing.drain(), missing.drain())
        said = " ".join(record.getMessage() for record in caplog.records)
        assert "ended with 3 for bob (game 1): no mail server␛[2J" in said
        assert "cannot run" in said
    finally:
        await failing.close()
        await missing.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (its parent killed, not yet reaped by init) is gone for this purpose
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_a_hook_needs_a_program() -> None:
    with pytest.raises(ValueError, match="needs a program"):
        Notifier([])

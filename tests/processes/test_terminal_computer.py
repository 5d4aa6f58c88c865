"""``cescacs --white computer:1`` in a pseudo-terminal: the app starts, the computer moves first, a person's reply
typed in one burst is answered by the computer; a bad player name exits 2 without a traceback; and the plain mode
prints the computer's moves like a person's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cescacs_tui.data.autosave import read_autosave
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment

pytestmark = POSIX_ONLY


def saved(data: Path) -> tuple[list[str], object]:
    session = read_autosave(data / "autosave.json")
    if session is None:
        return [], None
    return [str(node.move) for node in session.game.nodes], session.options.get("players")


def test_the_computer_plays_white_in_the_real_command(tmp_path: Path) -> None:
    data = tmp_path / "data"
    terminal = Terminal(terminal_environment(tmp_path), ["--white", "computer:1"])
    try:
        terminal.read_until(lambda: len(saved(data)[0]) == 1, "the computer's first move in the autosave")
        assert saved(data)[1] == ["computer:1", "human"]
        terminal.wait_for_text("cescacs-tui level 1")  # its name, said while it was to move
        terminal.type("/e21-e15\r")  # one burst, as a terminal delivers it
        terminal.read_until(lambda: len(saved(data)[0]) == 3, "the reply and the computer's answer")
        assert saved(data)[0][1] == "E21-E15"
        terminal.type("\x11")
        terminal.read_until(lambda: terminal.process.poll() is not None, "the app to quit")
    finally:
        code = terminal.close()
    assert code == 0


@pytest.mark.parametrize("player", ["computer:11", "robot", "computer:", "\x1b[31m"])
def test_a_bad_player_exits_2_with_the_reason_and_no_traceback(tmp_path: Path, player: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--black", player],
        capture_output=True,
        text=True,
        timeout=60,
        env=terminal_environment(tmp_path),
    )
    assert result.returncode == 2
    assert "is not a player: use human, computer or computer:N with N from 1 to 10" in result.stderr
    assert "Traceback" not in result.stderr and "\x1b" not in result.stderr


def test_the_plain_mode_prints_the_computers_moves_and_a_hint(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain", "--black", "computer:2", "--new"],
        input="e7-e13\nhint\ntakeback\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=terminal_environment(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "White Pawn E7 to E13, triple step. Black (cescacs-tui level 2) to move." in lines
    answer = lines.index("White Pawn E7 to E13, triple step. Black (cescacs-tui level 2) to move.") + 1
    assert lines[answer].startswith("Black ") and lines[answer].endswith("White to move.")
    assert any(line.startswith("Hint: ") and "from White's side" in line for line in lines)
    assert any(line.startswith("Took back: 2 half-moves") for line in lines)

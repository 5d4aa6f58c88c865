"""Told to stop (SIGTERM), cut off (SIGHUP: the terminal or the SSH link closed) or quit (Ctrl+Q), the app saves first.

The clock times are saved as they are at that moment, not as they were at the
last move: the side to move has used time since.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from cescacs_tui.data.autosave import load_autosave
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment

pytestmark = POSIX_ONLY

THINKING = 1.5
"""Seconds Black's clock runs before the signal: its saved time must show them."""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, None], ids=["SIGTERM", "SIGHUP", "Ctrl+Q"])
def test_a_stop_signal_or_quitting_saves_the_game_and_the_running_clock(
    stop: signal.Signals | None, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text('time_control = "300"\n', encoding="utf-8")
    data = tmp_path / "data"
    terminal = Terminal(terminal_environment(tmp_path))
    try:
        terminal.wait_for("Move:")
        terminal.type("/")
        terminal.type("e7-e13\r")
        terminal.read_until(lambda: (data / "autosave.json").exists(), "the move in the autosave")
        time.sleep(THINKING)
        if stop is None:
            terminal.type("\x11")  # Ctrl+Q
        else:
            terminal.process.send_signal(stop)
        terminal.read_until(lambda: terminal.process.poll() is not None, "the app to end")
    finally:
        terminal.close()
    saved = load_autosave(data / "autosave.json").saved
    assert saved is not None and saved.game.clock is not None
    assert [node.san for node in saved.game.nodes] == ["E7-E13"]
    assert saved.game.clock.remaining(saved.game.position.turn) <= 300 - THINKING

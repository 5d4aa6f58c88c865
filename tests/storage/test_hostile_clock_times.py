"""An autosave whose clock holds a time no clock can count with (issue 22), met by the real command.

``1e308`` passed the checks for NaN, infinity and negatives; the app died of an
``OverflowError`` (core/clock.py) on "Resume", and at every later start, and the
plain mode's ``c`` too; the file was never set aside.  Now the reader bounds the
time: the file is kept aside as damaged, the player told why, a new game starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cescacs_tui.core.clock import ClockError, ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import save_autosave
from tests.helpers.games import play
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal


def write_autosave(data: Path, white_seconds: object) -> Path:
    """A game with a running 5+5 clock, saved by the app, its White time then replaced by ``white_seconds``."""
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, 300, 5))
    play(game, "E7-E13")
    path = data / "autosave.json"
    save_autosave(game, {}, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["clock"]["white"] = white_seconds
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_the_core_clock_refuses_a_time_beyond_its_bound() -> None:
    clock = Game.new(time_control=TimeControl(ClockKind.SUDDEN_DEATH, 300)).clock
    assert clock is not None
    with pytest.raises(ClockError, match="from 0 to 3600000000, not 1e"):
        clock.set_remaining(1e308, 10)
    clock.set_remaining(3_600_000_000, 0)  # a million hours is still a time


@POSIX_ONLY
def test_the_app_sets_the_autosave_aside_instead_of_dying_on_resume(environment, tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_autosave(data, 1e308)
    terminal = Terminal(environment, live=True)
    try:
        terminal.wait_for("Move:")
        terminal.wait_for_text("is damaged")  # said in a notification
        terminal.type("\r/e7-e13\r")  # Enter: it would have resumed the game, and died
        terminal.read_until(lambda: (data / "autosave.json").exists(), "the new game's first save")
        assert terminal.quit() == 0
    finally:
        terminal.close()
    assert "Traceback" not in terminal.text() and "OverflowError" not in terminal.text()
    assert "An unfinished game was found" not in terminal.text()
    (kept,) = data.glob("autosave.json.damaged-*")
    assert json.loads(kept.read_text(encoding="utf-8"))["clock"]["white"] == 1e308


@pytest.mark.parametrize("seconds", [1e308, 10**30, 3_600_000_001])
def test_the_plain_mode_reports_the_damaged_autosave_and_its_clock_works(environment, tmp_path, seconds) -> None:
    data = tmp_path / "data"
    write_autosave(data, seconds)
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain"],
        input=b"c\nquit\n",
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )
    out = result.stdout.decode()
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert "is damaged (its clock time" in out and "is not a number of seconds from 0 to 3600000000" in out
    assert "This game has no clock." in out  # c answers, about the new game (no clock in the settings)
    assert len(list(data.glob("autosave.json.damaged-*"))) == 1


UNUSABLE_CONTROLS = ["\u0663\u0660\u0660", "900+-10", "1e999", "99999999"]


@pytest.mark.parametrize("control", UNUSABLE_CONTROLS)
def test_a_record_whose_clock_cannot_be_used_says_so_when_opened(control: str, tmp_path: Path) -> None:
    """It became a game without clock without a word (issue 22)."""
    from cescacs_tui.session import GameSession

    record = tmp_path / "clock.ctl-pgn"
    record.write_text(f'[Variant "C\'escacs"]\n[TimeControl "{control}"]\n\n1. E7-E13 *\n', encoding="utf-8")
    said = str(GameSession().open_record(record).text)
    assert f"1 irregularity tolerated: line 2: TimeControl tag ignored: TimeControl '{control}'" in said


def test_the_plain_mode_says_why_a_record_opened_from_the_command_line_has_no_clock(environment, tmp_path) -> None:
    record = tmp_path / "clock.ctl-pgn"
    record.write_text('[Variant "C\'escacs"]\n[TimeControl "\u0663\u0660\u0660"]\n\n1. E7-E13 *\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain", str(record)],
        input=b"c\n",
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert "clock.ctl-pgn: 1 irregularity tolerated: line 2: TimeControl tag ignored" in out

"""Autosave and resume, including a process killed between moves."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cescacs_tui.core import BLACK, WHITE
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.data.autosave import LoadedAutosave, clear_autosave, load_autosave, save_autosave
from cescacs_tui.data.storage import write_atomic
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, play


def test_save_and_load_a_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    now = FakeTime()
    game = Game.new(white="A", black="B", time_control=TimeControl(ClockKind.FISCHER, 300, 5), time_source=now)
    play(game, "E7-E13")
    now.now += 12
    play(game, "E21-E15")
    now.now += 4
    save_autosave(game, {"flipped": True}, path)
    session = load_autosave(path).saved
    assert session is not None
    assert [n.san for n in session.game.nodes] == ["E7-E13", "E21-E15"]
    assert session.game.tags["White"] == "A"
    assert session.options == {"flipped": True}
    clock = session.game.clock
    assert clock is not None and clock.paused  # resumed games wait for the players
    assert clock.remaining(WHITE) == pytest.approx(305 - 4)
    assert clock.remaining(BLACK) == pytest.approx(305 - 12)


def test_a_finished_game_is_archived_then_the_autosave_cleared(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    game = Game.new()
    play(game, "E7-E13")
    assert save_autosave(game, path=path) is None
    assert path.exists()
    fresh = Game.new(white="Ann", black="Bob")
    play(fresh, *FOOLS_MATE)
    archived = save_autosave(fresh, path=path)
    assert archived is not None and archived.parent == tmp_path / "games"
    assert not path.exists()
    assert load_autosave(path) == LoadedAutosave()
    (again,) = read_pgn(archived.read_text(encoding="utf-8"))
    assert [n.san for n in again.nodes] == [n.san for n in fresh.nodes] and again.result == "0-3"


def test_a_damaged_autosave_is_kept_aside_and_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    bad_move = json.dumps({"format": "cescacs-tui autosave", "pgn": '[Variant "C\'escacs"]\n1. E7-E15\n'})
    write_atomic(path, bad_move)
    loaded = load_autosave(path)
    assert loaded.saved is None and loaded.kept is not None
    (problem,) = map(str, loaded.problems)
    assert "damaged" in problem and str(loaded.kept) in problem
    assert loaded.kept.read_text(encoding="utf-8") == bad_move and not path.exists()
    path.write_text("{not json", encoding="utf-8")
    assert "not JSON" in str(load_autosave(path).problems[0])
    clear_autosave(path)
    assert load_autosave(path) == LoadedAutosave()


CRASHING_PLAYER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from cescacs_tui.data.autosave import save_autosave
    from cescacs_tui.core.game import Game

    path = Path(sys.argv[1])
    game = Game.new(white="Crash", black="Test")
    for text in ["E7-E13", "E21-E15", "F8-F12"]:
        game.play_text(text)
        save_autosave(game, path=path)
    print("saved", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # no clean-up, no atexit: as if the terminal died
    """
)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_resume_after_the_process_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", CRASHING_PLAYER, str(path)], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == -signal.SIGKILL
    assert "saved" in done.stdout
    session = load_autosave(path).saved
    assert session is not None
    assert [n.san for n in session.game.nodes] == ["E7-E13", "E21-E15", "F8-F12"]
    assert session.game.tags["White"] == "Crash"
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]  # no temporary file left


def test_after_a_resume_takeback_and_redo_time_the_side_to_move(tmp_path: Path) -> None:
    """Moves read back from the autosave have no clock snapshot: a takeback must still hand the turn back."""
    path = tmp_path / "autosave.json"
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, 300, 5), time_source=now)
    for move, thought in zip(["E7-E13", "E21-E15", "F8-F12", "F20-F16"], [3, 7, 11, 13], strict=True):
        now.advance(thought)
        play(game, move)
    save_autosave(game, path=path)
    saved = load_autosave(path).saved
    assert saved is not None
    resumed = saved.game
    clock = resumed.clock
    assert clock is not None
    resumed.takeback()
    assert resumed.position.turn == BLACK
    assert clock.to_move == BLACK and clock.paused
    assert clock.remaining(BLACK) == pytest.approx(305 - 7)  # Black's time before the move taken back
    assert clock.remaining(WHITE) == pytest.approx(305 - 11 + 5)  # the first move starts the clocks
    clock.resume()
    assert clock.running == BLACK
    resumed.redo()
    assert resumed.position.turn == WHITE
    assert clock.running == WHITE


def test_a_takeback_in_a_record_whose_clock_never_ran_leaves_it_stopped() -> None:
    game = Game.new(time_control=TimeControl(ClockKind.SUDDEN_DEATH, 300))
    play(game, "E7-E13", "E21-E15")
    (read,) = read_pgn(write_pgn(game))
    assert read.clock is not None and read.clock.to_move is None
    read.takeback()
    assert read.clock.to_move is None and read.clock.running is None


VERSION_1 = """{
 "format": "cescacs-tui autosave",
 "version": 1,
 "saved_at": "2026-11-29T14:05:00+00:00",
 "pgn": "[Variant \\"C'escacs\\"]\\n[Event \\"CG\\"]\\n[White \\"A\\"]\\n[Black \\"B\\"]\\n[Result \\"*\\"]\\n[TimeControl \\"300+5\\"]\\n\\n1. E7-E13 {[%clk 0:05:02]} E21-E15 {[%clk 0:04:58]}\\n*\\n",
 "clock": {"white": 302.0, "black": 298.0, "started": true, "paused": false},
 "options": {"flipped": true}
}"""  # noqa: E501  (as the first version of the app wrote it)


@pytest.mark.parametrize("text", [VERSION_1, VERSION_1.replace(' "version": 1,\n', "")], ids=["v1", "no-version"])
def test_autosaves_of_earlier_versions_still_load(tmp_path: Path, text: str) -> None:
    path = tmp_path / "autosave.json"
    path.write_text(text, encoding="utf-8")
    loaded = load_autosave(path)
    assert loaded.problems == () and loaded.saved is not None
    game = loaded.saved.game
    assert [n.san for n in game.nodes] == ["E7-E13", "E21-E15"] and game.tags["White"] == "A"
    assert loaded.saved.options == {"flipped": True} and loaded.saved.saved_at == "2026-11-29T14:05:00+00:00"
    assert game.clock is not None and game.clock.remaining(WHITE) == pytest.approx(302, abs=0.01) and game.clock.paused

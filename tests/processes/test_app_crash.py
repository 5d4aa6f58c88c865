"""Kill the app's process mid-game with SIGKILL: the next start resumes every move and both clocks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cescacs_tui.core import BLACK, WHITE
from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import load_autosave
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.questions import ConfirmDialog
from tests.helpers.app import answer

PLAYER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from cescacs_tui.tui.app import CescacsApp
    from cescacs_tui.core.clock import TimeControl
    from cescacs_tui.core.game import Game
    from cescacs_tui.data.autosave_store import AutosaveStore
    from cescacs_tui.data.slots import AutosaveSlot

    from tests.helpers.clock import FakeTime

    async def main(path):
        now = FakeTime()  # the players think 0.4 s and 0.3 s, however long the machine takes
        game = Game.new(white="Before", black="Crash", time_control=TimeControl.from_tag("300+5"), time_source=now)
        app = CescacsApp(game, store=AutosaveStore(AutosaveSlot.acquire(Path(path))))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("slash", *"e7-e13", "enter")
            now.advance(0.4)
            await pilot.press(*"e21-e15", "enter")
            now.advance(0.3)
            await pilot.press(*"f8-f12", "enter")
            await pilot.pause()
            clock = app.game.clock
            print("ready", clock.remaining(0), clock.remaining(1), flush=True)
            await pilot.press(*"f20-f1")  # a move half typed when the process dies
            await asyncio.sleep(120)

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_killed_mid_game_then_resumed(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    process = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("ready"), process.stderr.read() if process.stderr else line
        _, white_left, black_left = line.split()
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL

    session = load_autosave(path).saved
    assert session is not None
    app = CescacsApp(Game.new(), resume=session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)  # "An unfinished game was found... Resume it?"
        await answer(pilot, "y")
        await pilot.pause()
        game = app.game
        assert [n.san for n in game.nodes] == ["E7-E13", "E21-E15", "F8-F12"]
        assert game.tags["White"] == "Before"
        assert game.clock is not None and game.clock.paused
        assert game.clock.remaining(WHITE) == float(white_left) == pytest.approx(300 + 5 - 0.3 + 5)
        assert game.clock.remaining(BLACK) == pytest.approx(float(black_left), abs=0.05)  # it runs a moment on resuming
        assert float(black_left) == pytest.approx(300 - 0.4 + 5)
        assert game.position.turn == BLACK
        assert app.board.view.codes == game.position.board_codes

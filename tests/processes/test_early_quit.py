"""Quitting in the first moments (issue 22): at any moment of the start, the app ends cleanly, with status 0.

On a slow machine a Ctrl+Q in the first frames met handlers that reached for
widgets being mounted or already taken down (``SidePanel.Ready`` →
``query_one(ClockPanel)``, ``MoveEntry.Ready`` → ``query_one("#cursor-info")``)
and Textual's ``Lazy`` mounting into a quitting screen: a ``NoMatches`` or
``MountError`` traceback.  The moments are counted in turns of the event loop,
not in seconds, so the test does not depend on the machine's speed: the app is
started again and told to quit after 0, 1, 2... turns, until it is fully up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import SavedGame
from cescacs_tui.tui.app import CescacsApp
from tests.helpers.games import play
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment

FULLY_UP = 72
"""Turns of the event loop after which every lazily mounted widget is up and has said so (about 60 on any machine:
the turns are the app's own steps, not time)."""


def clock_game() -> CescacsApp:
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, 300, 5))
    play(game, "E7-E13")
    return CescacsApp(game)


def resume_question() -> CescacsApp:
    saved = Game.new()
    play(saved, "E7-E13", "E21-E15")
    return CescacsApp(resume=SavedGame(saved))


async def quit_after(make: Callable[[], CescacsApp], turns: int) -> CescacsApp:
    app = make()

    async def quit_later() -> None:
        for _ in range(turns):
            await asyncio.sleep(0)
        app.exit()

    quitting = asyncio.create_task(quit_later())
    await app.run_async(headless=True, size=(120, 40))
    await quitting
    return app


async def test_quitting_after_any_number_of_turns_of_the_start_ends_cleanly() -> None:
    failed = []
    for turns in range(FULLY_UP):
        app = await quit_after(CescacsApp, turns)
        if app.return_code or app._exit_renderables:
            failed.append(turns)
    assert failed == []


@pytest.mark.parametrize("make", [clock_game, resume_question], ids=["a running clock", "the resume question"])
async def test_quitting_early_with_a_clock_or_a_question_on_the_screen_ends_cleanly(make) -> None:
    failed = []
    for turns in range(0, FULLY_UP, 6):
        app = await quit_after(make, turns)
        if app.return_code or app._exit_renderables:
            failed.append(turns)
    assert failed == []


@pytest.mark.slow
@POSIX_ONLY
def test_the_real_command_quit_as_it_starts_exits_0_without_a_traceback(tmp_path) -> None:
    """Ctrl+Q as soon as the app has written anything (before that the terminal itself takes it, as XON)."""
    terminal = Terminal(terminal_environment(tmp_path), live=True)
    try:
        terminal.read_until(lambda: bool(terminal.output), "the first bytes of the app")
        terminal.type("\x11")
        code = terminal.wait_for_exit()
    finally:
        terminal.close()
    assert code == 0
    assert "Traceback" not in terminal.text() and "NoMatches" not in terminal.text()

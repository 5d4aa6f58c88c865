"""Random keys, clicks and typed moves never crash the app, and the game stays a legal game.

A seeded stream of what a careless or curious player might do: every game key,
the board's keys, dialogs opened and answered at random, moves typed (mostly
legal, some not), clicks anywhere, the variations of an annotated record.  Any
exception inside the app fails the test (``run_test`` re-raises it).  Longer
runs of the same kind found that ``U`` crashed the app while an earlier move
was being reviewed (now tested on its own in tests/tui/test_app.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pyperclip
import pytest

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.tui.app import CescacsApp
from tests.helpers.games import annotated

KEYS = (
    *("up", "down", "left", "right", "q", "e", "a", "d", "home", "end"),  # the board's cursor
    *("enter", "enter", "space", "escape", "escape", "tab", "shift+tab"),
    *("[", "]", "{", "}", "i"),  # review, variations
    *("u", "U", "c", "o", "r", "n", "p"),  # game actions and their dialogs
    *("K", "N", "P", "E", "R"),  # the piece letters
    *("f", "t", "g", "L", "F", "T"),  # view settings
    *("question_mark", "y", "Y", "v", "1", "2", "x"),
)
NOT_MOVES = ("xx", "e7-e99", "k", "jf6-c15", "")
STEPS = 60


def clocked() -> Game:
    return Game.new(white="Ada", black="Max", time_control=TimeControl.from_tag("300+5"))


@pytest.mark.parametrize(
    ("seed", "start", "size"),
    [(11, annotated, (120, 40)), (23, Game.new, (80, 24)), (37, clocked, (120, 40))],
    ids=["annotated-record", "new-game-80x24", "clocked-game"],
)
async def test_random_input_never_crashes_the_app(
    seed: int, start: Callable[[], Game], size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_clipboard(text: str) -> None:
        raise pyperclip.PyperclipException("no clipboard here")

    monkeypatch.setattr(pyperclip, "copy", no_clipboard)
    rng = random.Random(seed)
    app = CescacsApp(start())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(STEPS):
            roll = rng.random()
            if roll < 0.2 and len(app.screen_stack) == 1:
                position = app.game.position
                legal = position.legal_moves()
                typed = position.ctl_an(rng.choice(legal)).lower() if legal and roll < 0.17 else rng.choice(NOT_MOVES)
                await pilot.press("slash", *typed, "enter", "escape")
            elif roll < 0.23:
                await pilot.click(offset=(rng.randrange(size[0]), rng.randrange(size[1])))
            else:
                await pilot.press(rng.choice(KEYS))
        await pilot.pause()
        assert app.is_running
        game = app.game
        position = game.start.copy()
        for move in game.moves:
            assert position.is_legal(move)
            position.push(move)
        assert position.to_pdtl() == game.position.to_pdtl()

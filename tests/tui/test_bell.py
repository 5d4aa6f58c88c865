"""The optional bell (issue 25): the terminal's BEL when the opponent, the computer or a player elsewhere, has moved.

The computer's move is the session's (``play_computer``), as the engine's answer arrives; the engine itself is
not started: the test gives the screen an opponent whose turn plays a fixed move.
"""

from __future__ import annotations

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.data.settings import Settings
from cescacs_tui.session import Feedback
from cescacs_tui.session.players import HUMAN, parse_player
from cescacs_tui.tui.app import CescacsApp
from tests.helpers.app import message
from tests.helpers.waiting import until


def ringing(app: CescacsApp) -> list[int]:
    """Count the app's bells (what Textual writes to the terminal as BEL)."""
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    return rung


def answering(app: CescacsApp, reply: str) -> None:
    """The computer's turn plays ``reply`` (as the engine's answer would) instead of starting an engine."""

    async def play_turn(on_info: object = None) -> Feedback:
        session = app.session
        return session.play_computer(session.game.position.parse_move(reply))

    app.opponent.play_turn = play_turn  # type: ignore[method-assign]


@pytest.mark.parametrize("on", [True, False])
async def test_the_bell_rings_once_for_the_computers_move_when_it_is_on(on: bool) -> None:
    app = CescacsApp(Game.new(), settings=Settings(bell=on), players=(HUMAN, parse_player("computer:1")))
    rung = ringing(app)
    answering(app, "E21-E15")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        await until(lambda: app.game.ply == 2, "the computer's reply")
        await pilot.pause()
        assert len(rung) == (1 if on else 0)  # not for the person's own move


async def test_no_bell_in_the_hot_seat_and_the_palette_switches_it() -> None:
    app = CescacsApp(settings=Settings(bell=True))
    rung = ringing(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter")
        await pilot.pause()
        assert rung == []  # both sides play here
        app.game_screen.action_perform("bell")
        await pilot.pause()
        assert "bell on the opponent's moves: off" in message(app) and not app.settings.bell

"""Keys that arrive together take effect in the order they came (tui/input_order.py), in a small app of their own.

A burst is posted to the app at once, as the terminal driver posts what one
read brought, before the app has handled any of it; the pilot's ``press``
would wait after each key instead.  The pty tests in
tests/processes/test_terminal_input.py type such bursts into the real app.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

import pytest
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from cescacs_tui.tui.input_order import InputInOrderApp


class Board(Static, can_focus=True):
    """A focused widget with a key bound to it: Textual runs the binding only once the widget hands the key back
    to the app, and judges it from the widget that has the focus then."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "count")]

    def __init__(self) -> None:
        super().__init__("board")
        self.counted = 0

    def action_count(self) -> None:
        self.counted += 1


class BurstApp(InputInOrderApp[None]):
    """The board and a move box; ``/`` focuses the box before any widget sees it, as the game screen's does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("slash", "app.focus('box')", priority=True)]

    def compose(self) -> ComposeResult:
        yield Board()
        yield Input(id="box")

    def on_mount(self) -> None:
        self.query_one(Board).focus()


def post_burst(app: BurstApp) -> None:
    """``xx/a`` as one read brings it: the board's key twice, the focus to the box, a letter for the box."""
    for key, character in [("x", "x"), ("x", "x"), ("slash", "/"), ("a", "a")]:
        app.post_message(events.Key(key, character))  # new events: a handled one is marked as handed on


@pytest.mark.parametrize("poster", ["the app's thread", "another thread"])
async def test_keys_bound_to_the_focused_widget_run_before_a_priority_key_after_them_moves_the_focus(poster):
    app = BurstApp()
    async with app.run_test() as pilot:
        if poster == "the app's thread":
            post_burst(app)
        else:  # as a driver's input thread might
            await asyncio.to_thread(post_burst, app)
        await pilot.pause()
        assert app.query_one(Board).counted == 2
        box = app.query_one(Input)
        assert app.focused is box and box.value == "a"

"""A narrow screen (a phone held upright): the side panel goes under the whole board."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from cescacs_tui.core.game import Game
from cescacs_tui.session import GameSession
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.screens.game import GameScreen
from cescacs_tui.tui.widgets.board import HexBoard


async def test_a_narrow_screen_stacks_the_side_panel_under_the_whole_board() -> None:
    app = CescacsApp()
    async with app.run_test(size=(55, 52)) as pilot:
        await pilot.pause()
        board, side = app.board, app.query_one("#side")
        assert app.screen.has_class("-narrow")
        assert board.region.width >= 49 and board.region.x == 0
        assert side.region.y >= board.region.bottom and side.region.width == 55
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not app.screen.has_class("-narrow")
        assert app.query_one("#side").region.x >= app.board.region.right


@pytest.mark.parametrize(("width", "breakpoint"), [(55, "-narrow"), (120, "-wide")])
async def test_the_board_is_first_styled_with_the_screens_breakpoint_class_already_there(
    width: int, breakpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual gives the screen its class when it gets its first size, after the widgets were styled: the
    screen made with the class styles them once for it, not again (narrow_layout.start_at_the_apps_width)."""
    classes_seen: list[set[str]] = []
    apply = Stylesheet.apply

    def spied(stylesheet: Stylesheet, node: DOMNode, *args: Any, **options: Any) -> None:
        if isinstance(node, HexBoard):
            classes_seen.append(set(node.screen.classes))
        apply(stylesheet, node, *args, **options)

    monkeypatch.setattr(Stylesheet, "apply", spied)
    app = CescacsApp()
    async with app.run_test(size=(width, 52)) as pilot:
        await pilot.pause()
        assert app.screen.has_class(breakpoint)
    assert classes_seen and all(breakpoint in classes for classes in classes_seen), classes_seen


def test_a_screen_made_outside_an_app_is_left_to_textual() -> None:
    assert not GameScreen(GameSession(Game())).classes

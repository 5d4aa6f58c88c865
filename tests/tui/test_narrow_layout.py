"""A narrow screen (a phone held upright): the side panel goes under the whole board."""

from __future__ import annotations

from cescacs_tui.tui.app import CescacsApp


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

"""Notifications show over the side panel, never over the board (Textual puts them at the bottom right)."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget

from cescacs_tui.tui.app import CescacsApp
from tests.helpers.app import panels_ready
from tests.helpers.waiting import until


def notifications(app: CescacsApp) -> list[Widget]:
    return [widget for widget in app.screen.walk_children(Widget) if type(widget).__name__ == "Toast"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50), (70, 40)])
async def test_a_notification_never_covers_the_board(size: tuple[int, int]) -> None:
    app = CescacsApp()
    async with app.run_test(size=size, notifications=True) as pilot:
        await panels_ready(pilot)
        long = "a message longer than the message line, so it is also shown as a notification " * 3
        app.game_screen.message.say(long)  # how the app notifies what its line cannot hold
        app.notify("a second one, stacked above the first", title="Saved games", timeout=30)
        await until(lambda: len(notifications(app)) == 2, "both notifications")
        await pilot.pause()
        board = app.board.region
        side = app.screen.query_one("#side").region
        screen = Region(0, 0, *size)
        for toast in notifications(app):
            drawn = app.screen.find_widget(toast)
            region = drawn.region.intersection(drawn.clip)  # what shows of it (the rack scrolls when they are many)
            assert region.width >= 20 and region.height >= 3, region
            assert not region.overlaps(board), (region, board)
            assert side.contains_region(region) and screen.contains_region(region), (region, side)

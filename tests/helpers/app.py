"""Driving the app as a person does: reading the message line, walking the cursor, clicking hexes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from cescacs_tui.core import parse_hex
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.board_layout import LayoutMode, cursor_step
from cescacs_tui.tui.dialogs.questions import DeliberateDialog
from tests.helpers.waiting import until

ARROWS = ("up", "down", "left", "right")


def message(app: App[Any]) -> str:
    """What the message line under the board says."""
    return str(app.query_one("#message").render())


def key_path(
    start: int, goal: int, flipped: bool = False, targets: Iterable[int] = (), mode: LayoutMode = "compact"
) -> list[str]:
    """The arrow keys that take the board cursor from ``start`` to ``goal`` (breadth-first) on a board drawn in
    ``mode``.

    ``targets`` are the selected piece's targets, among which the arrows jump (the board's ``view.targets``).
    """
    targets = tuple(targets)
    previous: dict[int, tuple[int, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if h == goal:
            break
        for key in ARROWS:
            nxt = cursor_step(h, key, targets, flipped=flipped, mode=mode)  # type: ignore[arg-type]
            if nxt not in previous:
                previous[nxt] = (h, key)
                queue.append(nxt)
    keys = []
    h = goal
    while previous[h] is not None:
        h, key = previous[h]  # type: ignore[misc]
        keys.append(key)
    return keys[::-1]


async def cursor_pick(pilot: Pilot[None], app: CescacsApp, name: str) -> None:
    board = app.board
    for key in key_path(board.cursor, parse_hex(name), board.flipped, board.view.targets, board.mode):
        await pilot.press(key)
    assert board.cursor == parse_hex(name)
    await pilot.press("enter")


async def click_hex(pilot: Pilot[None], app: CescacsApp, name: str) -> None:
    region = app.board.hex_region(parse_hex(name))
    await pilot.click("#board", offset=(region.x + region.width // 2, region.y))


async def answer(pilot: Pilot[None], *keys: str) -> None:
    """Press ``keys`` in the dialog on top once it listens: it ignores what comes before a person could have read it."""
    dialog = pilot.app.screen
    assert isinstance(dialog, DeliberateDialog), dialog
    await until(lambda: dialog.listening, "the question to listen")
    await pilot.press(*keys)


async def panels_ready(pilot: Pilot[None]) -> None:
    """Wait until the side panel, mounted after the first paint, is there and shows the game (a loaded machine
    can need more than one pause)."""
    from cescacs_tui.tui.widgets.side_panel import SidePanel

    for _ in range(200):
        await pilot.pause()
        if pilot.app.screen.query(SidePanel):
            await pilot.pause()
            return
    raise AssertionError("the side panel was never mounted")

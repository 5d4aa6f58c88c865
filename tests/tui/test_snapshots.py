"""The look of the app, guarded by SVG snapshots (pytest-textual-snapshot).

The scenes are those of ``scripts/screenshots.py`` (the README's pictures):
start and middlegame with highlights at 80x24, 120x40 and 160x50, each theme,
a 16-colour terminal and NO_COLOR, the castling chooser and the help page.  After an intended change of look,
refresh them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and
``python scripts/screenshots.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from scripts.screenshots import SCENES


@pytest.mark.parametrize("name", list(SCENES))
def test_scene_looks_as_before(name: str, snap_compare: Any) -> None:
    scene = SCENES[name]
    assert snap_compare(scene.app(), terminal_size=scene.size, run_before=scene.then)


@pytest.mark.parametrize(
    ("name", "mode"),
    [
        ("start-80x24", "compact"),
        ("middlegame-80x24", "compact"),
        ("middlegame-120x40", "full"),
        ("middlegame-160x50", "large"),
        ("colours-16", "full"),
    ],
)
async def test_the_whole_board_is_visible(name: str, mode: str) -> None:
    scene = SCENES[name]
    app = scene.app()
    async with app.run_test(size=scene.size) as pilot:
        await scene.then(pilot)
        board = app.board
        assert board.mode == mode
        screen = app.screen.region
        for h in range(169):
            region = board.hex_region(h).translate(board.content_region.offset)
            assert screen.contains_region(region), h

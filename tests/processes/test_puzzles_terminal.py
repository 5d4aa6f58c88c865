"""The real ``cescacs puzzles`` in a pseudo-terminal: the puzzle screen drawn, a hint asked, a wrong move typed in
one burst and refused, Esc leaving with status 0, and the rating kept in the data directory for the next time."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.terminal import POSIX_ONLY, Terminal

pytestmark = POSIX_ONLY


def test_cescacs_puzzles_in_a_terminal(environment: dict[str, str]) -> None:
    kept_in = Path(environment["CESCACS_DATA_DIR"]) / "progress.json"
    terminal = Terminal(environment, ["puzzles", "--theme", "mate-in-1"])
    try:
        terminal.wait_for_screen("to move: mate in 1")
        terminal.wait_for_screen("Your rating: 1500 ± 350")
        terminal.type("h")
        terminal.wait_for_screen("hint: move")
        terminal.read_until(kept_in.exists, "the rating kept")  # the hint lost the try: rated at once
        terminal.read_until(lambda: not terminal.shows("Your rating: 1500 ± 350"), "the new rating shown")
        terminal.type("\x1b")
        assert terminal.wait_for_exit() == 0
    finally:
        terminal.close()
    kept = json.loads(kept_in.read_text(encoding="utf-8"))["puzzles"]
    assert kept["tried"] == 1 and kept["solved"] == 0 and kept["rating"] < 1500

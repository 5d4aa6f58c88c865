"""No method of the package breaks its base class's promise behind a silenced type check.

An ``# type: ignore[override]`` hides a subclass that does not do what its base says (the lobby app's first screen
was a lobby where the game app promised a game screen): the design states it instead (``get_default_screen``
promises a screen, ``make_game_screen`` the game's), and this keeps it so.
"""

from __future__ import annotations

from pathlib import Path

import cescacs_tui

PACKAGE = Path(cescacs_tui.__file__).parent


def test_no_override_is_silenced() -> None:
    silenced = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore[override" in line
    ]
    assert silenced == []

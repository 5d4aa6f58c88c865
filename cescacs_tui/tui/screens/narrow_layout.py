"""A layout for narrow screens (a phone held upright): the side panel goes below the board.

The compact board is 49 cells wide and the side panel needs 28 more; on a
screen narrower than both, the panel would be squeezed to a sliver beside the
board.  Below :data:`NARROW_BELOW` columns the screen carries the class
``-narrow`` (Textual's breakpoints) and this CSS stacks the two instead.
"""

from __future__ import annotations

from typing import Final

NARROW_BELOW: Final = 78
"""The compact board (49) beside the narrowest side panel (28, and its border)."""

BREAKPOINTS: Final = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
"""For the ``HORIZONTAL_BREAKPOINTS`` of the screens with a board beside a column (game, review, puzzles)."""

NARROW_CSS: Final = """
GameScreen.-narrow #main { layout: vertical; }
GameScreen.-narrow #board { height: auto; width: 100%; }
GameScreen.-narrow #side {
    width: 100%; height: 1fr; min-width: 0; border-left: none; border-top: solid $border-blurred;
}
"""
"""For the game screen's ``DEFAULT_CSS`` (its rules name the screen, so Textual does not scope them below it)."""

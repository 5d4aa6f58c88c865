"""A layout for narrow screens (a phone held upright): the side panel goes below the board.

The compact board is 49 cells wide and the side panel needs 28 more; on a
screen narrower than both, the panel would be squeezed to a sliver beside the
board.  Below :data:`NARROW_BELOW` columns the screen carries the class
``-narrow`` (Textual's breakpoints) and this CSS stacks the two instead.
"""

from __future__ import annotations

from typing import Any, Final

from textual._context import NoActiveAppError
from textual.screen import Screen

NARROW_BELOW: Final = 78
"""The compact board (49) beside the narrowest side panel (28, and its border)."""

BREAKPOINTS: Final = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
"""For the ``HORIZONTAL_BREAKPOINTS`` of the screens with a board beside a column (game, review, puzzles,
lessons, drills)."""


def start_at_the_apps_width(screen: Screen[Any]) -> None:
    """Give a screen just made the class of its ``HORIZONTAL_BREAKPOINTS`` that the app's present width gives it,
    chosen as Textual chooses it.

    Textual sets the class when the screen gets its first size, after its widgets were styled: restyling the
    whole screen (the board's styles are the costliest) cost every start, and every screen pushed, some 8 ms
    of CPU for a class known from the start.  Textual's own setting then finds the class there and does
    nothing; it still moves the class when the terminal is resized.  A screen made outside a running app
    (no width yet) is left to Textual.
    """
    try:
        width = screen.app.size.width
    except NoActiveAppError:
        return
    screen.add_class(*screen._get_breakpoint_classes(width, screen.HORIZONTAL_BREAKPOINTS or []), update=False)


NARROW_CSS: Final = """
GameScreen.-narrow #main { layout: vertical; }
GameScreen.-narrow #board { height: auto; width: 100%; }
GameScreen.-narrow #side {
    width: 100%; height: 1fr; min-width: 0; border-left: none; border-top: solid $border-blurred;
}
"""
"""For the game screen's ``DEFAULT_CSS`` (its rules name the screen, so Textual does not scope them below it)."""

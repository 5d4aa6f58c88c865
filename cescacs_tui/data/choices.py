"""The plain vocabularies a setting may hold: board layouts, piece sets, the default theme.

They are defined here, free of any user-interface library, so that
:mod:`cescacs_tui.data.settings` can check a settings file without importing
the widgets; :mod:`cescacs_tui.tui.board_layout` and
:mod:`cescacs_tui.tui.themes` use them from here.  Theme names beyond the
default are the front end's to offer (Textual's built-in themes among them):
see :meth:`cescacs_tui.data.settings.Settings.load`.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["DEFAULT_THEME", "LAYOUT_CHOICES", "PIECE_SETS", "LayoutChoice", "PieceSet"]

LayoutChoice = Literal["auto", "full", "compact", "large"]
PieceSet = Literal["letters", "fan", "fan-safe"]

LAYOUT_CHOICES: Final[tuple[LayoutChoice, ...]] = get_args(LayoutChoice)
PIECE_SETS: Final[tuple[PieceSet, ...]] = get_args(PieceSet)

DEFAULT_THEME: Final = "cescacs-dark"
"""The theme of a first start (one of the app's own, defined in :mod:`cescacs_tui.tui.themes`)."""

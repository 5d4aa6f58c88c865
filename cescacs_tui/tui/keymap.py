"""The player's keys: Textual's keymap (binding id to keys) made from the settings, for ``App.set_keymap``.

Every binding a player may rebind has an id: an action of the table
(:data:`~cescacs_tui.session.actions.ACTIONS`) is bound under its name
(``takeback``, ``hint``...), a board key under ``board.<what>``
(``board.up_left``, ``board.select``...).  The ``[keys]`` table of the
settings gives some of them other keys::

    [keys]
    takeback = "z"
    "board.up_left" = "q,7"

The vim keys are such a map too (:func:`vim_keymap`): the board's
cursor keys plus ``h j k l`` and ``y u b n``; the player's own keys win over
them.  Textual applies the map to every binding with an id, so the footer
follows it; the help page, the command palette and the messages that name a
key (:func:`~cescacs_tui.session.actions.press`) read the same map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from textual.binding import Binding

from ..core.message import N_, Message
from ..session.actions import ACTIONS
from .widgets.board import HexBoard

__all__ = ["VIM_HELP", "VIM_LETTERS", "binding_ids", "keymap", "keymap_problems", "vim_keymap"]

VIM_LETTERS: Final = {
    "board.left": "h",
    "board.down": "j",
    "board.up": "k",
    "board.right": "l",
    "board.up_left": "y",
    "board.up_right": "u",
    "board.down_left": "b",
    "board.down_right": "n",
}
"""The vim-style keys added to the board's cursor keys: hjkl, and yubn for the four oblique steps."""
VIM_HELP: Final = N_("Vim keys, when on: ← ↓ ↑ → ↖ ↗ ↙ ↘")
"""The help page's row for :data:`VIM_LETTERS`, in their order."""


def _board_bindings() -> dict[str, Binding]:
    return {b.id: b for b in HexBoard.BINDINGS if isinstance(b, Binding) and b.id is not None}


def binding_ids() -> frozenset[str]:
    """Every id a keymap may rebind: the table's actions that have keys, and the board's keys."""
    return frozenset(name for name, action in ACTIONS.items() if action.keys) | _board_bindings().keys()


def vim_keymap() -> dict[str, str]:
    """The vim keys as a keymap: each cursor binding keeps its keys and gains its letter (``"left,h"``)."""
    board = _board_bindings()
    return {name: f"{board[name].key},{letter}" for name, letter in VIM_LETTERS.items()}


def keymap(*, vim_keys: bool, keys: Mapping[str, str]) -> dict[str, str]:
    """The keymap the app sets: the vim keys when on, then the player's ``keys`` whose ids are known."""
    known = binding_ids()
    return {**(vim_keymap() if vim_keys else {}), **{name: keys[name] for name in keys if name in known}}


def keymap_problems(keys: Mapping[str, str]) -> list[Message]:
    """What the ``[keys]`` table names that no binding has: one problem each, for the settings' warnings."""
    known = binding_ids()
    said = N_("[keys] {name}: no action or board key has that name; ignored")
    return [Message(said, name=repr(name)) for name in keys if name not in known]

"""Following the variations of a record: which line of play is on the screen (pure, no Textual).

A record gives, for some moves, other lines that could have been played
instead (NOTATION.md 7.4).  The player can step into one, review it like the
game, step into the variations it gives in turn, and come back out one level
at a time.  The game itself is never touched: each line followed is a
separate :meth:`~cescacs_tui.core.game.Game.branch` of the line it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.game import Game
from .words import move_label


@dataclass(frozen=True)
class Variation:
    """A line being followed: ``line``, given in ``parent`` instead of its half-move ``ply + 1``."""

    line: Game
    parent: Game
    ply: int
    index: int

    @property
    def count(self) -> int:
        """How many lines the record gives there (this one is number ``index + 1``)."""
        return len(self.parent.nodes[self.ply].variations)

    def describe(self) -> str:
        instead = move_label(self.parent.nodes[self.ply], first=True)
        which = f" {self.index + 1} of {self.count}" if self.count > 1 else ""
        return f"Variation{which} instead of {instead}"


class VariationStack:
    """The variations followed from the game, innermost last; empty when the game itself is shown."""

    def __init__(self) -> None:
        self._stack: list[Variation] = []

    def __len__(self) -> int:
        return len(self._stack)

    @property
    def top(self) -> Variation | None:
        return self._stack[-1] if self._stack else None

    def shown(self, game: Game) -> Game:
        """The line on the screen: the innermost variation followed, else ``game``."""
        return self._stack[-1].line if self._stack else game

    def available(self, game: Game) -> int:
        """How many variations the record gives instead of the half-move that led to the shown position."""
        shown = self.shown(game)
        return len(shown.nodes[shown.cursor - 1].variations) if shown.cursor > 0 else 0

    def can_follow(self, game: Game) -> bool:
        """Whether :meth:`follow` without an index would show another line (the ``i`` key is useful)."""
        return self._cycling() is not None or self.available(game) > 0

    def _cycling(self) -> Variation | None:
        """The variation whose sibling ``i`` switches to: one just entered, still on its first half-move."""
        top = self.top
        return top if top is not None and top.line.cursor == top.ply + 1 and top.count > 1 else None

    def follow(self, game: Game, index: int | None = None) -> Variation | None:
        """Step into a variation of the reviewed half-move, or switch to the next one; ``None`` if there is none.

        With ``index``, the variation with that index.  Without it (the ``i``
        key): the first one; but on the first half-move of a variation just
        entered, the next of its sibling lines (after the last, the first).
        """
        top = self._cycling()
        if index is None and top is not None:
            self._stack[-1] = self._branch(top.parent, top.ply, (top.index + 1) % top.count)
            return self._stack[-1]
        shown = self.shown(game)
        ply = shown.cursor - 1
        chosen = 0 if index is None else index
        if ply < 0 or not 0 <= chosen < len(shown.nodes[ply].variations):
            return None
        self._stack.append(self._branch(shown, ply, chosen))
        return self._stack[-1]

    def leave(self) -> Variation | None:
        """Step out of the innermost variation (the line it left is shown as it was); ``None`` if in none."""
        return self._stack.pop() if self._stack else None

    def clear(self) -> None:
        self._stack.clear()

    @staticmethod
    def _branch(parent: Game, ply: int, index: int) -> Variation:
        return Variation(parent.branch(ply, index), parent, ply, index)

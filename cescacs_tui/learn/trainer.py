"""Solving puzzles one after another: the deck, the theme, the choice near the player's rating, and the rating.

A :class:`Trainer` is what the puzzle screen and the plain mode's puzzles
share (nothing here draws): it holds the deck (the bundled set, or the
player's own, :mod:`.deck`), the theme the player filters by, the player's
puzzle rating and the :class:`~.puzzles.Attempt` at the puzzle shown.

**Choosing.**  The next puzzle is one of the :data:`NEAREST` puzzles of the
deck and theme whose ratings are nearest the player's, at random, and not
one of the last :data:`RECENT` shown (unless the deck holds no other).

**Rating.**  Each try is a game of Glicko-2 (:mod:`cescacs_tui.data.ratings`)
against the puzzle, rated as a player of its rating with a deviation of
:data:`PUZZLE_DEVIATION`: won when solved with no wrong move and no hint,
lost at the first wrong move or hint (rated then, once: retrying a lost
puzzle does not rate it again).  Passing to the next puzzle before trying
rates nothing.

**Keeping.**  The rating lives in the player's progress, a
:class:`~cescacs_tui.data.progress.ProgressStore` the caller gives (the
data directory's for the owner, the visitor's own folder's on a server, in
memory, as the visitor policy decides).  Each result is a change the store
applies to the rating as it is kept at that moment, under the file's lock,
so two processes on one data directory both count every result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ..data.progress import MemoryProgress, Progress, ProgressStore, PuzzleStanding
from ..data.ratings import Rating, Score, rate
from ..i18n import N_
from .puzzles import Attempt, Puzzle, with_theme

__all__ = [
    "NEAREST",
    "PUZZLE_DEVIATION",
    "RECENT",
    "THEME_NAMES",
    "Trainer",
    "player_trainer",
]

NEAREST: Final = 12
"""How many of the puzzles nearest the player's rating the next one is drawn from."""
RECENT: Final = 30
"""How many of the last puzzles shown are not shown again soon."""
PUZZLE_DEVIATION: Final = 80.0
"""A puzzle's rating deviation: its rating is a guess (themes.py), but a fair one."""

THEME_NAMES: Final = {
    "mate-in-1": N_("mate in 1"),
    "mate-in-2": N_("mate in 2"),
    "mate-in-3": N_("mate in 3"),
    "material": N_("winning material"),
    "promotion": N_("promotion"),
    "en-passant": N_("en passant"),
    "scornful-pawn": N_("scornful pawn"),
    "castling": N_("castling"),
    "kings-leap": N_("King's leap"),
    "double-check": N_("double check"),
    "fork": N_("fork"),
    "sacrifice": N_("sacrifice"),
}
"""Each theme of :data:`~.themes.THEMES` as a player reads it (message ids)."""


class Trainer:
    """Puzzles one after another (see the module's docstring).

    ``decks`` are the decks by name (``"bundled"``, ``"mine"``...), the first
    one used at first; ``store`` where the rating is kept (by default nowhere:
    it lasts as long as the trainer); ``chooser`` makes the choice repeatable.
    """

    def __init__(
        self,
        decks: dict[str, Sequence[Puzzle]],
        *,
        store: ProgressStore | None = None,
        chooser: random.Random | None = None,
    ) -> None:
        if not decks:
            raise ValueError("a trainer needs a deck")
        self.decks = decks
        self.deck = next(iter(decks))
        self.theme: str | None = None
        self.store: ProgressStore = MemoryProgress() if store is None else store
        self.problems: list[str] = list(self.store.notices)
        """What could not be read at start (a damaged progress file, a deck's entry), for the front end to say."""
        self._chooser = chooser or random.Random()
        self._recent: list[str] = []
        self.attempt: Attempt | None = None
        self._rated = False

    @property
    def progress(self) -> PuzzleStanding:
        """The player's rating and counts, as last kept."""
        return self.store.progress.puzzles

    @property
    def problem(self) -> str | None:
        """Why the last result could not be kept (the file could not be written), until one is."""
        return self.store.problem

    # --- which puzzles ---------------------------------------------------------------------

    def choices(self) -> list[Puzzle]:
        """The puzzles of the deck with the theme chosen."""
        return with_theme(self.decks[self.deck], self.theme)

    def choose_deck(self, deck: str) -> None:
        if deck not in self.decks:
            raise KeyError(deck)
        self.deck = deck

    def next_puzzle(self) -> Attempt | None:
        """A new attempt at a puzzle near the player's rating (``None``: the deck has none with that theme)."""
        puzzles = self.choices()
        if not puzzles:
            self.attempt = None
            return None
        fresh = [p for p in puzzles if p.id not in self._recent] or puzzles
        rating = self.progress.rating.rating
        chooser = self._chooser
        nearest = sorted(fresh, key=lambda p: (abs(p.rating - rating), chooser.random()))[:NEAREST]  # ties: any
        puzzle = self._chooser.choice(nearest)
        self._recent = [*self._recent, puzzle.id][-RECENT:]
        self.attempt = Attempt(puzzle)
        self._rated = False
        return self.attempt

    # --- results ---------------------------------------------------------------------------

    def settle(self) -> Rating | None:
        """Rate the attempt if it has just been decided (solved, or spoilt by a wrong move or a hint) and not rated
        yet; the new rating, or ``None`` when nothing was rated."""
        attempt = self.attempt
        if attempt is None or self._rated or not (attempt.failed or attempt.solved):
            return None
        self._rated = True
        won = attempt.solved and not attempt.failed
        score = Score(Rating(float(attempt.puzzle.rating), PUZZLE_DEVIATION), 1.0 if won else 0.0)

        def result(progress: Progress) -> Progress:  # applied to the rating as kept now: another process's counts
            standing = progress.puzzles
            rated = PuzzleStanding(rate(standing.rating, [score]), standing.tried + 1, standing.solved + won)
            return replace(progress, puzzles=rated)

        self.store.update(result)
        return self.progress.rating


def player_trainer(store: ProgressStore | None, *, chooser: random.Random | None = None) -> Trainer:
    """The trainer of the player whose rating and own deck are kept in ``store`` (``None``: nowhere, only the
    bundled deck, the rating lasting as long as the trainer): the bundled deck first, then theirs."""
    from .deck import deck_puzzles
    from .puzzles import bundled_puzzles

    decks: dict[str, Sequence[Puzzle]] = {"bundled": bundled_puzzles()}
    problems: list[str] = []
    if store is not None:
        decks["mine"] = deck_puzzles(store.progress, problems)
    trainer = Trainer(decks, store=store, chooser=chooser)
    trainer.problems += problems
    return trainer

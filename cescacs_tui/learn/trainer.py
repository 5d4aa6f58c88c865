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

**Keeping.**  The rating lives in ``puzzles.json`` in a folder the caller
gives (:class:`ProgressFile`; the data directory for the owner, the
visitor's own folder on a server, as the visitor policy decides); without
one it lives as long as the trainer.  Each rating is read again just before
it is updated and written at once (atomically), so two processes on one
data directory never lose a whole file, only, at worst, one of two
simultaneous results.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ..core.safe_text import printable
from ..data.ratings import MAX_DEVIATION, Rating, Score, rate
from ..data.storage import read_limited, write_atomic
from ..i18n import N_
from .puzzles import Attempt, Puzzle, with_theme

__all__ = [
    "NEAREST",
    "PUZZLE_DEVIATION",
    "RECENT",
    "THEME_NAMES",
    "Progress",
    "ProgressFile",
    "Trainer",
    "player_trainer",
]

NEAREST: Final = 12
"""How many of the puzzles nearest the player's rating the next one is drawn from."""
RECENT: Final = 30
"""How many of the last puzzles shown are not shown again soon."""
PUZZLE_DEVIATION: Final = 80.0
"""A puzzle's rating deviation: its rating is a guess (themes.py), but a fair one."""
PROGRESS_NAME: Final = "puzzles.json"
MAX_PROGRESS_BYTES: Final = 64 * 1024

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


@dataclass
class Progress:
    """A player's puzzle rating and counts."""

    rating: Rating = field(default_factory=Rating)
    tried: int = 0
    solved: int = 0

    def to_json(self) -> str:
        rating = self.rating
        fields = {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility}
        return json.dumps({**fields, "tried": self.tried, "solved": self.solved})

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """A progress from its file's text; ``ValueError`` saying what is wrong."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        numbers = [data.get(k) for k in ("rating", "deviation", "volatility")]
        counts = [data.get(k) for k in ("tried", "solved")]
        if not all(isinstance(n, int | float) and not isinstance(n, bool) for n in numbers):
            raise ValueError("rating, deviation and volatility are numbers")
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 10**9 for n in counts):
            raise ValueError("tried and solved are counts")
        value, deviation, volatility = (float(n) for n in numbers)  # type: ignore[arg-type]
        if not (0 <= value <= 5000 and 0 < deviation <= MAX_DEVIATION and 0 < volatility <= 1):
            raise ValueError("the rating is out of range")  # a hand-edited file cannot make the next result overflow
        return cls(Rating(value, deviation, volatility), *counts)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ProgressFile:
    """Where a player's progress is kept: ``puzzles.json`` in ``folder``."""

    folder: Path

    @property
    def path(self) -> Path:
        return self.folder / PROGRESS_NAME

    def load(self, problems: list[str] | None = None) -> Progress:
        """The progress kept (a new player's if there is none, or if the file cannot be read: said in
        ``problems``, and replaced at the next result)."""
        try:
            return Progress.from_json(read_limited(self.path, MAX_PROGRESS_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return Progress()
        except (OSError, ValueError) as error:
            if problems is not None:
                problems.append(f"{self.path.name}: {printable(str(error), 120)}")
            return Progress()

    def save(self, progress: Progress) -> None:
        write_atomic(self.path, progress.to_json() + "\n")


class Trainer:
    """Puzzles one after another (see the module's docstring).

    ``decks`` are the decks by name (``"bundled"``, ``"mine"``...), the first
    one used at first; ``keep`` where the progress is kept (``None``: nowhere,
    it lasts as long as the trainer); ``chooser`` makes the choice repeatable.
    """

    def __init__(
        self,
        decks: dict[str, Sequence[Puzzle]],
        *,
        keep: ProgressFile | None = None,
        chooser: random.Random | None = None,
    ) -> None:
        if not decks:
            raise ValueError("a trainer needs a deck")
        self.decks = decks
        self.deck = next(iter(decks))
        self.theme: str | None = None
        self.keep = keep
        self.problems: list[str] = []
        """What could not be read at start (a damaged progress file), for the front end to say."""
        self.progress = keep.load(self.problems) if keep is not None else Progress()
        self.problem: str | None = None
        """Why the last result could not be kept (the file could not be written), until one is."""
        self._chooser = chooser or random.Random()
        self._recent: list[str] = []
        self.attempt: Attempt | None = None
        self._rated = False

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
        opponent = Rating(float(attempt.puzzle.rating), PUZZLE_DEVIATION)
        if self.keep is not None:  # another process may have rated meanwhile: its result counts too
            self.progress = self.keep.load()
        progress = self.progress
        progress.rating = rate(progress.rating, [Score(opponent, 1.0 if won else 0.0)])
        progress.tried += 1
        progress.solved += 1 if won else 0
        if self.keep is not None:
            try:
                self.keep.save(progress)
                self.problem = None
            except OSError as error:
                self.problem = error.strerror or str(error)
        return progress.rating


def player_trainer(folder: Path | None, *, chooser: random.Random | None = None) -> Trainer:
    """The trainer of the player whose progress and own deck are kept in ``folder`` (``None``: nowhere, only the
    bundled deck, the rating lasting as long as the trainer): the bundled deck first, then theirs."""
    from .deck import DeckFile
    from .puzzles import bundled_puzzles

    decks: dict[str, Sequence[Puzzle]] = {"bundled": bundled_puzzles()}
    problems: list[str] = []
    if folder is not None:
        decks["mine"] = DeckFile(folder).load(problems)
    trainer = Trainer(decks, keep=None if folder is None else ProgressFile(folder), chooser=chooser)
    trainer.problems += problems
    return trainer

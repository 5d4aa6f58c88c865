"""Your mistakes as puzzles: the positions where a player blundered in their reviewed games, kept as a deck.

When a review is done (in the app, of the game on the table or an archived
one), each **blunder** of a side a person played (the record's
``WhiteType``/``BlackType`` say ``program`` for the computer's sides) becomes
a puzzle: the position before the blunder, the engine's better move as its
solution (one move; a mating one is a ``mate-in-1`` and any mate is accepted,
as in the bundled set), its themes read from that move and its starting
rating from themes.py.  The deck is ``my-puzzles.jsonl`` beside the puzzle
rating (the same JSON lines as the bundled set), at most :data:`MAX_DECK`
puzzles, the oldest dropped first; a position already in it is not added
twice.  Its puzzles come from the engine, not a proof: their solution is the
move the engine found best, which is what the review said was better.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.game import Game
from ..core.pieces import WHITE, Colour
from ..core.safe_text import printable
from ..data.storage import write_atomic
from .puzzles import Puzzle, read_puzzle_file
from .review import Review
from .scoring import Class
from .themes import solution_themes, starting_rating

__all__ = ["DECK_NAME", "MAX_DECK", "DeckFile", "blunder_puzzles", "people_sides"]

DECK_NAME: Final = "my-puzzles.jsonl"
MAX_DECK: Final = 1000


def people_sides(game: Game) -> list[Colour]:
    """The sides a person played, as the record's ``WhiteType`` and ``BlackType`` say (both when it does not)."""
    tags = game.tags
    return [c for c in (WHITE, WHITE.opponent) if tags.get(f"{'White' if c == WHITE else 'Black'}Type") != "program"]


def blunder_puzzles(game: Game, review: Review, sides: Iterable[Colour]) -> list[Puzzle]:
    """A puzzle of each blunder the ``sides`` made in ``game`` (reviewed by ``review``), with a better move."""
    wanted = set(sides)
    found = []
    names = printable(f"{game.tags.get('White', '?')} – {game.tags.get('Black', '?')}", 80)
    for ply in review.plies:
        if ply.kind is not Class.BLUNDER or ply.colour not in wanted or not ply.best_line or ply.best is None:
            continue
        start = game.position_at(ply.ply - 1)
        line = ply.best_line[:1]
        themes = solution_themes(start, line)
        pdtl = start.to_pdtl()
        ident = "M" + hashlib.sha256(f"{pdtl} {ply.best}".encode()).hexdigest()[:12]
        source = f"{names}, {game.tags.get('Date', '?')}, ply {ply.ply} {ply.move}"
        found.append(Puzzle(ident, pdtl, (ply.best,), themes, starting_rating(start, line, themes), source[:200]))
    return found


@dataclass(frozen=True)
class DeckFile:
    """The personal deck: ``my-puzzles.jsonl`` in ``folder``."""

    folder: Path

    @property
    def path(self) -> Path:
        return self.folder / DECK_NAME

    def load(self, problems: list[str] | None = None) -> list[Puzzle]:
        """The deck's puzzles, oldest first (none if there is no deck yet; a line that is not a puzzle is skipped
        and said in ``problems``)."""
        try:
            return read_puzzle_file(self.path, problems=problems)
        except FileNotFoundError:
            return []
        except OSError as error:
            if problems is not None:
                problems.append(f"{self.path.name}: {error.strerror or error}")
            return []

    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Add the puzzles not in the deck yet; how many were added.  ``OSError`` if the deck cannot be written."""
        deck = self.load()
        known = {p.id for p in deck}
        new = []
        for puzzle in puzzles:
            if puzzle.id not in known:
                known.add(puzzle.id)
                new.append(puzzle)
        if new:
            kept = [*deck, *new][-MAX_DECK:]
            write_atomic(self.path, "".join(p.to_json() + "\n" for p in kept))
        return len(new)

"""Your mistakes as puzzles: the positions where a player blundered in their reviewed games, kept as a deck.

When a review is done (in the app, of the game on the table or an archived
one), each **blunder** of a side a person played (the record's
``WhiteType``/``BlackType`` say ``program`` for the computer's sides) becomes
a puzzle: the position before the blunder, the engine's better move as its
solution (one move; a mating one is a ``mate-in-1`` and any mate is accepted,
as in the bundled set), its themes read from that move and its starting
rating from themes.py.  The deck is kept in the player's progress
(:mod:`cescacs_tui.data.progress`, beside the puzzle rating; the same JSON
objects as the bundled set's lines), at most :data:`MAX_DECK` puzzles, the
oldest dropped first; a position already in it is not added twice.  Its
puzzles come from the engine, not a proof: their solution is the move the
engine found best, which is what the review said was better.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Final

from ..core.game import Game
from ..core.pieces import WHITE, Colour
from ..core.safe_text import printable
from ..data.progress import Progress, ProgressStore
from ..i18n import _
from .puzzles import Puzzle
from .review import Review
from .scoring import Class
from .themes import solution_themes, starting_rating

__all__ = ["MAX_DECK", "add_to_deck", "blunder_puzzles", "deck_puzzles", "people_sides"]

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


def deck_puzzles(progress: Progress, problems: list[str] | None = None) -> list[Puzzle]:
    """The puzzles of the player's deck, oldest first (an entry that is not a puzzle is skipped and said in
    ``problems``)."""
    found = []
    for number, entry in enumerate(progress.deck, 1):
        try:
            found.append(Puzzle.from_json(dict(entry)))
        except ValueError as error:  # PuzzleError
            if problems is not None:
                said = _("puzzle {number} of your deck: {reason}")
                problems.append(said.format(number=number, reason=printable(str(error), 200)))
    return found


def add_to_deck(store: ProgressStore, puzzles: Iterable[Puzzle]) -> int:
    """Add the puzzles not in the deck yet (as it is kept now, whoever added to it); how many were added.  If the
    deck cannot be written, :attr:`~cescacs_tui.data.progress.ProgressStore.problem` says why."""
    wanted = list({puzzle.id: puzzle for puzzle in puzzles}.values())

    def add(progress: Progress) -> Progress:
        known = {entry.get("id") for entry in progress.deck}
        new = [json.loads(p.to_json()) for p in wanted if p.id not in known]
        return replace(progress, deck=(*progress.deck, *new)[-MAX_DECK:]) if new else progress

    before = store.update(add)
    known = {entry.get("id") for entry in before.deck}
    return sum(1 for puzzle in wanted if puzzle.id not in known)

"""The personal deck (learn/deck.py) and the trainer (learn/trainer.py): a reviewed blunder becomes a puzzle whose
solution is the better move, kept once, the deck capped; the choice near the rating; the rating read back, a damaged
progress said and replaced, and two trainers on one data directory both counted, with a deck grown meanwhile."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.data.progress import ProgressFile, progress_path
from cescacs_tui.learn import deck as deck_module
from cescacs_tui.learn.deck import add_to_deck, blunder_puzzles, deck_puzzles, people_sides
from cescacs_tui.learn.puzzles import Attempt, Puzzle, Verdict, bundled_puzzles, verify
from cescacs_tui.learn.review import Review
from cescacs_tui.learn.trainer import NEAREST, Trainer, player_trainer
from tests.helpers.review import BLUNDER_PLY, planted, planted_plies


def test_a_blunder_becomes_a_puzzle_of_the_deck_once(tmp_path: Path) -> None:
    game = planted()
    review = Review(tuple(planted_plies(game)), 0.5)
    [made] = blunder_puzzles(game, review, [WHITE, BLACK])
    assert made.pdtl == game.position_at(BLUNDER_PLY - 1).to_pdtl() and made.moves == ("H6-H10",)
    assert "ply 5 DE1-I13" in made.source
    assert blunder_puzzles(game, review, [BLACK]) == []  # only the sides a person played
    deck = ProgressFile(progress_path(tmp_path))
    assert add_to_deck(deck, [made, made]) == 1 and add_to_deck(deck, [made]) == 0
    [kept] = deck_puzzles(ProgressFile(progress_path(tmp_path)).progress)
    assert kept == made
    attempt = Attempt(kept)
    assert attempt.play("H6-H10").verdict is Verdict.SOLVED


def test_the_computers_side_is_not_the_players() -> None:
    game = planted()
    game.tags["BlackType"] = "program"
    assert people_sides(game) == [WHITE]


def test_the_deck_keeps_the_newest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deck_module, "MAX_DECK", 3)
    deck = ProgressFile(progress_path(tmp_path))
    puzzles = list(bundled_puzzles()[:5])
    add_to_deck(deck, puzzles[:2])
    add_to_deck(deck, puzzles[2:])
    assert [p.id for p in deck_puzzles(deck.progress)] == [p.id for p in puzzles[2:]]


def test_an_entry_of_the_deck_that_is_not_a_puzzle_is_said_and_skipped(tmp_path: Path) -> None:
    deck = ProgressFile(progress_path(tmp_path))
    good = bundled_puzzles()[0]
    add_to_deck(deck, [good])
    deck.update(lambda p: type(p)(p.lessons, p.best, p.puzzles, ({"id": "Mx", "pdtl": "nonsense"}, *p.deck)))
    trainer = player_trainer(ProgressFile(progress_path(tmp_path)))
    assert [p.id for p in trainer.decks["mine"]] == [good.id]
    assert len(trainer.problems) == 1 and trainer.problems[0].startswith("puzzle 1 of your deck: ")


CASTLING = Puzzle("Pcastle", "/27:1k/25:r3/3:R2R/1:1K/ w RKRk - 0 1", ("KRK-HG+∞",), ("castling",), 1000)
"""The King leaps to H6 and the king's Rook checks from G5 beside it: a castling puzzle (the bundled set may have
none: cescacs_tui/assets/README.md says why)."""


def test_the_next_puzzle_is_near_the_rating_and_not_a_recent_one() -> None:
    assert verify(CASTLING) == []
    deck = (*bundled_puzzles(), CASTLING)
    assert not any("kings-leap" in p.themes for p in deck)
    trainer = Trainer({"bundled": deck}, chooser=random.Random(3))
    distances = sorted(abs(p.rating - 1500) for p in deck)
    farthest = distances[NEAREST + 10]  # the nearest, once the 10 shown before are left out
    seen = set()
    for _ in range(10):
        attempt = trainer.next_puzzle()
        assert attempt is not None and attempt.puzzle.id not in seen
        assert abs(attempt.puzzle.rating - 1500) <= farthest
        seen.add(attempt.puzzle.id)
    trainer.theme = "promotion"
    attempt = trainer.next_puzzle()
    assert attempt is not None and "promotion" in attempt.puzzle.themes
    trainer.theme = "castling"
    attempt = trainer.next_puzzle()
    assert attempt is not None and "castling" in attempt.puzzle.themes and attempt.puzzle.line()[0].is_castling
    trainer.theme = "kings-leap"  # a theme no puzzle of the deck has
    assert trainer.next_puzzle() is None and trainer.attempt is None


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"rating": 1e308, "deviation": 50, "volatility": 0.06, "tried": 1, "solved": 1}',
        '{"rating": 1500, "deviation": 0, "volatility": 0.06, "tried": 1, "solved": 1}',
        '{"rating": 1500, "deviation": 50, "volatility": 0.06, "tried": -1, "solved": 1}',
        '{"rating": true, "deviation": 50, "volatility": 0.06, "tried": 1, "solved": 1}',
    ],
)
def test_the_rating_file_damaged_is_said_and_replaced(tmp_path: Path, text: str) -> None:
    (tmp_path / "puzzles.json").write_text(text, encoding="utf-8")  # an earlier version's rating
    trainer = player_trainer(ProgressFile(progress_path(tmp_path)))
    assert trainer.problems and trainer.progress.tried == 0
    trainer.next_puzzle()
    assert trainer.attempt is not None
    trainer.attempt.hint()
    assert trainer.settle() is not None and ProgressFile(progress_path(tmp_path)).progress.puzzles.tried == 1


def test_two_trainers_on_one_data_directory_both_count(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    first, second = player_trainer(ProgressFile(path)), player_trainer(ProgressFile(path))
    added = add_to_deck(ProgressFile(path), bundled_puzzles()[:1])  # a review, meanwhile, in a third process
    for trainer in (first, second):
        trainer.next_puzzle()
        assert trainer.attempt is not None
        trainer.attempt.hint()
        trainer.settle()
    kept = ProgressFile(path).progress
    assert kept.puzzles.tried == 2 and added == 1 and len(kept.deck) == 1
    assert first.settle() is None  # rated once per try

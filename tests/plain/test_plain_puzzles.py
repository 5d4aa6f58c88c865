"""Puzzles in plain mode (plain/puzzles.py): a puzzle played in words (a wrong move, a retry, both hints, the
forced reply said), the rating kept and read again, the theme and deck words, the Catalan words, and the real
``cescacs puzzles --plain`` in a pipe."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui import i18n
from cescacs_tui.data.progress import ProgressFile, progress_path
from cescacs_tui.learn.puzzles import Attempt, Puzzle, Verdict, bundled_puzzles
from cescacs_tui.learn.trainer import Trainer, player_trainer
from cescacs_tui.plain.output import LineWriter
from cescacs_tui.plain.puzzles import PlainPuzzles
from tests.helpers.waiting import PATIENCE
from tests.learn.test_learn_bundled import SPECIAL_THEMES

MATE_IN_2 = "P12376af6d"


def puzzle(ident: str) -> Puzzle:
    return next(p for p in bundled_puzzles() if p.id == ident)


def wrong_move(p: Puzzle) -> str:
    position = p.start()
    return next(
        position.ctl_an(m)
        for m in position.legal_moves()
        if Attempt(p).play(position.ctl_an(m)).verdict is Verdict.WRONG
    )


class Solver:
    def __init__(self, trainer: Trainer) -> None:
        self.screen = io.StringIO()
        self.plain = PlainPuzzles(trainer, LineWriter(self.screen))
        self.plain.start()

    def type(self, line: str) -> str:
        start = len(self.screen.getvalue())
        self.plain.handle(line)
        return self.screen.getvalue()[start:]


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


def test_a_puzzle_in_words_wrong_then_retried_with_hints_and_the_rating_kept(tmp_path: Path) -> None:
    the_puzzle = puzzle(MATE_IN_2)
    solver = Solver(Trainer({"bundled": [the_puzzle]}, store=ProgressFile(progress_path(tmp_path))))
    opening = solver.screen.getvalue()
    assert "White to move: mate in 2." in opening and "White, " in opening and "Black, " in opening
    said = solver.type(wrong_move(the_puzzle))
    assert "is not the solution" in said and "Your rating: 1" in said  # lost, and rated at once
    lost = ProgressFile(progress_path(tmp_path)).progress.puzzles
    assert lost.tried == 1 and lost.rating.rating < 1500
    assert "White to move: mate in 2." in solver.type("retry")
    assert "hint: move the Queen on P15." in solver.type("hint")
    assert "hint: DP15×EE21+^." in solver.type("hint")
    assert "DP15×EE21+^: right; the reply is KE23-D26. Your move." in solver.type("P15-E21")
    said = solver.type("gi21-g25")
    assert "GI21-G25#: solved!" in said and "Themes: mate in 2, fork." in said
    assert "Solved already" in solver.type("G1-G2")
    assert "Goodbye" in solver.type("quit") and not solver.plain.running
    again = player_trainer(ProgressFile(progress_path(tmp_path)))  # a restart
    assert again.progress.tried == 1 and again.progress.rating == lost.rating


def test_solved_at_once_the_rating_rises_and_the_theme_and_deck_words_work(tmp_path: Path) -> None:
    trainer = Trainer({"bundled": bundled_puzzles(), "mine": []}, store=ProgressFile(progress_path(tmp_path)))
    solver = Solver(trainer)
    assert "promotion" in solver.type("theme")
    assert "to move" in solver.type("theme promotion") and trainer.attempt is not None
    assert "promotion" in trainer.attempt.puzzle.themes
    attempt = trainer.attempt
    for move in attempt.puzzle.moves[::2]:
        solver.type(move)
    assert attempt.solved and trainer.progress.rating.rating > 1500 and trainer.progress.solved == 1
    assert "No theme is called" in solver.type("theme nothing")
    assert "no puzzle here" in solver.type("deck mine")
    assert "The decks: bundled, mine." in solver.type("deck")


@pytest.mark.parametrize("theme", SPECIAL_THEMES)
def test_a_special_hunt_puzzle_is_chosen_by_its_theme_and_solved_in_words(theme: str, tmp_path: Path) -> None:
    trainer = Trainer({"bundled": bundled_puzzles()}, store=ProgressFile(progress_path(tmp_path)))
    solver = Solver(trainer)
    assert "to move" in solver.type(f"theme {theme}")
    attempt = trainer.attempt
    assert attempt is not None and theme in attempt.puzzle.themes
    said = [solver.type(move) for move in attempt.puzzle.moves[::2]]
    assert attempt.solved and "solved!" in said[-1] and all("not the solution" not in s for s in said)
    assert trainer.progress.solved == 1


def test_the_words_are_catalan_in_catalan(speak: object, tmp_path: Path) -> None:
    i18n.set_language("ca")
    solver = Solver(Trainer({"bundled": [puzzle(MATE_IN_2)]}, store=ProgressFile(progress_path(tmp_path))))
    assert "mat en 2" in solver.screen.getvalue()
    assert "pista" in solver.type("pista")
    assert "pista" in solver.type("hint")  # the English words work in every language


def test_cescacs_puzzles_plain_in_a_pipe(environment: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "puzzles", "--plain", "--theme", "mate-in-1"],
        input=b"rating\nhint\nquit\n",
        capture_output=True,
        env=environment,
        timeout=PATIENCE,
    )
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert "to move: mate in 1." in out and "Your rating: 1500" in out and "hint: move" in out and "Goodbye" in out
    assert (Path(environment["CESCACS_DATA_DIR"]) / "progress.json").is_file()  # the hint lost the try: rated, kept
    refused = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "puzzles", "--theme", "nothing"],
        capture_output=True, env=environment, timeout=PATIENCE,
    )  # fmt: skip
    assert refused.returncode == 2 and b"no theme is called nothing" in refused.stderr
    refused = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "puzzles", "--file", "x.jsonl"],
        capture_output=True, env=environment, timeout=PATIENCE,
    )  # fmt: skip
    assert refused.returncode == 2 and b"--file goes with --check or --export" in refused.stderr

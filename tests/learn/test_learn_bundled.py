"""The puzzles shipped with cescacs-tui: a clean file, and (slow) every one of them verified as
``cescacs puzzles --check`` verifies them; ``--export`` prints exactly the set, and its theme filter finds the
puzzles of the special hunt (their first move an en passant or scornful capture, a promotion or a castling)."""

from __future__ import annotations

import json

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core.move import CASTLING, EN_PASSANT, SCORNFUL_CAPTURE, Move
from cescacs_tui.learn.puzzles import BUNDLED, bundled_puzzles, iter_checked, read_puzzle_file, with_theme
from cescacs_tui.learn.themes import MAX_RATING, MIN_RATING

OPENS_WITH = {
    "en-passant": lambda move: move.kind == EN_PASSANT,
    "scornful-pawn": lambda move: move.kind == SCORNFUL_CAPTURE,
    "promotion": lambda move: move.promotion != 0,
    "castling": lambda move: move.kind == CASTLING,
}
"""The special hunt's themes (scripts/make_puzzles.py --special), each with what its first move is."""
SPECIAL_THEMES = tuple(OPENS_WITH)
"""The shipped set has puzzles of each that open with the move (the castlings from composed positions:
cescacs_tui/assets/README.md says why)."""


def test_the_bundled_file_reads_without_a_problem() -> None:
    problems: list[str] = []
    puzzles = read_puzzle_file(BUNDLED, problems=problems)
    assert problems == []
    assert puzzles
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({p.pdtl for p in puzzles}) == len(puzzles)
    assert all(p.themes and MIN_RATING <= p.rating <= MAX_RATING and p.source for p in puzzles)
    assert [p.rating for p in bundled_puzzles()] == sorted(p.rating for p in puzzles)


SHARDS = 16
"""The check of the whole set is minutes of CPU: in slices, pytest-xdist's workers share it."""


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_bundled_puzzle_is_sound(shard: int) -> None:
    puzzles = bundled_puzzles()[shard::SHARDS]
    assert puzzles
    wrong = {puzzle.id: found for puzzle, found in iter_checked(puzzles, budget=5_000_000) if found}
    assert wrong == {}


def test_export_prints_the_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--export"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [p.export() for p in read_puzzle_file(BUNDLED)]
    assert all(set(row) == {"id", "pdtl", "moves", "themes", "rating"} for row in rows)


@pytest.mark.parametrize("theme", SPECIAL_THEMES)
def test_the_theme_filter_finds_the_special_hunts_puzzles(theme: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--export", "--theme", theme]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows and all(theme in row["themes"] for row in rows)
    firsts: list[Move] = [p.line()[0] for p in bundled_puzzles() if p.id in {row["id"] for row in rows}]
    assert any(OPENS_WITH[theme](move) for move in firsts)


def test_the_check_of_one_theme_counts_that_themes_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--check", "--theme", "scornful-pawn"]) == 0
    count = len(with_theme(bundled_puzzles(), "scornful-pawn"))
    assert capsys.readouterr().out == f"{count} puzzles checked: every one is sound\n"


def test_the_set_has_promotions_that_win_material() -> None:
    """Not only mates: a promotion that regains a piece and wins material by the engine margin, its first move."""
    won = [p for p in with_theme(bundled_puzzles(), "promotion") if "material" in p.themes]
    assert won and all(p.line()[0].promotion for p in won)


def test_the_set_has_composed_castling_puzzles_that_pass_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: castling tactics, from composed positions (no game gave one), each opening with a castling, said
    to be composed, and sound as ``cescacs puzzles --check --theme castling`` says."""
    castlings = with_theme(bundled_puzzles(), "castling")
    assert len(castlings) >= 6
    assert all(p.line()[0].kind == CASTLING and p.source.startswith("composed: ") for p in castlings)
    assert len({p.source for p in castlings}) == len(castlings)  # each a different idea
    assert main(["puzzles", "--check", "--theme", "castling"]) == 0
    assert capsys.readouterr().out == f"{len(castlings)} puzzles checked: every one is sound\n"

"""The puzzles shipped with cescacs-tui: a clean file, and (slow) every one of them verified as
``cescacs puzzles --check`` verifies them; ``--export`` prints exactly the set."""

from __future__ import annotations

import json

import pytest

from cescacs_tui.cli import main
from cescacs_tui.learn.puzzles import BUNDLED, bundled_puzzles, iter_checked, read_puzzle_file
from cescacs_tui.learn.themes import MAX_RATING, MIN_RATING


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

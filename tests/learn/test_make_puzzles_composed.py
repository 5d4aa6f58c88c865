"""Composed positions for ``scripts/make_puzzles.py --composed``: the file's reader (a line that is not a composed
position is named by its line number and says why), and a composed castling judged like any game position."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.move import CASTLING
from cescacs_tui.engine import SearchBoard
from cescacs_tui.learn.puzzles import verify
from scripts.make_puzzles import ROOT, Builder, ComposedError, Engine, read_composed

COMPOSED = ROOT / "scripts" / "data" / "composed-castlings.txt"
KNIGHT_FORK = "/27:1k/26:1jg/23:3e2/18:2j4/13:2j5/10:5P1/4:2n2/3:R2R/1:1K/ w RKR- - 0 30"
"""A protected Knight on F4 forks both unmoved Rooks; only the double castling KRR-FGG saves both."""
CONTACT_MATE = "/9:2pp4/7:2rr4/6:2k4/3:R3/1:1K/ w RK- - 0 30"
"""KRD-DD mates: the Rook on D4 beside the black King, guarded by the castled King on D2."""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "composed.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_composed_file_gives_each_position_with_its_idea_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"# a comment\n\n{KNIGHT_FORK} # the fork\n  {CONTACT_MATE}   #   the mate  \n")
    entries = read_composed(path)
    assert [(e.line, e.idea) for e in entries] == [(3, "the fork"), (4, "the mate")]
    assert entries[0].pdtl == Position.from_pdtl(KNIGHT_FORK).to_pdtl()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (KNIGHT_FORK, "the idea is missing"),
        (f"{KNIGHT_FORK} #   ", "the idea is missing"),
        (f"{KNIGHT_FORK} # {'x' * 191}", "the idea is longer than 190 characters"),
        ("/27:1k/3:R2R/1:1K/ w RKR- # no move counters", "not a legal position"),
        ("/27:1k/3:R2R/1:K1/ w RKR- - 0 30 # the King off G1", "rights but its King is not on G1"),
        ("/27:1k/3:R3/1:1K/ w RKR- - 0 30 # no king's Rook", "a castling right for a Rook that is not on I3"),
        ("/27:1k/25:2D1/3:R2R/1:1K/ w RKR- - 0 30 # Black in check", "Black, who is not to move, is in check"),
        ("/27:1k/3:R2R/2:1P1/1:1K/ w RKR- - 0 30 # a white pawn on F2", "a white pawn on F2, where no white pawn"),
        ("/27:1k/26:1p1/3:R2R/1:1K/ w RKR- - 0 30 # a black pawn on F26", "a black pawn on F26, where no black"),
    ],
)
def test_a_bad_line_is_named_by_its_number_with_the_reason(tmp_path: Path, line: str, said: str) -> None:
    path = write(tmp_path, f"# composed\n{CONTACT_MATE} # fine\n{line}\n")
    with pytest.raises(ComposedError) as caught:
        read_composed(path)
    assert str(caught.value).startswith(f"{path}:3: ") and said in str(caught.value)


def test_a_position_given_twice_is_named_with_its_first_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"{CONTACT_MATE} # once\n{CONTACT_MATE.replace(' 30', ' 41')} # twice\n")
    with pytest.raises(ComposedError, match=r":2: the same position as line 1$"):
        read_composed(path)


def test_the_shipped_composed_file_reads_and_each_position_has_a_castling_at_hand() -> None:
    entries = read_composed(COMPOSED)
    assert len(entries) >= 6 and len({e.idea for e in entries}) == len(entries)
    for entry in entries:
        assert any(m.kind == CASTLING for m in Position.from_pdtl(entry.pdtl).legal_moves()), entry.idea


def builder() -> Builder:
    args = argparse.Namespace(nodes=2_000, deep_nodes=4_000, kinds=("castling",))
    return Builder(args, Engine(200_000))


def test_a_composed_double_castling_that_saves_both_rooks_is_a_puzzle_by_the_margin() -> None:
    judge = builder()
    judge.composed(SearchBoard(Position.from_pdtl(KNIGHT_FORK)), "composed: a test")
    [puzzle] = judge.harvest.puzzles
    assert puzzle.moves == ("KRR-FGG",) and puzzle.themes == ("castling",) and puzzle.source == "composed: a test"
    assert verify(puzzle) == []


def test_a_composed_castling_mate_goes_to_the_proof() -> None:
    judge = builder()
    judge.composed(SearchBoard(Position.from_pdtl(CONTACT_MATE)), "composed: a test")
    [puzzle] = judge.harvest.puzzles
    assert puzzle.moves == ("KRD-DD#",) and puzzle.themes == ("mate-in-1", "castling") and puzzle.rating == 800


def test_a_composed_position_whose_best_move_is_no_castling_gives_no_puzzle() -> None:
    start = "/27:1k/26:1jg/23:3e2/13:2j5/4:2n2/3:R2R/1:1K/ w RKR- - 0 30"  # the fork without the Bishop on D18
    judge = builder()
    judge.composed(SearchBoard(Position.from_pdtl(start)), "composed: a test")
    assert judge.harvest.puzzles == [] and judge.harvest.rejected


def test_a_composed_position_with_no_castling_at_hand_says_so() -> None:
    judge = builder()
    judge.composed(SearchBoard(Position.from_pdtl(KNIGHT_FORK.replace("RKR-", "--"))), "composed: a test")
    assert judge.harvest.puzzles == []
    assert list(judge.harvest.rejected) == ["no move of --kinds tried: none at hand, or a side leads by 6 points"]

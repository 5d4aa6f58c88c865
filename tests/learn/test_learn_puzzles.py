"""Puzzles: mates proved by enumeration, themes and ratings read from the solution, the puzzle file's reader and
checker, and a player's attempt (right, wrong, another mate, hints, retry)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.move import Move
from cescacs_tui.learn.proof import Budget, BudgetExceeded, MateProver, forces_mate, mating_first_moves, proves_line
from cescacs_tui.learn.puzzles import (
    Attempt,
    Puzzle,
    PuzzleError,
    Verdict,
    iter_checked,
    parse_puzzles,
    read_puzzle_file,
    verify,
    with_theme,
)
from cescacs_tui.learn.themes import solution_themes, starting_rating

MATE_IN_ONE = (
    "/28:d/26:1jg/25:k3/23:2ee2/22:1p3p1/21:2G5/19:4p3/18:3D3/16:5G1/15:5p2/13:3NP3/11:2P2P2/10:5P1/8:2E4"
    "/5:P2E1P/4:1R1E1/3:3R/2:1J1/1:1K/0:V/ w KR- - 5 37"
)
MATE_IN_TWO = (
    "/26:1e1/23:2k2R/21:3e1G2/19:3ne3/15:D7/14:4p2/13:4R3/12:1e5/11:2g5/8:3E3/5:3E2/4:1E1E1/3:2G1/2:1V1/1:1K/"
    " w K- - 3 63"
)
MATE_IN_TWO_LINE = ("DP15×EE21+^", "KE23-D26", "GI21-G25#")


def mate_in_two() -> Puzzle:
    return Puzzle("Ptwo", MATE_IN_TWO, MATE_IN_TWO_LINE, ("mate-in-2", "fork"), 1200)


def line(pdtl: str, moves: tuple[str, ...]) -> list:
    position = Position.from_pdtl(pdtl)
    found = []
    for text in moves:
        move = position.parse_move(text)
        found.append(move)
        position.push(move)
    return found


# --- the proof ---------------------------------------------------------------------------------------------


def test_a_mate_in_one_is_found_and_is_the_only_first_move() -> None:
    position = Position.from_pdtl(MATE_IN_ONE)
    assert forces_mate(position, 1)
    assert [position.ctl_an(m) for m in mating_first_moves(position, 1)] == ["DF18-D24#"]


def test_a_mate_in_two_is_not_a_mate_in_one_and_has_one_first_move() -> None:
    position = Position.from_pdtl(MATE_IN_TWO)
    assert not forces_mate(position, 1)
    assert forces_mate(position, 2)
    assert [position.ctl_an(m) for m in mating_first_moves(position, 2)] == ["DP15×EE21+^"]
    assert MateProver().distance(position.copy()) == 2


def test_a_line_is_proved_only_when_every_defence_loses() -> None:
    position = Position.from_pdtl(MATE_IN_TWO)
    assert proves_line(position, line(MATE_IN_TWO, MATE_IN_TWO_LINE))
    # A mate after a poor defence is no proof: Black had better replies to VF2-F4.
    assert not proves_line(position, line(MATE_IN_TWO, ("VF2-F4", "KE23-F24", "DP15×EE21#")))


def test_a_proof_over_its_budget_stops() -> None:
    with pytest.raises(BudgetExceeded):
        forces_mate(Position.from_pdtl(MATE_IN_TWO), 2, budget=Budget(50))


def test_the_longest_defence_is_chosen_for_the_solution() -> None:
    position = Position.from_pdtl(MATE_IN_TWO)
    prover = MateProver()
    first = position.parse_move("DP15×EE21+^")
    solution = prover.mating_line(position, first, 2)
    assert len(solution) == 3
    assert proves_line(position, solution)


# --- themes and rating ---------------------------------------------------------------------------------------


def test_the_themes_and_rating_come_from_the_solution() -> None:
    start = Position.from_pdtl(MATE_IN_TWO)
    moves = line(MATE_IN_TWO, MATE_IN_TWO_LINE)
    themes = solution_themes(start, moves)
    assert themes == ("mate-in-2", "fork")
    assert starting_rating(start, moves, themes) == 800 + 350 + 50
    assert solution_themes(Position.from_pdtl(MATE_IN_ONE), line(MATE_IN_ONE, ("DF18-D24#",))) == ("mate-in-1",)


# --- the file -------------------------------------------------------------------------------------------------


def test_a_puzzle_goes_to_json_and_back() -> None:
    puzzle = mate_in_two()
    assert Puzzle.from_json(json.loads(puzzle.to_json())) == puzzle
    assert puzzle.export() == {
        "id": "Ptwo",
        "pdtl": MATE_IN_TWO,
        "moves": list(MATE_IN_TWO_LINE),
        "themes": ["mate-in-2", "fork"],
        "rating": 1200,
    }
    assert puzzle.mate_in == 2


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"id": "no spaces"}, "id:"),
        ({"moves": ["DP15×EE21+^", "KE23-D26"]}, "moves:"),
        ({"themes": ["brilliancy"]}, "themes:"),
        ({"rating": True}, "rating:"),
        ({"pdtl": "/28:x/ w - - 0 1"}, "pdtl:"),
    ],
)
def test_a_wrong_field_is_named(change: dict[str, object], said: str) -> None:
    data = {**mate_in_two().export(), **change}
    with pytest.raises(PuzzleError, match=said):
        Puzzle.from_json(data)


def test_bad_lines_are_skipped_and_said_with_their_number() -> None:
    good = mate_in_two().to_json()
    problems: list[str] = []
    found = parse_puzzles(f"{good}\nnot json\n[1]\n\n{good}\n", problems=problems)
    assert found == [mate_in_two()]
    assert [p.split(":")[0] for p in problems] == ["line 2", "line 3", "line 5"]
    assert "a second puzzle with this id" in problems[2]


def test_a_puzzle_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(mate_in_two().to_json() + "\n", encoding="utf-8")
    assert read_puzzle_file(path) == [mate_in_two()]
    assert with_theme([mate_in_two()], "mate") == [mate_in_two()]
    assert with_theme([mate_in_two()], "promotion") == []


# --- the check --------------------------------------------------------------------------------------------------


def test_a_sound_puzzle_passes_its_check() -> None:
    assert verify(mate_in_two()) == []


def test_the_check_finds_wrong_themes_a_move_not_written_canonically_and_an_unforced_mate() -> None:
    wrong_themes = Puzzle("Pa", MATE_IN_TWO, MATE_IN_TWO_LINE, ("mate-in-2",), 1200)
    assert "the solution shows" in verify(wrong_themes)[0]
    loose = Puzzle("Pb", MATE_IN_ONE, ("DF18-D24",), ("mate-in-1",), 800)
    assert "is written DF18-D24# in canonical CTL-AN" in verify(loose)[0]
    unforced = Puzzle("Pc", MATE_IN_TWO, ("VF2-F4", "KE23-F24", "DP15×EE21#"), ("mate-in-2",), 1200)
    assert any("does not force mate" in p for p in verify(unforced))
    illegal = Puzzle("Pd", MATE_IN_ONE, ("DF18-D26#",), ("mate-in-1",), 800)
    assert "DF18-D26#" in verify(illegal)[0]


def test_the_check_wants_the_shortest_mate_and_one_first_move() -> None:
    start = Position.from_pdtl(MATE_IN_TWO)
    for move in line(MATE_IN_TWO, MATE_IN_TWO_LINE[:2]):
        start.push(move)
    mates = [start.ctl_an(Move._make(m)) for m in MateProver().mates_in_one(start.copy())]
    several = Puzzle("Pe", start.to_pdtl(), (mates[0],), solution_themes(start, [start.parse_move(mates[0])]), 800)
    assert verify(several) == [f"Pe: {', '.join(mates[1:2])} mates as fast"]


def test_a_proof_over_its_budget_is_said_and_the_check_goes_on() -> None:
    checked = list(iter_checked([mate_in_two(), mate_in_two()], budget=10))
    assert len(checked) == 2
    assert all("moves" in found[0] for _, found in checked)


# --- an attempt ---------------------------------------------------------------------------------------------


def test_the_solution_played_move_by_move() -> None:
    attempt = Attempt(mate_in_two())
    step = attempt.play("DP15×EE21+^")
    assert (step.verdict, step.said, step.reply) == (Verdict.CORRECT, "DP15×EE21+^", "KE23-D26")
    assert attempt.moves_left == 1
    assert attempt.play("GI21-G25#").verdict is Verdict.SOLVED
    assert attempt.solved and not attempt.failed
    with pytest.raises(PuzzleError):
        attempt.play("GI21-G25")


def test_a_wrong_move_leaves_the_position_and_spoils_the_try() -> None:
    attempt = Attempt(mate_in_two())
    before = attempt.position.to_pdtl()
    step = attempt.play("VF2-F4")
    assert step.verdict is Verdict.WRONG
    assert attempt.position.to_pdtl() == before
    assert attempt.failed
    assert attempt.play("DP15×EE21+^").verdict is Verdict.CORRECT


def test_an_illegal_move_says_why() -> None:
    step = Attempt(mate_in_two()).play("DP15-P27")
    assert step.verdict is Verdict.ILLEGAL
    assert step.reason is not None


def test_hints_name_the_piece_then_the_move_and_retry_starts_again() -> None:
    attempt = Attempt(mate_in_two())
    first = attempt.hint()
    assert first.move is None and first.hex == Position.from_pdtl(MATE_IN_TWO).parse_move("DP15×EE21+^").origin
    assert attempt.hint().move == "DP15×EE21+^"
    assert attempt.failed
    attempt.play("DP15×EE21+^")
    attempt.retry()
    assert attempt.done == 0 and attempt.position.to_pdtl() == Position.from_pdtl(MATE_IN_TWO).to_pdtl()
    assert attempt.failed  # a try already lost stays lost


def test_another_move_that_mates_as_fast_is_accepted() -> None:
    # After the first move, any mate in one finishes the puzzle, not only the line's.
    attempt = Attempt(mate_in_two())
    attempt.play("DP15×EE21+^")
    mates = [attempt.position.ctl_an(Move._make(m)) for m in MateProver().mates_in_one(attempt.position.copy())]
    assert len(mates) > 1
    for move in mates:
        trial = Attempt(mate_in_two())
        trial.play("DP15×EE21+^")
        assert trial.play(move).verdict is Verdict.SOLVED

"""The lessons: every task solvable by the core, in exactly the moves it allows; what a move tried says."""

from __future__ import annotations

import pytest

from cescacs_tui.core import HEX_NAMES, Position, parse_hex
from cescacs_tui.core.pieces import PieceType
from cescacs_tui.learn.lessons import LESSONS, Goal, LessonRun, Verdict, find_lesson, solve
from tests.helpers.builders import moves_from

PIECES = {"king", "queen", "wyvern", "rook", "pegasus", "knight", "elephant", "pawn"}
RULES = {"hexes", "castling", "en-passant", "promotion", "scornful", "check", "mate"}


def test_there_is_a_lesson_for_every_piece_each_bishop_and_each_special_rule() -> None:
    keys = [lesson.key for lesson in LESSONS]
    assert len(keys) == len(set(keys))
    assert set(keys) == PIECES | RULES | {"bishop-white", "bishop-black", "bishop-colour"}


@pytest.mark.parametrize(
    ("key", "goal", "piece", "target", "moves", "prelude"),
    [
        ("hexes", Goal.REACH, "E7", "E13", 1, ()),
        ("queen", Goal.TAKE, "F14", "C21", 2, ()),
        ("castling", Goal.CASTLE_BOTH, "", "", 1, ()),
        ("en-passant", Goal.EN_PASSANT, "", "", 1, ("G21-G17",)),
        ("promotion", Goal.REGAIN, "", "D", 1, ()),
        ("mate", Goal.MATE, "", "", 1, ()),
    ],
)
def test_the_table_row_says_the_goal_its_target_the_moves_and_the_moves_before(
    key: str, goal: Goal, piece: str, target: str, moves: int, prelude: tuple[str, ...]
) -> None:
    lesson = find_lesson(key)
    assert lesson is not None
    task = lesson.task
    assert (task.goal, task.piece, task.target, task.moves, lesson.prelude) == (goal, piece, target, moves, prelude)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_every_task_is_solved_by_the_core_in_the_moves_it_allows_and_no_fewer(lesson) -> None:
    solution = solve(lesson)
    assert solution is not None
    assert len(solution) == lesson.task.moves
    run = LessonRun(lesson)
    verdicts = [run.play(move).verdict for move in solution]
    assert verdicts == [Verdict.GOING] * (len(solution) - 1) + [Verdict.SOLVED]
    assert run.solved


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_the_highlighted_moves_are_the_cores_moves_of_the_piece_shown(lesson) -> None:
    start = lesson.start()
    shown = {str(move)[len(lesson.shown) + 1 :] for move in lesson.shown_moves() if move.castling is None}
    assert shown == moves_from(start, lesson.shown)
    assert start.piece_at(parse_hex(lesson.shown)) is not None
    assert lesson.shown_moves()


def test_the_bishops_each_keep_to_one_tile_colour() -> None:
    from cescacs_tui.core.geometry import HEX_COLOUR

    colours = set()
    for key in ("bishop-white", "bishop-black", "bishop-colour"):
        lesson = find_lesson(key)
        assert lesson is not None
        piece = lesson.start().piece_at(parse_hex(lesson.shown))
        assert piece is not None and piece.type == PieceType.BISHOP
        tiles = {HEX_COLOUR[move.target] for move in lesson.shown_moves()}
        assert tiles == {HEX_COLOUR[parse_hex(lesson.shown)]}
        colours |= tiles
    assert colours == {0, 1, 2}


def test_the_kings_lesson_shows_its_leap() -> None:
    lesson = find_lesson("king")
    assert lesson is not None
    targets = {HEX_NAMES[move.target] for move in lesson.shown_moves()}
    assert {"F6", "D2", "E5"} <= targets  # leap hexes, from the core's generator


def test_the_prelude_is_the_last_move_of_a_special_capture() -> None:
    run = LessonRun(find_lesson("en-passant"))  # type: ignore[arg-type]
    assert run.last is not None and str(run.last) == "G21-G17"
    assert run.position.turn == run.position.turn.WHITE


def test_another_piece_is_refused_and_the_position_stays() -> None:
    run = LessonRun(find_lesson("queen"))  # type: ignore[arg-type]
    before = run.position.to_pdtl()
    king_move = run.position.parse_move("KB4-B6")
    answer = run.play(king_move)
    assert answer.verdict is Verdict.REFUSED and "F14" in answer.text
    assert run.position.to_pdtl() == before


def test_a_wrong_last_move_sets_the_position_up_again() -> None:
    run = LessonRun(find_lesson("rook"))  # type: ignore[arg-type]
    assert run.play(run.position.parse_move("RF14-F12")).verdict is Verdict.GOING
    assert run.left == 1 and run.piece == parse_hex("F12")
    assert run.position.turn == run.position.turn.WHITE  # the opponent passed
    assert run.play(run.position.parse_move("RF12-F10")).verdict is Verdict.MISSED
    assert run.position == find_lesson("rook").start()  # type: ignore[union-attr]
    assert run.left == 2


def test_a_move_that_gives_check_is_refused_in_a_task_of_several_moves() -> None:
    run = LessonRun(find_lesson("rook"))  # type: ignore[arg-type]
    checking = run.position.parse_move("RF14-F16")  # the file F16-X22 to Black's King
    assert run.position.gives_check(checking)
    answer = run.play(checking)
    assert answer.verdict is Verdict.REFUSED and "check" in answer.text
    assert run.left == 2 and run.piece == parse_hex("F14")


def test_the_stalemating_move_says_it_is_only_a_minimum_win() -> None:
    run = LessonRun(find_lesson("mate"))  # type: ignore[arg-type]
    answer = run.play(run.position.parse_move("DD2-D24"))
    assert answer.verdict is Verdict.MISSED and "2-1" in answer.text
    assert not run.solved
    assert run.play(run.position.parse_move("DD2-D26")).verdict is Verdict.SOLVED


def test_lessons_are_found_by_key_or_number() -> None:
    assert find_lesson("pegasus") is find_lesson(str([lesson.key for lesson in LESSONS].index("pegasus") + 1))
    assert find_lesson("0") is None and find_lesson("nothing") is None


def test_every_goal_has_a_lesson() -> None:
    assert {lesson.task.goal for lesson in LESSONS} == set(Goal)


def test_a_task_position_is_legal_for_the_core() -> None:
    for lesson in LESSONS:
        Position.from_pdtl(lesson.pdtl, strict=True)

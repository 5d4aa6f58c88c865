"""The lessons in words: cescacs learn --plain, and the plain mode's lessons command."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui import i18n
from cescacs_tui.data.progress import MemoryProgress, ProgressFile, progress_path
from cescacs_tui.plain.lessons import run_lessons
from tests.helpers.plain import Typist


def lessons(path: Path | None, *lines: str, lesson: str | None = None) -> list[str]:
    out = io.StringIO()
    run_lessons(path, lesson, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return out.getvalue().splitlines()


def test_a_lesson_is_said_in_words_and_done_by_typing_moves(tmp_path: Path) -> None:
    said = lessons(progress_path(tmp_path), "pegasus", "f14-g17", "g17 k16")
    start = said.index("Lesson 6 of 18: The Pegasus.")
    assert said[start + 1].startswith("The Pegasus slides like a Bishop")
    assert said[start + 2].startswith("White Pegasus F14, 30 moves:")  # the plain mode's m words, from the core
    assert said[start + 3].startswith("Task: Take the Knight on K16 with the Pegasus in two moves.")
    assert said[start + 4] == "White Pegasus F14 to G17. Played. 1 move left."
    assert (
        said[start + 5] == "White Pegasus G17 takes Black Knight on K16, check from afar. Well done: that is the task."
    )
    assert ProgressFile(progress_path(tmp_path)).progress.lessons == {"pegasus"}


def test_the_last_move_is_said_before_an_en_passant_task() -> None:
    said = lessons(None, "en-passant", "f16-g19")
    assert "Last move: Black Pawn G21 to G17, double step." in said
    assert said[-3].endswith("en passant. Well done: that is the task.")
    assert said[-2:] == ["Type next for the next lesson.", "Goodbye."]


def test_wrong_moves_are_explained_and_the_position_kept_or_set_up_again() -> None:
    said = lessons(None, "queen", "kb4-b6", "f14-f12", "f12-f10", "mate", "d2-d24", "again", "hint")
    assert "White King B4 to B6: In this task only the piece on F14 moves." in said
    assert "White Queen F12 to F10: No move left and the task is not done: the position is set up again." in said
    assert any("That stalemates: a win, but only 2-1" in line for line in said)
    assert "The position is set up again." in said
    assert any(line.startswith("From the start of the task: White Queen D2 to D26") for line in said)


def test_several_moves_to_one_hex_are_named_and_a_bad_move_explained() -> None:
    said = lessons(None, "castling", "g1 h6", "krr-hih", "zz9", "12345")
    assert any(line.startswith("Several moves go there:") and "KRR-HIH" in line for line in said)
    assert any("Well done" in line for line in said)


def test_unknown_lessons_are_refused_with_the_list_s_word() -> None:
    said = lessons(None, "nothing")
    assert "nothing: no such lesson. Type a number from 1 to 18, or list for the list." in said


def test_the_plain_modes_lessons_command_returns_to_the_game() -> None:
    typist = Typist()
    said = typist.type("lessons", "1", "e7-e13", "quit")
    assert said[0].startswith("Lessons: type a lesson's number")
    assert "White Rook E7 to E13. Well done: that is the task." in said
    assert said[-1].startswith("Back to the game. White to move.")
    assert typist.type("e7-e13")[0].startswith("White Pawn E7 to E13")  # the game's own moves again


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


@pytest.mark.parametrize(("language", "next_word"), [("ca", "següent"), ("es", "siguiente")])
def test_the_lessons_speak_the_interfaces_language(speak: object, language: str, next_word: str) -> None:
    i18n.set_language(language)
    said = lessons(None, "1", "e7-e13", next_word, "quit")
    assert not any(line.startswith("Task:") for line in said)
    assert any("E13" in line for line in said)
    assert any(line.startswith(("Lliçó 2 de 18", "Lección 2 de 18")) for line in said)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_drill_in_words_names_a_hex_one_step_away_against_the_clock(tmp_path: Path) -> None:
    from cescacs_tui.core import HEX_NAMES
    from cescacs_tui.plain.lessons import PlainLessons

    said: list[str] = []
    clock = Clock()
    plain = PlainLessons(said.append, ProgressFile(progress_path(tmp_path)), clock=clock)
    plain.handle("drill")
    assert said[0].startswith("Coordinate drill: name the hex one step away")
    assert said[-1].endswith(": which hex?") and ", one step " in said[-1]
    for _ in range(4):
        assert plain.drill is not None
        answer = HEX_NAMES[plain.drill.question.answer]
        plain.handle(answer.lower())
        assert said[-2] == f"{answer}: right."
        clock.now += 10
    plain.handle("zz")
    assert said[-2] == "zz: no, try again."
    clock.now += 30
    plain.handle("F14")  # after the time: it counts for nothing
    assert said[-2:] == ["Time! 4 right, 1 missed. Best: 4.", "A new best."]
    assert plain.drill is None
    assert ProgressFile(progress_path(tmp_path)).progress.best == {"step": 4}


def test_the_drill_stops_when_asked() -> None:
    from cescacs_tui.plain.lessons import PlainLessons

    said: list[str] = []
    plain = PlainLessons(said.append, MemoryProgress(), clock=Clock())
    plain.handle("drill")
    plain.handle("quit")
    assert said[-1] == "Drill stopped: 0 right."
    assert plain.running  # still in the lessons

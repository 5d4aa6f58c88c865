"""The coordinate drill with an injected clock: a whole round without waiting."""

from __future__ import annotations

import random

import pytest

from cescacs_tui.core.geometry import COLUMN, HEX_NAMES, LINE, hex_at
from cescacs_tui.learn.drill import DRILL_SECONDS, Drill, DrillKind


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("kind", list(DrillKind))
def test_a_round_scores_right_answers_until_the_time_is_up(kind: DrillKind) -> None:
    clock = Clock()
    drill = Drill(kind, clock=clock, rng=random.Random(7))
    assert not drill.running and drill.left == DRILL_SECONDS
    drill.start()
    for _ in range(5):
        clock.now += 3
        asked = drill.question
        assert drill.answer(asked.answer)
        assert drill.question != asked
    wrong = next(h for h in range(169) if h != drill.question.answer)
    assert not drill.answer(wrong) and not drill.answer(None)
    assert (drill.score, drill.misses) == (5, 2)
    assert drill.left == DRILL_SECONDS - 15
    clock.now += DRILL_SECONDS
    assert not drill.running and drill.left == 0
    assert not drill.answer(drill.question.answer)  # too late: it counts for nothing
    assert drill.score == 5
    drill.start()
    assert drill.running and drill.score == 0


def test_a_step_question_is_one_step_on_the_board_and_lines_step_by_two_along_a_column() -> None:
    drill = Drill(DrillKind.STEP, clock=Clock(), rng=random.Random(1))
    seen = set()
    for _ in range(200):
        question = drill.question
        assert question.origin is not None and question.step is not None
        dc, dl = question.step
        assert hex_at(COLUMN[question.origin] + dc, LINE[question.origin] + dl) == question.answer
        seen.add(question.step)
        drill.question = drill._ask(question)
    assert (0, 2) in seen and len(seen) == 12
    assert HEX_NAMES[hex_at(COLUMN[0], LINE[0] + 2) or 0] == "F2"  # up from F0 is F2, not F1

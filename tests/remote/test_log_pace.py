"""A server's log at a readable pace: a flood of events writes a burst, then a steady rate, and says what it held."""

from __future__ import annotations

import logging

from cescacs_tui.remote.log_pace import LogPace, PacedLogFilter
from tests.helpers.clock import FakeTime


def test_a_flood_of_lines_is_cut_to_a_burst_then_the_pace_and_the_held_back_are_counted() -> None:
    clock = FakeTime()
    written: list[str] = []
    log = LogPace(written.append, rate=2.0, burst=3.0, time_source=clock)
    for number in range(1000):
        log(f"Eve joins ({number})")
    assert written == ["Eve joins (0)", "Eve joins (1)", "Eve joins (2)"]
    clock.advance(1.0)
    log("White played H6-H12")
    assert written[3:] == ["(997 lines not shown: too many at once)", "White played H6-H12"]
    log("one more")
    assert written[-1] == "one more" and log.held_back == 0


def test_logging_records_pass_at_the_same_pace() -> None:
    clock = FakeTime()
    paced = PacedLogFilter(rate=1.0, burst=2.0, time_source=clock)
    records = [logging.LogRecord("x", logging.INFO, "", 0, "visitor %d", (n,), None) for n in range(5)]
    assert [paced.filter(record) for record in records] == [True, True, False, False, False]
    clock.advance(1.0)
    late = logging.LogRecord("x", logging.INFO, "", 0, "visitor %s left", ("Bo",), None)
    assert paced.filter(late)
    assert late.getMessage() == "(3 lines not shown: too many at once)\nvisitor Bo left"

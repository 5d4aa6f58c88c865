"""A flag fall said when it falls in the plain mode (plain/flag_watch.py), not at the next line typed.

The game's clock runs on a fake time the test moves; the watch's thread is
real, and the test waits for its words by condition.
"""

from __future__ import annotations

from cescacs_tui.core.game import Game
from cescacs_tui.plain.flag_watch import FlagWatch
from tests.helpers.clock import SUDDEN_5, FakeTime
from tests.helpers.plain import Typist
from tests.helpers.waiting import wait_until


def test_a_flag_that_falls_while_the_player_thinks_is_announced_without_a_line() -> None:
    time = FakeTime()
    typist = Typist(Game.new(time_control=SUDDEN_5, time_source=time))
    with FlagWatch(typist.plain):
        typist.type("e7-e13")  # Black's clock runs
        assert not typist.session.game.is_over
        time.advance(301)
        wait_until(lambda: "on time" in typist.screen.getvalue(), "the flag fall announced")
    assert typist.session.game.is_over
    said = [line for line in typist.screen.getvalue().splitlines() if "on time" in line]
    assert len(said) == 1  # once


def test_the_watch_says_nothing_while_no_clock_runs_and_stops_with_its_block() -> None:
    time = FakeTime()
    typist = Typist(Game.new(time_control=SUDDEN_5, time_source=time))
    watch = FlagWatch(typist.plain)
    with watch:
        time.advance(1000)  # no move yet: the clock has not started
    assert not watch._thread.is_alive()
    assert not typist.session.game.is_over and "on time" not in typist.screen.getvalue()

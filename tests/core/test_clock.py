"""The chess clock: time controls and their tag, every clock mode, takeback, and clock text.

Every clock runs on a fake time source advanced by hand, so the expected times are exact (the
numbers are chosen to be exact in binary floating point).
"""

from __future__ import annotations

import math

import pytest

from cescacs_tui.core.clock import (
    NO_CLOCK,
    PRESETS,
    ClockError,
    ClockKind,
    ClockState,
    TimeControl,
    format_clock,
)
from cescacs_tui.core.errors import CescacsError
from cescacs_tui.core.pgn_clock import format_clk, parse_clk
from cescacs_tui.core.pieces import BLACK, WHITE
from tests.helpers.clock import BRONSTEIN_5_5, DELAY_5_5, FISCHER_10_5, PER_MOVE_30, SUDDEN_5, fake_clock

# --- TimeControl and its tag -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4500", TimeControl(ClockKind.SUDDEN_DEATH, 4500)),
        ("4500+60", TimeControl(ClockKind.FISCHER, 4500, increment=60)),
        ("*180", TimeControl(ClockKind.PER_MOVE, 180)),
        ("900d5", TimeControl(ClockKind.SIMPLE_DELAY, 900, delay=5)),
        ("900b5", TimeControl(ClockKind.BRONSTEIN, 900, delay=5)),
        ("-", NO_CLOCK),
        ("?", NO_CLOCK),
        ("  300+2 ", TimeControl(ClockKind.FISCHER, 300, increment=2)),
    ],
)
def test_from_tag_reads_every_supported_form(text: str, expected: TimeControl) -> None:
    assert TimeControl.from_tag(text) == expected


@pytest.mark.parametrize("text", ["4500", "4500+60", "4500+0", "*180", "900d5", "900b5", "-"])
def test_canonical_tags_round_trip_as_text(text: str) -> None:
    assert TimeControl.from_tag(text).to_tag() == text


def test_unknown_control_is_no_clock_and_is_written_as_none() -> None:
    control = TimeControl.from_tag("?")
    assert not control.enabled
    assert control.to_tag() == "-"


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips_through_its_tag(name: str) -> None:
    control = PRESETS[name]
    assert TimeControl.from_tag(control.to_tag()) == control


def test_presets_cover_every_kind_and_run_fastest_first() -> None:
    assert {control.kind for control in PRESETS.values()} == set(ClockKind)
    by_base = [c.base for c in PRESETS.values() if c.kind not in (ClockKind.NONE, ClockKind.PER_MOVE)]
    assert by_base == sorted(by_base)
    assert PRESETS["Blitz 3+2"] == TimeControl(ClockKind.FISCHER, 180, increment=2)


@pytest.mark.parametrize("text", ["40/9000", "40/9000:3600", "40/7200:20/3600:900+30"])
def test_move_count_periods_are_rejected_with_a_reason(text: str) -> None:
    with pytest.raises(ClockError, match=r"move-count periods .* not supported"):
        TimeControl.from_tag(text)


@pytest.mark.parametrize(
    "text", ["", "abc", "90.5", "4500+", "+60", "*180+5", "4500x5", "4500 + 60", "-5", "\u0664\u0665", "900D5"]
)
def test_garbage_tags_are_rejected_naming_text_and_accepted_forms(text: str) -> None:
    with pytest.raises(ClockError) as caught:
        TimeControl.from_tag(text)
    message = str(caught.value)
    assert repr(text) in message
    assert "'<base>+<increment>'" in message
    assert "'*<seconds>'" in message


@pytest.mark.parametrize("text", ["0", "0+5", "*0", "0d3"])
def test_a_zero_base_time_is_rejected(text: str) -> None:
    with pytest.raises(ClockError, match=r"'.*': the base time must be more than 0"):
        TimeControl.from_tag(text)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"kind": ClockKind.SUDDEN_DEATH, "base": 90.5}, "whole number"),
        ({"kind": ClockKind.FISCHER, "base": 60, "increment": -1}, "whole number"),
        ({"kind": ClockKind.SUDDEN_DEATH, "base": math.inf}, "whole number"),
        ({"kind": ClockKind.SUDDEN_DEATH, "base": 60, "increment": 2}, "increment needs a Fischer"),
        ({"kind": ClockKind.FISCHER, "base": 60, "delay": 2}, "delay needs a Bronstein"),
        ({"kind": ClockKind.NONE, "base": 60}, "without clock has no base"),
    ],
)
def test_time_control_rejects_values_no_tag_could_hold(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ClockError, match=match):
        TimeControl(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("tag", "text"),
    [
        ("-", "No clock"),
        ("300", "5 min"),
        ("900+10", "15 min + 10 s"),
        ("90+30", "1 min 30 s + 30 s"),
        ("300d3", "5 min, 3 s delay"),
        ("300b3", "5 min, 3 s Bronstein delay"),
        ("*30", "30 s per move"),
    ],
)
def test_describe_speaks_minutes_and_seconds(tag: str, text: str) -> None:
    assert TimeControl.from_tag(tag).describe() == text


def test_clock_error_is_a_cescacs_value_error() -> None:
    assert issubclass(ClockError, CescacsError)
    assert issubclass(ClockError, ValueError)


# --- Starting, pressing, sudden death ----------------------------------------------------------


def test_before_start_nothing_runs_and_press_is_refused() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    fake.advance(50)
    assert clock.running is None
    assert clock.remaining(WHITE) == clock.remaining(BLACK) == 300
    assert clock.seconds_until_flag() is None
    with pytest.raises(ClockError, match="no clock is running"):
        clock.press()


def test_sudden_death_counts_down_the_side_to_move_only() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(10)
    assert clock.running is WHITE
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (290, 300)
    assert clock.press() == 290
    assert clock.running is BLACK
    fake.advance(7.5)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (290, 292.5)
    assert clock.press() == 292.5
    assert clock.remaining(WHITE) == 290


def test_remaining_comes_from_the_time_source_not_from_calls() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    start = fake.now
    for _ in range(1000):
        fake.advance(0.1)
        clock.remaining(WHITE)
    assert clock.remaining(WHITE) == 300 - (fake.now - start)
    assert clock.remaining(WHITE) == clock.remaining(WHITE)


def test_flag_falls_exactly_at_zero() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(299.5)
    assert clock.check_flag() is None
    assert clock.running is WHITE
    fake.advance(0.5)
    assert clock.check_flag() is WHITE
    assert clock.flagged is WHITE
    assert clock.running is None
    assert clock.remaining(WHITE) == 0
    assert clock.remaining(BLACK) == 300


def test_remaining_never_goes_below_zero() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(400)
    assert clock.remaining(WHITE) == 0
    assert clock.seconds_until_flag() == 0


def test_check_flag_keeps_reporting_the_fallen_flag() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(BLACK)
    fake.advance(300)
    assert clock.check_flag() is BLACK
    fake.advance(100)
    assert clock.check_flag() is BLACK
    assert clock.remaining(BLACK) == 0


def test_a_move_made_after_the_flag_fell_is_refused() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(300)
    with pytest.raises(ClockError, match="White's flag has already fallen"):
        clock.press()
    assert clock.flagged is WHITE
    with pytest.raises(ClockError, match="flag has already fallen"):
        clock.press()
    with pytest.raises(ClockError, match="cannot start again"):
        clock.start(BLACK)


def test_start_while_running_switches_sides_without_credit() -> None:
    clock, fake = fake_clock(FISCHER_10_5)
    clock.start(WHITE)
    fake.advance(10)
    clock.start(BLACK)
    fake.advance(4)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (590, 596)


def test_seconds_until_flag_tracks_the_running_side() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(100)
    assert clock.seconds_until_flag() == 200
    clock.press()
    assert clock.seconds_until_flag() == 300


# --- Fischer, Bronstein, simple delay, per move, no clock --------------------------------------


def test_fischer_adds_the_increment_after_the_first_move_too() -> None:
    clock, fake = fake_clock(FISCHER_10_5)
    clock.start(WHITE)
    fake.advance(10)
    assert clock.press() == 595
    assert clock.remaining(WHITE) == 595
    assert clock.remaining(BLACK) == 600


def test_fischer_increments_accumulate_even_for_instant_moves() -> None:
    clock, _ = fake_clock(FISCHER_10_5)
    clock.start(WHITE)
    assert [clock.press() for _ in range(4)] == [605, 605, 610, 610]


def test_bronstein_gives_back_the_time_used_up_to_the_delay() -> None:
    clock, fake = fake_clock(BRONSTEIN_5_5)
    clock.start(WHITE)
    fake.advance(3)
    assert clock.press() == 300  # 3 s used, 3 s back
    fake.advance(12)
    assert clock.press() == 293  # 12 s used, 5 s back
    assert clock.remaining(BLACK) == 293


def test_bronstein_refund_counts_the_whole_move_across_a_pause() -> None:
    clock, fake = fake_clock(BRONSTEIN_5_5)
    clock.start(WHITE)
    fake.advance(2)
    clock.pause()
    fake.advance(50)
    clock.resume()
    fake.advance(2)
    assert clock.press() == 300


def test_simple_delay_costs_nothing_within_the_delay() -> None:
    clock, fake = fake_clock(DELAY_5_5)
    clock.start(WHITE)
    fake.advance(3)
    assert clock.remaining(WHITE) == 300
    assert clock.seconds_until_flag() == 302
    fake.advance(5)
    assert clock.remaining(WHITE) == 297
    assert clock.press() == 297


def test_simple_delay_starts_afresh_each_turn_and_adds_nothing() -> None:
    clock, fake = fake_clock(DELAY_5_5)
    clock.start(WHITE)
    fake.advance(2)
    assert clock.press() == 300  # the unused delay is not banked
    fake.advance(6)
    assert clock.remaining(BLACK) == 299
    clock.press()
    fake.advance(5)
    assert clock.remaining(WHITE) == 300


def test_simple_delay_flag_falls_when_delay_and_time_are_both_used_up() -> None:
    clock, fake = fake_clock(TimeControl(ClockKind.SIMPLE_DELAY, 10, delay=5))
    clock.start(WHITE)
    fake.advance(14.5)
    assert clock.check_flag() is None
    assert clock.remaining(WHITE) == 0.5
    fake.advance(0.5)
    assert clock.check_flag() is WHITE


def test_simple_delay_pause_keeps_the_unused_delay() -> None:
    clock, fake = fake_clock(DELAY_5_5)
    clock.start(WHITE)
    fake.advance(2)
    clock.pause()
    fake.advance(100)
    clock.resume()
    fake.advance(3)
    assert clock.remaining(WHITE) == 300
    fake.advance(1)
    assert clock.remaining(WHITE) == 299


def test_per_move_time_resets_every_turn() -> None:
    clock, fake = fake_clock(PER_MOVE_30)
    clock.start(WHITE)
    fake.advance(20)
    assert clock.press() == 10  # the time that was left for this move
    assert clock.remaining(WHITE) == 30  # ready for White's next turn
    fake.advance(29)
    assert clock.remaining(BLACK) == 1
    clock.press()
    fake.advance(25)
    assert clock.remaining(WHITE) == 5


def test_per_move_flag_falls_when_one_move_takes_too_long() -> None:
    clock, fake = fake_clock(PER_MOVE_30)
    clock.start(WHITE)
    fake.advance(29)
    clock.press()
    fake.advance(30)
    assert clock.check_flag() is BLACK


def test_per_move_start_begins_a_full_turn_even_after_set_remaining() -> None:
    clock, fake = fake_clock(PER_MOVE_30)
    clock.set_remaining(4, 12)
    clock.start(BLACK)
    fake.advance(10)
    assert clock.remaining(BLACK) == 20


def test_no_clock_never_runs_out() -> None:
    clock, fake = fake_clock(NO_CLOCK)
    clock.start(WHITE)
    fake.advance(1e9)
    assert clock.remaining(WHITE) == math.inf
    assert clock.check_flag() is None
    assert clock.seconds_until_flag() is None
    assert clock.press() == math.inf
    assert clock.running is BLACK
    clock.set_remaining(10, 10)  # ignored: there is no time to set
    fake.advance(60)
    assert clock.remaining(BLACK) == math.inf
    assert clock.check_flag() is None


# --- Pause, stop, set_remaining ----------------------------------------------------------------


def test_pause_freezes_and_resume_continues_from_the_frozen_time() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(10)
    clock.pause()
    fake.advance(1000)
    assert clock.paused
    assert clock.running is None
    assert clock.to_move is WHITE
    assert clock.remaining(WHITE) == 290
    assert clock.seconds_until_flag() is None
    assert clock.check_flag() is None
    with pytest.raises(ClockError, match="paused"):
        clock.press()
    clock.resume()
    fake.advance(5)
    assert not clock.paused
    assert clock.running is WHITE
    assert clock.remaining(WHITE) == 285


def test_pause_and_resume_do_nothing_when_they_do_not_apply() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.pause()
    assert not clock.paused
    clock.start(WHITE)
    clock.resume()
    fake.advance(10)
    assert clock.remaining(WHITE) == 290
    clock.pause()
    clock.pause()
    fake.advance(10)
    clock.resume()
    fake.advance(10)
    assert clock.remaining(WHITE) == 280


def test_pause_cannot_rescue_a_side_whose_flag_fell() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(301)
    clock.pause()
    assert clock.flagged is WHITE
    assert not clock.paused


def test_stop_freezes_both_clocks() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(10)
    clock.press()
    fake.advance(20)
    clock.stop()
    fake.advance(500)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (290, 280)
    assert clock.running is None
    assert clock.flagged is None
    with pytest.raises(ClockError):
        clock.press()


def test_set_remaining_before_start_resumes_a_saved_game() -> None:
    clock, fake = fake_clock(FISCHER_10_5)
    clock.set_remaining(123.5, 456)
    clock.start(BLACK)
    fake.advance(6)
    assert clock.press() == 455
    assert clock.remaining(WHITE) == 123.5


def test_set_remaining_while_running_counts_down_from_the_new_time() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(50)
    clock.set_remaining(100, 200)
    fake.advance(10)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (90, 200)


def test_set_remaining_mid_move_restarts_the_bronstein_count() -> None:
    clock, fake = fake_clock(BRONSTEIN_5_5)
    clock.start(WHITE)
    fake.advance(2)
    clock.set_remaining(100, 200)
    fake.advance(1)
    assert clock.press() == 100  # only the 1 s since the new time counts as used


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf, 1e308])
def test_set_remaining_rejects_impossible_times(bad: float) -> None:
    clock, _ = fake_clock(SUDDEN_5)
    with pytest.raises(ClockError, match="number of seconds from 0 to 3600000000"):
        clock.set_remaining(60, bad)
    assert clock.remaining(BLACK) == 300


# --- Takeback ----------------------------------------------------------------------------------


def test_takeback_restores_both_times_and_restarts_the_mover() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(10)
    before_white_move = clock.snapshot()
    assert before_white_move.remaining == (290, 300)
    assert before_white_move.to_move is WHITE
    clock.press()
    fake.advance(20)
    clock.restore(before_white_move)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (290, 300)
    assert clock.running is WHITE
    fake.advance(5)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (285, 300)


def test_takeback_of_two_moves_restores_the_earlier_snapshot() -> None:
    clock, fake = fake_clock(FISCHER_10_5)
    clock.start(WHITE)
    fake.advance(10)
    first = clock.snapshot()
    clock.press()
    fake.advance(20)
    clock.press()
    fake.advance(30)
    clock.restore(first)
    assert (clock.remaining(WHITE), clock.remaining(BLACK)) == (590, 600)
    assert clock.press() == 595  # the increment is earned again, once


def test_takeback_keeps_the_bronstein_refund_of_the_whole_move() -> None:
    clock, fake = fake_clock(BRONSTEIN_5_5)
    clock.set_remaining(300, 250)
    clock.start(WHITE)
    fake.advance(2)
    state = clock.snapshot()
    assert state.turn_start == 300
    clock.press()
    fake.advance(40)
    clock.restore(state)
    fake.advance(1)
    assert clock.press() == 300  # 2 s before the snapshot + 1 s after, all given back


def test_takeback_restores_the_unused_simple_delay() -> None:
    clock, fake = fake_clock(DELAY_5_5)
    clock.start(WHITE)
    fake.advance(3)
    state = clock.snapshot()
    assert state.delay_left == 2
    clock.press()
    fake.advance(40)
    clock.restore(state)
    fake.advance(2)
    assert clock.remaining(WHITE) == 300
    fake.advance(1)
    assert clock.remaining(WHITE) == 299


def test_restore_while_paused_stays_paused_until_resumed() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(10)
    state = clock.snapshot()
    clock.press()
    fake.advance(20)
    clock.pause()
    clock.restore(state)
    fake.advance(100)
    assert clock.paused
    assert clock.running is None
    assert clock.remaining(WHITE) == 290
    clock.resume()
    fake.advance(1)
    assert clock.running is WHITE
    assert clock.remaining(WHITE) == 289


def test_restore_reopens_a_stopped_game_but_not_an_unstarted_one() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    before_start = clock.snapshot()
    assert before_start == ClockState((300, 300), None, 300, 0, None)
    clock.start(WHITE)
    fake.advance(10)
    state = clock.snapshot()
    clock.press()
    clock.stop()
    clock.restore(state)
    assert clock.running is WHITE
    clock.restore(before_start)
    assert clock.running is None
    assert clock.to_move is None
    fake.advance(10)
    assert clock.remaining(WHITE) == 300


def test_takeback_after_a_flag_fall_clears_the_flag() -> None:
    clock, fake = fake_clock(SUDDEN_5)
    clock.start(WHITE)
    fake.advance(100)
    clock.press()
    state = clock.snapshot()
    fake.advance(300)
    assert clock.check_flag() is BLACK
    flagged_state = clock.snapshot()
    assert flagged_state.flagged is BLACK
    clock.restore(state)
    assert clock.flagged is None
    assert clock.running is BLACK
    clock.restore(flagged_state)
    assert clock.flagged is BLACK
    assert clock.running is None


# --- Clock text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (3723, "1:02:03"),
        (36000, "10:00:00"),
        (3600, "1:00:00"),
        (898, "14:58"),
        (897.2, "14:58"),  # rounded up: a clock shows its full time until a whole second is used
        (300, "5:00"),
        (59, "0:59"),
        (10, "0:10"),
        (9.95, "0:10"),
        (9.7, "0:09.7"),
        (9.64, "0:09.7"),
        (0.3, "0:00.3"),
        (0.01, "0:00.1"),  # not zero: the flag has not fallen
        (0, "0:00.0"),
        (-3, "0:00.0"),
        (math.inf, "∞"),
    ],
)
def test_format_clock(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text


def test_a_recorded_clk_resumes_the_game_where_it_stood() -> None:
    clock, fake = fake_clock(FISCHER_10_5)
    clock.start(WHITE)
    fake.advance(34)
    white_clk = format_clk(clock.press())
    fake.advance(1.5)
    black_clk = format_clk(clock.press())
    resumed, _ = fake_clock(FISCHER_10_5)
    white, black = parse_clk(f"[%clk {white_clk}]"), parse_clk(f"[%clk {black_clk}]")
    assert white is not None
    assert black is not None
    resumed.set_remaining(white, black)
    assert (resumed.remaining(WHITE), resumed.remaining(BLACK)) == (571, 604)

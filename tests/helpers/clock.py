"""A time source the tests move by hand, so clocks can be checked exactly; the time controls the tests use."""

from __future__ import annotations

from cescacs_tui.core.clock import ChessClock, ClockKind, TimeControl

SUDDEN_5 = TimeControl(ClockKind.SUDDEN_DEATH, 300)
FISCHER_10_5 = TimeControl(ClockKind.FISCHER, 600, increment=5)
BRONSTEIN_5_5 = TimeControl(ClockKind.BRONSTEIN, 300, delay=5)
DELAY_5_5 = TimeControl(ClockKind.SIMPLE_DELAY, 300, delay=5)
PER_MOVE_30 = TimeControl(ClockKind.PER_MOVE, 30)


class FakeTime:
    """A monotonic time source that only moves when told to (``advance``, or set ``now``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fake_clock(control: TimeControl) -> tuple[ChessClock, FakeTime]:
    """A clock of ``control`` on a :class:`FakeTime` (the numbers the tests use are exact in binary floating point)."""
    time = FakeTime()
    return ChessClock(control, time_source=time), time

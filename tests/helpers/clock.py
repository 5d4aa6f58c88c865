"""A time source the tests move by hand, so clocks can be checked exactly."""

from __future__ import annotations


class FakeTime:
    """A monotonic time source that only moves when told to (``advance``, or set ``now``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

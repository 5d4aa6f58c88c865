"""The ``[%clk h:mm:ss]`` command of CTL-PGN comments: a side's time left after its move.

It is PGN syntax, not clock logic, so it lives beside the PGN reader and
writer; the clock faces the app shows are :func:`~cescacs_tui.core.clock.format_clock`.
"""

from __future__ import annotations

import math
import re
from typing import Final

from .clock import ClockError, ceil_tenths, hours_minutes_seconds


def format_clk(seconds: float) -> str:
    """The value of a ``[%clk]`` comment command: ``"h:mm:ss"``, with tenths under ten seconds (``"0:00:09.7"``).

    Rounded up like :func:`format_clock`, so a side that still had time never reads as 0; the tenths
    keep time scrambles informative.  :func:`parse_clk` reads both forms.  Raises :class:`ClockError`
    for a non-finite time (a game without clock has no ``[%clk]``).
    """
    if not math.isfinite(seconds):
        raise ClockError(f"a [%clk] value needs a finite time, not {seconds!r}")
    tenths = ceil_tenths(seconds)
    if tenths < 100:
        return f"0:00:{tenths // 10:02d}.{tenths % 10}"
    hours, minutes, secs = hours_minutes_seconds(tenths)
    return f"{hours}:{minutes:02d}:{secs:02d}"


_CLK_RE: Final = re.compile(r"\[%clk\s+([0-9]{1,6}):([0-5][0-9]):([0-5][0-9](?:\.[0-9]{1,9})?)\s*\]")
"""ASCII digits only, and bounded: at most six digits of hours (114 years), nine of fractions."""


def parse_clk(comment: str) -> float | None:
    """The seconds of the first well-formed ``[%clk h:mm:ss(.f)]`` command in ``comment``, or ``None``.

    Minutes and seconds need two digits below 60 (``h:mm:ss`` as in PGN), hours at most six digits;
    anything else is ignored (the comment is kept as it is).
    """
    match = _CLK_RE.search(comment)
    if match is None:
        return None
    hours, minutes, secs = match.groups()
    return int(hours) * 3600 + int(minutes) * 60 + float(secs)

"""A server's log kept at a readable pace: a stranger who connects a thousand times a second writes no thousand lines.

The coordinator says what happens in its game (a player joined, left, moved)
and the servers log what their visitors do; every one of those lines is
caused by a peer.  :class:`LogPace` lets through a burst and then a steady
rate, and says how many lines it held back once the pace is kept again, so
nothing is hidden and a disk or a journal is never filled by a flood.
:class:`PacedLogFilter` does the same for the :mod:`logging` records of a
server (cescacs-web's, asyncssh's).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

from ..i18n import ngettext
from .protocol import RateLimiter

__all__ = ["LINES_PER_SECOND", "LogPace", "PacedLogFilter", "held_back_words"]

LINES_PER_SECOND: Final = 5.0
BURST: Final = 30.0
"""A burst of 30 lines, then 5 a second: far above what people playing cause, far below what fills a disk."""


def held_back_words(count: int) -> str:
    """What a paced log says of the lines it did not write."""
    said = ngettext("({count} line not shown: too many at once)", "({count} lines not shown: too many at once)", count)
    return said.format(count=count)


class LogPace:
    """Writes lines through ``write`` at most at ``rate`` a second on average (bursts of ``burst``)."""

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        rate: float = LINES_PER_SECOND,
        burst: float = BURST,
        time_source: Callable[[], float] = time.monotonic,
    ) -> None:
        self.write = write
        self._pace = RateLimiter(rate, burst, time_source=time_source)
        self.held_back = 0
        """Lines not written since the last one that was."""

    def __call__(self, line: str) -> None:
        if not self._pace.allow():
            self.held_back += 1
            return
        if self.held_back:
            self.write(held_back_words(self.held_back))
            self.held_back = 0
        self.write(line)


class PacedLogFilter(logging.Filter):
    """A :mod:`logging` filter that passes records at :class:`LogPace`'s pace; the next record that passes says
    how many were held back."""

    def __init__(
        self, *, rate: float = LINES_PER_SECOND, burst: float = BURST, time_source: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self._pace = RateLimiter(rate, burst, time_source=time_source)
        self.held_back = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._pace.allow():
            self.held_back += 1
            return False
        if self.held_back:
            record.msg = f"{held_back_words(self.held_back)}\n{record.getMessage()}"
            record.args = None
            self.held_back = 0
        return True

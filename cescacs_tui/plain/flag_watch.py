"""A fallen flag said when it falls: the plain mode otherwise looks at the clock only when a line arrives.

A line-mode front end waits in ``readline`` while the player thinks; a flag
that fell then used to be announced at the next line.  :class:`FlagWatch`
runs a thread beside it that sleeps until the running side's time is out (or
at most :data:`POLL_SECONDS`, as a pause, a move or a delay changes it), then
asks the session, under the front end's lock, whether a flag fell, and shows
the answer: the game ends, on time, while the player is still thinking.
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .front_end import PlainGame

__all__ = ["POLL_SECONDS", "FlagWatch"]

POLL_SECONDS: Final = 0.5
"""The longest the watch sleeps: a clock started, paused or given a delay meanwhile is seen this late at most."""

SOONEST_SECONDS: Final = 0.01
"""The shortest sleep: a time just out is looked at again almost at once (a simple delay may have kept it)."""


class FlagWatch:
    """While in its ``with`` block, announces a flag fall of ``plain``'s game as it happens."""

    def __init__(self, plain: PlainGame) -> None:
        self.plain = plain
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="cescacs-flag-watch", daemon=True)

    def __enter__(self) -> FlagWatch:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _sleep(self) -> float:
        """How long until the running side's time is out (at most :data:`POLL_SECONDS`)."""
        with self.plain.lock:
            game = self.plain.session.game
            clock = game.clock
            side = None if clock is None or game.is_over else clock.running
            if clock is None or side is None:
                return POLL_SECONDS
            return min(POLL_SECONDS, max(SOONEST_SECONDS, clock.remaining(side)))

    def _watch(self) -> None:
        while not self._stop.wait(self._sleep()):
            with self.plain.lock:
                if self.plain.running:
                    self.plain.announce_flag()

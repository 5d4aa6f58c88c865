"""The computer opponent in the plain mode: the session's :class:`~cescacs_tui.session.opponent.Opponent`,
run to the end of each move on an event loop of its own.

The plain mode reads one line, answers it, then reads the next: while the
computer thinks nothing else can happen, so its turn simply runs to
completion before the next line is read, and its move is then announced like
a person's (:meth:`~cescacs_tui.plain.front_end.PlainGame.show`).  The
engine's modules, the event loop and the engine process are all started the
first time the computer is needed: a game between people starts as fast as
before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from ..session import Feedback, GameSession

if TYPE_CHECKING:
    from ..session.opponent import Opponent

__all__ = ["PlainComputer"]

T = TypeVar("T")


class PlainComputer:
    """The engine behind the plain mode's computer players and hints; ``engine`` is the ``engine`` setting."""

    def __init__(self, session: GameSession, engine: str = "") -> None:
        self.session = session
        self.engine = engine
        self._opponent: Opponent | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def opponent(self) -> Opponent:
        if self._opponent is None:
            from ..engine.computer import engine_command
            from ..session.opponent import Opponent

            self._opponent = Opponent(self.session, engine_command(self.engine))
        return self._opponent

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(work)

    def play_turns(self, show: Callable[[Feedback], None], *, asking: Callable[[], bool]) -> None:
        """While the computer is to move (and no question waits, ``asking``), let it play and ``show`` its move."""
        while self.session.computer_to_move and not asking():
            feedback = self._run(self.opponent.play_turn())
            show(feedback)
            if not feedback.done:  # the engine failed (said), or the move was not wanted
                return

    def hint(self) -> Feedback:
        return self._run(self.opponent.hint())

    def close(self) -> None:
        """End the engine process, if it was started."""
        if self._loop is not None:
            if self._opponent is not None:
                self._run(self._opponent.close())
            self._loop.close()
            self._loop = None

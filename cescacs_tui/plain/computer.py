"""The computer opponent in the plain mode: the session's :class:`~cescacs_tui.session.opponent.Opponent`,
run to the end of each move on an event loop of its own.

The plain mode reads one line, answers it, then reads the next: while the
computer thinks nothing else can happen, so its turn simply runs to
completion before the next line is read, and its move is then announced like
a person's (:meth:`~cescacs_tui.plain.front_end.PlainGame.show`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from ..session import Feedback, GameSession
from ..session.opponent import Opponent

__all__ = ["PlainComputer"]

T = TypeVar("T")


class PlainComputer:
    """The engine behind the plain mode's computer seats and hints (its process starts when first needed)."""

    def __init__(self, session: GameSession, command: Sequence[str] | None = None, **options: Any) -> None:
        self.opponent = Opponent(session, command, **options)
        self._loop: asyncio.AbstractEventLoop | None = None

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(work)

    def play_turns(self, show: Callable[[Feedback], None], *, asking: Callable[[], bool]) -> None:
        """While the computer is to move (and no question waits, ``asking``), let it play and ``show`` its move."""
        session = self.opponent.session
        while session.computer_to_move and not asking():
            feedback = self._run(self.opponent.play_turn())
            show(feedback)
            if not feedback.done:  # the engine failed (said), or the move was not wanted
                return

    def hint(self) -> Feedback:
        return self._run(self.opponent.hint())

    def close(self) -> None:
        """End the engine process, if it was started."""
        if self._loop is not None:
            self._run(self.opponent.close())
            self._loop.close()
            self._loop = None

"""The live sessions: at most one app process per browser, and at most ``limit`` in all.

Two tabs of one browser share one game, so they must not run two processes on
one data directory at once.  The newest tab wins: opening the game in a
second tab ends the first tab's session (its page says why) and the new
process starts only once the old one has exited, so the autosave is never
written by two processes and its lock is never contended by this server.
Taking over, rather than refusing, keeps a browser from being locked out of
its own game by a tab it can no longer see (a phone's background tab, a
crashed window).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["FULL", "IDLE", "SERVER_STOPPING", "TAKEN_OVER", "Session", "SessionTable"]

EndTab = Callable[[int], Awaitable[object]]
"""Ends a tab's connection: closes its websocket with one of these codes, which its page explains."""

TAKEN_OVER = 4001
"""The browser opened its game in another tab."""
FULL = 4003
"""No place is left for another game."""
IDLE = 4004
"""The game was left without a key for too long: it was ended (and saved)."""
SERVER_STOPPING = 1001


@dataclass(eq=False)
class Session:
    """One browser's connection and its process, from the moment it is admitted until the process has exited."""

    browser_id: str
    end_tab: EndTab
    _table: SessionTable
    _released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """The process has exited: the place is free (idempotent)."""
        self._table._drop(self)
        self._released.set()

    async def end(self, code: int) -> None:
        """Ask the tab to close (``code`` says why), and wait until its process has exited."""
        await self.end_tab(code)
        await self._released.wait()


class SessionTable:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._live: dict[str, Session] = {}

    def __len__(self) -> int:
        return len(self._live)

    def browsers(self) -> frozenset[str]:
        """The browsers playing now."""
        return frozenset(self._live)

    def has_room_for(self, browser_id: str) -> bool:
        """Whether a page for this browser can start a game now (a browser already playing always can)."""
        return browser_id in self._live or len(self._live) < self.limit

    async def admit(self, browser_id: str, end_tab: EndTab) -> Session | None:
        """A place for this browser's new tab, ending its older tab's session first; ``None`` when full.

        The check and the taking of the place happen with no ``await`` between
        them, so concurrent connections can never exceed the limit.
        """
        while (older := self._live.get(browser_id)) is not None:
            await older.end(TAKEN_OVER)
        if len(self._live) >= self.limit:
            return None
        session = Session(browser_id, end_tab, self)
        self._live[browser_id] = session
        return session

    async def end_all(self) -> None:
        """End every session (the server stops) and wait for their processes."""
        await asyncio.gather(*(session.end(SERVER_STOPPING) for session in list(self._live.values())))

    def _drop(self, session: Session) -> None:
        if self._live.get(session.browser_id) is session:
            del self._live[session.browser_id]

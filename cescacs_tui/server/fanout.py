"""Fan-out: every server process hears of each change to the lobby, whichever process made it.

A change says only *what* changed (:class:`~.model.Change`: a game and its
ply, an account, someone's presence); a listener reads the state from the
storage, so nothing but the tables is ever the truth and a lost or late
change costs a read, never a wrong screen.  The lobby listens through the
small :class:`Fanout` interface, and each backend provides one:

- SQLite serves one process: :class:`LocalFanout` tells this process's
  listeners after each commit;
- PostgreSQL serves several processes on several machines: each write sends
  ``NOTIFY`` in its own transaction (so it is heard if and only if the write
  committed), and each process keeps one connection that ``LISTEN`` s and hands
  what it hears to a :class:`LocalFanout` (:mod:`.postgres`).  No broker of our
  own: the database is the only thing the processes share.

A change on the wire (PostgreSQL's payload) is three words,
``game 12 31``: :func:`encode` writes them and :func:`decode` reads them,
refusing anything else (any client of the database may ``NOTIFY``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Final, Protocol

from .model import Change, ChangeKind

__all__ = ["CHANNEL", "LISTENER_BACKLOG", "Fanout", "LocalFanout", "decode", "encode"]

CHANNEL: Final = "cescacs_changes"
"""PostgreSQL's channel for the server's changes."""
LISTENER_BACKLOG: Final = 256
"""Changes a listener may have unread; beyond, it loses them and is told to read everything again."""
PAYLOAD_LIMIT: Final = 64
"""The longest payload :func:`decode` reads (three short words)."""
NUMBER_DIGITS: Final = 12


class Fanout(Protocol):
    """Where a process listens for the lobby's changes (see the module's description)."""

    def listen(self) -> AbstractAsyncContextManager[AsyncIterator[Change]]:
        """Listen from now on: ``async with`` it, then ``async for`` the changes.  Every change committed after
        the ``async with`` has entered is heard; a listener that falls behind (or whose connection to the
        database broke and was made again) gets a ``RESYNC`` and reads again what it shows."""


class LocalFanout:
    """This process's listeners, each with a bounded queue: the whole fan-out of a database one process serves,
    and the last step of a shared one's."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[Change]] = set()

    def tell(self, change: Change) -> None:
        """Hand ``change`` to every listener (never waits: a full queue is emptied for a ``RESYNC``)."""
        for queue in self._queues:
            try:
                queue.put_nowait(change)
            except asyncio.QueueFull:
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(Change(ChangeKind.RESYNC))

    @contextlib.asynccontextmanager
    async def listen(self) -> AsyncIterator[AsyncIterator[Change]]:
        queue: asyncio.Queue[Change] = asyncio.Queue(LISTENER_BACKLOG)
        self._queues.add(queue)

        async def changes() -> AsyncIterator[Change]:
            while True:
                yield await queue.get()

        try:
            yield changes()
        finally:
            self._queues.discard(queue)


def encode(change: Change) -> str:
    """``change`` as a payload: its kind, id and ply."""
    return f"{change.kind.value} {change.id} {change.ply}"


def decode(payload: str) -> Change | None:
    """The change a payload says, or ``None`` for anything :func:`encode` does not write."""
    if len(payload) > PAYLOAD_LIMIT:
        return None
    words = payload.split(" ")
    if len(words) != 3 or not all(_is_number(word) for word in words[1:]):
        return None
    try:
        kind = ChangeKind(words[0])
    except ValueError:
        return None
    return Change(kind, int(words[1]), int(words[2]))


def _is_number(word: str) -> bool:
    return 0 < len(word) <= NUMBER_DIGITS and word.isascii() and word.isdigit()

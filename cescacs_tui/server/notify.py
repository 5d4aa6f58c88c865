"""The operator's notification hook: a command run when it becomes a player's move (mail, ntfy, Matrix...).

The operator names a program and its first arguments; the server runs it
with two more, the player's name and the game's number
(``notify-player alice 12``), for each player who has notifications on
(``notify on``, the default).  It is run without a shell (nothing in a name
or a number is ever interpreted), with no input, its output discarded and the
first lines of its errors logged, in a session of its own, and killed with
its children if it has not finished within :attr:`Notifier.timeout` seconds.
Asking never waits: :meth:`Notifier.__call__` queues the run and returns, a
few runs go at once, and when the queue is full (a hook much slower than the
moves) a run is dropped and logged rather than letting the queue grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Sequence
from typing import Final

from ..core.safe_text import printable
from ..tasks import stop_tasks

__all__ = ["Notifier"]

log = logging.getLogger(__name__)

TIMEOUT: Final = 10.0
PARALLEL: Final = 4
BACKLOG: Final = 256
ERROR_BYTES: Final = 2000
"""How much of a hook's error output the log keeps."""


class Notifier:
    """Runs ``command`` + ``[name, game]`` for each notification, in the background (see the module)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = TIMEOUT,
        parallel: int = PARALLEL,
        backlog: int = BACKLOG,
    ) -> None:
        if not command:
            raise ValueError("a notification hook needs a program to run")
        self.command = tuple(command)
        self.timeout = timeout
        self.parallel = parallel
        self._queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue(backlog)
        self._workers: list[asyncio.Task[None]] = []
        self.finished = 0
        """Runs that ended (however they ended): a test waits on it."""

    def __call__(self, name: str, game: int) -> None:
        """Queue a run for ``name`` and ``game``; never waits (a full queue drops it, with a log line)."""
        if not self._workers:
            self._workers = [asyncio.create_task(self._work()) for _ in range(self.parallel)]
        try:
            self._queue.put_nowait((name, game))
        except asyncio.QueueFull:
            log.warning(
                "notification for %s (game %d) dropped: %d are waiting", printable(name), game, self._queue.qsize()
            )

    async def _work(self) -> None:
        while True:
            name, game = await self._queue.get()
            try:
                await self._run(name, game)
            except Exception:
                log.exception("the notification hook failed for %s (game %d)", printable(name), game)
            finally:
                self.finished += 1
                self._queue.task_done()

    async def _run(self, name: str, game: int) -> None:
        try:
            process = await asyncio.create_subprocess_exec(
                *self.command,
                name,
                str(game),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            log.error("the notification hook %s cannot run: %s", printable(self.command[0]), error)
            return
        try:
            async with asyncio.timeout(self.timeout):
                _, errors = await process.communicate()
        except TimeoutError:
            log.warning(
                "the notification hook took over %g s for %s (game %d): killed", self.timeout, printable(name), game
            )
            return
        finally:
            if process.returncode is None:  # timed out, or the server is closing: the hook and its children go
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
        if process.returncode:
            said = printable(errors[:ERROR_BYTES].decode("utf-8", "replace").strip(), 300)
            log.warning(
                "the notification hook ended with %d for %s (game %d): %s",
                process.returncode,
                printable(name),
                game,
                said,
            )

    async def drain(self) -> None:
        """Wait until every queued run has ended."""
        await self._queue.join()

    async def close(self) -> None:
        """Stop the workers; a hook still running is killed, with its children."""
        await stop_tasks(*self._workers)
        self._workers = []

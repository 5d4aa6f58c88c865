"""Stopping tasks: cancel them, wait for their end, and lose no cancellation of the task that waits.

The usual way, ``task.cancel()`` then ``with contextlib.suppress(asyncio.CancelledError): await task``,
suppresses one cancellation too many: if the waiting task is cancelled itself during that await (a server
stopping, a screen closing, a time limit running out), its own ``CancelledError`` is swallowed with the
stopped task's, and it goes on as if never told to stop (a client's loop would connect again).  So does
awaiting a task that returns normally when cancelled.  :func:`stop_tasks` raises that cancellation once the
tasks have ended, as asyncio asks of code that catches one (``Task.cancelling``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

__all__ = ["stop_tasks"]


async def stop_tasks(*tasks: asyncio.Future[Any]) -> None:
    """Cancel ``tasks`` and return once they have all ended.

    What one of them raised, other than its cancellation, is raised here; so is a cancellation of the caller that
    came while it waited (so a clean-up that must run after this call belongs in a ``finally``).  One that was
    under way before (a ``finally`` block run because the caller is being cancelled) is left to go on propagating
    after the block: the clean-up after this call still runs.
    """
    caller = asyncio.current_task()
    told = caller.cancelling() if caller is not None else 0
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    if caller is not None and caller.cancelling() > told:
        raise asyncio.CancelledError
